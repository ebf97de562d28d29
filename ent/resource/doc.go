// Package resource is the generic model layer: one Descriptor per API model,
// generated from the schema's api.Model annotation (zz_<model>.go, rendered
// by ent/entc.go from ent/template/resource.tmpl), and the code that reads,
// validates, writes and renders any model from its descriptor alone. The
// server's handlers are thin wrappers around it; adding a model adds a
// descriptor and no code here.
//
// # Descriptors
//
// The generated init functions register descriptors; the first call to All,
// ByContentType or ByPath resolves them once (registry.go): sorted by app
// and path, FK fields linked to their target descriptors, NOT NULL columns
// read from ent/migrate, the column list and the full, brief, nested and
// tag-nested representations computed (prepare.go), and the filter spec
// derived from the fields and the schema's declared filters
// (filterspec.go, filterkinds.go), the derived filters kept only where
// NetBox's filter set has them, with NetBox's lookups (netboxfilters.go,
// netbox_filters.json). Field kinds with special storage or
// wire formats register codecs (kinds.go, ip.go). Errors in a descriptor
// panic at start-up, never at request time.
//
// # The write path (POST, PUT, PATCH, DELETE and their bulk forms)
//
// As the code runs it, for PATCH /api/dcim/sites/7/:
//
//  1. The server opens the transaction first: webhooks.Write(ctx, db,
//     actor, fn) calls db.InTx, which begins an ent transaction, and
//     webhooks.Track attaches an empty changeset to ctx and registers an
//     OnCommit hook on the transaction. fn receives that ctx and a Tx
//     (the transaction's client, the dialect, and Visible: the reading
//     restriction of the requesting user). Everything below happens
//     inside that one transaction.
//  2. For an update the server re-reads the row inside it (locked FOR
//     UPDATE on PostgreSQL) and checks If-Match; then it calls
//     Descriptor.Update (or Create, or Delete).
//  3. decode (write.go) turns the Input (a map of raw JSON values) into a
//     change: every writable field is decoded by its kind or codec
//     (kinds.go); related objects given as an id, {"id": n} or a
//     dictionary of attributes are resolved by Tx.ResolveRef (refs.go)
//     with queries inside the transaction, attribute lookups limited to
//     what the user may view; many-to-many lists, generic <name>_type /
//     <name>_id pairs, tags (add_tags, remove_tags) and custom fields
//     (against the definitions read from extras_customfield) are decoded
//     the same way. Every problem is collected into one ValidationError
//     (field name → messages, NetBox's 400 body) and returned before
//     anything is written; the changelog_message is validated here too.
//  4. The changelog_message goes into ctx (WithMessage), for change
//     capture. checkUnique queries unique fields and unique-together sets
//     and answers with NetBox's messages before the database's
//     constraints would answer less kindly.
//  5. The mutation is built without typed setters: NewCreate / NewUpdate
//     (generated) give the ent mutation, apply copies the change with
//     SetField / ClearField, sets the natural sort key companions, and for
//     trees (applyTree) refuses cycles and keeps _depth of the subtree.
//  6. tx.Client.Mutate runs the mutation through ent's hook chain,
//     outermost first: the client-level hooks (ent/db: natural keys and
//     the read-cache bump; server: the token and permission hooks;
//     webhooks: change capture), then the schema's hooks (ent/logic, via
//     ent/runtime), then ent's field validators and the SQL statement.
//     Change capture, on an update or delete, reads the rows' pre-change
//     snapshots (Snapshots), their API representation (Load) and display
//     (DisplayOf) before passing the mutation on, and for a delete also the
//     rows the delete will cascade to or clear (Dependants); on a create
//     it records the new id after the insert. A mutation of a change-logged
//     model in a ctx that Track did not prepare is refused
//     (webhooks.ErrOutsideTransaction). Errors from hooks and validators
//     are translated (translate): *api.FieldError and ent validation
//     errors become a 400 field map, constraint errors a 409 or 400.
//  7. Many-to-many sets and writable reverse lists (writeM2M) and tag
//     assignments (writeTags) are written after the row; a tags-only change touches last_updated so
//     that the ETag moves and the change is recorded. Delete refuses with
//     409 while PROTECT dependants exist (checkProtected) or while clearing
//     its SET_NULL keys would break a unique set conditional on them
//     (checkUngrouping, NetBox's TenantGroup.delete()), deletes each
//     requested row with DeleteOne so that it passes the hook chain (rows
//     that go with it through the database's ON DELETE rules were captured
//     as Dependants), and removes tag assignments last so that the
//     pre-change snapshots still list the tags.
//  8. The server checks that the written rows are within the user's
//     permission constraints (inReach, still inside the transaction) and
//     returns; db.InTx commits. ent runs the OnCommit hook first, still
//     inside the transaction: the changeset is flushed, reading the final
//     state of every touched object (batched per model) and writing one
//     core_objectchange row per change and one core_outboxevent row per
//     object whose event an enabled event rule lists, in multi-row
//     INSERTs (webhooks/capture.go). Then the database commits: the change, its
//     records and its events become visible together, and a rollback at
//     any step above leaves none of them. After the commit the read cache
//     is bumped.
//  9. The server re-reads the object through the read pool (Get), loads
//     its page (Load) and encodes it (Page.Encode) with its weak ETag;
//     bulk writes re-read all rows with GetMany in one page.
//
// An import of another system's objects (api.WithImport, package
// server/netboximport) takes this same path: Create also keeps the
// input's id (the generated mutations' SetImportedID) and timestamps,
// and instantiates no components; change capture records nothing and the
// cable hooks trace no paths (the importer traces them once at the end).
//
// This package does not import webhooks: it is called by change capture,
// not the other way round. What it gives capture is the changelog message
// in ctx and the read functions above; what it requires of callers is that
// every write goes through Tx.Client inside webhooks.Write.
//
// # The read path (GET list and detail)
//
//  1. Selector: each descriptor selects its own columns (Selector, Get,
//     GetMany, List) as sql.Selector statements of entgo.io/ent/dialect/sql
//     on a Store (the read pool, its dialect, the cache); the generated
//     query builders and predicates are not used for reads. Rows are []any in column order,
//     normalised to one Go type per field whatever the driver returned.
//  2. Filters: Filters().Apply (package filters) turns the query string
//     into predicates from the spec built at resolution (field-derived
//     filters, declared filter kinds, custom fields, tags, q), ordering
//     terms from ?ordering or the model's default; the server adds the
//     permission constraints (Constraint). List applies them, pages by
//     limit/offset or by cursor (id >= start) and counts when asked.
//  3. Load builds a Page: for the fields of the View (full, brief, fields,
//     omit) it batch-loads what the page refers to, one or two queries per
//     field whatever the number of rows: the nested rows of FK targets
//     (only their nested columns), tags, related counts, generic objects,
//     many-to-many sets, custom field definitions and object targets.
//  4. Page.Encode appends each row's JSON by hand (encode.go: NetBox's
//     renderer, compact, non-ASCII raw): url and display_url from the base
//     of the View, display from the display rule (display.go), choices as
//     {value, label}, nested brief objects, write-once secrets only when
//     the request's Reveal holds them.
//
// # Caches
//
// Cache (cache.go) keeps list counts ("count:"), nested related rows
// ("nested:") and custom field definitions ("cf:"), and the server keeps
// token lookups in it, until the next write or for at most its TTL. On
// PostgreSQL other replicas' writes bump it too (ent/db/notify), and it is
// off while that channel is down. Every
// mutation through the client and every commit bump its generation, and a
// value computed while a write happened is not stored. Stores used inside
// a write transaction (Tx.Store) have no cache: writes always read fresh.
// Descriptors and their filter specs are computed once per process.
//
// # Imports
//
// It imports the generated ent client (Tx, the generated mutation
// constructors, the tag assignment builders) and ent/taggeditem,
// ent/migrate, ent/runtime (which installs the schema hooks),
// ent/schema/api and ent/schema/ipnet, and filters. It must not
// import ent/db, webhooks, server or cmd, which all import it, nor
// ent/logic's hook packages, which the schema wires in.
package resource
