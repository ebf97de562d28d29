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
package schema
