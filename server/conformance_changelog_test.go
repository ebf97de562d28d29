package server_test

// The change-record and webhook-event step of the generic conformance suite
// (DESIGN.md §6; BEHAVIOUR.md §11.2, §12.4, §12.7): every write of a
// change-logged model leaves exactly one change record and one outbox event
// per object touched, under the request's X-Request-ID; failed writes leave
// neither; models without change logging leave nothing.

import (
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/inventory/inventory/ent"
	"github.com/inventory/inventory/ent/resource"
	"github.com/inventory/inventory/server/servertest"
)

// relative strips the absolute host prefix from every string of a decoded
// JSON value: the API renders absolute URLs, event data relative ones.
// eventView is an API representation as event data shows it: without
// config_context, as NetBox's plain serializer has none (BEHAVIOUR.md
// §12.7).
func eventView(v any) any {
	if m, ok := v.(map[string]any); ok {
		delete(m, resource.Excludable)
	}
	return v
}

func relative(v any) any {
	switch x := v.(type) {
	case string:
		return strings.TrimPrefix(x, host)
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, v := range x {
			out[k] = relative(v)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, v := range x {
			out[i] = relative(v)
		}
		return out
	}
	return v
}

// touched is what one write should have recorded about one object.
type touched struct {
	id      int
	action  string // create update delete
	message string
	repr    string         // the object's display
	data    map[string]any // its API representation (absolute URLs)
}

var eventOf = map[string]string{"create": "created", "update": "updated", "delete": "deleted"}

// logOf checks the change records and outbox events of one request against
// want (one entry per object touched; none for a model without change
// logging) and returns the records by object id.
// linksTo reports whether model ct holds a many-to-many relation to d:
// deleting a d then records an update of the objects that lose the link
// (TestChangeLogManyToMany checks those), beside the records logOf checks.
func linksTo(ct string, d *resource.Descriptor) bool {
	od := resource.ByContentType(ct)
	if od == nil || od == d {
		return false
	}
	return slices.ContainsFunc(od.Fields, func(f *resource.Field) bool {
		return f.Kind == resource.KindM2M && f.Target == d.ContentType() && !f.Inverse
	})
}

// terminates reports whether writes of d (a cable, through its generic
// reference lists) also write rows of model ct: the cable's termination
// rows and the objects they terminate, each with records of its own
// (TestCableChangeRecords checks those), beside the records logOf checks.
func terminates(ct string, d *resource.Descriptor) bool {
	for _, f := range d.Fields {
		if f.Kind == resource.KindGenericRefs && (ct == "dcim.cabletermination" || slices.Contains(f.Types, ct)) {
			return true
		}
	}
	return false
}

// tracesEnds reports whether writes of d (a wireless link) also record
// updates of model ct: the interfaces at its ends, whose wireless_link
// and connection it changes (TestWirelessLinkPaths checks those), beside
// the records logOf checks.
func tracesEnds(ct string, d *resource.Descriptor) bool {
	return d.ContentType() == "wireless.wirelesslink" && ct == "dcim.interface"
}

func logOf(t *testing.T, e *servertest.Env, d *resource.Descriptor, what, reqID string, want []touched) map[int]map[string]any {
	t.Helper()
	if !d.Logged {
		want = nil
	}
	recs := slices.DeleteFunc(changes(t, e, reqID), func(rec map[string]any) bool {
		return linksTo(rec["changed_object_type"].(string), d) && action(rec) == "update" ||
			terminates(rec["changed_object_type"].(string), d) || tracesEnds(rec["changed_object_type"].(string), d)
	})
	byID := map[int]map[string]any{}
	for _, rec := range recs {
		id, _ := rec["changed_object_id"].(float64)
		if byID[int(id)] != nil {
			t.Errorf("%s: two records for object %v: %v", what, id, recs)
		}
		byID[int(id)] = rec
	}
	if len(recs) != len(want) {
		t.Errorf("%s: %d change records, want %d: %v", what, len(recs), len(want), recs)
	}
	for _, w := range want {
		rec := byID[w.id]
		if rec == nil {
			t.Errorf("%s: no change record for %s %d", what, d.ContentType(), w.id)
			continue
		}
		if action(rec) != w.action || rec["changed_object_type"] != d.ContentType() || rec["message"] != w.message ||
			rec["object_repr"] != w.repr || rec["user_name"] != "admin" || rec["request_id"] != reqID {
			t.Errorf("%s: record of %d: action %q type %v message %q object_repr %q user_name %v request_id %v; want %s %s %q %q admin %s",
				what, w.id, action(rec), rec["changed_object_type"], rec["message"], rec["object_repr"], rec["user_name"], rec["request_id"],
				w.action, d.ContentType(), w.message, w.repr, reqID)
		}
		pre, preOK := rec["prechange_data"].(map[string]any)
		post, postOK := rec["postchange_data"].(map[string]any)
		if !preOK || !postOK {
			t.Errorf("%s: record of %d: snapshots are not objects: %v / %v", what, w.id, rec["prechange_data"], rec["postchange_data"])
			continue
		}
		switch w.action {
		case "create":
			if len(pre) != 0 || len(post) == 0 {
				t.Errorf("%s: create record of %d: pre %v post %v, want {} and a snapshot", what, w.id, pre, post)
			}
		case "update":
			if len(pre) == 0 || len(post) == 0 || canon(pre) == canon(post) {
				t.Errorf("%s: update record of %d: pre %v post %v, want two different snapshots", what, w.id, pre, post)
			}
		case "delete":
			if len(pre) == 0 || len(post) != 0 {
				t.Errorf("%s: delete record of %d: pre %v post %v, want a snapshot and {}", what, w.id, pre, post)
			}
		}
	}

	evs := slices.DeleteFunc(events(t, e, reqID), func(ev *ent.OutboxEvent) bool {
		return linksTo(ev.ObjectType, d) && ev.Event == "updated" || terminates(ev.ObjectType, d) || tracesEnds(ev.ObjectType, d)
	})
	if len(evs) != len(want) {
		t.Errorf("%s: %d outbox events, want %d", what, len(evs), len(want))
	}
	seen := map[int]bool{}
	for _, ev := range evs {
		if seen[ev.ObjectID] {
			t.Errorf("%s: two outbox events for object %d", what, ev.ObjectID)
		}
		seen[ev.ObjectID] = true
		i := slices.IndexFunc(want, func(w touched) bool { return w.id == ev.ObjectID })
		if i < 0 {
			t.Errorf("%s: outbox event %s of %s %d, which the write did not touch", what, ev.Event, ev.ObjectType, ev.ObjectID)
			continue
		}
		w := want[i]
		if ev.Event != eventOf[w.action] || ev.ObjectType != d.ContentType() || ev.Username != "admin" || ev.UserID == nil {
			t.Errorf("%s: outbox event of %d: %s %s by %q (%v), want %s %s by admin", what, w.id, ev.Event, ev.ObjectType, ev.Username, ev.UserID, eventOf[w.action], d.ContentType())
		}
		nullish := func(raw json.RawMessage) bool { return len(raw) == 0 || string(raw) == "null" }
		if nullish(ev.Prechange) != (w.action == "create") || nullish(ev.Postchange) != (w.action == "delete") {
			t.Errorf("%s: outbox event of %d (%s): prechange %s postchange %s", what, w.id, w.action, ev.Prechange, ev.Postchange)
		}
		if w.data != nil {
			var got any
			if err := json.Unmarshal(ev.Data, &got); err != nil {
				t.Errorf("%s: outbox event data of %d: %v", what, w.id, err)
			} else if g, x := canon(got), canon(eventView(relative(w.data))); g != x {
				t.Errorf("%s: outbox event data of %d differs from the API representation with relative URLs:\n  %s\n  %s", what, w.id, g, x)
			}
		}
	}
	return byID
}

// conformChangeLog writes fresh objects made from the fixture payloads p
// (made distinct for this aspect): create (with tags and
// a custom field where the model has them), PATCH, a no-op PATCH, refused
// writes (invalid object, invalid bulk item, over-long changelog_message),
// bulk create, bulk update, a rolled-back bulk PUT, the fixture's update,
// delete and bulk delete. After each request it checks that request's
// change records (REST) and outbox events (database) object by object; a
// model without change logging must produce neither.
func conformChangeLog(t *testing.T, s *suite) {
	e, d, fx, w, p, bp := s.e, s.d, s.fx, s.w, s.p, s.bulkPayload(t)
	list := listPath(d)
	defer e.ListenToAllEvents()()
	if d.Tagged {
		conformanceTags(t, e, d)
	}
	if d.Custom {
		conformanceField(t, e, map[string]any{"name": "conformance_text", "type": "text", "object_types": []string{d.ContentType()}})
	}
	nothing := func(what string, before [2]int, reqID string) {
		t.Helper()
		logOf(t, e, d, what, reqID, nil)
		if nc, ne := counts(t, e); nc != before[0] || ne != before[1] {
			t.Errorf("%s: change records %d→%d, outbox events %d→%d", what, before[0], nc, before[1], ne)
		}
	}
	now := func() [2]int { nc, ne := counts(t, e); return [2]int{nc, ne} }
	withMsg := func(m map[string]any, msg string) map[string]any {
		out := map[string]any{}
		for k, v := range m {
			out[k] = v
		}
		if d.Logged {
			out["changelog_message"] = msg
		}
		return out
	}
	get := func(id int) map[string]any {
		t.Helper()
		return must(t, e, http.StatusOK, "GET", detailPath(d, id), nil).Object()
	}
	display := func(m map[string]any) string {
		s, _ := m["display"].(string)
		return s
	}
	id := func(m map[string]any) int { f, _ := m["id"].(float64); return int(f) }

	// Create one object; tags and custom fields written with it belong to
	// its one create record and event (BEHAVIOUR.md §11.2, §12.4).
	first := withMsg(p[0], "conformance create")
	if d.Tagged {
		first["tags"] = []any{map[string]any{"slug": "conformance-a"}}
	}
	if d.Custom {
		first["custom_fields"] = map[string]any{"conformance_text": "logged"}
	}
	r := must(t, e, http.StatusCreated, "POST", list, first)
	created := r.Object()
	id0 := id(created)
	createReq := r.Header.Get("X-Request-ID")
	cur := get(id0)
	recs := logOf(t, e, d, "create", createReq, []touched{{id0, "create", "conformance create", display(cur), cur}})
	if d.Logged {
		pg, _ := getPage(t, e, list+"?created_by_request="+createReq)
		if got := pg.ids(t); !slices.Equal(got, []int{id0}) {
			t.Errorf("created_by_request=%s: %v, want [%d]", createReq, got, id0)
		}
	}
	createPost := recs[id0]["postchange_data"]
	snapTags := func(what string, snap any, want string) {
		t.Helper()
		if d.Logged && d.Tagged {
			if got := canon(asObject(snap)["tags"]); got != want {
				t.Errorf("%s: snapshot tags %s, want %s", what, got, want)
			}
		}
	}
	snapTags("create record", createPost, `["Conformance A"]`)
	if d.Logged && d.Custom {
		if got := asObject(asObject(createPost)["custom_fields"])["conformance_text"]; got != "logged" {
			t.Errorf("create record: snapshot custom_fields %v", asObject(createPost)["custom_fields"])
		}
	}

	// Update it.
	if bp == nil {
		t.Fatal("no bulk_update payload to update with")
	}
	upd := withMsg(bp, "conformance update")
	if d.Tagged {
		upd["add_tags"] = []any{map[string]any{"slug": "conformance-b"}}
	}
	r = must(t, e, http.StatusOK, "PATCH", detailPath(d, id0), upd)
	updReq := r.Header.Get("X-Request-ID")
	cur = get(id0)
	recs = logOf(t, e, d, "PATCH", updReq, []touched{{id0, "update", "conformance update", display(cur), cur}})
	if d.Logged {
		if canon(recs[id0]["prechange_data"]) != canon(createPost) {
			t.Errorf("update record: prechange_data %s is not the create's postchange_data %s", canon(recs[id0]["prechange_data"]), canon(createPost))
		}
		for _, f := range []string{"updated_by_request", "modified_by_request"} {
			pg, _ := getPage(t, e, list+"?"+f+"="+updReq)
			if got := pg.ids(t); !slices.Equal(got, []int{id0}) {
				t.Errorf("%s=%s: %v, want [%d]", f, updReq, got, id0)
			}
		}
		pg, _ := getPage(t, e, list+"?created_by_request="+updReq)
		if len(pg.Results) != 0 {
			t.Errorf("created_by_request of an update request: %v", pg.ids(t))
		}
	}
	updatePost := recs[id0]["postchange_data"]
	snapTags("update record", updatePost, `["Conformance A","Conformance B"]`)
	updated := cur

	// The same PATCH again changes nothing: no record, but an event
	// (CHANGELOG_SKIP_EMPTY_CHANGES, BEHAVIOUR.md §11.2).
	r = must(t, e, http.StatusOK, "PATCH", detailPath(d, id0), upd)
	same := r.Header.Get("X-Request-ID")
	if recs := changes(t, e, same); len(recs) != 0 {
		t.Errorf("no-op PATCH: %d change records, want none: %v", len(recs), recs)
	}
	if evs := events(t, e, same); d.Logged && (len(evs) != 1 || evs[0].Event != "updated" || evs[0].ObjectID != id0) || !d.Logged && len(evs) != 0 {
		t.Errorf("no-op PATCH: outbox events %+v, want one updated event of %d", evs, id0)
	}
	updated = get(id0)

	// Failed writes leave nothing: an invalid object, an invalid bulk
	// item, an over-long changelog_message (single, bulk, update, delete).
	// The invalid payload first: the objects it names are made (and
	// logged) the first time it is built.
	invalid := withMsg(w.payload(t, fx.Invalid.Body), "conformance invalid")
	before := now()
	pg, _ := getPage(t, e, list+"?limit=1")
	n := *pg.Count
	r = must(t, e, http.StatusBadRequest, "POST", list, invalid)
	nothing("invalid create", before, r.Header.Get("X-Request-ID"))
	r = must(t, e, http.StatusBadRequest, "POST", list, []any{withMsg(p[1], "conformance ok"), invalid})
	nothing("bulk create with an invalid item", before, r.Header.Get("X-Request-ID"))
	// Characters, not bytes: 201 two-byte characters are too many. The
	// accepted 200 are ASCII: the ent validators of the change record count
	// bytes (see the report on MaxLen vs MaxRuneLen).
	long := strings.Repeat("é", resource.MaxChangelogMessage+1)
	ok := strings.Repeat("é", resource.MaxChangelogMessage) // characters, not bytes
	if d.Logged {
		r = must(t, e, http.StatusBadRequest, "POST", list, withMsg(p[1], long))
		if _, has := r.Object()["changelog_message"]; !has {
			t.Errorf("over-long changelog_message: %s", r.Body)
		}
		nothing("create with an over-long message", before, r.Header.Get("X-Request-ID"))
		r = must(t, e, http.StatusBadRequest, "POST", list, []any{withMsg(p[1], ok), withMsg(p[2], long)})
		nothing("bulk create with an over-long message", before, r.Header.Get("X-Request-ID"))
		r = must(t, e, http.StatusBadRequest, "PATCH", detailPath(d, id0), withMsg(bp, long))
		nothing("PATCH with an over-long message", before, r.Header.Get("X-Request-ID"))
		r = must(t, e, http.StatusBadRequest, "DELETE", detailPath(d, id0), map[string]any{"changelog_message": long})
		nothing("DELETE with an over-long message", before, r.Header.Get("X-Request-ID"))
		r = must(t, e, http.StatusBadRequest, "DELETE", list, []any{map[string]any{"id": id0, "changelog_message": long}})
		nothing("bulk DELETE with an over-long message", before, r.Header.Get("X-Request-ID"))
		if after := get(id0); canon(after) != canon(updated) {
			t.Errorf("refused writes changed the object:\n  %s\n  %s", canon(updated), canon(after))
		}
	}
	if pg, _ := getPage(t, e, list+"?limit=1"); *pg.Count != n {
		t.Errorf("refused creates: %d objects, want %d", *pg.Count, n)
	}

	// Bulk create two more.
	r = must(t, e, http.StatusCreated, "POST", list, []any{withMsg(p[1], "conformance bulk 1"), withMsg(p[2], "conformance bulk 2")})
	bulkReq := r.Header.Get("X-Request-ID")
	var items []map[string]any
	if err := json.Unmarshal(r.Body, &items); err != nil || len(items) != 2 {
		t.Fatalf("bulk create: %s", r.Body)
	}
	pair := []int{id(items[0]), id(items[1])}
	reps := []map[string]any{get(pair[0]), get(pair[1])}
	recs = logOf(t, e, d, "bulk create", bulkReq, []touched{
		{pair[0], "create", "conformance bulk 1", display(reps[0]), reps[0]},
		{pair[1], "create", "conformance bulk 2", display(reps[1]), reps[1]},
	})
	bulkPost := []any{recs[pair[0]]["postchange_data"], recs[pair[1]]["postchange_data"]}
	if d.Logged {
		pg, _ := getPage(t, e, list+"?ordering=id&created_by_request="+bulkReq)
		if got := pg.ids(t); !slices.Equal(got, pair) {
			t.Errorf("created_by_request=%s: %v, want %v", bulkReq, got, pair)
		}
	}
	// Bulk update them, a message per item.
	item := func(id int, msg string) map[string]any {
		out := withMsg(bp, msg)
		out["id"] = id
		return out
	}
	r = must(t, e, http.StatusOK, "PATCH", list, []any{item(pair[1], "conformance bulk update 2"), item(pair[0], "")})
	reps = []map[string]any{get(pair[0]), get(pair[1])}
	recs = logOf(t, e, d, "bulk update", r.Header.Get("X-Request-ID"), []touched{
		{pair[0], "update", "", display(reps[0]), reps[0]},
		{pair[1], "update", "conformance bulk update 2", display(reps[1]), reps[1]},
	})
	if d.Logged {
		for i, id := range pair {
			if canon(recs[id]["prechange_data"]) != canon(bulkPost[i]) {
				t.Errorf("bulk update record of %d: prechange_data %s is not the create's postchange_data %s", id, canon(recs[id]["prechange_data"]), canon(bulkPost[i]))
			}
			bulkPost[i] = recs[id]["postchange_data"]
		}
	}

	// A bulk PUT whose second item is invalid: the first item's valid
	// change is rolled back and leaves no record and no event (NetBox's
	// quirk of emitting it anyway is not reproduced, BEHAVIOUR.md §12.4).
	before = now()
	put := func(id int, m map[string]any, msg string) map[string]any {
		out := withMsg(m, msg)
		out["id"] = id
		return out
	}
	r = must(t, e, http.StatusBadRequest, "PUT", list, []any{put(pair[0], p[1], "conformance rolled back"), put(pair[1], w.payload(t, fx.Invalid.Body), "conformance invalid")})
	nothing("bulk PUT with an invalid item", before, r.Header.Get("X-Request-ID"))

	// The fixture's own update, which may point the first object at the
	// two others (a tree parent): still one record, of the first only.
	w.remember(d.ContentType(), 1, pair[0])
	w.remember(d.ContentType(), 2, pair[1])
	r = must(t, e, http.StatusOK, "PATCH", detailPath(d, id0), withMsg(s.update(t), "conformance fixture update"))
	updated = get(id0)
	recs = logOf(t, e, d, "fixture PATCH", r.Header.Get("X-Request-ID"), []touched{{id0, "update", "conformance fixture update", display(updated), updated}})
	if d.Logged {
		if canon(recs[id0]["prechange_data"]) != canon(updatePost) {
			t.Errorf("fixture update record: prechange_data %s is not the previous update's postchange_data %s", canon(recs[id0]["prechange_data"]), canon(updatePost))
		}
		updatePost = recs[id0]["postchange_data"]
	}

	// Delete the first, then the two others in bulk. 200 characters are
	// the limit, accepted.
	msg := ""
	if d.Logged {
		msg = ok
	}
	r = must(t, e, http.StatusNoContent, "DELETE", detailPath(d, id0), withMsg(map[string]any{}, msg))
	recs = logOf(t, e, d, "DELETE", r.Header.Get("X-Request-ID"), []touched{{id0, "delete", msg, display(updated), updated}})
	if d.Logged && canon(recs[id0]["prechange_data"]) != canon(updatePost) {
		t.Errorf("delete record: prechange_data %s is not the update's postchange_data %s", canon(recs[id0]["prechange_data"]), canon(updatePost))
	}

	reps = []map[string]any{get(pair[0]), get(pair[1])}
	r = must(t, e, http.StatusNoContent, "DELETE", list, []any{
		withMsg(map[string]any{"id": pair[0]}, "conformance bulk delete 1"), withMsg(map[string]any{"id": pair[1]}, ""),
	})
	recs = logOf(t, e, d, "bulk delete", r.Header.Get("X-Request-ID"), []touched{
		{pair[0], "delete", "conformance bulk delete 1", display(reps[0]), reps[0]},
		{pair[1], "delete", "", display(reps[1]), reps[1]},
	})
	if d.Logged {
		for i, id := range pair {
			if canon(recs[id]["prechange_data"]) != canon(bulkPost[i]) {
				t.Errorf("bulk delete record of %d: prechange_data %s is not the update's postchange_data %s", id, canon(recs[id]["prechange_data"]), canon(bulkPost[i]))
			}
		}
	}
}
