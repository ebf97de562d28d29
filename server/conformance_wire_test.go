package server_test

import (
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/inventory/inventory/ent/resource"
	"github.com/inventory/inventory/ent/schema/api"
	"github.com/inventory/inventory/server/servertest"
)

// The wire aspect compares what the generic layer sends with what NetBox
// 4.6.8 sends for the same requests, beyond the bodies the other aspects
// check: the Allow header of every answer, the order of the keys of a
// 400 and of OPTIONS, and OPTIONS' field types as DRF's SimpleMetadata
// names NetBox's serializer fields.

// allowOf is the Allow header DRF sends on the model's list and detail
// routes (ModelViewSet with NetBox's bulk routes; read-only viewsets).
func allowOf(d *resource.Descriptor) (list, detail string) {
	if d.ReadOnlyAPI {
		return "GET, HEAD, OPTIONS", "GET, HEAD, OPTIONS"
	}
	list, detail = "GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS", "GET, PUT, PATCH, DELETE, HEAD, OPTIONS"
	// A viewset with a trace action has an attribute named like the HTTP
	// method: DRF lists it (NetBox's console, power and interface
	// viewsets).
	if slices.ContainsFunc(d.Endpoints, func(ep api.Endpoint) bool { return ep.Name == "trace" }) {
		list, detail = list+", TRACE", detail+", TRACE"
	}
	return list, detail
}

// kWire is the variant of the wire aspect's objects: clear of the other
// aspects' numbers (2n, kQueries+1..+20 and their three objects each,
// kBadInput, kGolden), and small enough for bounded values (rack units).
const kWire = 74

