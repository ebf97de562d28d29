package webhooks_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/inventory/inventory/ent"
	"github.com/inventory/inventory/ent/delivery"
	"github.com/inventory/inventory/server"
	"github.com/inventory/inventory/server/servertest"
	"github.com/inventory/inventory/webhooks"
)

// received is one request seen by the test receiver.
type received struct {
	Method, Path string
	Header       http.Header
	Body         []byte
}

// receiver is an httptest server answering with the status fail returns
// (200 when nil), recording every request.
type receiver struct {
	*httptest.Server
	mu   sync.Mutex
	reqs []received
	fail func(n int) int // n: 1-based request number → status
	seen chan received
}

func newReceiver(t *testing.T, fail func(n int) int) *receiver {
	r := &receiver{fail: fail, seen: make(chan received, 1000)}
	r.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		body, _ := io.ReadAll(req.Body)
		rec := received{req.Method, req.URL.Path, req.Header.Clone(), body}
		r.mu.Lock()
		r.reqs = append(r.reqs, rec)
		n := len(r.reqs)
		f := r.fail
		r.mu.Unlock()
		r.seen <- rec
		status := 200
		if f != nil {
			status = f(n)
		}
		w.WriteHeader(status)
		fmt.Fprintf(w, "reply %d", n)
	}))
	t.Cleanup(r.Close)
	return r
}

func (r *receiver) all() []received {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]received(nil), r.reqs...)
}

// clock is a test clock moved by hand.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) Add(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

func allowLoopback(c *server.Config) {
	c.Webhooks.AllowedTargets = []string{"127.0.0.1/32", "::1/128"}
	c.Webhooks.MaxAttempts = 3
	c.Webhooks.BackoffBase = 10 * time.Second
	c.Webhooks.Timeout = 5 * time.Second
}

// engine returns the server's engine on a test clock.
func engine(e *servertest.Env) (*webhooks.Engine, *clock) {
	c := &clock{t: time.Now().UTC()}
	eng := e.Server.Webhooks()
	eng.Now = c.Now
	return eng, c
}

func id(r *servertest.Response) int { return int(r.Object()["id"].(float64)) }

// setup creates a site, a webhook to url and a rule for site events.
func setup(t *testing.T, e *servertest.Env, url string, hook map[string]any, rule map[string]any) (siteID, hookID, ruleID int) {
	t.Helper()
	siteID = id(e.Must(201, "POST", "/api/dcim/sites/", map[string]any{"name": "Site é", "slug": "site-1"}))
	h := map[string]any{"name": "hook", "payload_url": url}
	for k, v := range hook {
		h[k] = v
	}
	hookID = id(e.Must(201, "POST", "/api/extras/webhooks/", h))
	r := map[string]any{"name": "rule", "object_types": []string{"dcim.site"},
		"event_types": []string{"object_created", "object_updated"}, "action_type": "webhook",
		"action_object_type": "extras.webhook", "action_object_id": hookID}
	for k, v := range rule {
		r[k] = v
	}
	ruleID = id(e.Must(201, "POST", "/api/extras/event-rules/", r))
	return
}

// siteData is the site's API representation with relative URLs, as change
// capture writes it.
func siteData(t *testing.T, e *servertest.Env, id int) json.RawMessage {
	t.Helper()
	body := e.Must(200, "GET", fmt.Sprintf("/api/dcim/sites/%d/", id), nil).Body
	return json.RawMessage(strings.ReplaceAll(string(body), "http://inventory.test", ""))
}

