// Package netboxtest is a fake NetBox 4.6 for tests of code that reads one
// (issue 35): Server, an httptest server answering NetBox's list endpoints
// with its paging (count/next/previous, limit/offset, NetBox 4.6's cursor
// ?start=, id__gt, ordering=id, brief, exclude), /api/, /api/<app>/ and /api/status/, checking the token,
// and injecting faults (an error status, a stalled endpoint, data changed
// between pages); and the sources it serves: Dir (a directory of recorded
// list answers such as testdata/netbox-demo), Memory (objects a test edits
// while they are read), Scaled (a source replicated with fresh ids and
// names, streamed), Without and Edit (a half-finished source, unknown
// fields).
//
// Its Source is the method set of netboximport.Source, declared again here
// so that this package (and the tests of package netbox) need not compile
// package netboximport, which imports the whole server; any
// netboximport.Source is a netboxtest.Source and the other way round.
package netboxtest
