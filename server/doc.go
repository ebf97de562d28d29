// Package server is the HTTP side of inventory: the gin engine, middleware
// (request id, API-Version, authentication, body limits, recovery), the one
// error translator, and the generic handlers that serve every model
// registered in ent/resource: list, retrieve, create, update, delete, their
// bulk forms and OPTIONS. Nothing here is per-model; a new model needs no
// change in this package.
//
// It must not import cmd. Subpackages: auth (token and password crypto).
package server
