package server_test

// The generic conformance suite (DESIGN.md §6): every registered model is
// exercised through the same table of API behaviours, on SQLite and on
// PostgreSQL, driven by one fixture per model in testdata/models/.
//
// A fixture testdata/models/<app>.<model>.json holds
//
//	"create":      three valid, distinct objects; a string "@<content type>#<n>"
//	               anywhere (also inside query strings) stands for the id of
//	               fixture object n of that model, created on demand from its
//	               own fixture (recursively) and cached per Env
//	               ("@<content type>#<n>:<field>" for one of its fields as
//	               read, such as a tag's slug)
//	"update":      a valid PATCH payload (may reference the model's own
//	               objects, e.g. a tree parent)
//	"bulk_update": optional PATCH payload for bulk updates (default:
//	               {"description": ...}); must not touch unique fields
//	"invalid":     {"body": ..., "errors": [keys]}: a create that must fail
//	               with 400 and exactly these error keys
//	"filters":     [{"query": "...", "count": n}]: matches among the three
//	               created objects
//	"skip":        {"<aspect>": "reason"}: an aspect this model cannot be
//	               exercised on generically (logged; keep these rare)
//	"complete":    the optional fields the first object leaves empty, set on
//	               the round trip's fullest object: "@self" stands for its
//	               id (such fields are set by a PATCH after its creation),
//	               {"@new": "<content type>", ...} for an object created on
//	               the way (an IP address on one of a device's interfaces,
//	               for its primary_ip4)
//	"alternates":  up to five variants of the first object for what it
//	               cannot hold at once (a template's module type instead of
//	               its device type), each applied to it as "complete" is (a
//	               null removes a field) and round-tripped too
//	"fresh":       true when every created object, the filters' too, needs
//	               objects of its own for its unique FKs (variants of the
//	               fixture objects it names): a one-to-one relation whose
//	               target must be of a kind the target's fixture holds
//	               once (a virtual circuit termination's virtual interface)

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"math/big"
	"net/http"
	"net/netip"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/inventory/inventory/ent/resource"
	"github.com/inventory/inventory/server/servertest"
)

const (
	host    = "http://inventory.test"
	missing = 99999999 // an id no test ever reaches
)

type fixture struct {
	Create     []map[string]any `json:"create"`
	Update     map[string]any   `json:"update"`
	BulkUpdate map[string]any   `json:"bulk_update"`
	Invalid    struct {
		Body   map[string]any `json:"body"`
		Errors []string       `json:"errors"`
	} `json:"invalid"`
	Filters []struct {
		Query string `json:"query"`
		Count int    `json:"count"`
	} `json:"filters"`
	Skip  map[string]string `json:"skip"`
	Fresh bool              `json:"fresh"`
	// Complete and Alternates are for the round trip (see
	// aspectRoundTrip and TestFixturesSetEveryOptionalField).
	Complete   map[string]any   `json:"complete"`
	Alternates []map[string]any `json:"alternates"`
	// Bare adds to the round trip's bare object (the fields a create
	// requires) what a model rule wants of it beyond them: one of
	// several optional fields (IPSecProposal.clean(): an encryption or an
	// authentication algorithm).
	Bare map[string]any `json:"bare"`
}

func loadFixture(t testing.TB, ct string) *fixture {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("..", "testdata", "models", ct+".json"))
	if err != nil {
		t.Fatalf("no fixture for %s (every registered model needs testdata/models/%s.json): %v", ct, ct, err)
	}
	var fx fixture
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&fx); err != nil {
		t.Fatalf("fixture %s: %v", ct, err)
	}
	if len(fx.Create) != 3 {
		t.Fatalf("fixture %s: want 3 objects in create, have %d", ct, len(fx.Create))
	}
	return &fx
}

// TestFixturesCoverModels fails when a registered model has no fixture, or a
// fixture names a model that is not registered.
func TestFixturesCoverModels(t *testing.T) {
	want := map[string]bool{}
	for _, d := range resource.All() {
		if d.ReadOnlyAPI {
			continue // read-only models (change records) have their own tests
		}
		want[d.ContentType()] = true
		loadFixture(t, d.ContentType())
	}
	files, _ := filepath.Glob(filepath.Join("..", "testdata", "models", "*.json"))
	for _, f := range files {
		if ct := strings.TrimSuffix(filepath.Base(f), ".json"); !want[ct] {
			t.Errorf("fixture %s names no registered model", f)
		}
	}
}

// world is one Env with the fixture objects created in it so far.
type world struct {
	e    *servertest.Env
	d    *resource.Descriptor // the model under test
	ids  map[string]map[int]int
	busy map[string]bool
	// fresh counts the objects freshUnique made.
	fresh int
}

func newWorld(e *servertest.Env, d *resource.Descriptor) *world {
	return &world{e: e, d: d, ids: map[string]map[int]int{}, busy: map[string]bool{}}
}

var refRE = regexp.MustCompile(`@([a-z]+\.[a-z0-9]+)#(\d+)`)

// refFieldRE is "@ct#n:field", a field of the object "@ct#n" as read (a
// tag's slug, for the relations written by slug).
var refFieldRE = regexp.MustCompile(`^@([a-z]+\.[a-z]+)#(\d+):([a-z_]+)$`)

// resolve replaces "@ct#n" references in a payload by ids, creating the
// referenced fixture objects on demand.
func (w *world) resolve(t *testing.T, v any) any {
	t.Helper()
	switch x := v.(type) {
	case string:
		if m := refRE.FindStringSubmatch(x); m != nil && m[0] == x {
			n, _ := strconv.Atoi(m[2])
			return w.ensure(t, m[1], n)
		}
		if m := refFieldRE.FindStringSubmatch(x); m != nil {
			n, _ := strconv.Atoi(m[2])
			path := detailPath(resource.ByContentType(m[1]), w.ensure(t, m[1], n))
			return must(t, w.e, http.StatusOK, "GET", path, nil).Object()[m[3]]
		}
		return x
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, v := range x {
			out[k] = w.resolve(t, v)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, v := range x {
			out[i] = w.resolve(t, v)
		}
		return out
	}
	return v
}

func (w *world) payload(t *testing.T, m map[string]any) map[string]any {
	t.Helper()
	if m == nil {
		return nil
	}
	return w.resolve(t, m).(map[string]any)
}

// query resolves references inside a query string.
func (w *world) query(t *testing.T, q string) string {
	t.Helper()
	return refRE.ReplaceAllStringFunc(q, func(s string) string {
		m := refRE.FindStringSubmatch(s)
		n, _ := strconv.Atoi(m[2])
		return strconv.Itoa(w.ensure(t, m[1], n))
	})
}

// ensure returns the id of fixture object n of ct, creating it first.
func (w *world) ensure(t *testing.T, ct string, n int) int {
	t.Helper()
	if id, ok := w.ids[ct][n]; ok {
		return id
	}
	if ct == w.d.ContentType() {
		t.Fatalf("fixture %s: reference to its own object %d before the suite created it (self references belong in update)", ct, n)
	}
	key := fmt.Sprintf("%s#%d", ct, n)
	if w.busy[key] {
		t.Fatalf("fixture reference cycle through %s", key)
	}
	w.busy[key] = true
	defer delete(w.busy, key)
	d := resource.ByContentType(ct)
	if d == nil {
		t.Fatalf("fixture reference to unknown model %s", ct)
	}
	fx := loadFixture(t, ct)
	if n >= len(fx.Create) {
		t.Fatalf("fixture reference %s: no such object", key)
	}
	r := w.e.Do("POST", listPath(d), w.payload(t, fx.Create[n]))
	if r.Status != http.StatusCreated {
		t.Fatalf("creating dependency %s: %d %s", key, r.Status, r.Body)
	}
	id := int(r.Object()["id"].(float64))
	w.remember(ct, n, id)
	return id
}

// freshUnique gives each unique FK of payload p (a module's module_bay,
// which holds one module) an object of its own: a variant of the target's
// first fixture object, so that objects made from one fixture object do
// not collide on it.
func (w *world) freshUnique(t *testing.T, d *resource.Descriptor, p map[string]any) map[string]any {
	t.Helper()
	fresh := freshFKs(d)
	// In name order: the fresh objects' numbers then repeat from run to
	// run (goldens show them).
	names := make([]string, 0, len(p))
	for name := range p {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		f := d.Field(name)
		if f != nil && f.Kind == resource.KindGenericRefs {
			p[name] = w.freshRefs(t, p[name])
			continue
		}
		if ref, ok := genericRef(d, p, name); ok && loadFixture(t, d.ContentType()).Fresh {
			// The id of a generic relation (a tunnel termination's
			// termination_id) whose object takes one such row only.
			p[name] = w.freshObject(t, ref, p[name])
			continue
		}
		if f == nil || f.Kind != resource.KindFK || !f.Unique && !fresh[name] {
			continue
		}
		td := resource.ByContentType(f.Target)
		n := 0 // the fixture object p referred to, varied
		for i, id := range w.ids[f.Target] {
			if fmt.Sprint(id) == fmt.Sprint(p[name]) {
				n = i
			}
		}
		w.fresh++
		r := w.e.Do("POST", listPath(td), variant(td, w.payload(t, loadFixture(t, f.Target).Create[n]), 1000+w.fresh))
		if r.Status != http.StatusCreated {
			t.Fatalf("creating a fresh %s for %s: %d %s", f.Target, name, r.Status, r.Body)
		}
		p[name] = r.Object()["id"]
	}
	return p
}

// genericRef reports the content type of the generic relation whose id
// field is name in payload p ("<x>_id" beside "<x>_type"), when it names a
// served model.
func genericRef(d *resource.Descriptor, p map[string]any, name string) (string, bool) {
	if !strings.HasSuffix(name, "_id") {
		return "", false
	}
	ct, ok := p[strings.TrimSuffix(name, "_id")+"_type"].(string)
	if !ok || d.Field(strings.TrimSuffix(name, "_id")+"_type") == nil || resource.ByContentType(ct) == nil {
		return "", false
	}
	return ct, true
}

// freshObject is a variant of the fixture object of type ct whose id is
// id (the first when none matches), made for one payload.
func (w *world) freshObject(t *testing.T, ct string, id any) any {
	t.Helper()
	n := 0
	for j, known := range w.ids[ct] {
		if fmt.Sprint(known) == fmt.Sprint(id) {
			n = j
		}
	}
	w.fresh++
	td := resource.ByContentType(ct)
	r := w.e.Do("POST", listPath(td), variant(td, w.payload(t, loadFixture(t, ct).Create[n]), 1000+w.fresh))
	if r.Status != http.StatusCreated {
		t.Fatalf("creating a fresh %s for a generic relation: %d %s", ct, r.Status, r.Body)
	}
	return r.Object()["id"]
}

// freshRefs gives each object of a list of generic references (a
// cable's a_terminations, each of which takes one cable) an object of its
// own, as freshUnique does for unique FKs.
func (w *world) freshRefs(t *testing.T, v any) any {
	t.Helper()
	list, ok := v.([]any)
	if !ok {
		return v
	}
	out := make([]any, len(list))
	for i, item := range list {
		m, ok := item.(map[string]any)
		ct, _ := m["object_type"].(string)
		td := resource.ByContentType(ct)
		if !ok || td == nil {
			out[i] = item
			continue
		}
		n := 0
		for j, id := range w.ids[ct] {
			if fmt.Sprint(id) == fmt.Sprint(m["object_id"]) {
				n = j
			}
		}
		w.fresh++
		r := w.e.Do("POST", listPath(td), variant(td, w.payload(t, loadFixture(t, ct).Create[n]), 1000+w.fresh))
		if r.Status != http.StatusCreated {
			t.Fatalf("creating a fresh %s for a reference: %d %s", ct, r.Status, r.Body)
		}
		out[i] = map[string]any{"object_type": ct, "object_id": r.Object()["id"]}
	}
	return out
}

// freshFKs are the FK fields of unique-together sets that vary leaves
// alone entirely (an FHRP group assignment's interface and group): each
// aspect needs objects of its own for them, as for a unique FK.
func freshFKs(d *resource.Descriptor) map[string]bool {
	out := map[string]bool{}
	for _, u := range d.Unique {
		varied := false
		var fks []string
		for _, name := range u.Fields {
			switch f := d.Field(name); f.Kind {
			case resource.KindString, resource.KindSlug, resource.KindInt, "username":
				varied = varied || len(f.Choices) == 0
			case resource.KindFK:
				fks = append(fks, name)
			}
		}
		if !varied && len(fks) > 0 {
			out[fks[0]] = true
		}
	}
	return out
}

func (w *world) remember(ct string, n, id int) {
	if w.ids[ct] == nil {
		w.ids[ct] = map[int]int{}
	}
	w.ids[ct][n] = id
}

func listPath(d *resource.Descriptor) string { return "/api/" + d.App + "/" + d.Path + "/" }

func detailPath(d *resource.Descriptor, id any) string {
	return fmt.Sprintf("%s%v/", listPath(d), id)
}

// do sends a request and checks what every API response carries.
func do(t *testing.T, e *servertest.Env, method, path string, body any, headers ...string) *servertest.Response {
	t.Helper()
	r := e.Do(method, path, body, headers...)
	if v := r.Header.Get("API-Version"); v != "4.6" {
		t.Errorf("%s %s: API-Version %q, want 4.6", method, path, v)
	}
	if len(r.Body) > 0 && strings.HasPrefix(r.Header.Get("Content-Type"), "application/json") {
		// Compact separators, whatever the database stored (jsonb
		// renders "[[1, 4094]]").
		var buf bytes.Buffer
		if err := json.Compact(&buf, r.Body); err != nil || !bytes.Equal(buf.Bytes(), r.Body) {
			t.Errorf("%s %s: body is not compact JSON: %.300s", method, path, r.Body)
		}
	}
	id, err := uuid.Parse(r.Header.Get("X-Request-ID"))
	if err != nil || id.Version() != 4 || id.String() != r.Header.Get("X-Request-ID") {
		t.Errorf("%s %s: X-Request-ID %q is no canonical UUID4", method, path, r.Header.Get("X-Request-ID"))
	}
	return r
}

func must(t *testing.T, e *servertest.Env, status int, method, path string, body any, headers ...string) *servertest.Response {
	t.Helper()
	r := do(t, e, method, path, body, headers...)
	if r.Status != status {
		t.Fatalf("%s %s: status %d, want %d: %s", method, path, r.Status, status, r.Body)
	}
	return r
}

// keys lists the top-level keys of a JSON object in document order.
func keys(t *testing.T, raw []byte) []string {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(raw))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		t.Fatalf("not a JSON object: %s", raw)
	}
	var out []string
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, tok.(string))
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			t.Fatal(err)
		}
	}
	return out
}

