// Package extras holds the domain rules of NetBox's extras app that are
// more than declarations; ent/schema wires them in as hooks and field
// validators:
//
//   - CustomField: the name validator, data_type kept in step with type,
//     and the checks NetBox makes of a definition when it is saved
//     (customfield_clean.go): the type is fixed, validation_regex compiles
//     (with RE2, CompileValidationRegex, which the values are matched
//     with), validation_schema is a JSON Schema, the default passes the
//     field's own value checks, and CustomField.clean()'s rules of which
//     settings go with which type.
//   - CustomFieldChoiceSet: choices_count kept equal to the extra choices.
//   - EventRule: object_types and event_types may not be empty, event
//     types must be registered (EventTypes), conditions must parse
//     (package conditions); NetBox's messages.
//   - Webhook: the payload URL is an http(s) URL or a template that parses
//     (package jinja); no CA file while SSL verification is off.
//   - ConfigContext: data conforms to its profile's JSON schema; and the
//     config_context of devices and virtual machines (ConfigContexts, an
//     api.PageFunc): the active contexts that apply, deep-merged by weight
//     then name with local_context_data on top, for a page at once.
//   - ConfigContextProfile: schema is a valid JSON Schema.
//   - SavedFilter, TableConfig: the user (a bare-id column) must exist;
//     a saved filter's parameters are an object of filters that the lists
//     of its object types take (userobjects.go).
//   - CustomLink: link_text and link_url parse as templates (customlink.go).
//   - Notifications (notifications.go): written for subscribers when a
//     subscribed object changes (the subscription's hook for deletes, the
//     change capture for updates) and for a notification group's members
//     by event rules; the displays of bookmarks, subscriptions and
//     notifications.
//   - CustomField's display string, and the choices endpoint of choice sets
//     (declared in the schema's api.Model, wired by the generator).
//   - ConfigTemplate and ExportTemplate (render.go): environment_params as
//     NetBox allows them, a template_code that parses with them, the
//     reserved export template name; RenderStored renders a stored
//     template (for ?export= in the server too).
//   - The render endpoints (renderconfig.go): config-templates/<id>/render/
//     and devices' and VMs' render-config/, choosing the template as
//     NetBox's get_config_template() and rendering plain data only.
//
// Errors are *api.FieldError, which the resource layer turns into a 400
// with the field named. Like every logic package that ent/schema imports,
// it must not import the generated ent packages, ent/resource, ent/db,
// webhooks, server or cmd (TestLayering in ent/logic).
package extras
