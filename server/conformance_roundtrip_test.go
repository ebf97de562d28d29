package server_test

import (
	"fmt"
	"maps"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/inventory/inventory/ent/resource"
	"github.com/inventory/inventory/server"
	"github.com/inventory/inventory/server/servertest"
)

// The read-modify-write round trip (issue 33): clients such as the
// Terraform provider, go-netbox and pynetbox read an object and write
// back what they read, nested objects replaced by their ids and "" and
// null as they were read. NetBox answers 200 and changes nothing; so must
// this service, for every model, from the model's fixture alone.
//
// The objects are the fixture's three (varied), a "bare" one (the first
// reduced to the fields required on create, every optional field left
// empty) and the first's alternates. The first is the fullest: the
// fixture's "complete" sets every writable optional field its create
// leaves empty (TestFixturesSetEveryOptionalField keeps it so), and the
// alternates hold what it cannot hold at once. Each is written back whole
// with PUT, then all but the second and third field by field with PATCH;
// every answer must render the object as it was first read (last_updated
// aside).

// kRoundTrip and kBare are the aspect's variant numbers, kAlternate+i
// its alternates' (up to maxAlternates): clear of the other aspects' (see
// kWire, kOwner, kContacts, kBadInput, kGolden), small enough for bounded
// values.
const (
	kRoundTrip    = 72
	kBare         = 78
	kAlternate    = 81
	maxAlternates = 5 // 81..85
)

func init() {
	aspects = append(aspects, aspect{name: "round_trip", run: aspectRoundTrip})
}

func aspectRoundTrip(t *testing.T, s *suite) {
	s.setK(t, kRoundTrip)
	bare := bareOf(s.d, vary(s.d, s.w.payload(t, s.fx.Create[0]), kBare))
	maps.Copy(bare, s.w.payload(t, s.fx.Bare))
	bare = s.w.freshUnique(t, s.d, bare)
	extra := s.fullest(t)
	full := maps.Clone(s.p[0])
	maps.Copy(full, extra)
	payloads := []map[string]any{full, s.p[1], s.p[2], bare}
	names := []string{"first", "second", "third", "bare"}
	laters := []map[string]any{s.complete(t, full, s.fx.Complete), nil, nil, nil}
	if len(s.fx.Alternates) > maxAlternates {
		t.Fatalf("fixture: at most %d alternates", maxAlternates)
	}
	for i, alt := range s.fx.Alternates {
		p := s.w.freshUnique(t, s.d, vary(s.d, s.w.payload(t, s.fx.Create[0]), kAlternate+i))
		maps.Copy(p, extra)
		payloads = append(payloads, p)
		names = append(names, fmt.Sprintf("alternate%d", i+1))
		laters = append(laters, s.complete(t, p, alt))
	}
	for i, p := range payloads {
		t.Run(names[i], func(t *testing.T) {
			r := s.e.Do("POST", s.list(), p)
			if r.Status == http.StatusBadRequest && names[i] == "bare" {
				// A model whose clean() asks for one of several optional
				// relations (a component template's device type or module
				// type): the bare object keeps the first's relations.
				p = withRelations(t, s, p, s.p[0])
				r = s.e.Do("POST", s.list(), p)
			}
			if r.Status != http.StatusCreated {
				t.Fatalf("POST %s: %d %s", canon(p), r.Status, r.Body)
			}
			path := detailPath(s.d, r.Object()["id"])
			if later := laters[i]; len(later) > 0 {
				body := s.w.withSelf(t, later, r.Object()["id"])
				r = s.e.Do("PATCH", path, body)
				if r.Status != http.StatusOK {
					t.Fatalf("PATCH of the fixture's fields that need the object %s: %d %s", canon(body), r.Status, r.Body)
				}
				maps.Copy(p, body)
			}
			if i == 0 || i > 3 {
				// What the fixture sets is held: the round trip below
				// then writes it back with a value.
				checkValues(t, s.d, names[i]+" as written", p, must(t, s.e, http.StatusOK, "GET", path, nil).Object())
			}
			roundTrip(t, s, p, path, i == 0 || i >= 3)
		})
	}
}

// fullest is what every model of its kind can have set besides the
// fixture's own fields (the round trip adds it to the fullest object):
// an owner, a tag, custom fields of several types (defined for the
// model here).
func (s *suite) fullest(t *testing.T) map[string]any {
	p := map[string]any{}
	if ownerAspect(s.d) {
		p["owner"] = s.w.ensure(t, "users.owner", 0)
	}
	if s.d.Tagged {
		p["tags"] = []any{s.w.ensure(t, "extras.tag", 0)}
	}
	if s.d.Custom {
		values := map[string]any{}
		for _, cf := range []struct {
			typ   string
			value any
		}{{"text", "round trip"}, {"integer", 42}, {"boolean", false}, {"json", map[string]any{"a": []any{1.0}}}} {
			name := "round_trip_" + cf.typ
			r := must(t, s.e, http.StatusCreated, "POST", "/api/extras/custom-fields/",
				map[string]any{"name": name, "type": cf.typ, "object_types": []string{s.d.ContentType()}})
			id := r.Object()["id"]
			t.Cleanup(func() { s.e.Do("DELETE", fmt.Sprintf("/api/extras/custom-fields/%v/", id), nil) })
			values[name] = cf.value
		}
		p["custom_fields"] = values
	}
	return p
}