// page is a decoded list response with its raw results.
type page struct {
	Count    *int              `json:"count"`
	Next     *string           `json:"next"`
	Previous *string           `json:"previous"`
	Results  []json.RawMessage `json:"results"`
}

func getPage(t *testing.T, e *servertest.Env, path string) (*page, []byte) {
	t.Helper()
	r := must(t, e, http.StatusOK, "GET", path, nil)
	if got := keys(t, r.Body); !slices.Equal(got, []string{"count", "next", "previous", "results"}) {
		t.Fatalf("GET %s: envelope keys %v", path, got)
	}
	var p page
	if err := json.Unmarshal(r.Body, &p); err != nil {
		t.Fatal(err)
	}
	return &p, r.Body
}

func (p *page) ids(t *testing.T) []int {
	var out []int
	for _, raw := range p.Results {
		var o struct{ ID int }
		if err := json.Unmarshal(raw, &o); err != nil {
			t.Fatal(err)
		}
		out = append(out, o.ID)
	}
	return out
}

func obj(t *testing.T, raw []byte) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatalf("not an object: %s", raw)
	}
	return m
}

func canon(v any) string {
	b, _ := json.Marshal(v)
	var x any
	_ = json.Unmarshal(b, &x)
	b, _ = json.Marshal(x)
	return string(b)
}

// fullFields is the complete representation's key list, in order.
func fullFields(d *resource.Descriptor) []string {
	var out []string
	for _, f := range d.Fields {
		if !f.WriteOnly && f.Kind != resource.KindHidden {
			out = append(out, f.Name)
		}
	}
	return out
}

// briefFields are the keys of ?brief=true: the brief fields in the full
// form's order, as NetBox's serializer keeps them (ent/resource's
// TestBriefFormsMatchReference checks them against NetBox's).
func briefFields(d *resource.Descriptor) []string {
	if len(d.Brief) > 0 {
		var out []string
		for _, f := range d.BriefFields() {
			out = append(out, f.Name)
		}
		return out
	}
	return fullFields(d)
}

func has(d *resource.Descriptor, name string) bool {
	f := d.Field(name)
	return f != nil && !f.WriteOnly && f.Kind != resource.KindHidden
}

func writable(d *resource.Descriptor, name string) bool {
	f := d.Field(name)
	return f != nil && !f.ReadOnly && f.Column != "" && f.Kind != resource.KindHidden
}

// checkValues asserts that every field sent is rendered as written.
func checkValues(t *testing.T, d *resource.Descriptor, what string, sent map[string]any, got map[string]any) {
	t.Helper()
	for k, v := range sent {
		f := d.Field(k)
		if f == nil || f.WriteOnly || f.Kind == resource.KindSecret || f.Kind == resource.KindHidden {
			continue
		}
		if k == "custom_fields" {
			cf, _ := got[k].(map[string]any)
			for name, val := range v.(map[string]any) {
				if canon(cf[name]) != canon(val) {
					t.Errorf("%s: custom_fields.%s = %v, sent %v", what, name, cf[name], val)
				}
			}
			continue
		}
		g, ok := got[k]
		if !ok {
			t.Errorf("%s: field %s sent but not rendered", what, k)
			continue
		}
		if !sameValue(f, v, g) {
			t.Errorf("%s: %s = %s, sent %s", what, k, canon(g), canon(v))
		}
	}
}

func sameValue(f *resource.Field, sent, got any) bool {
	if sent == nil {
		return got == nil
	}
	switch f.Kind {
	case resource.KindFK:
		if f.PK {
			return canon(got) == canon(sent)
		}
		m, ok := got.(map[string]any)
		return ok && canon(m["id"]) == canon(sent)
	case resource.KindGenericRefs:
		// References in, each with its object nested out.
		list, _ := got.([]any)
		refs := make([]any, len(list))
		for i, x := range list {
			if m, ok := x.(map[string]any); ok {
				refs[i] = map[string]any{"object_type": m["object_type"], "object_id": m["object_id"]}
			}
		}
		return canon(refs) == canon(sent)
	case resource.KindImage:
		// A file in, the URL of the stored copy out (files.go).
		s, _ := got.(string)
		return strings.HasPrefix(s, host+"/media/")
	case resource.KindM2M, resource.KindTags, resource.KindReverse:
		// ids in, nested objects out, in the target's ordering: the same
		// set (lookup values both ways for a relation written by them).
		list, _ := got.([]any)
		ids := []string{}
		for _, x := range list {
			if m, ok := x.(map[string]any); ok {
				ids = append(ids, canon(m["id"]))
			} else {
				ids = append(ids, canon(x))
			}
		}
		want := []string{}
		sentList, _ := sent.([]any)
		for _, x := range sentList {
			want = append(want, canon(x))
		}
		slices.Sort(ids)
		slices.Sort(want)
		return slices.Equal(ids, want)
	case resource.KindChoice:
		m, ok := got.(map[string]any)
		return ok && fmt.Sprint(m["value"]) == fmt.Sprint(sent)
	case resource.KindTime:
		s, _ := sent.(string)
		g, _ := got.(string)
		ts, ok1 := resource.ParseTime(s)
		tg, ok2 := resource.ParseTime(g)
		return ok1 && ok2 && ts.Equal(tg)
	case resource.KindFloat:
		a, _ := sent.(float64)
		b, _ := got.(float64)
		return math.Abs(a-b) < 1e-9
	}
	return canon(sent) == canon(got)
}

// stripSecrets blanks write-once secrets, which only the creating response
// reveals, so that it can be compared with a later read.
func stripSecrets(t *testing.T, d *resource.Descriptor, m map[string]any, creating bool) map[string]any {
	t.Helper()
	out := map[string]any{}
	for k, v := range m {
		if f := d.Field(k); f != nil && f.Kind == resource.KindSecret {
			s, ok := v.(string)
			if creating && (!ok || s == "") {
				t.Errorf("creating response: secret %s = %v, want the plaintext once", k, v)
			}
			continue
		}
		out[k] = v
	}
	return out
}

func sameObject(t *testing.T, what string, a, b map[string]any) {
	t.Helper()
	if ca, cb := canon(a), canon(b); ca != cb {
		t.Errorf("%s differ:\n  %s\n  %s", what, ca, cb)
	}
}

