// Package users holds the domain rules of NetBox's users app that are more
// than declarations in the schema files (ent/schema/users_*.go): today the
// display strings of users and tokens. It imports only ent/schema/api, so
// both the schema (which names these functions in its annotations) and the
// generated descriptors in ent/resource (which call them) may use it.
package users
