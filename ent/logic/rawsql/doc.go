// Package rawsql is what hook bodies under ent/logic need to run their own
// SQL on a mutation's connection, inside the mutation's transaction.
//
// Hooks are wired into ent/schema, and ent's code generator compiles
// ent/schema before the generated code exists (or while it is stale). So a
// hook can never name *ent.PrefixMutation or use the typed query builders:
// it sees the generic ent.Mutation and asks for the few extra methods every
// generated mutation has (Mutation: ExecContext and QueryContext from the
// execquery feature, DriverDialect from ent/template/driver_dialect.tmpl,
// ID and IDs) through an interface. Statements are written by hand for
// both SQLite and PostgreSQL; Args renders the bind parameters of either.
//
// Every statement that writes many rows at once (a multi-row INSERT, an
// UPDATE with a CASE per row) is cut by Batches, or written by
// InsertRows, so that it stays within the database's parameter limit
// (MaxParams) whatever the number of rows (batch.go). On PostgreSQL,
// InsertRows and BatchCreate (which ent's generated bulk creates call)
// bind one array per column instead (unnest.go).
//
// It must import only ent's runtime packages and the standard library:
// never the generated code, webhooks, server or cmd.
package rawsql
