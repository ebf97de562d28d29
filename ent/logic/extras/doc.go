// Package extras holds the domain rules of NetBox's extras app that are
// more than declarations in the schema files (ent/schema/extras_*.go):
// today a custom field's display string. It imports only ent/schema/api,
// so the generated descriptors in ent/resource may call it.
package extras