var etagRE = regexp.MustCompile(`^W/"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{6})?\+00:00"$`)

func hasTimestamps(d *resource.Descriptor) bool {
	return d.Field("last_updated") != nil || d.Field("created") != nil
}

// TestConformance runs the generic suite over every registered model: a
// parallel subtest per model and per database, each with a server of its
// own, running the aspects (the table below) one after the other. Every
// aspect makes the objects it needs from the fixture, so any one runs
// alone:
//
//	go test ./server/ -run 'TestConformance/dcim.site/sqlite/filters'
func TestConformance(t *testing.T) {
	t.Cleanup(func() { saveQueryCounts(t) })
	for _, d := range resource.All() {
		t.Run(d.ContentType(), func(t *testing.T) {
			if d.ReadOnlyAPI {
				t.Skip("read-only model: change records are tested in changelog_test.go")
			}
			t.Parallel()
			fx := loadFixture(t, d.ContentType())
			servertest.EachParallel(t, func(t *testing.T, e *servertest.Env) {
				e.CheckOpenAPI()
				s := &suite{e: e, d: d, fx: fx, w: newWorld(e, d), db: t.Name()[strings.LastIndex(t.Name(), "/")+1:]}
				start := time.Now()
				for i, a := range aspects {
					t.Run(a.name, func(t *testing.T) {
						if a.applies != nil && !a.applies(d) {
							t.Skipf("%s does not apply to %s", a.name, d.ContentType())
						}
						if skipped(t, fx, a.name) {
							return
						}
						s.begin(t, i+1)
						a.run(t, s)
					})
				}
				t.Logf("%s done in %v", d.ContentType(), time.Since(start).Round(time.Millisecond))
			})
		})
	}
}

func skipped(t *testing.T, fx *fixture, aspect string) bool {
	if why, ok := fx.Skip[aspect]; ok {
		t.Logf("SKIP %s: %s", aspect, why)
		return true
	}
	return false
}

// suite is one model on one database: its server, and the fixture objects
// of other models created so far (shared by the aspects: they are only
// read). The model's own objects belong to the aspect that made them.
type suite struct {
	e  *servertest.Env
	d  *resource.Descriptor
	fx *fixture
	w  *world
	db string // "sqlite" or "postgres"

	// Per aspect: the variant number k and the three create payloads
	// made distinct by it.
	k int
	p []map[string]any
}

// Variant numbers: aspect n uses k = 2n (so that an update's vid of
// fixture+1, VLAN style, never meets another aspect's create); the query
// counts use kQueries+1..kQueries+20, the golden and bad input aspects
// fixed numbers so that their values do not move with the table.
const (
	kQueries  = 50
	kBadInput = 80
	kGolden   = 90
)

// begin prepares an aspect: it forgets the objects of the model under test
// that earlier aspects made, and makes this aspect's payloads.
func (s *suite) begin(t *testing.T, n int) {
	delete(s.w.ids, s.d.ContentType())
	s.setK(t, 2*n)
}

func (s *suite) setK(t *testing.T, k int) {
	s.k = k
	s.p = make([]map[string]any, 3)
	for i := range s.p {
		s.p[i] = s.vary(s.w.payload(t, s.fx.Create[i]))
		if k != 0 || s.fx.Fresh {
			s.p[i] = s.w.freshUnique(t, s.d, s.p[i])
		}
	}
}

// vary makes a payload distinct for this aspect (see variant); k = 0 keeps
// the fixture's own values.
func (s *suite) vary(m map[string]any) map[string]any {
	if s.k == 0 || m == nil {
		return m
	}
	return vary(s.d, m, s.k)
}

func (s *suite) list() string { return listPath(s.d) }

func (s *suite) count(t *testing.T) int {
	t.Helper()
	pg, _ := getPage(t, s.e, s.list()+"?limit=1")
	return *pg.Count
}

// objects creates the aspect's three objects (one bulk create) and returns
// their ids; fixture references to the model's own objects resolve to
// them from now on.
func (s *suite) objects(t *testing.T) [3]int {
	t.Helper()
	r := must(t, s.e, http.StatusCreated, "POST", s.list(), []any{s.p[0], s.p[1], s.p[2]})
	var ids [3]int
	for i, m := range r.JSON().([]any) {
		ids[i] = int(m.(map[string]any)["id"].(float64))
		s.w.remember(s.d.ContentType(), i, ids[i])
	}
	return ids
}

// update is the fixture's update payload, resolved and varied.
func (s *suite) update(t *testing.T) map[string]any {
	t.Helper()
	if s.fx.Update == nil {
		t.Fatal("fixture has no update")
	}
	return s.vary(s.w.payload(t, s.fx.Update))
}

// bulkPayload is the fixture's bulk_update payload (default: a new
// description), resolved; nil when the model has neither.
func (s *suite) bulkPayload(t *testing.T) map[string]any {
	bp := s.fx.BulkUpdate
	if bp == nil && writable(s.d, "description") {
		bp = map[string]any{"description": "bulk updated"}
	}
	return s.w.payload(t, bp)
}

// aspect is one independent check of the generic suite.
type aspect struct {
	name    string
	applies func(d *resource.Descriptor) bool // nil: every model
	run     func(t *testing.T, s *suite)
}

var aspects = []aspect{
	{name: "create", run: aspectCreate},
	{name: "bulk_create_all_or_none", run: aspectBulkCreateAllOrNone},
	{name: "invalid_create", run: aspectInvalidCreate},
	{name: "bulk_create", run: aspectBulkCreate},
	{name: "list_and_retrieve", run: aspectListAndRetrieve},
	{name: "brief", run: aspectBrief},
	{name: "fields_and_omit", run: aspectFieldsAndOmit},
	{name: "ordering", run: aspectOrdering},
	{name: "offset_pagination", run: aspectOffsetPagination},
	{name: "cursor_pagination", run: aspectCursorPagination},
	{name: "filters", run: aspectFilters},
	{name: "errors", run: aspectErrors},
	{name: "options", run: aspectOptions},
	{name: "update", run: aspectUpdate},
	{name: "put", run: aspectPut},
	{name: "etag", run: aspectETag},
	{name: "bulk_update", run: aspectBulkUpdate},
	// A tagged model whose serializer shows no tags (a data source) is
	// tagged only through its filters.
	{name: "tags", applies: func(d *resource.Descriptor) bool { return d.Tagged && d.Field("tags") != nil }, run: aspectTags},
	{name: "custom_fields", applies: func(d *resource.Descriptor) bool { return d.Custom }, run: aspectCustomFields},
	{name: "delete", run: aspectDelete},
	{name: "change_log", run: func(t *testing.T, s *suite) { conformChangeLog(t, s) }},
	{name: "query_count", run: aspectQueryCount},
	{name: "bad_input", run: func(t *testing.T, s *suite) {
		s.setK(t, kBadInput)
		conformBadInput(t, s.e, s.d, s.w, s.p)
	}},
	{name: "golden", run: aspectGolden},
	// After golden: the objects they make would renumber the golden's.
	{name: "protect", run: aspectProtect},
	{name: "wire", run: aspectWire},
	{name: "contacts", applies: takesContacts, run: aspectContacts},
	{name: "owner", applies: ownerAspect, run: aspectOwner},
}

func aspectCreate(t *testing.T, s *suite) {
	e, d, p := s.e, s.d, s.p
	full := fullFields(d)
	r := must(t, e, http.StatusCreated, "POST", s.list(), p[0])
	if loc := r.Header.Get("Location"); loc != "" {
		t.Errorf("Location header %q on create", loc)
	}
	if got := keys(t, r.Body); !slices.Equal(got, full) {
		t.Errorf("create: keys\n  %v\nwant\n  %v", got, full)
	}
	created := obj(t, r.Body)
	id := int(created["id"].(float64))
	checkValues(t, d, "create", p[0], created)
	if hasTimestamps(d) {
		if !etagRE.MatchString(r.Header.Get("ETag")) {
			t.Errorf("create: ETag %q", r.Header.Get("ETag"))
		}
	}
	g := must(t, e, http.StatusOK, "GET", detailPath(d, id), nil)
	if r.Header.Get("ETag") != g.Header.Get("ETag") {
		t.Errorf("ETag of create %q != of GET %q", r.Header.Get("ETag"), g.Header.Get("ETag"))
	}
	after := obj(t, g.Body)
	for k, v := range after {
		if f := d.Field(k); f != nil && f.Kind == resource.KindSecret && v != nil {
			t.Errorf("GET shows secret %s after the creating response", k)
		}
	}
	sameObject(t, "create response and re-GET", stripSecrets(t, d, created, true), stripSecrets(t, d, after, false))
}

func aspectBulkCreateAllOrNone(t *testing.T, s *suite) {
	e, d, p, fx, list := s.e, s.d, s.p, s.fx, s.list()
	if fx.Invalid.Body == nil {
		t.Fatal("fixture has no invalid payload")
	}
	base := s.count(t)
	inv := s.w.payload(t, fx.Invalid.Body)
	r := must(t, e, http.StatusBadRequest, "POST", list, []any{p[1], p[2], inv})
	var errs []map[string]any
	if err := json.Unmarshal(r.Body, &errs); err != nil || len(errs) != 3 {
		t.Fatalf("bulk create error body is no 3-item array: %s", r.Body)
	}
	if len(errs[0]) != 0 || len(errs[1]) != 0 {
		t.Errorf("valid items carry errors: %s", r.Body)
	}
	var got []string
	for k := range errs[2] {
		got = append(got, k)
	}
	sort.Strings(got)
	want := slices.Clone(fx.Invalid.Errors)
	sort.Strings(want)
	if !slices.Equal(got, want) {
		t.Errorf("invalid item: error keys %v, want %v (%s)", got, want, r.Body)
	}
	if n := s.count(t); n != base {
		t.Errorf("after failed bulk create: count %d, want %d", n, base)
	}
	// The same object twice: the second collides with the first
	// inside the transaction (NetBox: 500; here a per-item 400).
	if uniqueApplies(d, p[1]) {
		r := must(t, e, http.StatusBadRequest, "POST", list, []any{p[1], p[1]})
		if err := json.Unmarshal(r.Body, &errs); err != nil || len(errs) != 2 || len(errs[0]) != 0 || len(errs[1]) == 0 {
			t.Errorf("duplicate items: %s", r.Body)
		}
		if n := s.count(t); n != base {
			t.Errorf("after failed bulk create: count %d, want %d", n, base)
		}
	}
}

