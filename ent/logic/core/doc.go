// Package core holds the rules of NetBox's core app that are more than
// declarations: a data source's clean() (its type and URL, checked
// against what the operator allows: the local root and the outgoing
// address guard). It imports no generated code beyond ent's mutation
// interface, so ent/schema may import it.
package core
