// Package api holds the schema annotations that describe how a model is
// exposed through the REST API: its path, brief fields, display rule, search
// fields, output order, counts and filter overrides.
//
// It is a leaf package: schemas import it, the code generator reads it, and
// it imports nothing of the project. Annotations travel through entc as JSON,
// so every type here must round-trip through encoding/json.
package api