func aspectWire(t *testing.T, s *suite) {
	e, d, list := s.e, s.d, s.list()
	s.setK(t, kWire)
	ids := s.objects(t)
	allowList, allowDetail := allowOf(d)
	detail := detailPath(d, ids[0])
	var update any = map[string]any{}
	if s.fx.Update != nil {
		update = s.update(t)
	}
	for _, c := range []struct {
		method, path string
		body         any
		status       int
		allow        string
	}{
		{"GET", list, nil, http.StatusOK, allowList},
		{"HEAD", list, nil, http.StatusOK, allowList},
		{"OPTIONS", list, nil, http.StatusOK, allowList},
		{"GET", detail, nil, http.StatusOK, allowDetail},
		{"HEAD", detail, nil, http.StatusOK, allowDetail},
		{"OPTIONS", detail, nil, http.StatusOK, allowDetail},
		{"PATCH", detail, update, http.StatusOK, allowDetail},
		{"POST", list, s.w.payload(t, s.fx.Invalid.Body), http.StatusBadRequest, allowList},
		{"GET", detailPath(d, missing), nil, http.StatusNotFound, allowDetail},
		{"POST", detail, map[string]any{}, http.StatusMethodNotAllowed, allowDetail},
		{"GET", list + "?limit=abc&offset=-1", nil, http.StatusOK, allowList},
	} {
		r := must(t, e, c.status, c.method, c.path, c.body)
		if got := r.Header.Get("Allow"); got != c.allow {
			t.Errorf("%s %s (%d): Allow %q, want %q", c.method, c.path, c.status, got, c.allow)
		}
	}
	r := must(t, e.Anonymous(), http.StatusForbidden, "GET", detail, nil)
	if got := r.Header.Get("Allow"); got != allowDetail {
		t.Errorf("anonymous GET: Allow %q, want %q", got, allowDetail)
	}

	checkNestedForms(t, s, ids)

	// 400: fields in serializer order (DRF reports them as it validates).
	r = must(t, e, http.StatusBadRequest, "POST", list, s.w.payload(t, s.fx.Invalid.Body))
	checkFieldOrder(t, d, "400 body", keys(t, r.Body))
	r = must(t, e, http.StatusBadRequest, "POST", list, []any{s.w.payload(t, s.fx.Invalid.Body)})
	var items []json.RawMessage
	if err := json.Unmarshal(r.Body, &items); err != nil || len(items) != 1 {
		t.Fatalf("bulk 400: %s", r.Body)
	}
	checkFieldOrder(t, d, "bulk 400 item", keys(t, items[0]))

	// OPTIONS: DRF's key order, the fields in serializer order, each
	// field's keys in get_field_info's order, and its type.
	r = must(t, e, http.StatusOK, "OPTIONS", list, nil)
	if got := keys(t, r.Body); !slices.Equal(got, []string{"name", "description", "renders", "parses", "actions"}) {
		t.Errorf("OPTIONS keys %v", got)
	}
	var meta struct {
		Actions map[string]json.RawMessage
	}
	if err := json.Unmarshal(r.Body, &meta); err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, f := range d.Fields {
		if f.Kind != resource.KindHidden {
			want = append(want, f.Name)
		}
	}
	if got := keys(t, meta.Actions["POST"]); !slices.Equal(got, want) {
		t.Errorf("actions.POST fields %v, want %v", got, want)
	}
	var fields map[string]json.RawMessage
	_ = json.Unmarshal(meta.Actions["POST"], &fields)
	ref := referenceFields(t)[d.ContentType()]
	for _, f := range d.Fields {
		raw, ok := fields[f.Name]
		if !ok {
			continue
		}
		k := keys(t, raw)
		if len(k) < 4 || !slices.Equal(k[:4], []string{"type", "required", "read_only", "label"}) {
			t.Errorf("%s: info keys %v", f.Name, k)
		}
		var info struct {
			Type     string
			ReadOnly bool `json:"read_only"`
		}
		_ = json.Unmarshal(raw, &info)
		rf, ok := ref[f.Name]
		if !ok || f.Kind == resource.KindEmpty {
			// A field NetBox does not serve (SPEC.md's VLAN display_name),
			// or one kept empty until its model is served: its kind says
			// nothing of NetBox's serializer field.
			continue
		}
		why, ok := optionsTypeExclusions[d.ContentType()+"."+f.Name]
		if !ok {
			why, ok = optionsTypeExclusions["*."+f.Name]
		}
		if ok {
			t.Logf("%s: type not compared: %s", f.Name, why)
		} else if types := drfTypes(rf); !slices.Contains(types, info.Type) {
			t.Errorf("%s: OPTIONS type %q, NetBox's serializer field gives %v", f.Name, info.Type, types)
		}
		// Never writable where NetBox's is read-only; tags and many-to-many
		// lists writable as NetBox's are. (A few fields NetBox lets a
		// client set, such as a user's date_joined, are read-only here.)
		if rf.ReadOnly && !info.ReadOnly || !rf.ReadOnly && info.ReadOnly && (f.Kind == resource.KindTags || f.Kind == resource.KindM2M) {
			t.Errorf("%s: read_only %v, NetBox %v", f.Name, info.ReadOnly, rf.ReadOnly)
		}
	}
	// DELETE: the three may point at each other (a 409 for a protected
	// one carries Allow too); one of them goes.
	deleted := false
	for i := 2; i >= 0 && !deleted && !d.ReadOnlyAPI; i-- {
		r := do(t, e, "DELETE", detailPath(d, ids[i]), nil)
		if r.Status != http.StatusNoContent && r.Status != http.StatusConflict {
			t.Fatalf("DELETE %d: %d %s", ids[i], r.Status, r.Body)
		}
		deleted = r.Status == http.StatusNoContent
		if got := r.Header.Get("Allow"); got != allowDetail {
			t.Errorf("DELETE (%d): Allow %q, want %q", r.Status, got, allowDetail)
		}
	}
	if !deleted {
		t.Errorf("none of the three objects could be deleted")
	}
}

