// Package logic is the home of the domain rules that are more than
// declarations: hook bodies, validation across fields and objects, cached
// columns and hierarchies. It holds no code itself; the rules live in its
// sub-packages, one per NetBox app, plus neutral leaves:
//
//	ipam/        Prefix hierarchy (_depth, _children) and cached scope,
//	             VLANGroup vid_ranges
//	dcim/        sites and locations that move re-scope the prefixes on them;
//	             device/module type and component template rules
//	circuits/    circuits' and virtual circuits' account rules, circuit
//	             terminations' sides and cached scope (ipam.CachedScope),
//	             displays naming a related object, terminations' paths
//	tenancy/     contact assignments' display (cached contact name, kept
//	             through the contact's renames)
//	virtualization/ clusters' cached scope (ipam.ClusterScope) and hosts,
//	             VMs' placement, type defaults, disk and allocations, VM
//	             interfaces' VLAN and MAC rules, virtual disks
//	extras/      CustomField, CustomFieldChoiceSet, EventRule, Webhook rules;
//	             config and export templates and their render endpoints;
//	             content taken from data files (SyncedDataHooks)
//	core/        data sources' URLs: the local root, the git host guard
//	choicesets/  NetBox's base choice sets (IATA, ISO 3166, UN/LOCODE),
//	             embedded and decoded once on first use
//	rawsql/      what hooks need to run their own SQL on a mutation's
//	             connection, for SQLite and PostgreSQL
//	jinja/       the sandboxed Jinja2 renderer (validated on write, rendered
//	             by webhooks at delivery)
//	conditions/  NetBox's event-rule condition language (validated on
//	             write, evaluated by the webhooks dispatcher)
//	jsonlimit/   the nesting limit of JSON values (MaxDepth), scanned
//	             without recursion (request bodies, conditions, schemas)
//	hookguard/   what a webhook may reach and send: internal address
//	             ranges and the allow-list, literal address spellings,
//	             owned headers, the CA directory (checked on write by
//	             extras, at delivery by webhooks)
//	pyrepr/      Python's repr(), str() and type names of decoded JSON
//	             values, for messages that mirror NetBox's
//
// # How a schema uses it
//
// Schema files under ent/schema stay declarative: fields, edges, indexes,
// annotations, and one line of wiring per rule:
//
//	func (Prefix) Hooks() []ent.Hook { return ipam.PrefixHooks() }
//	field.String("payload_url").Validate(extras.ValidatePayloadURL)
//
// A model with real rules gets a file in its app's package exporting
// <Model>Hooks() (and validators); a model without rules touches nothing
// here. Cross-app calls follow NetBox's own signal dependencies (dcim's
// hooks recompute ipam's cached scope, as dcim/signals.py does).
//
// # Where hooks run
//
// ent/runtime registers the schema hooks on the generated client. For every
// mutation the chain is, outermost first: the client-level hooks added with
// Client.Use (ent/db: natural sort keys and the read-cache bump; server:
// the token and permission hooks; webhooks.Install: change capture), then
// the schema hooks in the order the schema returns them, then ent's field
// validators and the SQL statement. So a schema hook runs inside the
// write's transaction, after change capture took the row's pre-change
// snapshot; statements a hook runs on other rows (a parent prefix's
// _children) are not mutations and make no change records, like NetBox's
// queryset.update() of cached counters. A hook refuses a write by
// returning *api.FieldError, which the resource layer renders as NetBox's
// 400 field map; any other error aborts the transaction.
//
// Hooks must handle every operation they are registered for: one-row
// create, update and delete, and the many-row update and delete whose rows
// are only known through the mutation's IDs (rawsql.TargetIDs).
//
// # What may be imported
//
// ent's code generator (ent/entc.go) compiles ent/schema, and therefore
// every package it imports, before the generated code exists or while it is
// stale. Hence the rule, enforced by TestLayering in this directory:
//
//   - ent/schema and everything it imports may depend, within this module,
//     only on ent/schema/... and ent/logic/...: never on the generated ent
//     packages (github.com/inventory/inventory/ent, ent/<model>, ent/hook,
//     ent/predicate, ...), ent/resource, ent/db, filters, webhooks, server
//     or cmd. Hooks see the generic ent.Mutation and the methods every
//     generated mutation has (rawsql.Mutation), never *ent.PrefixMutation.
//   - No package under ent/logic imports webhooks, server or cmd. (A logic
//     package that the schema does not import, such as a future special
//     endpoint's, may use the generated code.)
package logic