// outbox writes an event row exactly as change capture does (the contract
// of ent/schema/core_outboxevent.go).
func outbox(t *testing.T, c *ent.Client, event, ct string, objID int, data json.RawMessage) *ent.OutboxEvent {
	t.Helper()
	q := c.OutboxEvent.Create().SetEvent(event).SetObjectType(ct).SetObjectID(objID).
		SetRequestID("5f0e8a4e-1111-4222-8333-444455556666").SetRequestMethod("POST").
		SetRequestPath("/api/dcim/sites/").SetUsername("admin").SetData(data).
		SetPostchange(json.RawMessage(`{"name": "Site é", "slug": "site-1"}`))
	ev, err := q.Save(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return ev
}

func TestAPIValidation(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		cases := []struct {
			path string
			body map[string]any
			want string
		}{
			{"/api/extras/webhooks/", map[string]any{"name": "a", "payload_url": "ftp://x"},
				`{"payload_url":["Enter a valid URL, beginning with http:// or https://."]}`},
			{"/api/extras/webhooks/", map[string]any{"name": "a", "payload_url": "http://x/{{ data.id }"},
				`"payload_url":["Invalid template: `},
			{"/api/extras/webhooks/", map[string]any{"name": "a", "payload_url": "http://x/", "http_method": "FOO"},
				`{"http_method":["\"FOO\" is not a valid choice."]}`},
			{"/api/extras/webhooks/", map[string]any{"name": "a", "payload_url": "http://x/", "ssl_verification": false, "ca_file_path": "/ca.pem"},
				`{"ca_file_path":["Do not specify a CA certificate file if SSL verification is disabled."]}`},
		}
		for _, c := range cases {
			r := e.Must(400, "POST", c.path, c.body)
			if !strings.Contains(string(r.Body), c.want) {
				t.Errorf("%v: %s, want %s", c.body, r.Body, c.want)
			}
		}
		hook := e.Must(201, "POST", "/api/extras/webhooks/", map[string]any{"name": "h", "payload_url": "http://receiver_1/{{ data.slug }}"}).Object()
		if hook["http_method"] != "POST" || hook["http_content_type"] != "application/json" || hook["ssl_verification"] != true {
			t.Errorf("defaults: %v", hook)
		}
		hid := int(hook["id"].(float64))
		base := map[string]any{"name": "r", "object_types": []string{"dcim.site"}, "event_types": []string{"object_created"},
			"action_type": "webhook", "action_object_type": "extras.webhook", "action_object_id": hid}
		with := func(k string, v any) map[string]any {
			m := map[string]any{}
			for a, b := range base {
				m[a] = b
			}
			m[k] = v
			return m
		}
		rules := []struct {
			body map[string]any
			want string
		}{
			{with("event_types", []string{"object_created", "bogus"}), `{"event_types":{"1":["\"bogus\" is not a valid choice."]}}`},
			{with("event_types", []string{}), `{"event_types":["This list may not be empty."]}`},
			{with("conditions", []int{1}), `{"conditions":["Ruleset must be a dictionary, not <class 'list'>."]}`},
			{with("conditions", map[string]any{"attr": "status.value", "value": "x", "op": "gt"}), `{"conditions":["Invalid type for gt operation: <class 'str'>"]}`},
			{with("conditions", map[string]any{"attr": "a", "value": 1, "op": "like"}), `{"conditions":["Unknown operator: like. Must be one of: eq, gt, gte, lt, lte, in, contains, regex"]}`},
			{with("action_object_id", 999), `{"action_object_id":["Related object not found using the provided value: 999."]}`},
		}
		for _, c := range rules {
			r := e.Must(400, "POST", "/api/extras/event-rules/", c.body)
			if string(r.Body) != c.want {
				t.Errorf("%v: %s, want %s", c.body, r.Body, c.want)
			}
		}
		rule := e.Must(201, "POST", "/api/extras/event-rules/", with("conditions", map[string]any{"and": []any{map[string]any{"attr": "status.value", "value": "active"}}})).Object()
		if rule["enabled"] != true || rule["action_type"].(map[string]any)["value"] != "webhook" {
			t.Errorf("rule: %v", rule)
		}
		if obj, _ := rule["action_object"].(map[string]any); obj == nil || obj["name"] != "h" {
			t.Errorf("action_object: %v", rule["action_object"])
		}
		// Background tasks are for superusers only.
		e.Anonymous().Must(403, "GET", "/api/core/background-tasks/", nil)
	})
}

