// Package users holds the domain rules of NetBox's users app that are more
// than declarations in the schema files (ent/schema/users_*.go): the
// display strings of users and tokens (display.go) and User.clean()'s
// case-insensitive username check (user.go). It imports only
// ent/schema/api and ent/logic/rawsql, so both the schema (which names
// these functions in its annotations and hooks) and the generated
// descriptors in ent/resource (which call them) may use it.
package users
