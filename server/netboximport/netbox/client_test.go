package netbox_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"reflect"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/inventory/inventory/server/netboximport/netbox"
	"github.com/inventory/inventory/server/netboximport/netboxtest"
)

const demo = "../../../testdata/netbox-demo"

// A v1 token as NetBox makes them: 40 hex digits.
const token = "0123456789abcdef0123456789abcdef01234567"

// waits records the backoffs a client would have slept.
type waits struct {
	mu sync.Mutex
	d  []time.Duration
}

func (w *waits) wait(ctx context.Context, d time.Duration) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.d = append(w.d, d)
	return ctx.Err()
}

func (w *waits) got() []time.Duration {
	w.mu.Lock()
	defer w.mu.Unlock()
	return slices.Clone(w.d)
}

// logs keeps what a client logged, to check no token is in it.
type logs struct {
	mu    sync.Mutex
	lines []string
}

func (l *logs) log(s string) { l.mu.Lock(); l.lines = append(l.lines, s); l.mu.Unlock() }

func newClient(t *testing.T, url, tok string, opts netbox.Options) (*netbox.Client, *waits, *logs) {
	t.Helper()
	w, l := &waits{}, &logs{}
	if opts.Wait == nil {
		opts.Wait = w.wait
	}
	opts.Log = l.log
	c, err := netbox.New(url, tok, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		for _, line := range l.lines {
			if strings.Contains(line, tok) {
				t.Errorf("the token is in a log line: %s", line)
			}
		}
	})
	return c, w, l
}

// canon is a list of objects as comparable values.
func canon(t *testing.T, objs []json.RawMessage, drop string) []any {
	t.Helper()
	out := make([]any, len(objs))
	for i, o := range objs {
		var m map[string]any
		if err := json.Unmarshal(o, &m); err != nil {
			t.Fatal(err)
		}
		delete(m, drop)
		out[i] = m
	}
	return out
}

// The whole demo data set read through HTTP (paged by 100, every endpoint
// at once over 3 connections) equals the recorded directory, less the
// config contexts excluded; counts and the endpoint list agree too.
func TestDemoOverHTTP(t *testing.T) {
	ctx := context.Background()
	dir := netboxtest.Dir{Path: demo}
	srv := netboxtest.NewServer(dir, token)
	defer srv.Close()
	var inFlight, peak atomic.Int32
	hc := &http.Client{Transport: roundTripper(func(r *http.Request) (*http.Response, error) {
		n := inFlight.Add(1)
		defer inFlight.Add(-1)
		for p := peak.Load(); n > p && !peak.CompareAndSwap(p, n); p = peak.Load() {
		}
		return http.DefaultTransport.RoundTrip(r)
	})}
	c, _, _ := newClient(t, srv.URL+"/api/", token, netbox.Options{PageSize: 100, Concurrency: 3, Client: hc})

	st, err := c.Status(ctx)
	if v, verr := netbox.CheckVersion(st, false); err != nil || verr != nil || v != "4.6.8" {
		t.Fatalf("status %v, %v, %v", v, err, verr)
	}
	eps, err := c.Endpoints(ctx)
	want, _ := dir.Endpoints(ctx)
	if err != nil || !slices.Equal(eps, want) || len(eps) != 131 {
		t.Fatalf("endpoints %d %v, %v; want %d", len(eps), eps, err, len(want))
	}
	// What NetBox counted when the set was recorded, read apart from Dir.
	var counts map[string]int
	if b, err := os.ReadFile(demo + "/_counts.json"); err != nil || json.Unmarshal(b, &counts) != nil {
		t.Fatal("_counts.json", err)
	}
	var total atomic.Int64
	var wg sync.WaitGroup
	for _, ep := range eps {
		wg.Go(func() {
			var got []json.RawMessage
			pages := 0
			err := c.Pages(ctx, ep, func(objs []json.RawMessage) error {
				got = append(got, objs...)
				pages++
				return nil
			})
			exp, derr := netboxtest.ReadAll(ctx, dir, ep)
			if err != nil || derr != nil {
				t.Errorf("%s: %v, %v", ep, err, derr)
				return
			}
			drop := ""
			if ep == "dcim/devices" || ep == "virtualization/virtual-machines" {
				drop = "config_context"
				if strings.Contains(string(got[0]), `"config_context"`) {
					t.Errorf("%s: config_context not excluded", ep)
				}
			}
			if !reflect.DeepEqual(canon(t, got, ""), canon(t, exp, drop)) {
				t.Errorf("%s: %d objects over HTTP differ from the %d recorded", ep, len(got), len(exp))
			}
			if len(got) != counts[ep] {
				t.Errorf("%s: %d objects; NetBox counted %d", ep, len(got), counts[ep])
			}
			if pages != (len(exp)+99)/100 {
				t.Errorf("%s: %d pages for %d objects", ep, pages, len(exp))
			}
			n, err := c.Count(ctx, ep)
			if err != nil || n != len(exp) {
				t.Errorf("%s: count %d, %v; want %d", ep, n, err, len(exp))
			}
			total.Add(int64(len(got)))
		})
	}
	wg.Wait()
	if total.Load() != 6307 {
		t.Errorf("%d objects read; the demo set has 6307", total.Load())
	}
	if p := peak.Load(); p > 3 || p < 1 {
		t.Errorf("%d requests in flight at once; the bound is 3", p)
	}
}

