// Package netbox reads a running NetBox 4.6 through its REST API for
// `inventory import netbox` (issue 35): a Client is a netboximport.Source.
//
// Lists are read in id order and paged by id rather than by offset, so a
// list that changes while it is read neither skips nor repeats an object
// (an offset moves when an earlier object is removed): by NetBox 4.6's
// cursor (?start=<last id + 1>, keyset paging that also spares NetBox a
// count per page), else (a NetBox before 4.6, read with --force, ignores
// start) by ?id__gt=<last id>&ordering=id, else (a filter set without
// id__gt) by offset, where a count that changes meanwhile is an error. A
// way found ignored costs one request and is not tried again for that
// endpoint. Counts are ?limit=1&brief=1, as pynetbox reads them.
//
// Devices and virtual machines are read with exclude=config_context
// (NetBox renders every device's merged config context otherwise, the
// costliest part of the list, and the importer copies config contexts
// themselves).
//
// All requests share a bounded number of connections; each has a timeout
// and is retried with backoff on a timeout, a broken connection, a 5xx or a
// 429. Errors name the endpoint, the HTTP status and NetBox's detail; the
// token never appears in an error or a log line (NetBox echoing it back is
// redacted too).
//
// It imports only the standard library: it does not compile the server.
package netbox