// checkNestedForms checks the relations NetBox renders with a hand-written
// Nested<Model>Serializer (a tree's parent, a permission's users and
// groups): each declares that form (api.Field.Nested), and the objects
// rendered carry exactly its keys, in order. A tree's parent is set on
// one of the aspect's objects so that there is one to look at.
func checkNestedForms(t *testing.T, s *suite, ids [3]int) {
	e, d := s.e, s.d
	ref := referenceFields(t)[d.ContentType()]
	var forms []*resource.Field
	for _, f := range d.Fields {
		if rf, ok := ref[f.Name]; ok && f.Kind != resource.KindEmpty && strings.HasPrefix(rf.Src.Serializer, "Nested") && rf.Src.Serializer != "NestedTagSerializer" {
			if why, ok := nestedFormExclusions[d.ContentType()+"."+f.Name]; ok {
				t.Logf("%s: nested form not checked: %s", f.Name, why)
				continue
			}
			if len(f.Nested) == 0 {
				t.Errorf("%s: NetBox renders it with %s; declare that form (api.Field.Nested)", f.Name, rf.Src.Serializer)
			}
		}
		// Every relation's rendered keys are its form's (the forms
		// themselves are checked against NetBox's serializers in
		// ent/resource's TestNestedFormsMatchReference).
		if f.Kind == resource.KindFK && !f.PK && f.TargetModel() != nil || len(f.Nested) > 0 && f.Kind == resource.KindM2M {
			forms = append(forms, f)
		}
	}
	seen := 0
	for _, f := range forms {
		if f.Target == d.ContentType() && f.Kind == resource.KindFK {
			// A tree: give one object another as parent, when the model
			// allows (the fixture's update may have set one already).
			for _, p := range [][2]int{{2, 0}, {2, 1}, {1, 0}} {
				r := do(t, e, "PATCH", detailPath(d, ids[p[0]]), map[string]any{f.Name: ids[p[1]]})
				if r.Status == http.StatusOK {
					break
				}
				t.Logf("%s: could not set it (%d %s)", f.Name, r.Status, r.Body)
			}
		}
		for _, id := range ids {
			var fields map[string]json.RawMessage
			if err := json.Unmarshal(must(t, e, http.StatusOK, "GET", detailPath(d, id), nil).Body, &fields); err != nil {
				t.Fatal(err)
			}
			var items []json.RawMessage
			switch {
			case string(fields[f.Name]) == "null":
			case f.Kind == resource.KindM2M:
				_ = json.Unmarshal(fields[f.Name], &items)
			default:
				items = []json.RawMessage{fields[f.Name]}
			}
			for _, it := range items {
				seen++
				checkFormKeys(t, f.Name, id, it, f.RelatedForm())
			}
		}
	}
	if len(forms) > 0 && seen == 0 {
		t.Logf("no related object rendered in a nested form: only the declarations were checked")
	}
}

// checkFormKeys fails unless the object it carries exactly the keys of
// the nested form, in order, and each relation the form renders in a form
// of its own (a nested interface's device) those of that form.
func checkFormKeys(t *testing.T, name string, id int, it json.RawMessage, form []*resource.Field) {
	t.Helper()
	want := make([]string, len(form))
	for i, ff := range form {
		want[i] = ff.Name
	}
	if got := keys(t, it); !slices.Equal(got, want) {
		t.Errorf("%s of %d: keys %v, want NetBox's nested form %v", name, id, got, want)
		return
	}
	var obj map[string]json.RawMessage
	_ = json.Unmarshal(it, &obj)
	for _, ff := range form {
		if ff.Kind == resource.KindFK && !ff.PK && ff.TargetModel() != nil && string(obj[ff.Name]) != "null" {
			checkFormKeys(t, name+"."+ff.Name, id, obj[ff.Name], ff.RelatedForm())
		}
	}
}

// nestedFormExclusions are relations rendered in NetBox by a nested
// serializer our forms cannot express yet, each with the reason.
var nestedFormExclusions = map[string]string{
	"ipam.vlan.qinq_svlan": "NestedVLANSerializer's fields are the VLAN's brief form",
}