type roundTripper func(*http.Request) (*http.Response, error)

func (f roundTripper) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

func TestCheckVersion(t *testing.T) {
	for _, tc := range []struct {
		status map[string]any
		force  bool
		err    string
	}{
		{map[string]any{"netbox-version": "4.6.8"}, false, ""},
		{map[string]any{"netbox-version": "4.6.0-beta1"}, false, ""},
		{map[string]any{"netbox-version": "4.5.9"}, false, "NetBox 4.5.9 is not supported: this import reads NetBox 4.6.x"},
		{map[string]any{"netbox-version": "4.5.9"}, true, ""},
		{map[string]any{"netbox-version": "3.7.1"}, false, "--force"},
		{map[string]any{"netbox-version": "4.60.1"}, false, "not supported"},
		{map[string]any{}, false, "names no netbox-version"},
	} {
		_, err := netbox.CheckVersion(tc.status, tc.force)
		if tc.err == "" && err != nil || tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)) {
			t.Errorf("%v force=%v: %v; want %q", tc.status, tc.force, err, tc.err)
		}
	}
}

// A v1 token goes as `Token`, a v2 one (nbt_) as `Bearer`; a wrong one is
// a 403 naming NetBox's detail, never the token.
func TestAuth(t *testing.T) {
	ctx := context.Background()
	v2 := "nbt_abcdefghijkl.0123456789abcdefghijklmnopqrstuvwxyz"
	for _, tc := range []struct {
		serverToken, clientToken, err string
	}{
		{token, token, ""},
		{v2, v2, ""},
		{token, "", "HTTP 403 Forbidden: Authentication credentials were not provided."},
		{token, "ffffffffffffffffffffffffffffffffffffffff", "HTTP 403 Forbidden: Invalid token"},
		{v2, "nbt_abcdefghijkl.wrongwrongwrong", "Invalid token"},
	} {
		srv := netboxtest.NewServer(netboxtest.Dir{Path: demo}, tc.serverToken)
		c, _, _ := newClient(t, srv.URL, tc.clientToken, netbox.Options{})
		_, err := c.Count(ctx, "dcim/sites")
		srv.Close()
		switch {
		case tc.err == "" && err != nil:
			t.Errorf("%s: %v", tc.clientToken, err)
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err) || !strings.Contains(err.Error(), "/api/dcim/sites/")):
			t.Errorf("%s: %v; want %q", tc.clientToken, err, tc.err)
		case tc.clientToken != "" && err != nil && strings.Contains(err.Error(), tc.clientToken):
			t.Errorf("the token is in %v", err)
		}
	}
	c, err := netbox.New("https://netbox.example.com/", token, netbox.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if s := fmt.Sprintf("%v %+v %#v %s", c, c, c, c); strings.Contains(s, token) {
		t.Errorf("printing a client shows the token: %s", s)
	}
	for _, bad := range []string{"netbox.example.com", "ftp://x/", "https://user:" + token + "@netbox.example.com/"} {
		if _, err := netbox.New(bad, token, netbox.Options{}); err == nil || strings.Contains(err.Error(), token) {
			t.Errorf("New(%q): %v", bad, err)
		}
	}
}

