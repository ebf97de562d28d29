// Package netboximport copies a running NetBox 4.6 into an empty database
// of this service (`inventory import netbox`, issue 35): every model read
// through NetBox's REST API, written with NetBox's ids, created and
// last_updated, then read back through this service's own API and
// compared field by field with NetBox's representation.
//
// A Source is the NetBox being read: the HTTP client of package netbox in
// production, a directory of recorded list answers (DirSource: package recorded, the demo
// data set under testdata/netbox-demo) or a fake NetBox
// (package netboxtest) in tests.
//
// How an import runs (Import):
//
//   - order.go: the models written are the descriptors NetBox serves as
//     writable lists (read-only and derived ones follow from them: object
//     types, jobs, tagged objects, cable terminations); they are ordered
//     by their references (foreign keys, many-to-many lists, generic
//     pairs, tags, custom fields, cable terminations, port mappings), and
//     where NetBox's references are circular (a device's primary IPs, a
//     virtual chassis' master) the nullable reference is deferred.
//   - convert.go: NetBox's JSON becomes the descriptor's writable input
//     (nested objects → ids, choices → values, read-only fields dropped).
//   - importer.go: endpoints are read ahead, concurrently, and written in
//     order through the resource layer's one write path under
//     api.WithImport (the source's ids and timestamps kept, no
//     component instantiation, no change records or events, no per-cable
//     path tracing), Batch objects per transaction; references to objects
//     not written yet (a deferred field, a tree's parent of a higher id)
//     are written by a second pass of updates; then every cable path is
//     traced once and PostgreSQL's id sequences are advanced.
//   - record.go: the import is a core job (running until it completes or
//     fails: an unfinished import never looks complete) with one change
//     record; Resume continues an interrupted one. changes.go: NetBox's
//     change log (Changelog).
//   - verify.go, compare.go: the copy read back through the API in
//     process and compared with NetBox's JSON; departures named there.
//   - files.go: a Source that can fetch files (FileSource) gives image
//     attachments their images; summary.go: the table the command prints.
//
// It imports the generated client and resource layer, webhooks (the write
// transaction) and server (to read the copy back through the API in
// process); only cmd imports it.
package netboximport