func TestDeliverDefaultBody(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		rcv := newReceiver(t, nil)
		eng, _ := engine(e)
		siteID, hookID, _ := setup(t, e, rcv.URL+"/hook", map[string]any{"secret": "s3cret-s3cret-s3cret"}, nil)
		ev := outbox(t, e.DB.Client, "created", "dcim.site", siteID, siteData(t, e, siteID))
		if err := eng.RunOnce(context.Background()); err != nil {
			t.Fatal(err)
		}
		reqs := rcv.all()
		if len(reqs) != 1 {
			t.Fatalf("%d requests", len(reqs))
		}
		r := reqs[0]
		if r.Method != "POST" || r.Path != "/hook" || r.Header.Get("Content-Type") != "application/json" {
			t.Errorf("request: %s %s %v", r.Method, r.Path, r.Header)
		}
		if got, want := r.Header.Get("X-Hook-Signature"), webhooks.Sign("s3cret-s3cret-s3cret", r.Body); got != want || len(got) != 128 {
			t.Errorf("signature %q, want %q", got, want)
		}
		if r.Header.Get("X-Request-ID") != "5f0e8a4e-1111-4222-8333-444455556666" {
			t.Errorf("X-Request-ID: %q", r.Header.Get("X-Request-ID"))
		}
		body := string(r.Body)
		wantPrefix := `{"event": "created", "timestamp": "` + ev.Created.UTC().Format("2006-01-02T15:04:05")
		if !strings.HasPrefix(body, wantPrefix) {
			t.Errorf("body starts %q", body[:80])
		}
		for _, part := range []string{`"object_type": "dcim.site", "username": "admin", "request_id": "5f0e8a4e-1111-4222-8333-444455556666", "data": {"id": `,
			`"name": "Site \u00e9"`, `"url": "/api/dcim/sites/`,
			`"request": {"id": "5f0e8a4e-1111-4222-8333-444455556666", "method": "POST", "path": "/api/dcim/sites/", "user": "admin"}, "snapshots": {"prechange": null, "postchange": {"name": "Site \u00e9", "slug": "site-1"}}}`} {
			if !strings.Contains(body, part) {
				t.Errorf("body lacks %s:\n%s", part, body)
			}
		}
		var m map[string]any
		if err := json.Unmarshal(r.Body, &m); err != nil {
			t.Fatal(err)
		}
		// data equals the API representation.
		var api map[string]any
		json.Unmarshal(siteData(t, e, siteID), &api)
		if fmt.Sprint(m["data"]) != fmt.Sprint(api) {
			t.Errorf("data differs from the API representation")
		}
		// The task is finished and shows the delivery.
		task := r.Header.Get("X-Delivery-ID")
		tr := e.Must(200, "GET", "/api/core/background-tasks/"+task+"/", nil).Object()
		if tr["status"] != "finished" || tr["is_finished"] != true || tr["last_response_code"] != 200.0 ||
			tr["attempts"] != 1.0 || tr["func_name"] != "extras.webhooks.send_webhook" ||
			tr["webhook"].(map[string]any)["id"] != float64(hookID) || tr["response_body"] != "reply 1" {
			t.Errorf("task: %v", tr)
		}
		list := e.Must(200, "GET", fmt.Sprintf("/api/core/background-tasks/?webhook_id=%d", hookID), nil).Object()
		if list["count"] != 1.0 {
			t.Errorf("list: %v", list)
		}
		if n := e.Must(200, "GET", "/api/core/background-tasks/?status=failed", nil).Object()["count"]; n != 0.0 {
			t.Errorf("failed: %v", n)
		}
		e.Must(400, "GET", "/api/core/background-tasks/?status=bogus", nil)
		q := e.Must(200, "GET", "/api/core/background-queues/", nil).Object()["results"].([]any)[0].(map[string]any)
		if q["name"] != "default" || q["finished_jobs"] != 1.0 || q["jobs"] != 0.0 {
			t.Errorf("queue: %v", q)
		}
		// Events are dispatched once.
		if err := eng.RunOnce(context.Background()); err != nil || len(rcv.all()) != 1 {
			t.Fatalf("second run: %v, %d requests", err, len(rcv.all()))
		}
	}, allowLoopback)
}