func aspectInvalidCreate(t *testing.T, s *suite) {
	e, fx, list := s.e, s.fx, s.list()
	r := must(t, e, http.StatusBadRequest, "POST", list, s.w.payload(t, fx.Invalid.Body))
	var got []string
	for k := range obj(t, r.Body) {
		got = append(got, k)
	}
	sort.Strings(got)
	want := slices.Clone(fx.Invalid.Errors)
	sort.Strings(want)
	if !slices.Equal(got, want) {
		t.Errorf("error keys %v, want %v (%s)", got, want, r.Body)
	}
	r = must(t, e, http.StatusBadRequest, "POST", list, `"just a string"`)
	if string(r.Body) != `{"non_field_errors":["Invalid data. Expected a dictionary, but got str."]}` {
		t.Errorf("scalar body: %s", r.Body)
	}
}

func aspectBulkCreate(t *testing.T, s *suite) {
	e, d, p := s.e, s.d, s.p
	full := fullFields(d)
	base := s.count(t)
	r := must(t, e, http.StatusCreated, "POST", s.list(), []any{p[1], p[2]})
	var items []json.RawMessage
	if err := json.Unmarshal(r.Body, &items); err != nil || len(items) != 2 {
		t.Fatalf("bulk create response is no 2-item array: %s", r.Body)
	}
	if r.Header.Get("ETag") != "" {
		t.Errorf("bulk create carries an ETag")
	}
	var ids [2]int
	for i, raw := range items {
		if got := keys(t, raw); !slices.Equal(got, full) {
			t.Errorf("bulk create item %d: keys %v", i, got)
		}
		m := obj(t, raw)
		ids[i] = int(m["id"].(float64))
		checkValues(t, d, fmt.Sprintf("bulk create item %d", i), p[i+1], m)
		stripSecrets(t, d, m, true)
	}
	if ids[0] >= ids[1] {
		t.Errorf("bulk create: ids %v not in request order", ids)
	}
	if n := s.count(t); n != base+2 {
		t.Errorf("count %d after creating 2, want %d", n, base+2)
	}
}

func aspectListAndRetrieve(t *testing.T, s *suite) {
	e, d, list := s.e, s.d, s.list()
	full := fullFields(d)
	base := s.count(t)
	ids := s.objects(t)
	pg, _ := getPage(t, e, list+"?limit=0")
	if *pg.Count != base+3 || len(pg.Results) != base+3 || pg.Next != nil || pg.Previous != nil {
		t.Fatalf("list: count %v, %d results, next %v, previous %v", *pg.Count, len(pg.Results), pg.Next, pg.Previous)
	}
	for _, raw := range pg.Results {
		if got := keys(t, raw); !slices.Equal(got, full) {
			t.Errorf("list item keys\n  %v\nwant\n  %v", got, full)
		}
		m := obj(t, raw)
		id := int(m["id"].(float64))
		if !slices.Contains(ids[:], id) {
			continue
		}
		g := must(t, e, http.StatusOK, "GET", detailPath(d, id), nil)
		if got := keys(t, g.Body); !slices.Equal(got, full) {
			t.Errorf("detail keys %v", got)
		}
		sameObject(t, "list item and detail", m, obj(t, g.Body))
		if hasTimestamps(d) && !etagRE.MatchString(g.Header.Get("ETag")) {
			t.Errorf("GET detail: ETag %q", g.Header.Get("ETag"))
		}
		if u, _ := m["url"].(string); u != host+detailPath(d, id) {
			t.Errorf("url %q", u)
		}
	}
}

func aspectBrief(t *testing.T, s *suite) {
	e, d, list := s.e, s.d, s.list()
	ids := s.objects(t)
	if len(d.Brief) == 0 {
		t.Logf("%s has no brief fields: brief is the full representation", d.ContentType())
	}
	want := briefFields(d)
	pg, _ := getPage(t, e, list+"?brief=true")
	for _, raw := range pg.Results {
		if got := keys(t, raw); !slices.Equal(got, want) {
			t.Errorf("brief list item keys %v, want %v", got, want)
		}
	}
	r := must(t, e, http.StatusOK, "GET", detailPath(d, ids[0])+"?brief=1", nil)
	if got := keys(t, r.Body); !slices.Equal(got, want) {
		t.Errorf("brief detail keys %v, want %v", got, want)
	}
}

func aspectFieldsAndOmit(t *testing.T, s *suite) {
	e, d, list := s.e, s.d, s.list()
	full := fullFields(d)
	ids := s.objects(t)
	pick := []string{"id", "display"}
	if !has(d, "display") {
		pick = []string{"id"}
	}
	r := must(t, e, http.StatusOK, "GET", detailPath(d, ids[0])+"?fields="+strings.Join(pick, ","), nil)
	if got := keys(t, r.Body); !slices.Equal(got, pick) {
		t.Errorf("fields=%v: keys %v", pick, got)
	}
	// Order follows the representation, not the parameter.
	r = must(t, e, http.StatusOK, "GET", detailPath(d, ids[0])+"?fields="+pick[len(pick)-1]+",id,no_such_field", nil)
	if got := keys(t, r.Body); !slices.Equal(got, pick) {
		t.Errorf("fields (reversed, unknown name): keys %v", got)
	}
	pg, _ := getPage(t, e, list+"?fields=id")
	for _, raw := range pg.Results {
		if got := keys(t, raw); !slices.Equal(got, []string{"id"}) {
			t.Errorf("list fields=id: keys %v", got)
		}
	}
	omit := full[len(full)-1]
	r = must(t, e, http.StatusOK, "GET", detailPath(d, ids[0])+"?omit=id,"+omit, nil)
	if got, want := keys(t, r.Body), without(full, "id", omit); !slices.Equal(got, want) {
		t.Errorf("omit=id,%s: keys %v", omit, got)
	}
	r = must(t, e, http.StatusOK, "GET", detailPath(d, ids[0])+"?fields=id&omit=id", nil)
	if got := keys(t, r.Body); !slices.Equal(got, []string{"id"}) {
		t.Errorf("fields wins over omit: keys %v", got)
	}
	r = must(t, e, http.StatusOK, "GET", detailPath(d, ids[0])+"?fields=id&brief=1", nil)
	if got := keys(t, r.Body); !slices.Equal(got, []string{"id"}) {
		t.Errorf("fields wins over brief: keys %v", got)
	}
}

func aspectOrdering(t *testing.T, s *suite) {
	e, d, p, list := s.e, s.d, s.p, s.list()
	ids := s.objects(t)
	pg, _ := getPage(t, e, list+"?ordering=id&limit=0")
	asc := pg.ids(t)
	if !slices.IsSorted(asc) {
		t.Errorf("ordering=id: %v", asc)
	}
	pg, _ = getPage(t, e, list+"?ordering=-id&limit=0")
	desc := pg.ids(t)
	slices.Reverse(desc)
	if !slices.Equal(asc, desc) {
		t.Errorf("ordering=-id is not the reverse of ordering=id: %v", pg.ids(t))
	}
	f := orderField(d, p)
	if f == nil {
		t.Logf("no field with distinct plain values to order by")
		return
	}
	for _, dir := range []string{"", "-"} {
		pg, _ := getPage(t, e, list+"?ordering="+dir+f.Name+"&limit=0")
		var vals []any
		for _, raw := range pg.Results {
			m := obj(t, raw)
			if slices.Contains(ids[:], int(m["id"].(float64))) {
				vals = append(vals, m[f.Name])
			}
		}
		sorted := slices.Clone(vals)
		sort.SliceStable(sorted, func(i, j int) bool { return less(sorted[i], sorted[j]) != (dir == "-") })
		if canon(vals) != canon(sorted) {
			t.Errorf("ordering=%s%s: %v", dir, f.Name, vals)
		}
	}
}

func aspectOffsetPagination(t *testing.T, s *suite) {
	e, list := s.e, s.list()
	s.objects(t)
	total := s.count(t)
	pg, _ := getPage(t, e, list+"?limit=1")
	if *pg.Count != total || len(pg.Results) != 1 || pg.Previous != nil {
		t.Fatalf("limit=1: count %v, %d results, previous %v", *pg.Count, len(pg.Results), pg.Previous)
	}
	if want := host + list + "?limit=1&offset=1"; pg.Next == nil || *pg.Next != want {
		t.Errorf("limit=1: next %v, want %s", pg.Next, want)
	}
	pg, _ = getPage(t, e, list+"?offset=2&limit=1")
	if want := host + list + "?limit=1&offset=1"; pg.Previous == nil || *pg.Previous != want {
		t.Errorf("offset=2: previous %v, want %s", pg.Previous, want)
	}
	pg, _ = getPage(t, e, list+"?offset=1&limit=1")
	if want := host + list + "?limit=1"; pg.Previous == nil || *pg.Previous != want {
		t.Errorf("offset=1: previous %v, want %s (offset dropped)", pg.Previous, want)
	}
	// Follow next with other parameters present: they stay, sorted.
	next := list + "?ordering=-id&limit=2"
	var seen []int
	for i := 0; next != ""; i++ {
		pg, _ := getPage(t, e, next)
		seen = append(seen, pg.ids(t)...)
		next = ""
		if pg.Next != nil {
			if want := fmt.Sprintf("%s%s?limit=2&offset=%d&ordering=-id", host, list, 2*(i+1)); *pg.Next != want {
				t.Fatalf("next %s, want %s", *pg.Next, want)
			}
			next = strings.TrimPrefix(*pg.Next, host)
		}
		if i > total {
			t.Fatal("next never ends")
		}
	}
	all, _ := getPage(t, e, list+"?ordering=-id&limit=0")
	if !slices.Equal(seen, all.ids(t)) {
		t.Errorf("pages %v != all %v", seen, all.ids(t))
	}
	pg, _ = getPage(t, e, list+fmt.Sprintf("?offset=%d", total+5))
	if *pg.Count != total || len(pg.Results) != 0 || pg.Next != nil {
		t.Errorf("offset past the end: count %v, %d results", *pg.Count, len(pg.Results))
	}
}

