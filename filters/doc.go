// Package filters owns the query-string filter language of list (and detail)
// requests: NetBox's lookups (`name__ic`, `id__gte`, `site_id__n`, ...),
// related-object and tree filters, tags (AND / any / NOR), custom fields
// (`cf_<name>`), the validation messages NetBox returns for bad values, and
// `?ordering=`. It turns them into predicates for entgo.io/ent/dialect/sql
// selectors that render identically on SQLite and PostgreSQL, plus ordering
// terms with pinned NULL placement and byte collation. It also decides what
// unknown parameters do (Unknown: guard, strict, ignore) and bounds what
// reaches SQL (MaxValueLength, MaxValues).
//
// Callers describe each model with a Spec; the package knows nothing about
// HTTP, gin or generated models, and must not import server/, ent/ (generated
// code) or webhooks/: the generated resource layer imports this package, not
// the other way round.
//
// SQLite connections must be opened with the driver registered by
// RegisterSQLite (SQLiteDriver): its connect hook adds the regexp,
// inventory_lower and inventory_ts functions the predicates use.
package filters
