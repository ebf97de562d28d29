package extras

import (
	"context"
	"time"

	"entgo.io/ent"

	"github.com/inventory/inventory/ent/logic/rawsql"
	"github.com/inventory/inventory/ent/schema/api"
)

// Notifications are written three ways, as in NetBox:
//
//   - a client POSTs one (the generic create);
//   - a change to an object that users subscribe to notifies them
//     (NetBox's notify_object_changed signal): an update through the
//     change capture (package webhooks calls NotifySubscribers as it
//     writes the update records), a delete through the hook of the
//     subscriptions the delete takes along (SubscriptionHooks), which
//     still know their object and its display;
//   - an event rule whose action is a notification group notifies the
//     group's members (NetBox's NotificationGroup.notify, called by the
//     dispatch job: NotifyGroup).
//
// Notifications are not change-logged, so plain statements write them.

// Notify is the notification of one object's event for users.
type Notify struct {
	ObjectType string
	ObjectID   int
	Repr       string // the object's display (NetBox's object_repr)
	EventType  string // "object_updated" ...
}

// Replace writes n for users as NetBox's subscription signal does: the
// users' earlier notifications of the object go, new unread ones come.
func (n Notify) Replace(ctx context.Context, ex rawsql.Execer, pg bool, users []int) error {
	if len(users) == 0 {
		return nil
	}
	a := &rawsql.Args{PG: pg}
	q := `DELETE FROM "extras_notification" WHERE object_type = ` + a.P(n.ObjectType) + ` AND object_id = ` + a.P(n.ObjectID) +
		` AND user_id IN (` + rawsql.In(a, users) + `)`
	if err := rawsql.Exec(ctx, ex, q, a); err != nil {
		return err
	}
	for _, u := range users {
		if err := n.insert(ctx, ex, pg, u); err != nil {
			return err
		}
	}
	return nil
}

// UpdateOrCreate writes n for users as NetBox's update_or_create does in
// NotificationGroup.notify: an existing notification of the object keeps
// its creation and read times and takes the new event and display.
func (n Notify) UpdateOrCreate(ctx context.Context, ex rawsql.Execer, pg bool, users []int) error {
	for _, u := range users {
		a := &rawsql.Args{PG: pg}
		q := `UPDATE "extras_notification" SET event_type = ` + a.P(n.EventType) + `, "_object_display" = ` + a.P(n.repr()) +
			` WHERE object_type = ` + a.P(n.ObjectType) + ` AND object_id = ` + a.P(n.ObjectID) + ` AND user_id = ` + a.P(u)
		res, err := ex.ExecContext(ctx, q, a.List...)
		if err != nil {
			return err
		}
		if k, err := res.RowsAffected(); err != nil || k > 0 {
			continue
		}
		if err := n.insert(ctx, ex, pg, u); err != nil {
			return err
		}
	}
	return nil
}

func (n Notify) insert(ctx context.Context, ex rawsql.Execer, pg bool, user int) error {
	a := &rawsql.Args{PG: pg}
	now := time.Now().UTC().Truncate(time.Microsecond)
	q := `INSERT INTO "extras_notification" (created, user_id, object_type, object_id, "_object_display", event_type) VALUES (` +
		a.P(now) + `, ` + a.P(user) + `, ` + a.P(n.ObjectType) + `, ` + a.P(n.ObjectID) + `, ` + a.P(n.repr()) + `, ` + a.P(n.EventType) + `)`
	return rawsql.Exec(ctx, ex, q, a)
}

// repr is NetBox's get_object_repr: the display cut to 200 characters.
func (n Notify) repr() string {
	if r := []rune(n.Repr); len(r) > 200 {
		return string(r[:200])
	}
	return n.Repr
}

// Subscribers are the users subscribed to each of ids of objectType.
func Subscribers(ctx context.Context, q rawsql.Querier, pg bool, objectType string, ids []int) (map[int][]int, error) {
	out := map[int][]int{}
	err := rawsql.Chunks(ids, func(ids []int) error {
		a := &rawsql.Args{PG: pg}
		rows, err := rawsql.Rows(ctx, q, `SELECT object_id, user_id FROM "extras_subscription" WHERE object_type = `+a.P(objectType)+
			` AND object_id IN (`+rawsql.In(a, ids)+`) ORDER BY user_id`, a)
		if err != nil {
			return err
		}
		for _, r := range rows {
			id, _ := rawsql.IntOf(r["object_id"])
			u, _ := rawsql.IntOf(r["user_id"])
			out[id] = append(out[id], u)
		}
		return nil
	})
	return out, err
}

// GroupMembers are the users of a notification group: its users and the
// users of its user groups, each once (NetBox's NotificationGroup.members).
func GroupMembers(ctx context.Context, q rawsql.Querier, pg bool, group int) ([]int, error) {
	a := &rawsql.Args{PG: pg}
	g1, g2 := a.P(group), a.P(group)
	rows, err := rawsql.Rows(ctx, q, `SELECT user_id FROM "extras_notificationgroup_users" WHERE notificationgroup_id = `+g1+
		` UNION SELECT ug.user_id FROM "users_user_groups" ug JOIN "extras_notificationgroup_groups" ng ON ng.group_id = ug.group_id`+
		` WHERE ng.notificationgroup_id = `+g2+` ORDER BY 1`, a)
	if err != nil {
		return nil, err
	}
	var out []int
	for _, r := range rows {
		for _, v := range r {
			if u, ok := rawsql.IntOf(v); ok {
				out = append(out, u)
			}
		}
	}
	return out, nil
}

// SubscriptionHooks: a subscription that goes because its object is
// deleted (NetBox's GenericRelation cascade, api.Deleting) first notifies
// its user of the delete, with the display the subscription kept (NetBox's
// pre_delete signal runs before the cascade).
func SubscriptionHooks() []ent.Hook {
	return []ent.Hook{func(next ent.Mutator) ent.Mutator {
		return ent.MutateFunc(func(ctx context.Context, m ent.Mutation) (ent.Value, error) {
			if !m.Op().Is(ent.OpDelete | ent.OpDeleteOne) {
				return next.Mutate(ctx, m)
			}
			rm, err := rawsql.As("subscription hook", m)
			if err != nil {
				return nil, err
			}
			ids, err := rawsql.TargetIDs(ctx, rm)
			if err != nil {
				return nil, err
			}
			rows, err := rawsql.LoadRows(ctx, rm, `"extras_subscription"`, []string{"object_type", "object_id", "user_id", "_object_display"}, ids)
			if err != nil {
				return nil, err
			}
			for _, id := range ids {
				r := rows[id]
				if r == nil {
					continue
				}
				ct := rawsql.StringOf(r["object_type"])
				oid, _ := rawsql.IntOf(r["object_id"])
				user, _ := rawsql.IntOf(r["user_id"])
				if !api.Deleting(ctx, ct, oid) {
					continue
				}
				n := Notify{ObjectType: ct, ObjectID: oid, Repr: rawsql.StringOf(r["_object_display"]), EventType: "object_deleted"}
				if err := n.Replace(ctx, rm, rawsql.Postgres(rm), []int{user}); err != nil {
					return nil, err
				}
			}
			return next.Mutate(ctx, m)
		})
	}}
}