// checkAllow fails unless got equals want and lists methods in DRF's
// order, HEAD wherever GET is served and OPTIONS last.
func checkAllow(t *testing.T, what, got, want string) {
	t.Helper()
	if got != want {
		t.Errorf("%s: Allow %q, want %q", what, got, want)
	}
	order := []string{"GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS", "TRACE"}
	list := strings.Split(got, ", ")
	last := -1
	for _, m := range list {
		i := slices.Index(order, m)
		if i <= last {
			t.Errorf("%s: Allow %q is not in DRF's order", what, got)
			return
		}
		last = i
	}
	if slices.Contains(list, "GET") != slices.Contains(list, "HEAD") || !slices.Contains(list, "OPTIONS") {
		t.Errorf("%s: Allow %q: HEAD goes with GET, OPTIONS is always there", what, got)
	}
}

// TestAllowRoots: the API root, the app roots, the status view and the
// schema carry DRF's Allow on every answer (their GET, HEAD, OPTIONS, a
// 403 and a 405), answer HEAD and OPTIONS as Django's views do, and an
// unrouted path (Django's 404 page) carries none.
func TestAllowRoots(t *testing.T) {
	t.Parallel()
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		const ro = "GET, HEAD, OPTIONS"
		a := e.Admin()
		for _, p := range []string{"/api/", "/api/dcim/", "/api/ipam/", "/api/users/", "/api/status/", "/api/schema/"} {
			for _, c := range []struct {
				env    *servertest.Env
				method string
				status int
			}{
				{a, "GET", http.StatusOK}, {a, "HEAD", http.StatusOK}, {a, "OPTIONS", http.StatusOK},
				{a, "POST", http.StatusMethodNotAllowed}, {a, "DELETE", http.StatusMethodNotAllowed},
			} {
				r := c.env.Do(c.method, p, nil)
				if r.Status != c.status {
					t.Errorf("%s %s: %d %s", c.method, p, r.Status, r.Body)
				}
				checkAllow(t, c.method+" "+p, r.Header.Get("Allow"), ro)
			}
		}
		r := a.Must(http.StatusOK, "OPTIONS", "/api/", nil)
		if got := keys(t, r.Body); !slices.Equal(got, []string{"name", "description", "renders", "parses"}) {
			t.Errorf("OPTIONS /api/ keys %v", got)
		}
		if name := r.Object()["name"]; name != "API Root" {
			t.Errorf("OPTIONS /api/ name %v", name)
		}
		r = e.Anonymous().Must(http.StatusForbidden, "GET", "/api/dcim/", nil)
		checkAllow(t, "anonymous GET /api/dcim/", r.Header.Get("Allow"), ro)
		for _, p := range []string{"/api/nonexistent/", "/api/dcim/nonexistent/", "/api/dcim"} {
			r := a.Do("GET", p, nil)
			if r.Header.Get("Allow") != "" || r.Status != http.StatusNotFound && r.Status != http.StatusFound {
				t.Errorf("GET %s: %d, Allow %q", p, r.Status, r.Header.Get("Allow"))
			}
		}
	})
}

// checkFieldOrder fails unless the field keys of got come in the
// descriptor's field order, keys that are no field after them.
func checkFieldOrder(t *testing.T, d *resource.Descriptor, what string, got []string) {
	t.Helper()
	last, other := -1, false
	for _, k := range got {
		i := slices.IndexFunc(d.Fields, func(f *resource.Field) bool { return f.Name == k })
		if i < 0 {
			other = true
			continue
		}
		if i < last || other {
			t.Errorf("%s: keys %v are not in serializer field order", what, got)
			return
		}
		last = i
	}
}

// refField is what the wire aspect reads of a reference field.
type refField struct {
	Name     string
	Type     string
	Repr     string
	ReadOnly bool `json:"read_only"`
	Src      struct {
		Serializer string `json:"serializer_field"`
		Model      string `json:"model_field"`
	} `json:"_src"`
}

