package server_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/inventory/inventory/ent/resource"
	"github.com/inventory/inventory/server/servertest"
)

// optField is what TestOptionsMatchReference reads of a reference field.
type optField struct {
	Name     string
	Type     string
	Repr     string
	ReadOnly bool `json:"read_only"`
	Required bool `json:"required_on_create"`
	Implicit bool
	Removed  bool `json:"removed_since_4_2"`
	Choices  []json.RawMessage
	Src      struct {
		Serializer string `json:"serializer_field"`
		Model      string `json:"model_field"`
	} `json:"_src"`
}

// optionsTypeFacts are NetBox serializer fields whose OPTIONS type the
// reference's provenance does not give, each with what NetBox 4.6.8
// declares ("*.field" for every endpoint).
var optionsTypeFacts = map[string]string{
	// CabledObjectSerializer: serializers.ChoiceField(choices=CableEndChoices,
	// read_only=True): DRF's ChoiceField, which the reference takes for
	// NetBox's.
	"*.cable_end": "choice",
}

// optionsGaps are reference fields that OPTIONS does not list, each for
// a reason (README, Differences from NetBox).
var optionsGaps = map[string]string{
	"circuits/circuits assignments": "declared by NetBox's CircuitSerializer, never rendered (a Circuit has no such attribute) and failing on write there: not served",
}

// optionsChoiceGaps are choice lists the reference gives that OPTIONS
// does not list here, each for a reason (README, Differences from NetBox).
var optionsChoiceGaps = map[string]string{
	"extras/event-rules event_types": "DRF lists them under the ListField's child, which OPTIONS does not describe here",
}

// optionsAdditions are served fields NetBox's serializer does not have.
var optionsAdditions = map[string]string{
	"ipam/vlans display_name": "SPEC.md: display under its pre-4.0 name",
}

// drfType is the type DRF's SimpleMetadata gives the serializer field the
// reference describes: the name of the nearest DRF class in the field
// class's MRO, "field" for the classes its table does not name (method,
// hyperlink, related and many-related fields, NetBox's ChoiceField and
// RelatedObjectCountField, custom fields, lists of nested serializers).
func drfType(ep string, f optField) []string {
	if t, ok := optionsTypeFacts["*."+f.Name]; ok {
		return []string{t}
	}
	if t, ok := optionsTypeFacts[ep+"."+f.Name]; ok {
		return []string{t}
	}
	switch f.Src.Serializer {
	case "SerializerMethodField", "NetBoxAPIHyperlinkedIdentityField", "NetBoxURLHyperlinkedIdentityField",
		"ContentTypeField", "CustomFieldsDataField", "GFKSerializerField", "SerializedPKRelatedField",
		"NestedTagSerializer", "JSONField", "PrimaryKeyRelatedField", "TimeZoneSerializerField",
		"RelatedObjectCountField", "SlugRelatedField":
		return []string{"field"}
	case "IPAddressField", "IPNetworkField", "CharField":
		return []string{"string"}
	case "ListField":
		return []string{"list"}
	case "DictField":
		return []string{"nested object"}
	case "ImageField":
		return []string{"image upload"}
	case "FileField":
		return []string{"file upload"}
	case "IntegerField":
		return []string{"integer"}
	case "BooleanField":
		return []string{"boolean"}
	case "DecimalField":
		return []string{"decimal"}
	}
	switch f.Type {
	case "fk":
		if f.Repr == "pk" {
			return []string{"field"}
		}
		return []string{"nested object"}
	case "m2m", "computed", "generic-fk":
		return []string{"field"}
	case "json":
		if strings.HasSuffix(f.Src.Serializer, "Serializer") || f.Src.Model != "ArrayField" {
			return []string{"field"} // a nested serializer with many=True, JSON
		}
		return []string{"list"}
	case "choice":
		if f.Src.Serializer == "ChoiceField" {
			return []string{"field"} // NetBox's ChoiceField, a serializers.Field
		}
		return []string{"choice"} // a model field with choices: DRF's
	case "string":
		switch f.Src.Model {
		case "SlugField":
			return []string{"slug"}
		case "EmailField":
			return []string{"email"}
		case "URLField":
			return []string{"url"}
		case "ImageField":
			return []string{"image upload"}
		case "":
			if f.Src.Serializer == "" {
				// No provenance (django-taggit's TagBase slug).
				return []string{"string", "slug"}
			}
		}
		return []string{"string"}
	case "ip/cidr":
		return []string{"string"}
	}
	return []string{f.Type}
}