func TestTemplatesAndConditions(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		rcv := newReceiver(t, nil)
		eng, _ := engine(e)
		siteID, _, _ := setup(t, e, rcv.URL+"/sites/{{ data.slug }}/{{ event }}", map[string]any{
			"http_method":        "PUT",
			"http_content_type":  "text/plain",
			"additional_headers": "X-User: {{ request.user }}\nX-Name: {{ data.name | header_safe }}\nX-Raw: {{ data.description }}\n{{ 'not a header' }}\nX-Dup: 1\nX-Dup: 2",
			"body_template":      "{{ event }} {{ data.name }}{% for t in data.tags %} {{ t.slug }}{% endfor %}",
		}, map[string]any{"conditions": map[string]any{"or": []any{
			map[string]any{"attr": "status.value", "value": "active"},
			map[string]any{"attr": "nope", "value": 1},
		}}})
		// The PATCH's own change capture writes the "updated" event.
		e.Must(200, "PATCH", fmt.Sprintf("/api/dcim/sites/%d/", siteID), map[string]any{"description": "a\r\nInjected: yes"})
		// Not matching: wrong object type, wrong event type.
		outbox(t, e.DB.Client, "created", "dcim.region", 1, json.RawMessage(`{"id": 1}`))
		outbox(t, e.DB.Client, "deleted", "dcim.site", siteID, siteData(t, e, siteID))
		if err := eng.RunOnce(context.Background()); err != nil {
			t.Fatal(err)
		}
		reqs := rcv.all()
		if len(reqs) != 1 {
			t.Fatalf("%d requests", len(reqs))
		}
		r := reqs[0]
		if r.Method != "PUT" || r.Path != "/sites/site-1/updated" || string(r.Body) != "updated Site é" {
			t.Errorf("%s %s %q", r.Method, r.Path, r.Body)
		}
		h := r.Header
		if h.Get("Content-Type") != "text/plain" || h.Get("X-User") != "admin" || h.Get("X-Name") != "Site é" ||
			h.Get("X-Raw") != "aInjected: yes" || h.Get("Injected") != "" || h.Get("X-Dup") != "2" || h.Get("X-Hook-Signature") != "" {
			t.Errorf("headers: %v", h)
		}
		// A status that fails the first condition: the second is invalid, so
		// the rule does not match (NetBox's rule).
		e.Must(200, "PATCH", fmt.Sprintf("/api/dcim/sites/%d/", siteID), map[string]any{"status": "planned"})
		outbox(t, e.DB.Client, "updated", "dcim.site", siteID, siteData(t, e, siteID))
		if err := eng.RunOnce(context.Background()); err != nil || len(rcv.all()) != 1 {
			t.Fatalf("%v, %d requests", err, len(rcv.all()))
		}
	}, allowLoopback)
}

