package webhooks

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"entgo.io/ent/dialect"
	"entgo.io/ent/dialect/sql"
	"github.com/google/uuid"

	"github.com/inventory/inventory/ent"
	"github.com/inventory/inventory/ent/eventrule"
	"github.com/inventory/inventory/ent/logic/conditions"
	"github.com/inventory/inventory/ent/outboxevent"
)

// Dispatch matches undispatched outbox events to enabled event rules and
// creates one delivery per (event, matching webhook rule), marking the
// events dispatched, all in one transaction: an event is dispatched
// exactly once even with several replicas (PostgreSQL: FOR UPDATE SKIP
// LOCKED on the events; SQLite: the immediate transaction serialises
// writers). It returns the number of events handled.
func (e *Engine) Dispatch(ctx context.Context) (int, error) {
	tx, err := e.client.Tx(ctx)
	if err != nil {
		return 0, err
	}
	defer tx.Rollback()
	q := tx.OutboxEvent.Query().Where(outboxevent.DispatchedIsNil()).
		Order(outboxevent.ByID()).Limit(e.cfg.BatchSize)
	if e.dialect == dialect.Postgres {
		q = q.ForUpdate(sql.WithLockAction(sql.SkipLocked))
	}
	events, err := q.All(ctx)
	if err != nil {
		return 0, fmt.Errorf("dispatch: claim events: %w", err)
	}
	if len(events) == 0 {
		return 0, nil
	}
	rules, err := tx.EventRule.Query().Where(eventrule.Enabled(true)).Order(eventrule.ByID()).All(ctx)
	if err != nil {
		return 0, err
	}
	hooks := map[int]*ent.Webhook{}
	now := e.now()
	ids := make([]int, 0, len(events))
	for _, ev := range events {
		ids = append(ids, ev.ID)
		for _, r := range e.matching(ev, rules) {
			if r.ActionType == "notification" && r.ActionObjectType == "extras.notificationgroup" && r.ActionObjectID != nil {
				if err := notifyGroup(ctx, tx, e.dialect, ev, *r.ActionObjectID); err != nil {
					return 0, fmt.Errorf("dispatch: notify group: %w", err)
				}
				continue
			}
			if r.ActionType != "webhook" || r.ActionObjectType != "extras.webhook" || r.ActionObjectID == nil {
				continue // script actions are not executed here
			}
			w, ok := hooks[*r.ActionObjectID]
			if !ok {
				w, err = tx.Webhook.Get(ctx, *r.ActionObjectID)
				if err != nil && !ent.IsNotFound(err) {
					return 0, err
				}
				hooks[*r.ActionObjectID] = w
			}
			if w == nil {
				e.log.Warn("event rule points at a missing webhook", "rule", r.Name, "webhook_id", *r.ActionObjectID)
				continue
			}
			cx, err := buildContext(ev, r)
			if err != nil {
				e.log.Error("cannot build webhook context", "event", ev.ID, "rule", r.Name, "error", err)
				continue
			}
			err = tx.Delivery.Create().
				SetUUID(uuid.NewString()).
				SetEventID(ev.ID).SetRuleID(r.ID).SetRuleName(r.Name).
				SetWebhookID(w.ID).SetWebhookName(w.Name).
				SetEvent(eventName(ev.Event)).SetObjectType(ev.ObjectType).SetObjectID(ev.ObjectID).
				SetRequestID(ev.RequestID).SetContext(cx).
				SetStatus(StatusQueued).SetCreatedAt(now).SetEnqueuedAt(now).SetNextAttemptAt(now).
				Exec(ctx)
			if err != nil {
				return 0, fmt.Errorf("dispatch: create delivery: %w", err)
			}
		}
	}
	if err := tx.OutboxEvent.Update().Where(outboxevent.IDIn(ids...)).SetDispatched(now).Exec(ctx); err != nil {
		return 0, err
	}
	if err := tx.Commit(); err != nil {
		return 0, err
	}
	return len(events), nil
}

// eventName maps an outbox event to the context's event: created,
// updated, deleted ("object_created" is accepted too).
func eventName(ev string) string { return strings.TrimPrefix(ev, "object_") }

// eventType is the event-rule event type of an outbox event.
func eventType(ev string) string {
	switch ev {
	case "created", "updated", "deleted":
		return "object_" + ev
	}
	return ev
}

