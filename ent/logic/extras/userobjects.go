package extras

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"sort"
	"strconv"
	"strings"

	"entgo.io/ent"

	"github.com/inventory/inventory/ent/logic/rawsql"
	"github.com/inventory/inventory/ent/schema/api"
)

// A user's own objects: saved filters, table configs, bookmarks,
// subscriptions and notifications.
//
// Saved filters and table configs render their user as the bare id
// (NetBox's PrimaryKeyRelatedField), so the user is a plain column with
// no FK edge: their hook checks that it exists, with DRF's message. The
// others have an FK edge, checked by the resource layer.

// SavedFilterHooks: the user exists; parameters is a JSON object (NetBox's
// SavedFilter.clean()) whose values a query string can carry, and whose
// keys and values are filters that the lists of its object types take
// (checkSavedFilter).
func SavedFilterHooks() []ent.Hook {
	check := rawsql.RowHook("extras_savedfilter", []string{"object_types", "parameters"}, checkSavedFilter)
	return []ent.Hook{userExists("saved filter hook"), func(next ent.Mutator) ent.Mutator {
		checked := check(next)
		return ent.MutateFunc(func(ctx context.Context, m ent.Mutation) (ent.Value, error) {
			if m.Op().Is(ent.OpCreate) || rawsql.Touched(m, "object_types", "parameters") {
				return checked.Mutate(ctx, m)
			}
			return next.Mutate(ctx, m)
		})
	}}
}

// checkSavedFilter checks a saved filter's parameters as the row will
// hold them. NetBox checks only that they are a dictionary, and applies
// them later as a query string (dict_to_querydict): a value that is no
// string, number or boolean, or a list of them, or a key that is no
// filter of an object type's list, would then be garbled or ignored.
// Here each is refused when saved: the key names a filter (and lookup)
// of every one of the saved filter's object types that this service
// serves, the value is one the filter accepts, as the list endpoint would
// judge it under FILTER_UNKNOWN=strict. The related objects a value names
// are not looked up (they may be created later, or deleted since). The
// list's own parameters (limit, ordering, ...) are accepted.
func checkSavedFilter(ctx context.Context, m rawsql.Mutation, _ int, row, _ map[string]any) error {
	fe := func(format string, args ...any) error {
		return &api.FieldError{Field: "parameters", Message: fmt.Sprintf(format, args...)}
	}
	params, ok, err := jsonOf(row["parameters"])
	if err != nil {
		return err
	}
	obj, isObj := params.(map[string]any)
	if !ok || !isObj {
		return fe("Filter parameters must be stored as a dictionary of keyword arguments.")
	}
	q := url.Values{}
	keys := make([]string, 0, len(obj))
	for k := range obj {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		vals, ok := queryValues(obj[k])
		if !ok {
			return fe("The value of %q must be a string, a number, a boolean or a list of them.", k)
		}
		q[k] = vals
	}
	types, err := stringsOf(row["object_types"])
	if err != nil {
		return err
	}
	for _, ct := range types {
		info, ok := api.ModelOf(ctx, ct)
		if !ok || info.CheckFilters == nil {
			continue // not served here (or no request): nothing to judge by
		}
		refused, err := info.CheckFilters(ctx, m, rawsql.Postgres(m), q)
		if err != nil {
			return err
		}
		if len(refused) > 0 {
			bad := make([]string, 0, len(refused))
			for k := range refused {
				bad = append(bad, k)
			}
			sort.Strings(bad)
			return fe("%q is not a valid filter for %s: %s", bad[0], ct, strings.Join(refused[bad[0]], " "))
		}
	}
	return nil
}

// queryValues are the query-string values of a saved filter parameter:
// a scalar is one value (null a blank one, which filters nothing), a list
// one value per element; false for objects and nested lists.
func queryValues(v any) ([]string, bool) {
	scalar := func(v any) (string, bool) {
		switch x := v.(type) {
		case nil:
			return "", true
		case string:
			return x, true
		case json.Number:
			return x.String(), true
		case bool:
			return strconv.FormatBool(x), true
		}
		return "", false
	}
	if list, ok := v.([]any); ok {
		out := make([]string, 0, len(list))
		for _, e := range list {
			s, ok := scalar(e)
			if !ok {
				return nil, false
			}
			out = append(out, s)
		}
		return out, true
	}
	s, ok := scalar(v)
	return []string{s}, ok
}

// stringsOf reads a list of strings from a mutation ([]string) or a
// stored row (JSON text).
func stringsOf(v any) ([]string, error) {
	if l, ok := v.([]string); ok {
		return l, nil
	}
	var out []string
	if s := rawsql.StringOf(v); s != "" && s != "null" {
		if err := json.Unmarshal([]byte(s), &out); err != nil {
			return nil, fmt.Errorf("object_types: %w", err)
		}
	}
	return out, nil
}

// TableConfigHooks: the user exists.
func TableConfigHooks() []ent.Hook { return []ent.Hook{userExists("table config hook")} }

// userExists refuses a user_id naming no user, as DRF's
// PrimaryKeyRelatedField does.
func userExists(hook string) ent.Hook {
	return func(next ent.Mutator) ent.Mutator {
		return ent.MutateFunc(func(ctx context.Context, m ent.Mutation) (ent.Value, error) {
			v, ok := m.Field("user_id")
			id, isInt := v.(int)
			if !ok || !isInt || !m.Op().Is(ent.OpCreate|ent.OpUpdate|ent.OpUpdateOne) {
				return next.Mutate(ctx, m)
			}
			rm, err := rawsql.As(hook, m)
			if err != nil {
				return nil, err
			}
			a := &rawsql.Args{PG: rawsql.Postgres(rm)}
			n, err := rawsql.Int(ctx, rm, `SELECT COUNT(*) FROM "users_user" WHERE id = `+a.P(id), a)
			if err != nil {
				return nil, err
			}
			if n == 0 {
				return nil, &api.FieldError{Field: "user", Message: fmt.Sprintf(`Invalid pk "%d" - object does not exist.`, id)}
			}
			return next.Mutate(ctx, m)
		})
	}
}

// BookmarkDisplay is the bookmarked object's display, or Django's
// "Bookmark object (<pk>)" when the object is unknown (NetBox's
// Bookmark.__str__).
func BookmarkDisplay(get api.Getter) string { return objectDisplay("Bookmark", get) }

// SubscriptionDisplay is the subscribed object's display (NetBox's
// Subscription.__str__), as BookmarkDisplay.
func SubscriptionDisplay(get api.Getter) string { return objectDisplay("Subscription", get) }

// NotificationDisplay is the object's display when the notification was
// written (NetBox's object_repr).
func NotificationDisplay(get api.Getter) string { return rawsql.StringOf(get("_object_display")) }

func objectDisplay(class string, get api.Getter) string {
	if s := rawsql.StringOf(get("_object_display")); s != "" {
		return s
	}
	id, _ := rawsql.IntOf(get("id"))
	return class + " object (" + strconv.Itoa(id) + ")"
}
