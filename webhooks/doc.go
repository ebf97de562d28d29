// Package webhooks owns change capture and, beside it, event delivery.
//
// Change capture (capture.go): Install registers one client-level ent hook
// on every change-logged model. Writes run inside a transaction that Track
// has attached a changeset to; the hook records the pre-change snapshot of
// every row an update or delete touches (and of the rows a delete cascades
// to or clears), and the id of every created row. Right before the
// transaction commits, still inside it, the changeset is flushed: one
// core_objectchange row per touched object (NetBox's change record) and
// one core_outboxevent row per object (several changes of one object
// collapse into one event, BEHAVIOUR.md §12.4) whose event some enabled
// event rule lists (object type and event type): NetBox keeps nothing for
// an event no rule wants. A rolled-back transaction
// writes neither; a mutation of a change-logged model outside a tracked
// transaction is refused.
//
// Notifications (notify.go): the flush notifies the users subscribed to
// the updated objects, and the dispatcher carries out event rules whose
// action is a notification group; both write through ent/logic/extras.
//
// Retention (retention.go): Prune deletes change records older than
// CHANGELOG_RETENTION days; StartRetention runs it daily with gocron.
//
// The outbox rows are read by the dispatcher (event rules, webhook
// deliveries). Conditions are evaluated by ent/logic/conditions and
// templates rendered by ent/logic/jinja: neutral leaves, because the
// schema validates both on write and must not import this package. This package imports the generated resource layer and ent;
// it must not import server or cmd.
package webhooks