// matching returns the rules that fire for ev: enabled (already
// filtered), existing when the change happened (NetBox matches rules as the
// request ends, so a rule never sees earlier changes), the event type and
// object type listed, conditions true.
// Conditions see the event's data without action_data; an invalid
// condition means no match (logged), as in NetBox.
func (e *Engine) matching(ev *ent.OutboxEvent, rules []*ent.EventRule) []*ent.EventRule {
	var out []*ent.EventRule
	et := eventType(ev.Event)
	for _, r := range rules {
		if !slices.Contains(r.EventTypes, et) || !slices.Contains(r.ObjectTypes, ev.ObjectType) {
			continue
		}
		if r.Created != nil && r.Created.After(ev.Created) {
			continue
		}
		ok, err := conditions.EvaluateJSON(r.Conditions, ev.Data)
		if err != nil {
			var inv *conditions.InvalidCondition
			if errors.As(err, &inv) {
				e.log.Info("event rule condition invalid for this event; rule skipped", "rule", r.Name, "event", ev.ID, "reason", inv.Msg)
			} else {
				e.log.Error("event rule conditions unreadable; rule skipped", "rule", r.Name, "error", err)
			}
			continue
		}
		if ok {
			out = append(out, r)
		}
	}
	return out
}

// buildContext is the template context of SPEC.md §6.2 / BEHAVIOUR.md
// §12.6, in NetBox's key order: event, timestamp, object_type, username,
// request_id, data, request (only when the event came from a request),
// snapshots. timestamp is the time of the change (the outbox row), not of
// the dispatch. data is the rule's action_data merged under the serialized
// object (serialized keys win).
func buildContext(ev *ent.OutboxEvent, r *ent.EventRule) (json.RawMessage, error) {
	data, err := mergeActionData(r.ActionData, ev.Data)
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	put := func(key string, v any) {
		if b.Len() > 1 {
			b.WriteByte(',')
		}
		k, _ := json.Marshal(key)
		b.Write(k)
		b.WriteByte(':')
		switch x := v.(type) {
		case json.RawMessage:
			if len(bytes.TrimSpace(x)) == 0 {
				b.WriteString("null")
			} else {
				b.Write(x)
			}
		default:
			raw, _ := json.Marshal(x)
			b.Write(raw)
		}
	}
	b.WriteByte('{')
	put("event", eventName(ev.Event))
	put("timestamp", pyTimestamp(ev.Created))
	put("object_type", ev.ObjectType)
	put("username", ev.Username)
	if ev.RequestID != "" {
		put("request_id", ev.RequestID)
	} else {
		put("request_id", nil)
	}
	put("data", data)
	if ev.RequestID != "" {
		var user any = ev.Username
		if ev.Username == "" {
			user = nil
		}
		put("request", map[string]any{"id": ev.RequestID, "method": ev.RequestMethod, "path": ev.RequestPath, "user": user})
	}
	snap := []byte(`{"prechange":`)
	snap = append(snap, orNull(ev.Prechange)...)
	snap = append(snap, `,"postchange":`...)
	snap = append(snap, orNull(ev.Postchange)...)
	snap = append(snap, '}')
	put("snapshots", json.RawMessage(snap))
	b.WriteByte('}')
	if !json.Valid(b.Bytes()) {
		return nil, errors.New("event data is not valid JSON")
	}
	return b.Bytes(), nil
}

func orNull(raw json.RawMessage) []byte {
	if len(bytes.TrimSpace(raw)) == 0 {
		return []byte("null")
	}
	return raw
}

// mergeActionData is {**action_data, **data} keeping key order:
// action_data-only keys first, then the serialized object's keys.
func mergeActionData(actionData, data json.RawMessage) (json.RawMessage, error) {
	ad, err := objectPairs(actionData)
	if err != nil || len(ad) == 0 {
		return orNull(data), nil //nolint:nilerr // unusable action_data is ignored
	}
	dp, err := objectPairs(data)
	if err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	for _, p := range dp {
		seen[p.key] = true
	}
	merged := make([]pair, 0, len(ad)+len(dp))
	for _, p := range ad {
		if !seen[p.key] {
			merged = append(merged, p)
		}
	}
	merged = append(merged, dp...)
	var b bytes.Buffer
	b.WriteByte('{')
	for i, p := range merged {
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := json.Marshal(p.key)
		b.Write(k)
		b.WriteByte(':')
		b.Write(p.raw)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

type pair struct {
	key string
	raw json.RawMessage
}

// objectPairs splits a JSON object into its members in order.
func objectPairs(raw json.RawMessage) ([]pair, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil, errors.New("not a JSON object")
	}
	var out []pair
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return nil, err
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, err
		}
		out = append(out, pair{t.(string), v})
	}
	return out, nil
}