// Each fault is a clear error naming the endpoint, the status and NetBox's
// detail, or survived by retrying; the token is never in it.
func TestFaults(t *testing.T) {
	const ep = "dcim/sites"
	for _, tc := range []struct {
		name     string
		inject   func(s *netboxtest.Server)
		err      string          // "" when the read survives
		requests int             // requests the endpoint saw
		waits    []time.Duration // backoffs
		timeout  bool            // errors.Is(err, context.DeadlineExceeded)
	}{
		{name: "500 twice, then answered",
			inject:   func(s *netboxtest.Server) { s.Fail(ep, 2, 500, `{"detail":"boom"}`) },
			requests: 3, waits: []time.Duration{time.Second, 2 * time.Second}},
		{name: "503 for ever",
			inject:   func(s *netboxtest.Server) { s.Fail(ep, -1, 503, `{"detail":"maintenance"}`) },
			err:      "netbox: GET /api/dcim/sites/: HTTP 503 Service Unavailable: maintenance (after 4 attempts)",
			requests: 4, waits: []time.Duration{time.Second, 2 * time.Second, 4 * time.Second}},
		{name: "429 is retried",
			inject:   func(s *netboxtest.Server) { s.Fail(ep, 1, 429, `{"detail":"Request was throttled."}`) },
			requests: 2, waits: []time.Duration{time.Second}},
		{name: "401 is not retried",
			inject:   func(s *netboxtest.Server) { s.Fail(ep, -1, 401, `{"detail":"Token expired"}`) },
			err:      "netbox: GET /api/dcim/sites/: HTTP 401 Unauthorized: Token expired",
			requests: 1},
		{name: "a field error",
			inject:   func(s *netboxtest.Server) { s.Fail(ep, -1, 400, `{"id__gt": ["Enter a number."]}`) },
			err:      `HTTP 400 Bad Request: {"id__gt":["Enter a number."]}`,
			requests: 1},
		{name: "a proxy's HTML page",
			inject: func(s *netboxtest.Server) {
				s.Fail(ep, -1, 502, "<html><head><title>502 Bad Gateway</title></head><body>nginx</body></html>")
			},
			err:      `HTTP 502 Bad Gateway: an HTML page titled "502 Bad Gateway"`,
			requests: 4, waits: []time.Duration{time.Second, 2 * time.Second, 4 * time.Second}},
		{name: "NetBox echoes the token",
			inject:   func(s *netboxtest.Server) { s.Fail(ep, -1, 403, `{"detail":"Invalid token `+token+`"}`) },
			err:      "HTTP 403 Forbidden: Invalid token <token>",
			requests: 1},
		{name: "stalled once",
			inject:   func(s *netboxtest.Server) { s.Stall(ep, 1) },
			requests: 2, waits: []time.Duration{time.Second}},
		{name: "stalled for ever",
			inject:   func(s *netboxtest.Server) { s.Stall(ep, -1) },
			err:      "netbox: GET /api/dcim/sites/: no answer within 50ms (after 4 attempts)",
			requests: 4, waits: []time.Duration{time.Second, 2 * time.Second, 4 * time.Second}, timeout: true},
		{name: "a page of broken JSON",
			inject:   func(s *netboxtest.Server) { s.Fail(ep, -1, 200, `{"count": 3, "results": [`) },
			err:      "HTTP 200 OK: the answer is not the JSON NetBox sends",
			requests: 1},
		{name: "a login page, not NetBox's API",
			inject:   func(s *netboxtest.Server) { s.Fail(ep, -1, 200, `<html><title>Log in</title></html>`) },
			err:      `HTTP 200 OK: answered "text/html; charset=utf-8", not JSON: is this the URL of a NetBox?`,
			requests: 1},
		{name: "a list without results",
			inject:   func(s *netboxtest.Server) { s.Fail(ep, -1, 200, `{"count": 3}`) },
			err:      "HTTP 200 OK: the answer is not a NetBox list (no results)",
			requests: 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := netboxtest.NewServer(netboxtest.Dir{Path: demo}, token)
			defer srv.Close()
			tc.inject(srv)
			c, w, _ := newClient(t, srv.URL, token, netbox.Options{Timeout: 50 * time.Millisecond})
			n := 0
			err := c.Pages(context.Background(), ep, func(objs []json.RawMessage) error { n += len(objs); return nil })
			switch {
			case tc.err == "" && (err != nil || n != 24):
				t.Errorf("%d objects, %v; want 24", n, err)
			case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
				t.Errorf("%v; want %q", err, tc.err)
			case err != nil && strings.Contains(err.Error(), token):
				t.Errorf("the token is in %v", err)
			case tc.timeout && !errors.Is(err, context.DeadlineExceeded):
				t.Errorf("%v is not a deadline", err)
			}
			if got := srv.Requests(ep); got != tc.requests {
				t.Errorf("%d requests; want %d", got, tc.requests)
			}
			if got := w.got(); !slices.Equal(got, tc.waits) {
				t.Errorf("waited %v; want %v", got, tc.waits)
			}
		})
	}
}