// TestOptionsMatchReference: every endpoint's OPTIONS lists NetBox's
// serializer fields with the type, required and read_only DRF's
// SimpleMetadata gives them in NetBox 4.6.8, and each choice field offers
// NetBox's choices in NetBox's order (and labels where the reference has
// them). It asks the served API, one OPTIONS per endpoint, on each
// database.
func TestOptionsMatchReference(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("..", "testdata", "reference", "netbox-models.json"))
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Endpoints map[string]struct {
			Fields []optField
		}
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	used := map[string]bool{}
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		for _, d := range resource.All() {
			ep := d.App + "/" + d.Path
			ref, ok := doc.Endpoints[ep]
			if !ok {
				t.Errorf("%s: not in the reference", ep)
				continue
			}
			r := e.Do("OPTIONS", "/api/"+ep+"/", nil)
			if r.Status != http.StatusOK {
				t.Errorf("%s: OPTIONS %d %.200s", ep, r.Status, r.Body)
				continue
			}
			var meta struct {
				Actions map[string]map[string]struct {
					Type     string
					Required bool
					ReadOnly bool `json:"read_only"`
					Choices  []struct {
						Value       any
						DisplayName string `json:"display_name"`
					}
				}
			}
			if err := json.Unmarshal(r.Body, &meta); err != nil {
				t.Fatalf("%s: %v", ep, err)
			}
			post, ok := meta.Actions["POST"]
			if d.ReadOnlyAPI {
				if ok || meta.Actions["PUT"] != nil {
					t.Errorf("%s: a read-only endpoint lists actions", ep)
				}
				continue
			}
			if !ok {
				t.Errorf("%s: no POST action: %.200s", ep, r.Body)
				continue
			}
			if !slices.Equal(keys(t, mustRaw(t, r.Body, "actions", "POST")), keys(t, mustRaw(t, r.Body, "actions", "PUT"))) {
				t.Errorf("%s: PUT lists other fields than POST", ep)
			}
			inRef := map[string]bool{}
			for _, f := range ref.Fields {
				inRef[f.Name] = true
				// Fields NetBox's serializer declares outside Meta.fields
				// (changelog_message, add_tags, remove_tags: read from the
				// raw data) are not in serializer.fields, so not in OPTIONS.
				if f.Implicit || f.Removed {
					if _, ok := post[f.Name]; ok {
						t.Errorf("%s: %s is listed; NetBox's OPTIONS does not list it", ep, f.Name)
					}
					continue
				}
				got, ok := post[f.Name]
				if !ok {
					if optionsGaps[ep+" "+f.Name] != "" {
						used[ep+" "+f.Name] = true
						continue
					}
					t.Errorf("%s: %s is not listed", ep, f.Name)
					continue
				}
				if want := drfType(ep, f); !slices.Contains(want, got.Type) {
					t.Errorf("%s: %s type %q, NetBox's %v", ep, f.Name, got.Type, want)
				}
				if got.ReadOnly != f.ReadOnly {
					t.Errorf("%s: %s read_only %v, NetBox's %v", ep, f.Name, got.ReadOnly, f.ReadOnly)
				}
				if want := f.Required && !f.ReadOnly; got.Required != want {
					t.Errorf("%s: %s required %v, NetBox's %v", ep, f.Name, got.Required, want)
				}
				// DRF lists the choices of a writable field that has them
				// and is no related field.
				if why := optionsChoiceGaps[ep+" "+f.Name]; why != "" {
					t.Logf("%s: %s choices not compared: %s", ep, f.Name, why)
					continue
				}
				if f.ReadOnly || len(f.Choices) == 0 {
					if len(got.Choices) > 0 && f.ReadOnly {
						t.Errorf("%s: %s is read-only and lists choices", ep, f.Name)
					}
					continue
				}
				// Each choice as "value" or, where the reference has labels,
				// "value label".
				var gotVals, wantVals []string
				labels := false
				for _, c := range f.Choices {
					var obj struct {
						Value any
						Label *string
					}
					var v any
					if json.Unmarshal(c, &obj) == nil && obj.Value != nil {
						v = obj.Value
					} else if err := json.Unmarshal(c, &v); err != nil {
						t.Fatalf("%s: %s choice %s: %v", ep, f.Name, c, err)
					}
					if obj.Label != nil {
						labels = true
						wantVals = append(wantVals, fmt.Sprint(v)+" "+*obj.Label)
					} else {
						wantVals = append(wantVals, fmt.Sprint(v))
					}
				}
				for _, c := range got.Choices {
					if labels {
						gotVals = append(gotVals, fmt.Sprint(c.Value)+" "+c.DisplayName)
					} else {
						gotVals = append(gotVals, fmt.Sprint(c.Value))
					}
				}
				if !slices.Equal(gotVals, wantVals) {
					t.Errorf("%s: %s choices (%d) differ from NetBox's (%d):\n got %q\nwant %q", ep, f.Name, len(gotVals), len(wantVals), gotVals, wantVals)
				}
			}
			for name := range post {
				if !inRef[name] && optionsAdditions[ep+" "+name] == "" {
					t.Errorf("%s: %s is listed; NetBox's serializer has no such field", ep, name)
				}
			}
		}
	})
	for k := range optionsGaps {
		if !used[k] {
			t.Errorf("optionsGaps: %q matches no reference field left out", k)
		}
	}
}

// mustRaw is the JSON value at path in body.
func mustRaw(t *testing.T, body []byte, path ...string) json.RawMessage {
	t.Helper()
	raw := json.RawMessage(body)
	for _, k := range path {
		var m map[string]json.RawMessage
		if err := json.Unmarshal(raw, &m); err != nil {
			t.Fatalf("%v: %v", path, err)
		}
		raw = m[k]
	}
	return raw
}
