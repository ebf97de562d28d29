// Package jsonlimit bounds the nesting of JSON values, iteratively, before
// anything walks them recursively (issue 32).
//
// encoding/json itself stops at 10,000 levels, but what decoded values
// reach afterwards does not: the resource layer's encoders, config context
// merges, event-rule conditions, JSON Schema compilation (minutes for a
// schema a few thousand levels deep), PostgreSQL's jsonb (which answers
// "stack depth limit exceeded") and SQLite's JSON functions (1,000
// levels). So every JSON request body is scanned once (server, with
// MaxDepth per field) and the logic packages that take JSON from elsewhere
// check decoded values (Exceeds).
//
// It must import only the standard library: ent/schema imports the logic
// packages that use it.
package jsonlimit