// A 429's Retry-After longer than the backoff is waited for.
func TestRetryAfter(t *testing.T) {
	hits := 0
	hc := &http.Client{Transport: roundTripper(func(r *http.Request) (*http.Response, error) {
		hits++
		if hits == 1 {
			rec := &http.Response{StatusCode: 429, Header: http.Header{"Retry-After": {"7"}}, Body: http.NoBody, Request: r}
			return rec, nil
		}
		return http.DefaultTransport.RoundTrip(r)
	})}
	srv := netboxtest.NewServer(netboxtest.Dir{Path: demo}, token)
	defer srv.Close()
	c, w, _ := newClient(t, srv.URL, token, netbox.Options{Client: hc})
	if n, err := c.Count(context.Background(), "dcim/sites"); err != nil || n != 24 {
		t.Fatalf("%d, %v", n, err)
	}
	if got := w.got(); !slices.Equal(got, []time.Duration{7 * time.Second}) {
		t.Errorf("waited %v; want 7s", got)
	}
}

// A list that changes while it is read (objects of pages read and unread
// removed, objects added) is read with no object repeated or skipped: every
// object there throughout is read once, the removed unread ones are not,
// the added ones are. By offset (a NetBox ignoring id__gt) the change is
// caught and named instead.
func TestChangingList(t *testing.T) {
	ctx := context.Background()
	const ep = "dcim/interfaces"
	for _, m := range []struct {
		name             string
		noCursor, noIDGT bool
	}{{"by cursor", false, false}, {"by id__gt", true, false}, {"by offset", true, true}} {
		byOffset := m.noIDGT
		all, err := netboxtest.ReadAll(ctx, netboxtest.Dir{Path: demo}, ep)
		if err != nil {
			t.Fatal(err)
		}
		mem := netboxtest.NewMemory(nil)
		mem.Put(ep, all...)
		srv := netboxtest.NewServer(mem, token)
		srv.NoCursor, srv.IgnoreIDFilter = m.noCursor, m.noIDGT
		removed := []int{}
		added := []int{}
		srv.OnPage(ep, func(n int) {
			if n != 2 {
				return
			}
			// Page 1 (read) loses 5 objects, page 4 (unread) 3; 2 are added.
			for _, i := range []int{1, 2, 3, 50, 99, 350, 351, 352} {
				id, _ := netboxtest.ObjectID(all[i])
				removed = append(removed, id)
			}
			mem.Delete(ep, removed...)
			for _, id := range []int{100001, 100002} {
				mem.Put(ep, json.RawMessage(fmt.Sprintf(`{"id":%d,"name":"new"}`, id)))
				added = append(added, id)
			}
		})
		c, _, _ := newClient(t, srv.URL, token, netbox.Options{PageSize: 100})
		var ids []int
		err = c.Pages(ctx, ep, func(objs []json.RawMessage) error {
			for _, o := range objs {
				id, _ := netboxtest.ObjectID(o)
				ids = append(ids, id)
			}
			return nil
		})
		srv.Close()
		if byOffset {
			if err == nil || !strings.Contains(err.Error(), "the list changed while being read (1586 objects, then 1580)") {
				t.Errorf("by offset: %v", err)
			}
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		want := []int{}
		for i, o := range all {
			id, _ := netboxtest.ObjectID(o)
			if i >= 300 && slices.Contains(removed, id) {
				continue // removed before its page was read
			}
			want = append(want, id)
		}
		want = append(want, added...)
		if !slices.Equal(ids, want) {
			t.Errorf("%s: read %d ids, want %d", m.name, len(ids), len(want))
		}
	}
}

// A NetBox 4.6 is read by cursor; one ignoring it (before 4.6) by id__gt;
// one ignoring that too by offset: all of it once, each ignored way
// costing one request.
func TestPagingModes(t *testing.T) {
	ctx := context.Background()
	dir := netboxtest.Dir{Path: demo}
	for _, m := range []struct {
		name             string
		noCursor, noIDGT bool
		extra            int
	}{{"by cursor", false, false, 0}, {"by id__gt", true, false, 1}, {"by offset", true, true, 2}} {
		srv := netboxtest.NewServer(dir, token)
		srv.NoCursor, srv.IgnoreIDFilter = m.noCursor, m.noIDGT
		c, _, _ := newClient(t, srv.URL, token, netbox.Options{PageSize: 100})
		for _, ep := range []string{"dcim/interfaces", "dcim/front-ports"} {
			got, err := netboxtest.ReadAll(ctx, c, ep)
			want, _ := netboxtest.ReadAll(ctx, dir, ep)
			if err != nil || !reflect.DeepEqual(canon(t, got, ""), canon(t, want, "")) {
				t.Errorf("%s, %s: %d objects, %v; want %d", m.name, ep, len(got), err, len(want))
			}
			pages := (len(want) + 99) / 100
			if srv.Requests(ep) != pages+m.extra {
				t.Errorf("%s, %s: %d requests for %d pages", m.name, ep, srv.Requests(ep), pages)
			}
			// The way found is kept for the endpoint: read again, a
			// request a page.
			before := srv.Requests(ep)
			if again, err := netboxtest.ReadAll(ctx, c, ep); err != nil || len(again) != len(want) || srv.Requests(ep)-before != pages {
				t.Errorf("%s, %s again: %d objects in %d requests, %v", m.name, ep, len(again), srv.Requests(ep)-before, err)
			}
		}
		srv.Close()
	}
}

// PagesAfter reads from the first id above after (an import resuming),
// whether or not the NetBox knows id__gt.
func TestPagesAfter(t *testing.T) {
	ctx := context.Background()
	all, _ := netboxtest.ReadAll(ctx, netboxtest.Dir{Path: demo}, "dcim/interfaces")
	mem := netboxtest.NewMemory(nil)
	mem.Put("dcim/interfaces", all...)
	for _, ignore := range []bool{false, true} {
		srv := netboxtest.NewServer(mem, token)
		srv.NoCursor, srv.IgnoreIDFilter = ignore, ignore
		c, _, _ := newClient(t, srv.URL, token, netbox.Options{PageSize: 100})
		for _, after := range []int{0, 1, 777, 1585, 99999} {
			var got []json.RawMessage
			err := c.PagesAfter(ctx, "dcim/interfaces", after, func(objs []json.RawMessage) error {
				got = append(got, objs...)
				return nil
			})
			var want []json.RawMessage
			for _, o := range all {
				if id, _ := netboxtest.ObjectID(o); id > after {
					want = append(want, o)
				}
			}
			if err != nil || !reflect.DeepEqual(canon(t, got, ""), canon(t, want, "")) {
				t.Errorf("ignore id__gt %v, after %d: %d objects, %v; want %d", ignore, after, len(got), err, len(want))
			}
		}
		srv.Close()
	}
}

// fn's error ends the walk and comes back as is; so does the caller's
// cancellation.
func TestPagesStop(t *testing.T) {
	srv := netboxtest.NewServer(netboxtest.Dir{Path: demo}, token)
	defer srv.Close()
	c, _, _ := newClient(t, srv.URL, token, netbox.Options{PageSize: 100})
	stop := errors.New("stop")
	pages := 0
	err := c.Pages(context.Background(), "dcim/interfaces", func([]json.RawMessage) error { pages++; return stop })
	if err != stop || pages != 1 {
		t.Errorf("%d pages, %v", pages, err)
	}
	// A panic in fn (the importer's) carries no token, nor does the stack.
	func() {
		defer func() {
			r := recover()
			if s := fmt.Sprintf("%v %+v\n%s", r, r, debug.Stack()); r == nil || strings.Contains(s, token) {
				t.Errorf("panic %v shows the token", r)
			}
		}()
		c.Pages(context.Background(), "dcim/sites", func([]json.RawMessage) error { panic("importer bug") })
	}()
	ctx, cancel := context.WithCancel(context.Background())
	srv.Stall("dcim/sites", -1)
	done := make(chan error)
	go func() { done <- c.Pages(ctx, "dcim/sites", func([]json.RawMessage) error { return nil }) }()
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
}

// An unknown model and an unknown field come through as NetBox sends them
// (the importer judges them); an endpoint NetBox lacks has no pages.
func TestUnknownModelAndField(t *testing.T) {
	ctx := context.Background()
	extra := netboxtest.NewMemory(nil)
	extra.Put("plugins/acme/widgets", json.RawMessage(`{"id":1,"name":"w"}`))
	src := netboxtest.Edit(netboxtest.With(netboxtest.Dir{Path: demo}, extra), "dcim/sites", func(o map[string]any) { o["frobnication"] = 3 })
	srv := netboxtest.NewServer(src, token)
	defer srv.Close()
	c, _, _ := newClient(t, srv.URL, token, netbox.Options{})
	eps, err := c.Endpoints(ctx)
	if err != nil || !slices.Contains(eps, "plugins/acme/widgets") || !slices.Contains(eps, "dcim/sites") {
		t.Fatalf("%v, %v", eps, err)
	}
	var got []string
	c.Pages(ctx, "plugins/acme/widgets", func(objs []json.RawMessage) error {
		for _, o := range objs {
			got = append(got, string(o))
		}
		return nil
	})
	sites, _ := netboxtest.ReadAll(ctx, c, "dcim/sites")
	if len(got) != 1 || len(sites) != 24 || !strings.Contains(string(sites[0]), `"frobnication":3`) {
		t.Errorf("widgets %v, sites %d", got, len(sites))
	}
	err = c.Pages(ctx, "dcim/nothing", func([]json.RawMessage) error { t.Error("a page of nothing"); return nil })
	n, cerr := c.Count(ctx, "dcim/nothing")
	if err != nil || cerr != nil || n != 0 {
		t.Errorf("an endpoint NetBox lacks: %v, %d, %v", err, n, cerr)
	}
}

// The base URL may carry /api/ and a path prefix (a NetBox under
// /netbox/); requests go under it.
func TestBaseURL(t *testing.T) {
	for in, want := range map[string]string{
		"https://netbox.example.com":      "https://netbox.example.com",
		"https://netbox.example.com/":     "https://netbox.example.com",
		"https://netbox.example.com/api/": "https://netbox.example.com",
		" http://h:8001/netbox/api?x=1 ":  "http://h:8001/netbox",
		"http://h:8001/netbox/":           "http://h:8001/netbox",
	} {
		c, err := netbox.New(in, token, netbox.Options{})
		if err != nil || c.URL() != want {
			t.Errorf("%q: %v, %v; want %s", in, c, err, want)
		}
	}
	var paths []string
	hc := &http.Client{Transport: roundTripper(func(r *http.Request) (*http.Response, error) {
		paths = append(paths, r.URL.RequestURI()+" "+r.Header.Get("Authorization"))
		return &http.Response{StatusCode: 200, Header: http.Header{"Content-Type": {"application/json"}},
			Body: io.NopCloser(strings.NewReader(`{"netbox-version":"4.6.8"}`)), Request: r}, nil
	})}
	c, _ := netbox.New("http://h/netbox/", "nbt_abcdefghijkl.secret", netbox.Options{Client: hc})
	if _, err := c.Status(context.Background()); err != nil || len(paths) != 1 || paths[0] != "/netbox/api/status/ Bearer nbt_abcdefghijkl.secret" {
		t.Errorf("%v, %v", paths, err)
	}
}
