// Package netboximport copies a running NetBox 4.6 into an empty database
// of this service (`inventory import netbox`, issue 35): every model read
// through NetBox's REST API, written with NetBox's ids, created and
// last_updated, then read back through this service's own API and
// compared field by field with NetBox's representation.
//
// A Source is the NetBox being read: the HTTP client of package netbox in
// production, a directory of recorded list answers (DirSource, the demo
// data set under testdata/netbox-demo) or a fake NetBox
// (package netboxtest) in tests.
//
// It imports the generated client and resource layer and server (to read
// the copy back through the API in process); only cmd imports it.
package netboximport
