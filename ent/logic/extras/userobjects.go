package extras

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strconv"

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
// SavedFilter.clean()).
func SavedFilterHooks() []ent.Hook {
	return []ent.Hook{userExists("saved filter hook"), func(next ent.Mutator) ent.Mutator {
		return ent.MutateFunc(func(ctx context.Context, m ent.Mutation) (ent.Value, error) {
			if v, ok := m.Field("parameters"); ok {
				raw, _ := v.(json.RawMessage)
				if t := bytes.TrimSpace(raw); len(t) == 0 || t[0] != '{' {
					return nil, &api.FieldError{Field: "parameters",
						Message: "Filter parameters must be stored as a dictionary of keyword arguments."}
				}
			}
			return next.Mutate(ctx, m)
		})
	}}
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