func aspectCursorPagination(t *testing.T, s *suite) {
	e, list := s.e, s.list()
	s.objects(t)
	total := s.count(t)
	next := list + "?start=0&limit=2"
	var seen []int
	for i := 0; next != ""; i++ {
		r := must(t, e, http.StatusOK, "GET", next, nil)
		if !bytes.HasPrefix(r.Body, []byte(`{"count":null,`)) {
			t.Fatalf("cursor page: count not null: %s", r.Body)
		}
		var pg page
		_ = json.Unmarshal(r.Body, &pg)
		got := pg.ids(t)
		seen = append(seen, got...)
		if pg.Previous != nil {
			t.Errorf("cursor page: previous %v", *pg.Previous)
		}
		next = ""
		if pg.Next != nil {
			if len(got) != 2 {
				t.Fatalf("next on a short page")
			}
			if want := fmt.Sprintf("%s%s?limit=2&start=%d", host, list, got[len(got)-1]+1); *pg.Next != want {
				t.Fatalf("next %s, want %s", *pg.Next, want)
			}
			next = strings.TrimPrefix(*pg.Next, host)
		} else if len(got) == 2 {
			t.Fatalf("full cursor page without next")
		}
		if i > total {
			t.Fatal("next never ends")
		}
	}
	all, _ := getPage(t, e, list+"?ordering=id&limit=0")
	if !slices.Equal(seen, all.ids(t)) {
		t.Errorf("cursor pages %v != all %v", seen, all.ids(t))
	}
	for q, msg := range map[string]string{
		"?start=0&offset=1":    `["'start' and 'offset' are mutually exclusive."]`,
		"?start=-1":            `["Invalid 'start' parameter: must be a non-negative integer."]`,
		"?start=x":             `["Invalid 'start' parameter: must be a non-negative integer."]`,
		"?start=0&ordering=id": `["Ordering cannot be specified in conjunction with cursor-based pagination."]`,
	} {
		r := must(t, e, http.StatusBadRequest, "GET", list+q, nil)
		if string(r.Body) != msg {
			t.Errorf("%s: %s, want %s", q, r.Body, msg)
		}
	}
}

// aspectFilters runs the fixture's filters over the fixture's own values
// (k = 0: no other aspect uses them).
func aspectFilters(t *testing.T, s *suite) {
	e, d, fx, list := s.e, s.d, s.fx, s.list()
	s.setK(t, 0)
	ids := s.objects(t)
	r := must(t, e, http.StatusBadRequest, "GET", list+"?no_such_filter=1", nil)
	if _, ok := obj(t, r.Body)["no_such_filter"]; !ok {
		t.Errorf("unknown filter: body does not name it: %s", r.Body)
	}
	if len(fx.Filters) == 0 {
		t.Errorf("fixture has no filters")
	}
	for _, f := range fx.Filters {
		q := s.w.query(t, f.Query)
		if n := matches(t, e, list, q, ids[:]); n != f.Count {
			t.Errorf("?%s: %d of the created objects match, want %d", q, n, f.Count)
		}
	}
	// Filters apply on detail routes too (BEHAVIOUR.md §7.1).
	must(t, e, http.StatusNotFound, "GET", detailPath(d, ids[0])+fmt.Sprintf("?id=%d", ids[1]), nil)
}

func aspectErrors(t *testing.T, s *suite) {
	e, d, list := s.e, s.d, s.list()
	ids := s.objects(t)
	r := must(t, e, http.StatusNotFound, "GET", detailPath(d, missing), nil)
	if want := `{"detail":"No ` + d.ClassName() + ` matches the given query."}`; string(r.Body) != want {
		t.Errorf("missing object: %s, want %s", r.Body, want)
	}
	for _, m := range []string{"PATCH", "PUT", "DELETE"} {
		r := must(t, e, http.StatusNotFound, m, detailPath(d, missing), map[string]any{})
		if want := `{"detail":"No ` + d.ClassName() + ` matches the given query."}`; string(r.Body) != want {
			t.Errorf("%s missing object: %s", m, r.Body)
		}
	}
	r = must(t, e, http.StatusNotFound, "GET", detailPath(d, "abc"), nil)
	if string(r.Body) != `{"detail":"Not found."}` {
		t.Errorf("non-integer id: %s", r.Body)
	}
	// A missing slash: a redirect with an empty body, as Django's 301
	// (302 here, SPEC.md); no DRF view answers, so no Allow.
	r = must(t, e, http.StatusFound, "GET", strings.TrimSuffix(list, "/"), nil)
	if loc := r.Header.Get("Location"); loc != list || len(r.Body) != 0 || r.Header.Get("Allow") != "" {
		t.Errorf("list without slash: Location %q, Allow %q, body %q", loc, r.Header.Get("Allow"), r.Body)
	}
	r = must(t, e, http.StatusFound, "GET", strings.TrimSuffix(detailPath(d, ids[0]), "/")+"?brief=1", nil)
	if loc := r.Header.Get("Location"); loc != detailPath(d, ids[0])+"?brief=1" || len(r.Body) != 0 {
		t.Errorf("detail without slash: Location %q, body %q", loc, r.Body)
	}
	// Unknown paths under the model's and unsafe methods without slash:
	// Django's HTML 404 page (BEHAVIOUR.md §1.2), not a DRF JSON body.
	for _, req := range [][2]string{{"GET", list + "nonexistent/x/"}, {"GET", list + "1/nonexistent/"}, {"POST", strings.TrimSuffix(list, "/")}} {
		r = must(t, e, http.StatusNotFound, req[0], req[1], nil)
		if ct := r.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/html") || !strings.Contains(string(r.Body), "Page Not Found") || r.Header.Get("API-Version") == "" {
			t.Errorf("%s %s: 404 %q %s", req[0], req[1], ct, r.Body)
		}
	}
	anon := e.Anonymous()
	for _, req := range [][2]string{{"GET", list}, {"GET", detailPath(d, ids[0])}, {"POST", list}, {"PATCH", detailPath(d, ids[0])}, {"DELETE", list}} {
		var body any
		if req[0] != "GET" {
			body = map[string]any{}
		}
		r := must(t, anon, http.StatusForbidden, req[0], req[1], body)
		if string(r.Body) != `{"detail":"Authentication credentials were not provided."}` {
			t.Errorf("anonymous %s %s: %s", req[0], req[1], r.Body)
		}
	}
	r = must(t, e, http.StatusMethodNotAllowed, "POST", detailPath(d, ids[0]), map[string]any{})
	if string(r.Body) != `{"detail":"Method \"POST\" not allowed."}` {
		t.Errorf("POST on detail: %s", r.Body)
	}
}

func aspectOptions(t *testing.T, s *suite) {
	e, d, list := s.e, s.d, s.list()
	ids := s.objects(t)
	r := must(t, e, http.StatusOK, "OPTIONS", list, nil)
	var body struct {
		Name    string
		Actions map[string]map[string]struct {
			Type     string
			Required bool
			ReadOnly bool `json:"read_only"`
			Choices  json.RawMessage
		}
	}
	if err := json.Unmarshal(r.Body, &body); err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(body.Name, " List") {
		t.Errorf("name %q", body.Name)
	}
	post := body.Actions["POST"]
	if post == nil {
		t.Fatalf("no actions.POST: %s", r.Body)
	}
	for _, f := range d.Fields {
		info, ok := post[f.Name]
		if f.Kind == resource.KindHidden {
			if ok {
				t.Errorf("hidden field %s listed", f.Name)
			}
			continue
		}
		if !ok {
			t.Errorf("field %s missing from actions.POST", f.Name)
			continue
		}
		if len(f.Choices) == 0 || f.ReadOnly {
			if info.Choices != nil {
				t.Errorf("%s: choices on a field without writable choices", f.Name)
			}
			continue
		}
		var want []map[string]any
		for _, c := range f.Choices {
			want = append(want, map[string]any{"value": c.Value, "display_name": c.Label})
		}
		var got any
		_ = json.Unmarshal(info.Choices, &got)
		if canon(got) != canon(want) {
			t.Errorf("%s: choices %s, want %s", f.Name, info.Choices, canon(want))
		}
	}
	r = must(t, e, http.StatusOK, "OPTIONS", detailPath(d, ids[0]), nil)
	var detailMeta struct {
		Actions map[string]json.RawMessage `json:"actions"`
	}
	_ = json.Unmarshal(r.Body, &detailMeta)
	if detailMeta.Actions["PUT"] == nil || detailMeta.Actions["POST"] != nil {
		t.Errorf("detail OPTIONS: %s", r.Body)
	}
}

func aspectUpdate(t *testing.T, s *suite) {
	e, d, p := s.e, s.d, s.p
	full := fullFields(d)
	ids := s.objects(t)
	up := s.update(t)
	// Derived read-only values (a prefix's _depth) may move; what was
	// written, and last_updated, may not.
	others := func() string {
		var out []any
		for _, id := range ids[1:] {
			m := must(t, e, http.StatusOK, "GET", detailPath(d, id), nil).Object()
			for k := range m {
				if f := d.Field(k); f == nil || f.ReadOnly && k != "last_updated" {
					delete(m, k)
				}
			}
			out = append(out, m)
		}
		return canon(out)
	}
	before := others()
	r := must(t, e, http.StatusOK, "PATCH", detailPath(d, ids[0]), up)
	// Writing one object leaves the others alone (a self-referencing
	// edge once rewrote the parent's own parent).
	if after := others(); after != before {
		t.Errorf("PATCH of one object changed others:\n  %s\n  %s", before, after)
	}
	if pid, ok := up["parent"].(int); ok && d.Field("_depth") != nil {
		parent := must(t, e, http.StatusOK, "GET", detailPath(d, pid), nil).Object()
		if got, want := obj(t, r.Body)["_depth"], parent["_depth"].(float64)+1; got != want {
			t.Errorf("_depth %v below a parent of depth %v", got, parent["_depth"])
		}
	}
	got := obj(t, r.Body)
	checkValues(t, d, "PATCH", up, got)
	if got := keys(t, r.Body); !slices.Equal(got, full) {
		t.Errorf("PATCH keys %v", got)
	}
	checkValues(t, d, "PATCH keeps the rest", without2(p[0], up), got)
	g := must(t, e, http.StatusOK, "GET", detailPath(d, ids[0]), nil)
	sameObject(t, "PATCH response and re-GET", got, obj(t, g.Body))
	if r.Header.Get("ETag") != g.Header.Get("ETag") {
		t.Errorf("PATCH ETag %q != GET ETag %q", r.Header.Get("ETag"), g.Header.Get("ETag"))
	}
}

