package resource

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// refRelation is one relation of netbox-relations.json.
type refRelation struct {
	Field       string `json:"field"`
	Kind        string `json:"kind"` // fk o2o m2m generic_fk generic_relation
	Target      string `json:"target"`
	OnDelete    string `json:"on_delete"`
	Through     string `json:"through"`
	CascadeFrom []struct {
		Model string `json:"model"`
	} `json:"cascade_from"`
}

func loadRelations(t *testing.T) map[string][]refRelation {
	t.Helper()
	// A copy of shared/reference/netbox-relations.json is kept under
	// testdata, as netbox-models.json is (see loadReference).
	path := os.Getenv("INVENTORY_RELATIONS")
	if path == "" {
		path = filepath.Join("..", "..", "testdata", "reference", "netbox-relations.json")
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("read relations reference: %v", err)
	}
	var doc struct {
		Models map[string]struct {
			Relations []refRelation `json:"relations"`
		} `json:"models"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatalf("parse %s: %v", path, err)
	}
	out := map[string][]refRelation{}
	for ct, m := range doc.Models {
		out[ct] = m.Relations
	}
	return out
}

// relationField finds the field of d declaring NetBox's relation name: an
// FK edge of that name, or a cached key column "<name>_id".
func relationField(d *Descriptor, name string) *Field {
	if f := d.byName[name]; f != nil && f.Kind == KindFK {
		return f
	}
	if f := d.byCol[name+"_id"]; f != nil && f.Kind != KindFK && f.Target != "" {
		return f
	}
	return nil
}

// TestOnDeleteMatchesNetBox checks every relation between two served
// models against NetBox 4.6.8: FKs (and cached keys) with the same
// on_delete, generic relations cascading from the same holders, M2M links
// declared on one side, tags on every model NetBox tags; and every
// relation we declare exists in NetBox with that rule. A new model with a
// missing or different on_delete fails here.
func TestOnDeleteMatchesNetBox(t *testing.T) {
	for _, p := range relationProblems(loadRelations(t), All()) {
		t.Error(p)
	}
}

// TestOnDeleteCheckCatches makes sure the check above fails, naming model,
// field, expected and found, when a schema declares a wrong or no rule.
func TestOnDeleteCheckCatches(t *testing.T) {
	ref := loadRelations(t)
	site := ByContentType("dcim.site")
	cases := []struct {
		name, field, onDelete, want string
	}{
		{"wrong rule", "region", OnDeleteCascade, `dcim.site.region → dcim.region: on_delete "CASCADE" declared, NetBox has SET_NULL`},
		{"no rule", "tenant", "", "dcim.site.tenant: FK without on_delete"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			// A copy of the site descriptor with one field changed.
			d := *site
			d.Fields, d.byName, d.byCol = nil, map[string]*Field{}, map[string]*Field{}
			for _, f := range site.Fields {
				if f.Name == c.field {
					g := *f
					g.OnDelete = c.onDelete
					f = &g
				}
				d.Fields = append(d.Fields, f)
				d.byName[f.Name] = f
				if f.Column != "" {
					d.byCol[f.Column] = f
				}
			}
			got := relationProblems(ref, []*Descriptor{&d})
			if !slices.Contains(got, c.want) {
				t.Fatalf("problems %q lack %q", got, c.want)
			}
		})
	}
}

// relationProblems compares the relations of ds with NetBox's.
func relationProblems(ref map[string][]refRelation, ds []*Descriptor) []string {
	var out []string
	errorf := func(format string, args ...any) { out = append(out, fmt.Sprintf(format, args...)) }
	served := func(ct string) bool { return ByContentType(ct) != nil }
	for _, d := range ds {
		ct := d.ContentType()
		rels, ok := ref[ct]
		if !ok {
			errorf("%s: not in netbox-relations.json", ct)
			continue
		}
		declared := map[*Field]bool{}
		for _, r := range rels {
			switch r.Kind {
			case "fk", "o2o":
				if !served(r.Target) {
					continue
				}
				f := relationField(d, r.Field)
				switch {
				case f == nil:
					errorf("%s.%s → %s: NetBox's on_delete is %s; no such relation is declared", ct, r.Field, r.Target, r.OnDelete)
				case f.Target != r.Target:
					errorf("%s.%s: points at %s, NetBox's at %s", ct, r.Field, f.Target, r.Target)
				case f.OnDelete != r.OnDelete:
					errorf("%s.%s → %s: on_delete %q declared, NetBox has %s", ct, r.Field, r.Target, f.OnDelete, r.OnDelete)
				}
				if f != nil {
					declared[f] = true
				}
			case "m2m":
				if r.Through == "extras.taggeditem" {
					if !d.Tagged {
						errorf("%s.%s: NetBox tags this model; it is not Tagged", ct, r.Field)
					}
					continue
				}
				if !served(r.Target) {
					continue
				}
				if !hasM2M(d, ByContentType(r.Target)) {
					errorf("%s.%s → %s: NetBox's many-to-many relation is declared on neither side", ct, r.Field, r.Target)
				}
			case "generic_fk":
				if ct == "extras.taggeditem" {
					// Tag assignments go with their object by deleteTagged
					// (ondelete.go) for every Tagged model, after the
					// object's change record has listed its tags; tags on
					// every model NetBox tags are checked above ("m2m").
					continue
				}
				f := d.byName[r.Field]
				var holders []string
				for _, h := range r.CascadeFrom {
					if served(h.Model) {
						holders = append(holders, h.Model)
					}
				}
				if f == nil || f.Kind != KindGenericObject {
					if len(holders) > 0 {
						errorf("%s.%s: NetBox's generic relation (deleted with %s) is not declared", ct, r.Field, strings.Join(holders, ", "))
					}
					continue
				}
				declared[f] = true
				if len(holders) == 0 {
					if f.OnDelete != "" {
						errorf("%s.%s: on_delete %q declared, NetBox has no GenericRelation cascading to it", ct, r.Field, f.OnDelete)
					}
					continue
				}
				if f.OnDelete != OnDeleteCascade {
					errorf("%s.%s: on_delete %q declared, NetBox has CASCADE (GenericRelation on %s)", ct, r.Field, f.OnDelete, strings.Join(holders, ", "))
				}
				for _, h := range holders {
					if !slices.Contains(f.Types, h) {
						errorf("%s.%s: NetBox deletes it with %s, which is not among its types %v", ct, r.Field, h, f.Types)
					}
				}
			}
		}
		// The other way round: nothing declared that NetBox lacks.
		for _, f := range d.Fields {
			switch {
			case f.Kind == KindFK && f.OnDelete == "":
				errorf("%s.%s: FK without on_delete", ct, f.Name)
			case (f.OnDelete != "" || f.Kind == KindFK) && !declared[f]:
				errorf("%s.%s: on_delete %q declared, NetBox has no such relation", ct, f.Name, f.OnDelete)
			}
		}
	}
	return out
}

// hasM2M says whether a many-to-many field joins a and b, on either side.
func hasM2M(a, b *Descriptor) bool {
	for _, p := range [][2]*Descriptor{{a, b}, {b, a}} {
		for _, f := range p[0].Fields {
			if f.Kind == KindM2M && f.target == p[1] {
				return true
			}
		}
	}
	return false
}