func TestRetryBackoffAndRequeue(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		ctx := context.Background()
		failures := 2
		rcv := newReceiver(t, func(n int) int {
			if n <= failures {
				return 503
			}
			return 204
		})
		eng, clk := engine(e)
		siteID, _, _ := setup(t, e, rcv.URL, nil, nil)
		outbox(t, e.DB.Client, "created", "dcim.site", siteID, siteData(t, e, siteID))
		step := func(wantReqs int, wantStatus string) *ent.Delivery {
			t.Helper()
			if err := eng.RunOnce(ctx); err != nil {
				t.Fatal(err)
			}
			if n := len(rcv.all()); n != wantReqs {
				t.Fatalf("%d requests, want %d", n, wantReqs)
			}
			d, err := e.DB.Client.Delivery.Query().Order(delivery.ByID()).First(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if d.Status != wantStatus {
				t.Fatalf("status %s, want %s (error %q)", d.Status, wantStatus, d.Error)
			}
			return d
		}
		d := step(1, "scheduled")
		base := 10 * time.Second
		if wait := d.NextAttemptAt.Sub(clk.Now()); wait < base/2-time.Millisecond || wait > base {
			t.Fatalf("first retry after %v, want within [%v, %v]", wait, base/2, base)
		}
		if *d.ResponseCode != 503 || !strings.Contains(d.Error, "Status 503 returned") {
			t.Fatalf("recorded %v %q", *d.ResponseCode, d.Error)
		}
		step(1, "scheduled") // not due yet: nothing sent
		clk.Add(base)
		d = step(2, "scheduled")
		if wait := d.NextAttemptAt.Sub(clk.Now()); wait < base-time.Millisecond || wait > 2*base {
			t.Fatalf("second retry after %v, want within [%v, %v]", wait, base, 2*base)
		}
		clk.Add(2 * base)
		d = step(3, "finished")
		if d.Attempts != 3 || len(d.Log) != 3 || *d.ResponseCode != 204 {
			t.Fatalf("attempts %d, log %v", d.Attempts, d.Log)
		}
		ids := map[string]bool{}
		for _, r := range rcv.all() {
			ids[r.Header.Get("X-Delivery-ID")] = true
		}
		if len(ids) != 1 || !ids[d.UUID] {
			t.Fatalf("delivery ids %v, want one stable id %s", ids, d.UUID)
		}

		// Exhaust the attempts, then requeue through the API.
		failures = 1 << 30
		e.DB.Client.Delivery.DeleteOneID(d.ID).ExecX(ctx)
		outbox(t, e.DB.Client, "updated", "dcim.site", siteID, siteData(t, e, siteID))
		for i := 0; i < 3; i++ {
			eng.RunOnce(ctx)
			clk.Add(time.Hour)
		}
		failed := e.Must(200, "GET", "/api/core/background-tasks/?status=failed", nil).Object()
		if failed["count"] != 1.0 {
			t.Fatalf("failed tasks: %v", failed)
		}
		task := failed["results"].([]any)[0].(map[string]any)
		if task["is_failed"] != true || task["attempts"] != 3.0 || task["last_response_code"] != 503.0 || len(task["error_log"].([]any)) != 3 {
			t.Fatalf("failed task: %v", task)
		}
		tid := task["id"].(string)
		e.Must(404, "POST", "/api/core/background-tasks/nope/requeue/", nil)
		e.Must(200, "POST", "/api/core/background-tasks/"+tid+"/requeue/", nil)
		e.Must(400, "POST", "/api/core/background-tasks/"+tid+"/requeue/", nil)
		if s := e.Must(200, "GET", "/api/core/background-tasks/"+tid+"/", nil).Object()["status"]; s != "queued" {
			t.Fatalf("after requeue: %v", s)
		}
		failures = 0
		n := len(rcv.all())
		if err := eng.RunOnce(ctx); err != nil {
			t.Fatal(err)
		}
		if len(rcv.all()) != n+1 {
			t.Fatal("requeued task not sent")
		}
		if s := e.Must(200, "GET", "/api/core/background-tasks/"+tid+"/", nil).Object()["status"]; s != "finished" {
			t.Fatalf("after requeue and run: %v", s)
		}
	}, allowLoopback)
}

// A CA file saved under the configured directory is refused at delivery
// once the directory setting no longer covers it (a definition saved
// before the save-time check, or a setting changed since): the delivery
// fails at once, nothing is sent.
func TestCAFileCheckedAtDelivery(t *testing.T) {
	dir := t.TempDir()
	ca := filepath.Join(dir, "ca.pem")
	if err := os.WriteFile(ca, []byte("pem"), 0o600); err != nil {
		t.Fatal(err)
	}
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		rcv := newReceiver(t, nil)
		siteID, _, _ := setup(t, e, rcv.URL, map[string]any{"ca_file_path": ca}, nil)
		cfg := e.Config.Webhooks
		cfg.CAFileDir = t.TempDir() // the operator moved the CA directory
		eng, err := webhooks.New(e.DB, cfg)
		if err != nil {
			t.Fatal(err)
		}
		outbox(t, e.DB.Client, "created", "dcim.site", siteID, siteData(t, e, siteID))
		if err := eng.RunOnce(context.Background()); err != nil {
			t.Fatal(err)
		}
		if len(rcv.all()) != 0 {
			t.Fatal("sent with a CA file outside the directory")
		}
		d := e.DB.Client.Delivery.Query().OnlyX(context.Background())
		if d.Status != "failed" || !strings.Contains(d.Error, "ca_file_path") {
			t.Fatalf("%s %q", d.Status, d.Error)
		}
	}, allowLoopback, func(c *server.Config) { c.Webhooks.CAFileDir = dir })
}

