// Package schema holds one ent schema per API model (<app>_<model>.go) and
// the mixins that mirror NetBox's base models. The API annotation on each
// schema (package api) is all the generator needs to serve the model.
//
// Schemas are declarative: fields, edges, indexes, annotations, and which
// hooks and validators apply, wired in one line each
// (func (Prefix) Hooks() []ent.Hook { return ipam.PrefixHooks() }). Hook
// bodies and domain rules live in ent/logic/<app>. ent's generator
// compiles this package before the generated code exists, so it may import
// only ent/schema/... and ent/logic/... of this module; never the
// generated code, webhooks or server (TestLayering in ent/logic).
//
// # Adding a model
//
// Adding a model is one file under `ent/schema/` (fields, edges and an
// `api.Model` annotation) plus its test fixtures under `testdata/models/`;
// `make generate` renders its descriptor into `ent/resource/zz_<model>.go`
// and the generic handlers serve it. Every FK edge states NetBox's
// `on_delete` (`FK("region", Region.Type, api.SetNull)`; `schema.OnDelete`,
// `CachedFK` and `api.Field.OnDelete` on a generic relation's `_type` for
// the other cases); the generator refuses an FK without one, and
// `TestOnDeleteMatchesNetBox` checks every relation against
// `testdata/reference/netbox-relations.json`. Set `GenericOnly: true` in its
// `api.Model` unless hand-written code (tests included) sets its fields
// through ent's typed builders: its create and update builders then keep
// only `Mutation()`, all the generic layer uses
// (`ent/template/setter.tmpl`; the compile budget in the package
// documentation of ent). The package documentation of ent/resource
// describes that generic layer.
//
// A NetBox `DecimalField` states its digits, places and bounds
// (`api.Field{Decimal: &api.Decimal{Digits: 8, Places: 2}}`;
// `schema.Latitude`, `Longitude` and `Weight` for the shared ones) and is
// then checked with DRF's messages; string fields are trimmed as DRF's
// `CharField` trims them. A field that takes object types names NetBox's
// selection (`api.Field{Kind: "content-types", ObjectTypes:
// "custom_fields"}`: a model feature, or `object_permissions`); the lists
// are data, `ent/resource/netbox_object_types.json`, extracted from NetBox's
// source by `ent/resource/objecttypes_extract.py` (run it in a NetBox
// checkout's root). The conformance suite's bad-input sweep
// (`server/conformance_badinput_test.go`) checks these classes on every
// model from its descriptor and fixture.
//
// A model's specifics are declared in its `api.Model` annotation, never in a
// central list: `DisplayFunc` names a display function in its app's logic
// package (`ent/logic/<app>`) when a `{field}` template is not enough; `IP`
// names the columns the IP filter kinds (`prefix-within`, `prefix-contains`,
// ...) compare; `Endpoints` declares its special endpoints (path, detail or
// list, methods, the permission each needs, request/response shapes, and the
// handler: a name bound in `server/`, or `Func`, a function of its logic
// package taking an `api.Request`). Endpoints no model serves register from
// the file owning them (`registerEndpoint` in `server/`). Routing, `/api/`
// and the app roots, OPTIONS, the permission gate and the OpenAPI document
// derive from that registry; `TestSpecialEndpoints` checks every registered
// endpoint.
package schema
