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
	Model       string                     `json:"model"`
	ContentType string                     `json:"content_type"`
	BriefFields []string                   `json:"brief_fields"`
	Filters     map[string]json.RawMessage `json:"filters"`
	Fields      []struct {
		Name    string `json:"name"`
		Type    string `json:"type"`
		Choices []any  `json:"choices"`
		// ChoiceRepr says "plain value (no {value,label} wrapper)" for
		// choice fields rendered as their bare value (a token's version).
		ChoiceRepr string `json:"choice_repr"`
		// RemovedSince42 marks a 4.2 field that 4.6 no longer serializes
		// (a front port template's rear_port): a model may leave it out.
		RemovedSince42 bool `json:"removed_since_4_2"`
		ReadOnly       bool `json:"read_only"`
		// RequiredOnCreate and Default: the serializer's rule and the
		// model's default (absent: none).
		RequiredOnCreate bool             `json:"required_on_create"`
		Default          *json.RawMessage `json:"default"`
	} `json:"fields"`
}

// refWriteOnly are the reference's write-only fields, which descriptors do
// not render (password is a write-only descriptor field).
var refWriteOnly = map[string]bool{"changelog_message": true, "add_tags": true, "remove_tags": true, "password": true,
	// a circuit's assignments: declared by NetBox's CircuitSerializer,
	// but Circuit has no such attribute (its relation is
	// group_assignments), so NetBox never sends it
	"assignments": true,
	// a module's switches for instantiating its components
	"replicate_components": true, "adopt_components": true}

// extraFields are fields we serve beyond NetBox 4.6, each for a reason:
// SPEC.md §2.3 lists display_name on VLANs (NetBox 4.6 dropped it).
var extraFields = map[string]map[string]bool{"ipam/vlans": {"display_name": true}}

func loadReference(t *testing.T) map[string]refEndpoint { return referenceEndpoints[refEndpoint](t) }

// referenceEndpoints reads the reference's endpoints, each as an E (the
// fields a test needs of it).
func referenceEndpoints[E any](t *testing.T) map[string]E {
	t.Helper()
	// A copy of shared/reference/netbox-models.json is kept under testdata
	// so that the check runs wherever the repository is cloned.
	path := os.Getenv("INVENTORY_REFERENCE")
	if path == "" {
		path = filepath.Join("..", "..", "testdata", "reference", "netbox-models.json")
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("read reference: %v", err)
	}
	var doc struct {
		Endpoints map[string]E `json:"endpoints"`
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
			if want.Model != "" && want.Model != d.ClassName() {
				t.Errorf("type = %s, reference model %s", d.ClassName(), want.Model)
			}
			var got, exp []string
			for _, f := range d.Fields {
				if !f.WriteOnly && f.Kind != KindHidden && !refWriteOnly[f.Name] && !extraFields[d.App+"/"+d.Path][f.Name] {
					got = append(got, f.Name)
				}
			}
			refChoices := map[string][]string{}
			plainChoices := map[string]bool{}
			seen := map[string]bool{}
			for _, f := range want.Fields {
				// A name listed twice (a rack type's description, twice in
				// NetBox's serializer) renders once, where it first appears.
				if refWriteOnly[f.Name] || seen[f.Name] || f.RemovedSince42 && d.Field(f.Name) == nil {
					continue
				}
				seen[f.Name] = true
				exp = append(exp, f.Name)
				// A cabled object's cable_end is DRF's own ChoiceField in
				// NetBox's CabledObjectSerializer (its comment says so: the
				// bare value), whatever the reference's choice_repr says.
				if f.Type == "choice" && (strings.HasPrefix(f.ChoiceRepr, "plain") || f.Name == "cable_end") {
					plainChoices[f.Name] = true
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
				if f.Kind == KindEmpty {
					continue // a placeholder: its model brings the choices
				}
				if f.Kind != KindChoice && !plainChoices[name] {
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

// TestRequiredMatchesReference: a writable field is required on create
// exactly when NetBox's serializer requires it, except where NetBox's
// model declares a default that its serializer does not honour (issue 11:
// a custom field created without a type is a text field, as go-netbox's
// and Ansible's tests expect).
func TestRequiredMatchesReference(t *testing.T) {
	ref := loadReference(t)
	for _, d := range All() {
		want, ok := ref[d.App+"/"+d.Path]
		if !ok {
			continue // reported by TestSchemasMatchReference
		}
		for _, rf := range want.Fields {
			f := d.Field(rf.Name)
			if f == nil || f.ReadOnly || rf.ReadOnly || f.Kind == KindEmpty {
				continue
			}
			required := rf.RequiredOnCreate && rf.Default == nil || modelRequired[d.ContentType()+"."+f.Name]
			if f.Required != required {
				t.Errorf("%s.%s: required %v, NetBox %v (serializer %v, model default %s)", d.ContentType(), f.Name, f.Required, required, rf.RequiredOnCreate, show(rf.Default))
			}
		}
	}
}

// modelRequired are fields NetBox's serializer lets a create omit but its
// model refuses to save without (full_clean: a non-null FK without
// default, a choice column without blank=True): required here too, the 400
// comes from the serializer's rule instead of the model's.
var modelRequired = map[string]bool{"ipam.asn.rir": true, "ipam.service.protocol": true, "ipam.servicetemplate.protocol": true,
	"tenancy.contactassignment.role": true, "vpn.l2vpn.type": true}

func show(raw *json.RawMessage) string {
	if raw == nil {
		return "none"
	}
	return string(*raw)
}
