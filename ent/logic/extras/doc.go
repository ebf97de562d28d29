// Package extras holds the domain rules of NetBox's extras app that are
// more than declarations; ent/schema wires them in as hooks and field
// validators:
//
//   - CustomField: the name validator, data_type kept in step with type.
//   - CustomFieldChoiceSet: choices_count kept equal to the extra choices.
//   - EventRule: object_types and event_types may not be empty, event
//     types must be registered (EventTypes), conditions must parse
//     (package conditions); NetBox's messages.
//   - Webhook: the payload URL is an http(s) URL or a template that parses
//     (package jinja); no CA file while SSL verification is off.
//   - SavedFilter, TableConfig: the user (a bare-id column) must exist;
//     a saved filter's parameters are an object (userobjects.go).
//   - Notifications (notifications.go): written for subscribers when a
//     subscribed object changes (the subscription's hook for deletes, the
//     change capture for updates) and for a notification group's members
//     by event rules; the displays of bookmarks, subscriptions and
//     notifications.
//   - CustomField's display string, and the choices endpoint of choice sets
//     (declared in the schema's api.Model, wired by the generator).
//
// Errors are *api.FieldError, which the resource layer turns into a 400
// with the field named. Like every logic package that ent/schema imports,
// it must not import the generated ent packages, ent/resource, ent/db,
// webhooks, server or cmd (TestLayering in ent/logic).
package extras