// complete adds fields (the fixture's "complete", or one of its
// "alternates") to payload p, a null removing the field, and returns
// those that refer to the object itself ("@self", anywhere inside): they
// are set by a PATCH once it exists. In them, {"@new": "<content type>",
// ...} is an object created on the way (a LAG interface on the
// interface's device; an IP address on an interface of the device that
// takes it as primary), its fields resolved as the payload's.
func (s *suite) complete(t *testing.T, p, fields map[string]any) map[string]any {
	t.Helper()
	later := map[string]any{}
	names := make([]string, 0, len(fields))
	for name := range fields {
		names = append(names, name)
	}
	sort.Strings(names) // objects made on the way in a repeatable order
	for _, name := range names {
		v := fields[name]
		if v == nil {
			delete(p, name)
			continue
		}
		if refersToSelf(v) {
			later[name] = v
			continue
		}
		p[name] = s.w.withSelf(t, map[string]any{name: v}, nil)[name]
	}
	return later
}

func refersToSelf(v any) bool {
	switch x := v.(type) {
	case string:
		return x == "@self"
	case map[string]any:
		for _, e := range x {
			if refersToSelf(e) {
				return true
			}
		}
	case []any:
		for _, e := range x {
			if refersToSelf(e) {
				return true
			}
		}
	}
	return false
}

// withSelf resolves payload m as resolve does, "@self" as id and
// {"@new": ct, ...} as a new object of ct (see complete).
func (w *world) withSelf(t *testing.T, m map[string]any, id any) map[string]any {
	t.Helper()
	var walk func(v any) any
	walk = func(v any) any {
		switch x := v.(type) {
		case string:
			if x == "@self" {
				return id
			}
			return w.resolve(t, x)
		case []any:
			out := make([]any, len(x))
			for i, e := range x {
				out[i] = walk(e)
			}
			return out
		case map[string]any:
			out := make(map[string]any, len(x))
			for k, e := range x {
				if k != "@new" {
					out[k] = walk(e)
				}
			}
			ct, ok := x["@new"].(string)
			if !ok {
				return out
			}
			d := resource.ByContentType(ct)
			if d == nil {
				t.Fatalf("\"@new\" of unknown model %s", ct)
			}
			r := w.e.Do("POST", listPath(d), out)
			if r.Status != http.StatusCreated {
				t.Fatalf("creating %s %s: %d %s", ct, canon(out), r.Status, r.Body)
			}
			return r.Object()["id"]
		}
		return v
	}
	return walk(m).(map[string]any)
}

// withRelations adds to payload p the relations (FKs and generic
// references) of payload from that it lacks, with objects of their own
// where they must be unique (freshUnique).
func withRelations(t *testing.T, s *suite, p, from map[string]any) map[string]any {
	added := map[string]any{}
	for name, v := range from {
		if _, ok := p[name]; ok {
			continue
		}
		if f := s.d.Field(name); f != nil {
			switch f.Kind {
			case resource.KindFK, resource.KindGenericType, resource.KindGenericID, resource.KindGenericRefs:
				added[name] = v
			}
		}
	}
	out := maps.Clone(p)
	maps.Copy(out, s.w.freshUnique(t, s.d, added))
	return out
}

// bareOf keeps of payload p the fields a create requires (and the pairs
// that make a required generic relation).
func bareOf(d *resource.Descriptor, p map[string]any) map[string]any {
	out := map[string]any{}
	for name, v := range p {
		f := d.Field(name)
		if f == nil || !f.Required {
			continue
		}
		out[name] = v
		if f.Kind == resource.KindGenericType || f.Kind == resource.KindGenericID {
			base := name[:strings.LastIndex(name, "_")]
			for _, other := range []string{base + "_type", base + "_id"} {
				if v, ok := p[other]; ok {
					out[other] = v
				}
			}
		}
	}
	return out
}