func TestRefusesInternalTargets(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		rcv := newReceiver(t, nil)
		eng, _ := engine(e) // no allow-list: loopback is refused
		// A literal loopback address is refused when saved; a name that
		// resolves to one is saved and refused on the socket at delivery.
		r := e.Must(400, "POST", "/api/extras/webhooks/", map[string]any{"name": "literal", "payload_url": rcv.URL})
		if !strings.Contains(string(r.Body), "internal address") {
			t.Fatalf("literal loopback: %s", r.Body)
		}
		siteID, _, _ := setup(t, e, strings.Replace(rcv.URL, "127.0.0.1", "localhost", 1), nil, nil)
		outbox(t, e.DB.Client, "created", "dcim.site", siteID, siteData(t, e, siteID))
		if err := eng.RunOnce(context.Background()); err != nil {
			t.Fatal(err)
		}
		if len(rcv.all()) != 0 {
			t.Fatal("request reached a loopback receiver")
		}
		d := e.DB.Client.Delivery.Query().OnlyX(context.Background())
		if d.Status != "scheduled" || !strings.Contains(d.Error, "internal address") {
			t.Fatalf("%s %q", d.Status, d.Error)
		}
	})
}

func TestRedirectNotFollowed(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		target := newReceiver(t, nil)
		redirect := httptest.NewServer(http.RedirectHandler(target.URL, http.StatusFound))
		defer redirect.Close()
		eng, _ := engine(e)
		siteID, _, _ := setup(t, e, redirect.URL, nil, nil)
		outbox(t, e.DB.Client, "created", "dcim.site", siteID, siteData(t, e, siteID))
		eng.RunOnce(context.Background())
		if len(target.all()) != 0 {
			t.Fatal("redirect followed")
		}
		d := e.DB.Client.Delivery.Query().OnlyX(context.Background())
		if d.Status != "scheduled" || d.ResponseCode == nil || *d.ResponseCode != 302 {
			t.Fatalf("%s %v", d.Status, d.ResponseCode)
		}
	}, allowLoopback)
}

// TestDeliverTemplateBounds: a webhook template that parses, so was saved,
// but builds a value containing itself or nests one level per loop
// iteration (printing such a value overflowed the delivery worker's
// stack, which ends the process) fails its delivery with the render's
// error, at once; nothing is sent and the engine runs on.
func TestDeliverTemplateBounds(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		ctx := context.Background()
		rcv := newReceiver(t, nil)
		eng, _ := engine(e)
		siteID, hookID, _ := setup(t, e, rcv.URL, nil, nil)
		for _, c := range []struct{ body, want string }{
			{"{% set ns = namespace() %}{% set ns.x = ns %}{{ ns }}", "a namespace cannot hold another namespace"},
			{"{% set ns = namespace(l=[]) %}{% for i in range(100000) %}{% set ns.l = [ns.l] %}{% endfor %}{{ ns.l }}", "nested too deeply"},
		} {
			e.Must(200, "PATCH", fmt.Sprintf("/api/extras/webhooks/%d/", hookID), map[string]any{"body_template": c.body})
			outbox(t, e.DB.Client, "created", "dcim.site", siteID, siteData(t, e, siteID))
			if err := eng.RunOnce(ctx); err != nil {
				t.Fatal(err)
			}
			if n := len(rcv.all()); n != 0 {
				t.Fatalf("%d requests sent", n)
			}
			all, err := e.DB.Client.Delivery.Query().Order(delivery.ByID()).All(ctx)
			if err != nil || len(all) == 0 {
				t.Fatal(len(all), err)
			}
			d := all[len(all)-1]
			if d.Status != webhooks.StatusFailed || !strings.Contains(d.Error, "body template") || !strings.Contains(d.Error, c.want) {
				t.Errorf("%.40s: status %s, error %q", c.body, d.Status, d.Error)
			}
		}
		e.Must(200, "GET", "/api/status/", nil)
	}, allowLoopback)
}