func aspectPut(t *testing.T, s *suite) {
	e, d, p := s.e, s.d, s.p
	ids := s.objects(t)
	var required []string
	for _, f := range d.Fields {
		if f.Required && !f.ReadOnly && !f.CreateOnly && f.Column != "" {
			required = append(required, f.Name)
		}
	}
	sort.Strings(required)
	before := must(t, e, http.StatusOK, "GET", detailPath(d, ids[1]), nil)
	if len(required) > 0 {
		r := must(t, e, http.StatusBadRequest, "PUT", detailPath(d, ids[1]), map[string]any{})
		var got []string
		for k := range obj(t, r.Body) {
			got = append(got, k)
		}
		sort.Strings(got)
		if !slices.Equal(got, required) {
			t.Errorf("PUT {}: error keys %v, want the required fields %v", got, required)
		}
		after := must(t, e, http.StatusOK, "GET", detailPath(d, ids[1]), nil)
		sameObject(t, "object after a failed PUT", obj(t, before.Body), obj(t, after.Body))
	} else {
		t.Logf("no required fields on update: PUT {} not checked")
	}
	r := must(t, e, http.StatusOK, "PUT", detailPath(d, ids[1]), p[1])
	checkValues(t, d, "PUT", p[1], obj(t, r.Body))
}

func aspectETag(t *testing.T, s *suite) {
	e, d, p := s.e, s.d, s.p
	ids := s.objects(t)
	bp := s.bulkPayload(t)
	if !hasTimestamps(d) {
		r := must(t, e, http.StatusOK, "GET", detailPath(d, ids[0]), nil)
		if r.Header.Get("ETag") != "" {
			t.Errorf("ETag %q on a model without timestamps", r.Header.Get("ETag"))
		}
		t.Logf("no timestamps: no ETag, If-Match ignored")
		return
	}
	if bp == nil {
		t.Fatal("no bulk_update payload for the ETag checks")
	}
	path := detailPath(d, ids[0])
	e1 := must(t, e, http.StatusOK, "GET", path, nil).Header.Get("ETag")
	r := must(t, e, http.StatusPreconditionFailed, "PATCH", path, bp, `If-Match: W/"1999-01-01T00:00:00+00:00"`)
	if string(r.Body) != `{"detail":"Precondition failed."}` || r.Header.Get("ETag") != e1 {
		t.Errorf("412: %s, ETag %q want %q", r.Body, r.Header.Get("ETag"), e1)
	}
	must(t, e, http.StatusPreconditionFailed, "PUT", path, p[0], `If-Match: W/"nope"`)
	must(t, e, http.StatusPreconditionFailed, "DELETE", path, nil, `If-Match: W/"nope"`)
	must(t, e, http.StatusOK, "PATCH", path, bp, "If-Match: *")
	e2 := must(t, e, http.StatusOK, "GET", path, nil).Header.Get("ETag")
	r = must(t, e, http.StatusOK, "PATCH", path, bp, `If-Match: W/"other", `+e2)
	e3 := r.Header.Get("ETag")
	if d.Field("last_updated") == nil {
		t.Logf("ETag from created only: a stale ETag is not detectable")
		return
	}
	if e3 == e2 {
		t.Fatalf("ETag did not move on PATCH: %s", e3)
	}
	r = must(t, e, http.StatusPreconditionFailed, "PATCH", path, bp, "If-Match: "+e2)
	if r.Header.Get("ETag") != e3 {
		t.Errorf("412 carries ETag %q, want current %q", r.Header.Get("ETag"), e3)
	}
}

func aspectBulkUpdate(t *testing.T, s *suite) {
	e, d, p, list := s.e, s.d, s.p, s.list()
	ids := s.objects(t)
	bp := s.bulkPayload(t)
	if bp == nil {
		t.Fatal("fixture needs bulk_update: the model has no writable description")
	}
	snapshot := func() string {
		a := must(t, e, http.StatusOK, "GET", detailPath(d, ids[1]), nil)
		b := must(t, e, http.StatusOK, "GET", detailPath(d, ids[2]), nil)
		return string(a.Body) + string(b.Body)
	}
	before := snapshot()
	item := func(id int, m map[string]any) map[string]any {
		out := map[string]any{"id": id}
		for k, v := range m {
			out[k] = v
		}
		return out
	}
	// All or none: a missing id, or an invalid item, fails everything.
	r := must(t, e, http.StatusBadRequest, "PATCH", list, []any{item(ids[1], bp), item(missing, bp)})
	if !strings.Contains(string(r.Body), "id") {
		t.Errorf("missing id: %s", r.Body)
	}
	must(t, e, http.StatusBadRequest, "PUT", list, []any{item(ids[1], p[1]), item(missing, p[2])})
	must(t, e, http.StatusBadRequest, "PUT", list, []any{item(ids[1], p[1]), item(ids[2], s.w.payload(t, s.fx.Invalid.Body))})
	must(t, e, http.StatusBadRequest, "PATCH", list, []any{item(ids[1], bp), map[string]any{"description": "no id"}})
	r = must(t, e, http.StatusBadRequest, "PATCH", list, map[string]any{"id": ids[1]})
	if string(r.Body) != `{"non_field_errors":["Expected a list of items but got type \"dict\"."]}` {
		t.Errorf("bulk PATCH with an object: %s", r.Body)
	}
	if after := snapshot(); after != before {
		t.Errorf("a failed bulk update changed objects:\n%s\n%s", before, after)
	}
	r = must(t, e, http.StatusOK, "PATCH", list, []any{item(ids[2], bp), item(ids[1], bp)})
	var got []map[string]any
	if err := json.Unmarshal(r.Body, &got); err != nil || len(got) != 2 {
		t.Fatalf("bulk PATCH response: %s", r.Body)
	}
	if r.Header.Get("ETag") != "" {
		t.Errorf("bulk PATCH carries an ETag")
	}
	for _, m := range got {
		checkValues(t, d, "bulk PATCH", bp, m)
	}
	r = must(t, e, http.StatusOK, "PUT", list, []any{item(ids[1], p[1]), item(ids[2], p[2])})
	if err := json.Unmarshal(r.Body, &got); err != nil || len(got) != 2 {
		t.Fatalf("bulk PUT response: %s", r.Body)
	}
	for i, m := range got {
		checkValues(t, d, "bulk PUT", p[i+1], m)
	}
}

func aspectTags(t *testing.T, s *suite) {
	ids := s.objects(t)
	conformTags(t, s.e, s.d, ids)
}

func aspectCustomFields(t *testing.T, s *suite) {
	ids := s.objects(t)
	conformCustomFields(t, s.e, s.d, ids, s.bulkPayload(t))
}

func aspectDelete(t *testing.T, s *suite) {
	e, d, list := s.e, s.d, s.list()
	base := s.count(t)
	ids := s.objects(t)
	r := must(t, e, http.StatusNoContent, "DELETE", detailPath(d, ids[0]), nil)
	if len(r.Body) != 0 {
		t.Errorf("DELETE body: %q", r.Body)
	}
	r = must(t, e, http.StatusNotFound, "GET", detailPath(d, ids[0]), nil)
	if want := `{"detail":"No ` + d.ClassName() + ` matches the given query."}`; string(r.Body) != want {
		t.Errorf("deleted object: %s", r.Body)
	}
	must(t, e, http.StatusBadRequest, "DELETE", list, []any{map[string]any{"id": ids[1]}, map[string]any{"id": missing}})
	must(t, e, http.StatusBadRequest, "DELETE", list, []any{map[string]any{"id": ids[1]}, map[string]any{"id": ids[0]}})
	must(t, e, http.StatusBadRequest, "DELETE", list, nil)
	must(t, e, http.StatusOK, "GET", detailPath(d, ids[1]), nil)
	r = must(t, e, http.StatusNoContent, "DELETE", list, []any{map[string]any{"id": ids[1]}, map[string]any{"id": ids[2], "changelog_message": "bye"}})
	if len(r.Body) != 0 {
		t.Errorf("bulk DELETE body: %q", r.Body)
	}
	for _, id := range ids[1:] {
		must(t, e, http.StatusNotFound, "GET", detailPath(d, id), nil)
	}
	if n := s.count(t); n != base {
		t.Errorf("count %d after deleting everything, want %d", n, base)
	}
}

// queryCountsFile holds the stored read-query baselines, per model,
// database and endpoint; `make test-update` rewrites it.
var queryCountsFile = filepath.Join("..", "testdata", "querycounts.json")

// measured collects the counts of this run, written by saveQueryCounts
// when updating.
var measured = struct {
	sync.Mutex
	m map[string]map[string]map[string]int64
}{m: map[string]map[string]map[string]int64{}}

func loadQueryCounts(t *testing.T) map[string]map[string]map[string]int64 {
	t.Helper()
	out := map[string]map[string]map[string]int64{}
	raw, err := os.ReadFile(queryCountsFile)
	if os.IsNotExist(err) {
		return out
	}
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw, &out); err != nil {
		t.Fatalf("%s: %v", queryCountsFile, err)
	}
	return out
}

