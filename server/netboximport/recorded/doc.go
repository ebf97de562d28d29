// Package recorded reads a NetBox recorded in a directory: the list
// answers of every endpoint, its status and its media files, laid out as
// testdata/netbox-demo. It is the importer's --from-dir source
// (netboximport.DirSource) and the fake NetBox's data (netboxtest.Dir),
// and knows nothing of either: it imports only the standard library.
package recorded