var (
	refOnce   sync.Once
	refByType map[string]map[string]refField
	refErr    error
)

// referenceFields reads testdata/reference/netbox-models.json once: each
// content type's fields by name.
func referenceFields(t *testing.T) map[string]map[string]refField {
	t.Helper()
	refOnce.Do(func() {
		raw, err := os.ReadFile(filepath.Join("..", "testdata", "reference", "netbox-models.json"))
		if err != nil {
			refErr = err
			return
		}
		var doc struct {
			Endpoints map[string]struct {
				ContentType string `json:"content_type"`
				Fields      []refField
			}
		}
		if refErr = json.Unmarshal(raw, &doc); refErr != nil {
			return
		}
		refByType = map[string]map[string]refField{}
		for _, e := range doc.Endpoints {
			m := map[string]refField{}
			for _, f := range e.Fields {
				m[f.Name] = f
			}
			refByType[e.ContentType] = m
		}
	})
	if refErr != nil {
		t.Fatalf("reference: %v", refErr)
	}
	return refByType
}

// optionsTypeExclusions are fields whose OPTIONS type differs from
// NetBox's for a reason outside the generic layer, each named.
var optionsTypeExclusions = map[string]string{
	"*.cable_end":                            "DRF's own ChoiceField in NetBox's CabledObjectSerializer (\"choice\"); the reference takes it for NetBox's ChoiceField (\"field\")",
	"extras.customfield.related_object_type": "stored as a plain string column; NetBox declares a ContentTypeField (\"field\")",
}

// drfTypes is the OPTIONS type SimpleMetadata gives NetBox's serializer
// field (the DRF class nearest in its MRO; "field" for the classes DRF's
// table does not name). A related-object count is either NetBox's
// RelatedObjectCountField ("field") or an annotated IntegerField
// ("integer"): which one a model declares is not in our descriptors, and
// both render an integer, so either is accepted there.
func drfTypes(f refField) []string {
	switch f.Src.Serializer {
	case "SerializerMethodField", "NetBoxAPIHyperlinkedIdentityField", "NetBoxURLHyperlinkedIdentityField",
		"ContentTypeField", "CustomFieldsDataField", "GFKSerializerField", "SerializedPKRelatedField",
		"NestedTagSerializer", "JSONField", "PrimaryKeyRelatedField", "TimeZoneSerializerField":
		return []string{"field"}
	case "RelatedObjectCountField":
		return []string{"field", "integer"}
	case "IPAddressField", "IPNetworkField":
		return []string{"string"}
	case "ListField":
		return []string{"list"}
	case "DictField":
		return []string{"nested object"}
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
		if strings.HasSuffix(f.Src.Serializer, "Serializer") {
			return []string{"field"} // a nested serializer with many=True
		}
		if f.Src.Model == "ArrayField" {
			return []string{"list"}
		}
		return []string{"field"}
	case "choice":
		if f.Src.Serializer == "ChoiceField" {
			return []string{"field"} // NetBox's ChoiceField, a plain serializers.Field
		}
		return []string{"choice"}
	case "integer":
		if strings.HasSuffix(f.Name, "_count") && f.ReadOnly {
			return []string{"field", "integer"}
		}
		return []string{"integer"}
	case "string":
		if f.Src.Model == "" && f.Src.Serializer == "" {
			// No provenance (a tag's slug, a SlugField of
			// django-taggit's TagBase).
			return []string{"string", "slug"}
		}
		switch f.Src.Model {
		case "SlugField":
			return []string{"slug"}
		case "EmailField":
			return []string{"email"}
		case "URLField":
			return []string{"url"}
		case "ImageField":
			return []string{"image upload"} // DRF's ImageField
		}
		return []string{"string"}
	case "ip/cidr":
		return []string{"string"}
	}
	return []string{f.Type}
}
