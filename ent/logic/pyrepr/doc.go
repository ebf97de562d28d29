// Package pyrepr is Python's repr() and type names of decoded JSON values,
// for messages that mirror NetBox's: DRF's `Expected a list of items but
// got type "dict".`, Django's `Invalid choice (['a', 'b'])`, NetBox's
// `Related object not found using the provided attributes: {'slug': 'x'}`.
//
//	Repr(v)          Python's repr() of a decoded JSON value
//	Str(v)           Python's str(): strings bare, the rest as their repr
//	Type(v)          the name of its Python type (str, int, float, bool,
//	                 NoneType, list, dict)
//	TypeOfJSON(raw)  the same for JSON text, read from its first byte
//
// Values are what encoding/json decodes into an `any`, with or without
// UseNumber; see Repr for how numbers are told apart.
//
// It is a neutral leaf under ent/logic and imports only the standard
// library: ent/schema imports ent/logic packages (see ent/logic/doc.go),
// and ent/resource and server use it too.
package pyrepr
