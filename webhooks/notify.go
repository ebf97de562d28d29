package webhooks

import (
	"context"
	"encoding/json"

	"entgo.io/ent/dialect"

	"github.com/inventory/inventory/ent"
	"github.com/inventory/inventory/ent/logic/extras"
	"github.com/inventory/inventory/ent/resource"
)

// notifySubscribers notifies the users subscribed to the objects that the
// records update (NetBox's notify_object_changed on post_save), in the
// write's transaction. Deletes notify through the subscriptions' own hook,
// which runs before the delete takes them along (ent/logic/extras).
func notifySubscribers(ctx context.Context, client *ent.Client, dia string, recs []record) error {
	byType := map[string][]int{}
	reprs := map[objKey]string{}
	var types []string
	for _, r := range recs {
		ct := r.e.d.ContentType()
		if r.action != "update" || r.event != EventUpdated || !resource.ObjectTypeAccepted("notifications", ct) {
			continue
		}
		if byType[ct] == nil {
			types = append(types, ct)
		}
		byType[ct] = append(byType[ct], r.e.id)
		reprs[objKey{ct, r.e.id}] = r.repr
	}
	pg := dia == dialect.Postgres
	for _, ct := range types {
		subs, err := extras.Subscribers(ctx, client, pg, ct, byType[ct])
		if err != nil {
			return err
		}
		for _, id := range byType[ct] {
			n := extras.Notify{ObjectType: ct, ObjectID: id, Repr: reprs[objKey{ct, id}], EventType: "object_updated"}
			if err := n.Replace(ctx, client, pg, subs[id]); err != nil {
				return err
			}
		}
	}
	return nil
}

// notifyGroup carries out an event rule's notification action: the
// members of the rule's notification group are notified of the event
// (NetBox's NotificationGroup.notify, object_repr the event data's
// display). A group gone since is skipped.
func notifyGroup(ctx context.Context, tx *ent.Tx, dia string, ev *ent.OutboxEvent, group int) error {
	pg := dia == dialect.Postgres
	client := tx.Client()
	members, err := extras.GroupMembers(ctx, client, pg, group)
	if err != nil || len(members) == 0 {
		return err
	}
	var data struct {
		Display string `json:"display"`
	}
	_ = json.Unmarshal(ev.Data, &data) // no display: an empty repr, as NetBox's data.get('display')
	n := extras.Notify{ObjectType: ev.ObjectType, ObjectID: ev.ObjectID, Repr: data.Display, EventType: eventType(ev.Event)}
	return n.UpdateOrCreate(ctx, client, pg, members)
}