// roundTrip reads the object at path, writes it back whole (PUT) and,
// when eachField, field by field (PATCH), and checks that every answer and
// a last read render it as first read.
func roundTrip(t *testing.T, s *suite, created map[string]any, path string, eachField bool) {
	t.Helper()
	first := must(t, s.e, http.StatusOK, "GET", path, nil).Object()
	body := writeBack(s.d, first)
	put := true
	for _, f := range s.d.Fields {
		// What the client knows but never reads back: a password is sent
		// again. A required image would have to be uploaded again, as in
		// NetBox, and a new upload is a new file: PATCH alone then.
		if v, ok := created[f.Name]; ok && f.WriteOnly && f.Required {
			body[f.Name] = v
		}
		if f.Kind == resource.KindImage && f.Required {
			put = false
		}
	}
	same := func(what string, got map[string]any) {
		t.Helper()
		if diff := objectDiff(first, got); diff != "" {
			t.Errorf("%s changed the object:\n%s", what, diff)
		}
	}
	if put {
		r := do(t, s.e, "PUT", path, body)
		if r.Status != http.StatusOK {
			t.Fatalf("PUT of the object as read: %d %s\nsent %s", r.Status, r.Body, canon(body))
		}
		same("PUT of the object as read", r.Object())
	} else {
		t.Logf("a required image: no PUT, PATCH of each field")
		eachField = true
	}
	if eachField {
		names := make([]string, 0, len(body))
		for name := range body {
			names = append(names, name)
		}
		sort.Strings(names)
		for _, name := range names {
			one := map[string]any{name: body[name]}
			r := do(t, s.e, "PATCH", path, one)
			if r.Status != http.StatusOK {
				t.Errorf("PATCH %s: %d %s", canon(one), r.Status, r.Body)
				continue
			}
			same("PATCH "+canon(one), r.Object())
		}
	}
	same("the last read", must(t, s.e, http.StatusOK, "GET", path, nil).Object())
}

// writeBack is what a client writes back of an object it read: every
// writable field, nested objects replaced by their ids, choices by their
// values, everything else as read.
func writeBack(d *resource.Descriptor, got map[string]any) map[string]any {
	out := map[string]any{}
	for _, f := range d.Fields {
		v, ok := got[f.Name]
		if !ok || !writableBack(f) {
			continue
		}
		switch f.Kind {
		case resource.KindChoice:
			if m, ok := v.(map[string]any); ok {
				v = m["value"]
			} else if v == nil && !f.Nullable && !f.Blank {
				// Rendered null (blank) but refused as null and as
				// blank, by NetBox's serializer too (a cable's profile:
				// ChoiceField without allow_blank): no client can write
				// it back, so none does.
				continue
			}
		case resource.KindGenericRefs:
			list, _ := v.([]any)
			refs := make([]any, len(list))
			for i, x := range list {
				m, _ := x.(map[string]any)
				refs[i] = map[string]any{"object_type": m["object_type"], "object_id": m["object_id"]}
			}
			v = refs
		default:
			v = idsOf(v)
		}
		out[f.Name] = v
	}
	return out
}

// writableBack says whether a client writes field f back: what the API
// accepts on write and renders, except images (a URL is no file) and
// write-once secrets (rendered null after their creation).
func writableBack(f *resource.Field) bool {
	switch f.Kind {
	case resource.KindTags, resource.KindCustomFields:
		return true
	case resource.KindImage, resource.KindSecret, resource.KindHidden:
		return false
	case resource.KindM2M, resource.KindReverse:
		return !f.ReadOnly
	}
	return !f.ReadOnly && !f.WriteOnly && f.Column != ""
}

// idsOf replaces nested objects (maps with an id) by their ids, in lists
// too.
func idsOf(v any) any {
	switch x := v.(type) {
	case map[string]any:
		if id, ok := x["id"]; ok {
			return id
		}
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = idsOf(e)
		}
		return out
	}
	return v
}

// objectDiff lists the top-level fields whose values differ, last_updated
// aside (every write moves it, as in NetBox).
func objectDiff(a, b map[string]any) string {
	var out []string
	for k, v := range a {
		if k == "last_updated" {
			continue
		}
		if w, ok := b[k]; !ok || canon(v) != canon(w) {
			out = append(out, fmt.Sprintf("  %s: %s -> %s", k, canon(v), canon(w)))
		}
	}
	for k, w := range b {
		if _, ok := a[k]; !ok {
			out = append(out, fmt.Sprintf("  %s: (absent) -> %s", k, canon(w)))
		}
	}
	sort.Strings(out)
	return strings.Join(out, "\n")
}

// TestWebhookCAFileRoundTrip is the round trip of the one field the
// webhook fixture cannot set (unsetField): a ca_file_path must name a file
// inside the configured CA directory, which only this test's servers have.
func TestWebhookCAFileRoundTrip(t *testing.T) {
	caDir := t.TempDir()
	caFile := filepath.Join(caDir, "ca.pem")
	if err := os.WriteFile(caFile, []byte("-----BEGIN CERTIFICATE-----\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		s := &suite{e: e, d: resource.ByContentType("extras.webhook")}
		p := map[string]any{"name": "ca", "payload_url": "https://hooks.example.com/ca", "ca_file_path": caFile, "ssl_verification": true}
		r := must(t, e, http.StatusCreated, "POST", s.list(), p)
		path := detailPath(s.d, r.Object()["id"])
		checkValues(t, s.d, "the webhook as written", p, must(t, e, http.StatusOK, "GET", path, nil).Object())
		roundTrip(t, s, p, path, true)
	}, func(c *server.Config) { c.Webhooks.CAFileDir = caDir })
}
