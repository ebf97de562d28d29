package resource

import (
	"context"
	"encoding/json"
	"fmt"

	"entgo.io/ent"
)

// Importing another system's objects (issue 35, package
// server/netboximport) goes through this package's one write path:
// Create and Update under a ctx marked api.WithImport decode, validate and
// check uniqueness as for an API write, and in addition keep the input's
// id, created and last_updated (importStamps), leave a device's or
// module's components to the import (no instantiation), and (in package
// webhooks and the schema hooks, by api.Importing) write no change
// records or outbox events and trace no cable paths.

type importedKey struct{}

// WithImported returns ctx in which a related object given by numeric id
// that known says the import has written (content type, id) is taken as
// existing without a query: the importer knows what it wrote, and a
// million objects with several references each should not cost a
// million lookups. Other ids are looked up as usual (and an id the source
// refers to but did not hold is "not found").
func WithImported(ctx context.Context, known func(contentType string, id int) bool) context.Context {
	return context.WithValue(ctx, importedKey{}, known)
}

func importedKnown(ctx context.Context, d *Descriptor, id int) bool {
	known, _ := ctx.Value(importedKey{}).(func(string, int) bool)
	return known != nil && known(d.ContentType(), id)
}

// importStamps sets, on an import's mutation, the input's id (create
// only) and its timestamps (created on create only, last_updated, ...),
// which are read-only to the API and so not decoded. An update under import without last_updated keeps
// ent's update default (now).
func (d *Descriptor) importStamps(m ent.Mutation, in Input, create bool) error {
	verr := &ValidationError{}
	if create {
		raw, ok := in["id"]
		if !ok {
			return Invalid("id", "This field is required.")
		}
		var id int
		if err := json.Unmarshal(raw, &id); err != nil || id < 1 {
			return Invalid("id", "A valid integer is required.")
		}
		sm, ok := m.(interface{ SetImportedID(int) })
		if !ok {
			return fmt.Errorf("%s: its mutation cannot take an id", d.Type)
		}
		sm.SetImportedID(id)
	}
	// Every timestamp the API only reads (created, last_updated, a
	// user's date_joined and last_login) is the source's.
	for _, f := range d.Fields {
		name := f.Name
		if f.Kind != KindTime || !f.ReadOnly || f.Column == "" || name == "created" && !create {
			continue
		}
		raw, given := in[name]
		if !given || string(raw) == "null" {
			continue
		}
		v, msgs := decodeTime(raw)
		if msgs != nil {
			verr.add(name, msgs...)
			continue
		}
		if err := m.SetField(f.Column, v); err != nil {
			return fmt.Errorf("set %s.%s: %w", d.Type, f.Column, err)
		}
	}
	if !verr.empty() {
		return verr
	}
	return nil
}
