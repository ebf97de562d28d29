package resource

import (
	"slices"
	"testing"
)

// The brief and nested forms of every model against NetBox 4.6.8's
// serializers as the reference describes them (nestedform.go has the
// rules): a new model is checked by its schema alone.

// formRef is what these tests read of a reference endpoint.
type formRef struct {
	ContentType string   `json:"content_type"`
	Model       string   `json:"model"`
	BriefFields []string `json:"brief_fields"`
	Fields      []struct {
		Name      string `json:"name"`
		Type      string `json:"type"`
		Related   string `json:"related"`
		WriteOnly bool   `json:"write_only"`
		Removed   bool   `json:"removed_since_4_2"`
		Src       struct {
			Serializer string `json:"serializer_field"`
			Model      string `json:"model_field"`
		} `json:"_src"`
	} `json:"fields"`
}

func loadFormRef(t *testing.T) map[string]formRef { return referenceEndpoints[formRef](t) }

// nestedFieldsOverrides are the relations whose NetBox serializer names
// the fields of its nested object (Serializer(nested=True, fields=...)),
// by "content type.field"; "*" stands for every content type. Read from
// NetBox 4.6.8's dcim/api/serializers_/device_components.py and
// devices.py, virtualization/api/serializers_/virtualmachines.py.
var nestedFieldsOverrides = map[string][]string{
	"*.module":                        {"id", "url", "display", "device", "module_bay"},
	"dcim.modulebay.module":           {"id", "url", "display"},
	"dcim.modulebay.installed_module": {"id", "url", "display", "serial", "description"},
}

// nestedFormsLeft are relations whose nested form is not NetBox's yet,
// each with the reason.
var nestedFormsLeft = map[string]string{}

func init() {
	// IPAddressSerializer(nested=True, fields=[*brief_fields, 'dns_name',
	// 'nat_inside', 'nat_outside']), in the serializer's field order.
	primary := []string{"id", "url", "display", "family", "address", "nat_inside", "nat_outside", "dns_name", "description"}
	for _, ct := range []string{"dcim.device", "virtualization.virtualmachine", "dcim.virtualdevicecontext"} {
		for _, f := range []string{"primary_ip", "primary_ip4", "primary_ip6", "oob_ip"} {
			nestedFieldsOverrides[ct+"."+f] = primary
		}
	}
}

// refNestedForm is the form NetBox's serializer of endpoint ep takes with
// nested=True: the brief fields in field order without
// RelatedObjectCountFields, or the whole serializer without brief fields.
func refNestedForm(ref map[string]formRef, ep string) []string {
	e := ref[ep]
	var out []string
	for _, f := range e.Fields {
		if f.WriteOnly || refWriteOnly[f.Name] || f.Removed || slices.Contains(out, f.Name) {
			continue
		}
		if e.BriefFields != nil && !slices.Contains(e.BriefFields, f.Name) {
			continue
		}
		if e.BriefFields != nil && f.Src.Serializer == "RelatedObjectCountField" {
			continue
		}
		out = append(out, f.Name)
	}
	return out
}

// refBriefForm is ?brief=true: the brief fields in the serializer's order.
func refBriefForm(e formRef) []string {
	var out []string
	for _, f := range e.Fields {
		if slices.Contains(e.BriefFields, f.Name) && !slices.Contains(out, f.Name) {
			out = append(out, f.Name)
		}
	}
	return out
}

func names(fs []*Field) []string {
	out := make([]string, len(fs))
	for i, f := range fs {
		out[i] = f.Name
	}
	return out
}

// TestBriefFormsMatchReference: ?brief=true renders NetBox's brief fields
// in its serializer's field order, on every endpoint with brief fields.
func TestBriefFormsMatchReference(t *testing.T) {
	ref := loadFormRef(t)
	for _, d := range All() {
		e, ok := ref[d.App+"/"+d.Path]
		if !ok || e.BriefFields == nil {
			continue // a missing endpoint is TestSchemasMatchReference's
		}
		if got, want := names(d.BriefFields()), refBriefForm(e); !slices.Equal(got, want) {
			t.Errorf("%s/%s brief form\n got: %v\nwant: %v", d.App, d.Path, got, want)
		}
	}
}

// TestNestedFormsMatchReference: every relation that NetBox renders with
// the related model's serializer (nested=True) renders the form that
// serializer takes, sub-forms included; relations with one of NetBox's
// hand-written Nested<Model>Serializer classes are the wire aspect's
// (server/conformance_wire_test.go). Counts NetBox keeps in its model
// (CounterCacheField) are Cached here, and only those.
func TestNestedFormsMatchReference(t *testing.T) {
	ref := loadFormRef(t)
	byType := map[string]string{}
	for ep, e := range ref {
		byType[e.ContentType] = ep
	}
	checked := 0
	for _, d := range All() {
		e, ok := ref[d.App+"/"+d.Path]
		if !ok {
			continue
		}
		for _, rf := range e.Fields {
			f := d.Field(rf.Name)
			if f == nil || f.Kind == KindEmpty {
				continue
			}
			if rf.Type == "integer" && f.Kind == KindCount {
				cached := rf.Src.Model == "CounterCacheField"
				if f.Count.Cached != cached {
					t.Errorf("%s.%s: Cached %v, NetBox's field is a %s", d.ContentType(), f.Name, f.Count.Cached, rf.Src.Model+rf.Src.Serializer)
				}
			}
			// The related model's own serializer (not a hand-written
			// Nested<Model>Serializer or another class).
			s := rf.Src.Serializer
			if f.TargetModel() == nil || f.PK || rf.Related == "" || f.Full || s != ref[rf.Related].Model+"Serializer" {
				continue
			}
			if _, ok := nestedFormsLeft[d.ContentType()+"."+f.Name]; ok {
				continue
			}
			want := nestedFieldsOverrides[d.ContentType()+"."+f.Name]
			if want == nil {
				want = nestedFieldsOverrides["*."+f.Name]
			}
			if want == nil {
				want = refNestedForm(ref, rf.Related)
			}
			if got := names(f.RelatedForm()); !slices.Equal(got, want) {
				t.Errorf("%s.%s (%s(nested=True)): nested form\n got: %v\nwant: %v", d.ContentType(), f.Name, s, got, want)
			}
			checked++
		}
	}
	if checked < 200 {
		t.Errorf("only %d relations checked", checked)
	}
}