// saveQueryCounts merges this run's counts into the baselines file (models
// and databases not run keep theirs) when updating.
func saveQueryCounts(t *testing.T) {
	if !servertest.Updating() {
		return
	}
	measured.Lock()
	defer measured.Unlock()
	if len(measured.m) == 0 {
		return
	}
	all := loadQueryCounts(t)
	for ct, dbs := range measured.m {
		if all[ct] == nil {
			all[ct] = map[string]map[string]int64{}
		}
		for db, m := range dbs {
			all[ct][db] = m
		}
	}
	for ct := range all {
		if resource.ByContentType(ct) == nil {
			delete(all, ct)
		}
	}
	raw, err := json.MarshalIndent(all, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(queryCountsFile, append(raw, '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("updated %s", queryCountsFile)
}

// aspectQueryCount measures the SQL statements (counted at the driver,
// the cache emptied first; authentication's, the same for every request,
// left out) of a list page of 1 and of 20 objects (complete and
// brief) and of a detail GET. A page must cost the same whatever its size
// (no N+1), and no count may rise above its stored baseline
// (testdata/querycounts.json).
func aspectQueryCount(t *testing.T, s *suite) {
	e, d, list := s.e, s.d, s.list()
	stmts := func(method, q string) int64 {
		e.DB.Cache.Bump() // measure the queries themselves, not the cache
		before := e.Statements()
		must(t, e, http.StatusOK, method, q, nil)
		return e.Statements() - before
	}
	// Authentication's statements (the token and its user, read again
	// after the bump) are the same for every request: an OPTIONS, which
	// reads nothing else, measures them, and the baselines count the rest.
	auth := stmts("OPTIONS", list)
	cost := func(q string) int64 { return stmts("GET", q) - auth }
	// Variants of the fixture's own first object (not of this aspect's,
	// which would shift by both k): their values stay within
	// kQueries+1..kQueries+20, clear of every other aspect's.
	first := s.w.payload(t, s.fx.Create[0])
	var more []any
	for k := 1; k <= 20; k++ {
		more = append(more, s.w.freshUnique(t, d, vary(d, first, kQueries+k)))
	}
	r := must(t, e, http.StatusCreated, "POST", list, more)
	var q20 []string
	for _, m := range r.JSON().([]any) {
		q20 = append(q20, fmt.Sprintf("id=%v", m.(map[string]any)["id"]))
	}
	// Both pages are full (limit = their size), so both ask for the count:
	// a short page knows its count without it.
	one := list + "?" + q20[0] + "&limit=1"
	twenty := list + "?" + strings.Join(q20, "&") + "&limit=20"
	if pg, _ := getPage(t, e, twenty); len(pg.Results) != 20 {
		t.Fatalf("the 20 objects made: %d listed", len(pg.Results))
	}
	got := map[string]int64{
		"list_1":        cost(one),
		"list_20":       cost(twenty),
		"list_brief_1":  cost(one + "&brief=1"),
		"list_brief_20": cost(twenty + "&brief=1"),
		"detail":        cost(detailPath(d, strings.TrimPrefix(q20[0], "id="))),
	}
	if got["list_1"] != got["list_20"] || got["list_brief_1"] != got["list_brief_20"] {
		t.Errorf("read queries for a page of 1 vs 20 objects: complete %d vs %d, brief %d vs %d (N+1)",
			got["list_1"], got["list_20"], got["list_brief_1"], got["list_brief_20"])
	}
	t.Logf("read queries: %v", got)
	ct := d.ContentType()
	if servertest.Updating() {
		measured.Lock()
		if measured.m[ct] == nil {
			measured.m[ct] = map[string]map[string]int64{}
		}
		measured.m[ct][s.db] = got
		measured.Unlock()
		return
	}
	base := loadQueryCounts(t)[ct][s.db]
	if base == nil {
		t.Fatalf("no query-count baseline for %s on %s in %s: run `make test-update` and commit it", ct, s.db, queryCountsFile)
	}
	for _, k := range slices.Sorted(maps.Keys(got)) {
		b, ok := base[k]
		switch {
		case !ok:
			t.Errorf("%s: no baseline for %s: run `make test-update`", queryCountsFile, k)
		case got[k] > b:
			t.Errorf("%s on %s: %d read queries, baseline %d (%s)", k, s.db, got[k], b, queryCountsFile)
		case got[k] < b:
			t.Logf("%s: %d read queries, below the baseline %d: `make test-update` lowers it", k, got[k], b)
		}
	}
}

// aspectGolden compares representative responses with the model's golden
// files in testdata/golden/<app>.<model>/ (the same files for every
// database): the complete and brief object, a 400 error body and the
// list's OPTIONS. Volatile values are normalised (servertest.Normalize).
func aspectGolden(t *testing.T, s *suite) {
	e, d, list := s.e, s.d, s.list()
	s.setK(t, kGolden)
	dir := filepath.Join("..", "testdata", "golden", d.ContentType())
	id := int(must(t, e, http.StatusCreated, "POST", list, s.p[0]).Object()["id"].(float64))
	golden := func(name string, r *servertest.Response) {
		t.Helper()
		servertest.Golden(t, filepath.Join(dir, name), servertest.Normalize(t, r.Body))
	}
	golden("complete.json", must(t, e, http.StatusOK, "GET", detailPath(d, id), nil))
	golden("brief.json", must(t, e, http.StatusOK, "GET", detailPath(d, id)+"?brief=1", nil))
	golden("error_400.json", must(t, e, http.StatusBadRequest, "POST", list, s.w.payload(t, s.fx.Invalid.Body)))
	golden("options.json", must(t, e, http.StatusOK, "OPTIONS", list, nil))
}

func without(list []string, drop ...string) []string {
	var out []string
	for _, s := range list {
		if !slices.Contains(drop, s) {
			out = append(out, s)
		}
	}
	return out
}

// without2 is m minus the keys of drop.
func without2(m, drop map[string]any) map[string]any {
	out := map[string]any{}
	for k, v := range m {
		if _, ok := drop[k]; !ok {
			out[k] = v
		}
	}
	return out
}

// uniqueApplies says whether creating payload twice must collide: some
// unique set has all its fields given (and its WhenNull fields absent).
func uniqueApplies(d *resource.Descriptor, payload map[string]any) bool {
	for _, u := range d.Unique {
		all := true
		for _, f := range u.Fields {
			if v, ok := payload[f]; !ok || v == nil {
				all = false
			}
		}
		for _, f := range u.WhenNull {
			if v, ok := payload[f]; ok && v != nil {
				all = false
			}
		}
		if all {
			return true
		}
	}
	return false
}

// orderField picks a plain column whose values differ in the three
// payloads, so that ordering by it is observable.
func orderField(d *resource.Descriptor, p []map[string]any) *resource.Field {
	for _, f := range d.Fields {
		switch f.Kind {
		case resource.KindString, resource.KindSlug, resource.KindInt, "username":
		default:
			continue
		}
		if f.Column == "" || f.WriteOnly || f.Nullable {
			continue
		}
		seen := map[string]bool{}
		for _, m := range p {
			v, ok := m[f.Name]
			if !ok {
				break
			}
			seen[fmt.Sprint(v)] = true
		}
		if len(seen) == 3 {
			return f
		}
	}
	return nil
}

func less(a, b any) bool {
	switch x := a.(type) {
	case float64:
		return x < b.(float64)
	case string:
		return x < b.(string)
	}
	return false
}

// matches counts how many of ids a filtered list returns.
func matches(t *testing.T, e *servertest.Env, list, q string, ids []int) int {
	t.Helper()
	pg, _ := getPage(t, e, list+"?"+q+"&limit=0&fields=id")
	n := 0
	for _, id := range pg.ids(t) {
		if slices.Contains(ids, id) {
			n++
		}
	}
	return n
}

func tagNames(t *testing.T, r *servertest.Response) []string {
	t.Helper()
	var out []string
	tags, _ := r.Object()["tags"].([]any)
	for _, x := range tags {
		m := x.(map[string]any)
		if got := fmt.Sprint(sortedKeys(m)); got != "[color display display_url id name slug url]" {
			t.Errorf("nested tag keys %s", got)
		}
		out = append(out, m["name"].(string))
	}
	sort.Strings(out)
	return out
}

func sortedKeys(m map[string]any) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// conformanceTags creates the tags "Conformance A", "B" and "C" (C only
// for another model) for one aspect, and deletes them when it ends.
func conformanceTags(t *testing.T, e *servertest.Env, d *resource.Descriptor) []int {
	t.Helper()
	restricted := "dcim.region"
	if d.ContentType() == restricted {
		restricted = "dcim.site"
	}
	var tagIDs []int
	for _, n := range []string{"A", "B", "C"} {
		body := map[string]any{"name": "Conformance " + n, "slug": "conformance-" + strings.ToLower(n)}
		if n == "C" {
			body["object_types"] = []string{restricted}
		}
		r := must(t, e, http.StatusCreated, "POST", "/api/extras/tags/", body)
		tagIDs = append(tagIDs, int(r.Object()["id"].(float64)))
	}
	t.Cleanup(func() {
		for _, id := range tagIDs {
			e.Must(http.StatusNoContent, "DELETE", fmt.Sprintf("/api/extras/tags/%d/", id), nil)
		}
	})
	return tagIDs
}

// conformanceField creates a custom field of the model for one aspect, and
// deletes it when the aspect ends.
func conformanceField(t *testing.T, e *servertest.Env, body map[string]any) {
	t.Helper()
	id := int(must(t, e, http.StatusCreated, "POST", "/api/extras/custom-fields/", body).Object()["id"].(float64))
	t.Cleanup(func() {
		e.Must(http.StatusNoContent, "DELETE", fmt.Sprintf("/api/extras/custom-fields/%d/", id), nil)
	})
}

// conformTags checks tag filters and tags / add_tags / remove_tags
// (BEHAVIOUR.md §7.4, §10) on the three objects.
func conformTags(t *testing.T, e *servertest.Env, d *resource.Descriptor, ids [3]int) {
	tagIDs := conformanceTags(t, e, d)
	slug := func(n string) map[string]any { return map[string]any{"slug": "conformance-" + n} }
	path := func(i int) string { return detailPath(d, ids[i]) }
	r := must(t, e, http.StatusOK, "PATCH", path(0), map[string]any{"tags": []any{slug("b"), slug("a")}})
	if got := tagNames(t, r); fmt.Sprint(got) != "[Conformance A Conformance B]" {
		t.Errorf("tags by slug: %v", got)
	}
	r = must(t, e, http.StatusOK, "PATCH", path(1), map[string]any{"tags": []any{tagIDs[0]}})
	if got := tagNames(t, r); fmt.Sprint(got) != "[Conformance A]" {
		t.Errorf("tags by id: %v", got)
	}
	r = must(t, e, http.StatusOK, "PATCH", path(2), map[string]any{"tags": []any{}})
	if got := tagNames(t, r); len(got) != 0 {
		t.Errorf("tags cleared: %v", got)
	}
	list := listPath(d)
	for q, want := range map[string]int{
		"tag=conformance-a":                                      2,
		"tag=conformance-a&tag=conformance-b":                    1,
		"tag__any=conformance-a&tag__any=conformance-b":          2,
		"tag__any=conformance-b":                                 1,
		"tag__n=conformance-b":                                   2,
		"tag__n=conformance-a&tag__n=conformance-b":              1,
		fmt.Sprintf("tag_id=%d", tagIDs[0]):                      2,
		fmt.Sprintf("tag_id=%d&tag_id=%d", tagIDs[0], tagIDs[1]): 1,
	} {
		if n := matches(t, e, list, q, ids[:]); n != want {
			t.Errorf("?%s: %d match, want %d", q, n, want)
		}
	}
	r = must(t, e, http.StatusBadRequest, "GET", list+"?tag=no-such-tag", nil)
	if _, ok := r.Object()["tag"]; !ok {
		t.Errorf("unknown tag: %s", r.Body)
	}

	etag := func() string { return must(t, e, http.StatusOK, "GET", path(2), nil).Header.Get("ETag") }
	e0 := etag()
	r = must(t, e, http.StatusOK, "PATCH", path(2), map[string]any{"add_tags": []any{slug("a")}})
	if got := tagNames(t, r); fmt.Sprint(got) != "[Conformance A]" {
		t.Errorf("add_tags: %v", got)
	}
	if d.Field("last_updated") != nil && r.Header.Get("ETag") == e0 {
		t.Errorf("ETag did not move on a tag-only change")
	}
	r = must(t, e, http.StatusOK, "PATCH", path(2), map[string]any{"add_tags": []any{slug("b"), slug("a")}})
	if got := tagNames(t, r); fmt.Sprint(got) != "[Conformance A Conformance B]" {
		t.Errorf("add_tags again: %v", got)
	}
	r = must(t, e, http.StatusOK, "PATCH", path(2), map[string]any{"remove_tags": []any{slug("a"), slug("c")}})
	if got := tagNames(t, r); fmt.Sprint(got) != "[Conformance B]" {
		t.Errorf("remove_tags: %v", got)
	}
	for _, c := range []struct {
		body map[string]any
		want string
	}{
		{map[string]any{"tags": []any{slug("a")}, "add_tags": []any{slug("b")}}, `{"tags":["Cannot specify \"tags\" together with \"add_tags\" or \"remove_tags\"."]}`},
		{map[string]any{"tags": []any{slug("a")}, "remove_tags": []any{slug("b")}}, `{"tags":["Cannot specify \"tags\" together with \"add_tags\" or \"remove_tags\"."]}`},
		{map[string]any{"add_tags": []any{slug("a"), slug("b")}, "remove_tags": []any{slug("b"), slug("a")}}, `{"remove_tags":["Tags may not be present in both \"add_tags\" and \"remove_tags\": Conformance A, Conformance B"]}`},
		{map[string]any{"add_tags": []any{slug("zz")}}, `{"add_tags":["Related object not found using the provided attributes: {'slug': 'conformance-zz'}"]}`},
		{map[string]any{"add_tags": []any{slug("c")}}, `{"detail":"Tag Conformance C cannot be assigned to ` + d.Model + ` objects."}`},
		{map[string]any{"tags": []any{slug("c")}}, `{"detail":"Tag Conformance C cannot be assigned to ` + d.Model + ` objects."}`},
	} {
		r := must(t, e, http.StatusBadRequest, "PATCH", path(2), c.body)
		if string(r.Body) != c.want {
			t.Errorf("PATCH %s:\n  %s\nwant\n  %s", canon(c.body), r.Body, c.want)
		}
	}
	r = must(t, e, http.StatusOK, "GET", path(2), nil)
	if got := tagNames(t, r); fmt.Sprint(got) != "[Conformance B]" {
		t.Errorf("tags after refused changes: %v", got)
	}
	r = must(t, e, http.StatusBadRequest, "POST", list, map[string]any{"remove_tags": []any{slug("a")}})
	if !strings.Contains(string(r.Body), `"remove_tags":["Cannot use \"remove_tags\" when creating a new object."]`) {
		t.Errorf("remove_tags on create: %s", r.Body)
	}
}

// conformCustomFields checks that custom_fields lists every custom field of
// the model, null until set, and the cf_ filter.
func conformCustomFields(t *testing.T, e *servertest.Env, d *resource.Descriptor, ids [3]int, bp map[string]any) {
	path := detailPath(d, ids[0])
	r := must(t, e, http.StatusOK, "GET", path, nil)
	if cf, ok := r.Object()["custom_fields"].(map[string]any); !ok || len(cf) != 0 {
		t.Errorf("custom_fields without any custom field: %v", r.Object()["custom_fields"])
	}
	other := "wireless.wirelesslan" // a model with custom fields other than d
	if d.ContentType() == other {
		other = "wireless.wirelesslink"
	}
	conformanceField(t, e, map[string]any{"name": "conformance_other", "type": "text", "object_types": []string{other}})
	conformanceField(t, e, map[string]any{"name": "conformance_text", "type": "text", "object_types": []string{d.ContentType()}})
	conformanceField(t, e, map[string]any{"name": "conformance_int", "type": "integer", "object_types": []string{d.ContentType(), other}, "weight": 1})
	pg, _ := getPage(t, e, listPath(d)+"?limit=0")
	for _, raw := range pg.Results {
		m := obj(t, raw)
		if got := canon(m["custom_fields"]); got != `{"conformance_int":null,"conformance_text":null}` {
			t.Errorf("custom_fields with two fields unset: %s", got)
		}
	}
	r = must(t, e, http.StatusOK, "GET", path, nil)
	var raw struct {
		CustomFields json.RawMessage `json:"custom_fields"`
	}
	_ = json.Unmarshal(r.Body, &raw)
	if got := keys(t, raw.CustomFields); fmt.Sprint(got) != "[conformance_int conformance_text]" {
		t.Errorf("custom field order (weight, name): %v", got)
	}
	r = must(t, e, http.StatusOK, "PATCH", path, map[string]any{"custom_fields": map[string]any{"conformance_text": "Hello World"}})
	if got := canon(r.Object()["custom_fields"]); got != `{"conformance_int":null,"conformance_text":"Hello World"}` {
		t.Errorf("custom_fields after PATCH: %s", got)
	}
	r = must(t, e, http.StatusOK, "PATCH", path, map[string]any{"custom_fields": map[string]any{"conformance_int": 7}})
	if got := canon(r.Object()["custom_fields"]); got != `{"conformance_int":7,"conformance_text":"Hello World"}` {
		t.Errorf("custom_fields are merged on PATCH: %s", got)
	}
	if bp != nil {
		r = must(t, e, http.StatusOK, "PATCH", path, bp)
		if got := canon(r.Object()["custom_fields"]); got != `{"conformance_int":7,"conformance_text":"Hello World"}` {
			t.Errorf("custom_fields after an unrelated PATCH: %s", got)
		}
	}
	for q, want := range map[string]int{
		"cf_conformance_text=hello":   1,
		"cf_conformance_text=nothing": 0,
		"cf_conformance_int=7":        1,
		"cf_conformance_int__gte=8":   0,
		"cf_conformance_int=null":     2,
	} {
		if n := matches(t, e, listPath(d), q, ids[:]); n != want {
			t.Errorf("?%s: %d match, want %d", q, n, want)
		}
	}
	r = must(t, e, http.StatusBadRequest, "PATCH", detailPath(d, ids[1]), map[string]any{"custom_fields": map[string]any{"conformance_other": "x"}})
	if string(r.Body) != `{"custom_fields":{"conformance_other":"Custom field 'conformance_other' does not exist for this object type."}}` {
		t.Errorf("custom field of another model: %s", r.Body)
	}
	r = must(t, e, http.StatusBadRequest, "PATCH", detailPath(d, ids[1]), map[string]any{"custom_fields": map[string]any{"conformance_int": "seven"}})
	if _, ok := r.Object()["__all__"]; !ok {
		t.Errorf("bad custom field value: %s", r.Body)
	}
}

// variant is payload p made distinct by k: strings of unique-ish kinds get
// a suffix, integers in unique sets an offset; write-only fields (password
// hashing is slow on purpose) are dropped.
func variant(d *resource.Descriptor, p map[string]any, k int) map[string]any {
	out := vary(d, p, k)
	if reflect.DeepEqual(out, p) {
		// A model without plain strings (a journal entry): its text
		// fields take the suffix instead.
		for name, v := range p {
			if f := d.Field(name); f != nil && f.Kind == resource.KindText {
				if s, ok := v.(string); ok {
					out[name] = fmt.Sprintf("%sx%d", s, k)
				}
			}
		}
	}
	// Fresh objects for FKs or for a generic relation's object (a fresh
	// fixture's, freshUnique) make it distinct too: a tunnel termination,
	// whose fields are its tunnel, its role and its object.
	if reflect.DeepEqual(out, p) && len(freshFKs(d)) == 0 && !hasGenericRelation(d) {
		panic("variant did not change the payload")
	}
	return out
}

// hasGenericRelation: the model has a generic relation (a type field).
func hasGenericRelation(d *resource.Descriptor) bool {
	for _, f := range d.Fields {
		if f.Kind == resource.KindGenericType {
			return true
		}
	}
	return false
}

// vary is variant for payloads that may have nothing to make distinct (an
// update payload): it returns them unchanged.
func vary(d *resource.Descriptor, p map[string]any, k int) map[string]any {
	inUnique := map[string]bool{}
	for _, u := range d.Unique {
		for _, f := range u.Fields {
			inUnique[f] = true
		}
	}
	out := map[string]any{}
	for name, v := range p {
		f := d.Field(name)
		if f == nil {
			out[name] = v
			continue
		}
		switch x := v.(type) {
		case string:
			switch f.Kind {
			case resource.KindString, resource.KindSlug, "username":
				if len(f.Choices) == 0 { // plain-value choices keep their value
					v = fmt.Sprintf("%sx%d", x, k)
				}
			case "cidr", "cidr-aggregate", "ip-with-mask":
				// Address space that may not overlap (aggregates, IP
				// ranges) or repeat (prefixes, with ENFORCE_GLOBAL_UNIQUE
				// or a VRF's enforce_unique) moves by k networks of its
				// own size.
				v = shiftIP(x, k)
			}
		case float64:
			// (An integer id referring to another model stays.)
			if f.Kind == resource.KindInt && inUnique[name] && f.Target == "" {
				v = x + float64(k)
			}
		case int:
			if f.Kind == resource.KindInt && inUnique[name] && f.Target == "" {
				v = x + k
			}
		case []any:
			// A list of integers (a rack reservation's units) shifts by k
			// too: values that may not repeat across objects (units
			// reserved once per rack) stay distinct across aspects.
			if f.GoType == "[]int" {
				shifted := make([]any, len(x))
				for i, e := range x {
					if n, ok := e.(float64); ok {
						shifted[i] = n + float64(k)
					} else {
						shifted[i] = e
					}
				}
				v = shifted
			}
		}
		out[name] = v
	}
	return out
}

// shiftIP moves an address or prefix with mask by k networks of its size
// (10.0.0.10/24 by 2: 10.0.2.10/24), keeping its host bits.
func shiftIP(s string, k int) string {
	p, err := netip.ParsePrefix(s)
	if err != nil {
		return s
	}
	b := p.Addr().AsSlice()
	n := new(big.Int).SetBytes(b)
	n.Add(n, new(big.Int).Lsh(big.NewInt(int64(k)), uint(p.Addr().BitLen()-p.Bits())))
	if n.BitLen() > len(b)*8 {
		return s
	}
	out := n.FillBytes(make([]byte, len(b)))
	a, ok := netip.AddrFromSlice(out)
	if !ok {
		return s
	}
	return netip.PrefixFrom(a, p.Bits()).String()
}
