package resource

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// refEndpoint is the part of the NetBox reference (netbox-models.json) that
// the schemas must agree with.
type refEndpoint struct {
	Model       string   `json:"model"`
	ContentType string   `json:"content_type"`
	BriefFields []string `json:"brief_fields"`
	Fields      []struct {
		Name    string `json:"name"`
		Type    string `json:"type"`
		Choices []any  `json:"choices"`
		// ChoiceRepr "plain value ..." marks choices rendered as plain
		// values (webhook http_method), validated by the schema instead.
		ChoiceRepr string `json:"choice_repr"`
	} `json:"fields"`
}

// refWriteOnly are the reference's write-only fields, which descriptors do
// not render (password is a write-only descriptor field).
var refWriteOnly = map[string]bool{"changelog_message": true, "add_tags": true, "remove_tags": true, "password": true}

// extraFields are fields we serve beyond NetBox 4.6, each for a reason:
// SPEC.md §2.3 lists display_name on VLANs (NetBox 4.6 dropped it).
var extraFields = map[string]map[string]bool{"ipam/vlans": {"display_name": true}}

func loadReference(t *testing.T) map[string]refEndpoint {
	t.Helper()
	path := os.Getenv("INVENTORY_REFERENCE")
	if path == "" {
		path = filepath.Join("..", "..", "..", "shared", "reference", "netbox-models.json")
	}
	raw, err := os.ReadFile(path)
	if os.IsNotExist(err) && os.Getenv("CI") != "true" {
		t.Skipf("reference %s not found (set INVENTORY_REFERENCE)", path)
	}
	if err != nil {
		t.Fatalf("read reference: %v", err)
	}
	var doc struct {
		Endpoints map[string]refEndpoint `json:"endpoints"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatalf("parse reference %s: %v", path, err)
	}
	return doc.Endpoints
}

// TestSchemasMatchReference checks every registered model against NetBox:
// field names and order, brief fields, choice values, content type.
func TestSchemasMatchReference(t *testing.T) {
	ref := loadReference(t)
	for _, d := range All() {
		d := d
		t.Run(d.App+"/"+d.Path, func(t *testing.T) {
			want, ok := ref[d.App+"/"+d.Path]
			if !ok {
				t.Fatalf("no reference endpoint %s/%s", d.App, d.Path)
			}
			if want.ContentType != "" && want.ContentType != d.ContentType() {
				t.Errorf("content type = %s, reference %s", d.ContentType(), want.ContentType)
			}
			if want.Model != "" && want.Model != d.Type {
				t.Errorf("type = %s, reference model %s", d.Type, want.Model)
			}
			var got, exp []string
			for _, f := range d.Fields {
				if !f.WriteOnly && f.Kind != KindHidden && !refWriteOnly[f.Name] && !extraFields[d.App+"/"+d.Path][f.Name] {
					got = append(got, f.Name)
				}
			}
			refChoices := map[string][]string{}
			plain := map[string]bool{}
			for _, f := range want.Fields {
				if refWriteOnly[f.Name] {
					continue
				}
				exp = append(exp, f.Name)
				if f.Type == "choice" && strings.HasPrefix(f.ChoiceRepr, "plain value") {
					plain[f.Name] = true
				}
				if f.Type == "choice" {
					vals := []string{}
					for _, c := range f.Choices {
						vals = append(vals, fmt.Sprint(c))
					}
					refChoices[f.Name] = vals
				}
			}
			if !reflect.DeepEqual(got, exp) {
				t.Errorf("fields differ\n got: %v\nwant: %v", got, exp)
			}
			if want.BriefFields != nil && !reflect.DeepEqual(d.Brief, want.BriefFields) {
				t.Errorf("brief fields differ\n got: %v\nwant: %v", d.Brief, want.BriefFields)
			}
			for name, vals := range refChoices {
				f := d.Field(name)
				if f == nil {
					continue // reported as a field difference above
				}
				if f.Kind != KindChoice && plain[name] {
					continue // a plain-value choice validated by the schema
				}
				if f.Kind != KindChoice {
					t.Errorf("%s: kind %s, reference is a choice field", name, f.Kind)
					continue
				}
				gotVals := []string{}
				for _, c := range f.Choices {
					gotVals = append(gotVals, fmt.Sprint(c.Value))
				}
				if !reflect.DeepEqual(gotVals, vals) {
					t.Errorf("%s choices differ\n got: %v\nwant: %v", name, gotVals, vals)
				}
			}
			for _, f := range d.Fields {
				if f.Kind == KindChoice && refChoices[f.Name] == nil {
					t.Errorf("%s is a choice field, the reference's is not", f.Name)
				}
			}
		})
	}
}
