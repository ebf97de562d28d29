package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/inventory/inventory/ent/db/standbytest"
)

// Reads served by PostgreSQL hot standbys (issue 38), through real `serve`
// processes on the standbytest primary and its streaming standby.

// apiClient is one API client: its token and, when it keeps cookies like
// a browser or pynetbox's requests.Session, a cookie jar.
type apiClient struct {
	token string
	http  *http.Client
}

func newClient(t *testing.T, token string, cookies bool) *apiClient {
	c := &apiClient{token: token, http: &http.Client{Timeout: 30 * time.Second}}
	if cookies {
		jar, err := cookiejar.New(nil)
		if err != nil {
			t.Fatal(err)
		}
		c.http.Jar = jar
	}
	return c
}

// do makes one request; any failure (a transport error, a 5xx, an
// unexpected status) is an error.
func (c *apiClient) do(method, url string, body any, want int) (map[string]any, error) {
	var rd io.Reader
	if body != nil {
		raw, _ := json.Marshal(body)
		rd = bytes.NewReader(raw)
	}
	req, err := http.NewRequest(method, url, rd)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	req.Header.Set("Authorization", "Token "+c.token)
	resp, err := c.http.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != want {
		return nil, fmt.Errorf("%s %s: %d %s", method, url, resp.StatusCode, raw)
	}
	var v any
	if len(raw) > 0 {
		if err := json.Unmarshal(raw, &v); err != nil {
			return nil, fmt.Errorf("%s %s: %v", method, url, err)
		}
	}
	m, _ := v.(map[string]any)
	return m, nil
}

func (c *apiClient) must(t *testing.T, method, url string, body any, want int) map[string]any {
	t.Helper()
	m, err := c.do(method, url, body, want)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// standbyStatus is the first standby as /api/status/ lists it.
func standbyStatus(t *testing.T, c *apiClient, base string) map[string]any {
	t.Helper()
	st := c.must(t, "GET", base+"/api/status/", nil, 200)
	list, _ := st["database"].(map[string]any)["standbys"].([]any)
	if len(list) != 1 {
		t.Fatalf("status lists %d standbys, want 1: %v", len(list), st["database"])
	}
	return list[0].(map[string]any)
}

func standbyReads(t *testing.T, c *apiClient, base string) float64 {
	t.Helper()
	return standbyStatus(t, c, base)["reads"].(float64)
}

// pollFor waits for cond, polling, up to a deadline.
func pollFor(t *testing.T, what string, limit time.Duration, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(limit)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out after %v waiting for %s", limit, what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// standbySetup makes a database on the primary with the admin and a
// second user's token, and returns its URLs.
func standbySetup(t *testing.T) (c *standbytest.Cluster, primary, standby string) {
	c = standbytest.Get(t)
	primary, standby = c.Database(t)
	if err := run([]string{"migrate", "--database", primary}); err != nil {
		t.Fatal(err)
	}
	if err := run([]string{"createsuperuser", "--database", primary, "--api-token-peppers", peppers,
		"--data-dir", t.TempDir(), "--username", "admin", "--password", "admin", "--token", adminToken}); err != nil {
		t.Fatal(err)
	}
	c.CatchUp(t)
	return c, primary, standby
}

// otherToken makes another user, who may view and change sites, and its
// token (another client).
func otherToken(t *testing.T, admin *apiClient, base string, name string) string {
	t.Helper()
	uid := admin.must(t, "POST", base+"/api/users/users/", map[string]any{"username": name, "password": "pw-" + name + "-12345"}, 201)["id"]
	admin.must(t, "POST", base+"/api/users/permissions/", map[string]any{"name": "sites of " + name,
		"object_types": []string{"dcim.site", "extras.tag", "ipam.prefix", "ipam.ipaddress"}, "actions": []string{"view", "add", "change"}, "users": []any{uid}}, 201)
	tok := admin.must(t, "POST", base+"/api/users/tokens/", map[string]any{"user": uid, "version": 1}, 201)
	return tok["token"].(string)
}

// SQLite has no standbys: the flag is refused with a clear error.
func TestReadDatabaseRefusedOnSQLite(t *testing.T) {
	dir := t.TempDir()
	err := run([]string{"serve", "--database", filepath.Join(dir, "inventory.db"), "--data-dir", dir,
		"--listen", "127.0.0.1:0", "--read-database", "postgres://127.0.0.1:1/x"})
	if err == nil || !strings.Contains(err.Error(), "SQLite has none") {
		t.Fatalf("serve on SQLite with --read-database: %v", err)
	}
	t.Setenv("INVENTORY_READ_DATABASES", "postgres://127.0.0.1:1/x,postgres://127.0.0.1:2/y")
	err = run([]string{"serve", "--database", filepath.Join(dir, "inventory.db"), "--data-dir", dir, "--listen", "127.0.0.1:0"})
	if err == nil || !strings.Contains(err.Error(), "SQLite has none") {
		t.Fatalf("serve on SQLite with INVENTORY_READ_DATABASES: %v", err)
	}
}

// Reads go to the standby (counted by the standby itself), writes and
// the reads after them stay correct, and the status page and metrics say
// where reads went.
func TestStandbyServesReads(t *testing.T) {
	c, primary, standby := standbySetup(t)
	a := startReplica(t, "A", primary, "--read-database", standby)
	admin := newClient(t, adminToken, false)
	site := admin.must(t, "POST", a.url+"/api/dcim/sites/", map[string]any{"name": "s1", "slug": "s1"}, 201)
	c.CatchUp(t)
	name := standbytest.DatabaseName(standby)
	before := c.StandbyScans(t, name, "dcim_site")
	// The standby's statistics are flushed by its sessions at most once a
	// second: keep reading until they show the reads.
	pollFor(t, "the standby to count reads of dcim_site", 30*time.Second, func() bool {
		admin.must(t, "GET", a.url+"/api/dcim/sites/", nil, 200)
		admin.must(t, "GET", fmt.Sprintf("%s/api/dcim/sites/%v/", a.url, site["id"]), nil, 200)
		return c.StandbyScans(t, name, "dcim_site") > before
	})
	st := standbyStatus(t, admin, a.url)
	if st["state"] != "ok" || st["usable"] != true || st["reads"].(float64) == 0 {
		t.Fatalf("status of the standby: %v", st)
	}
	m := newClient(t, "", false)
	resp, err := m.http.Get(a.url + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	for _, want := range []string{`inventory_db_reads_total{server="` + strings.TrimPrefix(standby[:strings.Index(standby, "?")], "postgres://postgres@"),
		`inventory_db_reads_total{server="primary"}`, `inventory_db_standby_usable{server=`, `inventory_db_standby_lag_seconds{server=`,
		`inventory_db_read_fallbacks_total{reason="behind"}`} {
		if !strings.Contains(string(raw), want) {
			t.Errorf("metrics lack %s", want)
		}
	}
	// An allocation endpoint's read is the primary's: the standby's count
	// does not move for it.
	pfx := admin.must(t, "POST", a.url+"/api/ipam/prefixes/", map[string]any{"prefix": "10.9.0.0/29"}, 201)
	// A client that has written nothing: each of its reads is the
	// standby's unless it is an allocation read.
	reader := newClient(t, otherToken(t, admin, a.url, "reader"), false)
	c.CatchUp(t)
	pollFor(t, "the standby to be usable again", 30*time.Second, func() bool {
		return standbyStatus(t, reader, a.url)["usable"] == true
	})
	n := standbyReads(t, reader, a.url)
	for range 10 {
		reader.must(t, "GET", fmt.Sprintf("%s/api/ipam/prefixes/%v/available-ips/", a.url, pfx["id"]), nil, 200)
	}
	if got := standbyReads(t, reader, a.url); got != n+1 { // +1: the status read itself
		t.Errorf("available-ips was read from the standby (reads %v → %v)", n, got)
	}
	reader.must(t, "GET", fmt.Sprintf("%s/api/ipam/prefixes/%v/", a.url, pfx["id"]), nil, 200)
	if got := standbyReads(t, reader, a.url); got != n+3 {
		t.Errorf("the prefix was not read from the standby (reads %v → %v)", n, got)
	}
}

// stale counts write-then-read pairs whose read missed its own write.
type pairs struct {
	stale, standbyReads, failed atomic.Int64
	mu                          sync.Mutex
	errs                        []string
}

func (p *pairs) fail(err error) {
	p.failed.Add(1)
	p.mu.Lock()
	if len(p.errs) < 5 {
		p.errs = append(p.errs, err.Error())
	}
	p.mu.Unlock()
}

// writeThenRead runs n pairs for one client: a PATCH of its own site's
// description through write, then a GET of it through read, which must
// show the new description.
func writeThenRead(p *pairs, cl *apiClient, write, read string, site any, n int, tag string) {
	for i := range n {
		want := fmt.Sprintf("%s-%d", tag, i)
		if _, err := cl.do("PATCH", fmt.Sprintf("%s/api/dcim/sites/%v/", write, site), map[string]any{"description": want}, 200); err != nil {
			p.fail(err)
			continue
		}
		got, err := cl.do("GET", fmt.Sprintf("%s/api/dcim/sites/%v/", read, site), nil, 200)
		if err != nil {
			p.fail(err)
			continue
		}
		if got["description"] != want {
			p.stale.Add(1)
		}
	}
}

// countAfterCreate runs n pairs for one client: a new tag through write,
// then the count of all tags through read, which must have grown since
// the client's last count. The count is cached: a count read from a
// standby behind the client's write must not be answered from a cache
// the primary's reads use.
func countAfterCreate(p *pairs, cl *apiClient, write, read string, n int, tag string) {
	prev := -1.0
	for i := range n {
		slug := fmt.Sprintf("%s-%d", tag, i)
		if _, err := cl.do("POST", write+"/api/extras/tags/", map[string]any{"name": slug, "slug": slug}, 201); err != nil {
			p.fail(err)
			continue
		}
		got, err := cl.do("GET", read+"/api/extras/tags/?limit=1", nil, 200)
		if err != nil {
			p.fail(err)
			continue
		}
		if c := got["count"].(float64); c <= prev {
			p.stale.Add(1)
		} else {
			prev = c
		}
	}
}

// 1000 write-then-read pairs from several clients, each read sees its own
// write: through one replica (token clients without cookies: the
// position kept by token) and through two (writes on one, reads on the
// other: by cookie, and for token clients by the positions table); and
// cached counts after creates.
func TestStandbyReadYourWrites(t *testing.T) {
	c, primary, standby := standbySetup(t)
	a := startReplica(t, "A", primary, "--read-database", standby)
	b := startReplica(t, "B", primary, "--read-database", standby)
	admin := newClient(t, adminToken, false)
	const clients, perClient = 8, 125
	tokens := make([]string, clients)
	sites := make([]any, clients)
	for i := range clients {
		tokens[i] = otherToken(t, admin, a.url, fmt.Sprintf("client%d", i))
		sites[i] = admin.must(t, "POST", a.url+"/api/dcim/sites/", map[string]any{"name": fmt.Sprintf("c%d", i), "slug": fmt.Sprintf("c%d", i)}, 201)["id"]
	}
	c.CatchUp(t)
	for _, tc := range []struct {
		name        string
		write, read *replica
		cookies     bool
		counts      bool
	}{
		{"one replica, token", a, a, false, false},
		{"two replicas, cookie", a, b, true, false},
		{"two replicas, token", a, b, false, false},
		{"one replica, cached counts", a, a, false, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			pollFor(t, "the standby to be usable", 30*time.Second, func() bool {
				return standbyStatus(t, admin, tc.read.url)["usable"] == true
			})
			before := standbyReads(t, admin, tc.read.url)
			var p pairs
			var wg sync.WaitGroup
			stopReaders := func() {}
			if tc.counts {
				// Readers that write nothing: the standby serves them
				// whatever their writes, and they count the tags as the
				// standby sees them, again and again.
				done := make(chan struct{})
				var readers sync.WaitGroup
				for range 2 {
					readers.Add(1)
					go func() {
						defer readers.Done()
						cl := newClient(t, adminToken, false)
						for {
							select {
							case <-done:
								return
							default:
							}
							if _, err := cl.do("GET", tc.read.url+"/api/extras/tags/?limit=1", nil, 200); err != nil {
								p.fail(err)
							}
						}
					}()
				}
				stopReaders = func() { close(done); readers.Wait() }
			}
			for i := range clients {
				wg.Add(1)
				go func() {
					defer wg.Done()
					cl := newClient(t, tokens[i], tc.cookies)
					if tc.counts {
						countAfterCreate(&p, cl, tc.write.url, tc.read.url, perClient, fmt.Sprintf("c%d", i))
					} else {
						writeThenRead(&p, cl, tc.write.url, tc.read.url, sites[i], perClient, tc.name)
					}
					// Reads of what others wrote: the standby may serve them.
					for range 5 {
						if _, err := cl.do("GET", tc.read.url+"/api/dcim/sites/?limit=5", nil, 200); err != nil {
							p.fail(err)
						}
					}
				}()
			}
			wg.Wait()
			stopReaders()
			if p.failed.Load() > 0 {
				t.Errorf("%d failed requests: %v", p.failed.Load(), p.errs)
			}
			if n := p.stale.Load(); n > 0 {
				t.Errorf("%d of %d reads missed their own write", n, clients*perClient)
			}
			t.Logf("%d pairs; the standby served %v requests", clients*perClient, standbyReads(t, admin, tc.read.url)-before)
		})
	}
}

// The standby stopped under load: no request fails, reads move to the
// primary, and come back to the standby once it is restarted.
func TestStandbyStoppedUnderLoad(t *testing.T) {
	c, primary, standby := standbySetup(t)
	a := startReplica(t, "A", primary, "--read-database", standby)
	admin := newClient(t, adminToken, false)
	site := admin.must(t, "POST", a.url+"/api/dcim/sites/", map[string]any{"name": "load", "slug": "load"}, 201)["id"]
	c.CatchUp(t)
	pollFor(t, "the standby to be usable", 30*time.Second, func() bool {
		return standbyStatus(t, admin, a.url)["usable"] == true
	})
	var p pairs
	stop := make(chan struct{})
	var wg sync.WaitGroup
	var requests atomic.Int64
	for i := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			cl := newClient(t, adminToken, false)
			for n := 0; ; n++ {
				select {
				case <-stop:
					return
				default:
				}
				var err error
				switch {
				case i == 0 && n%10 == 0:
					_, err = cl.do("PATCH", fmt.Sprintf("%s/api/dcim/sites/%v/", a.url, site), map[string]any{"description": fmt.Sprint(n)}, 200)
				case n%2 == 0:
					_, err = cl.do("GET", a.url+"/api/dcim/sites/?limit=10", nil, 200)
				default:
					_, err = cl.do("GET", fmt.Sprintf("%s/api/dcim/sites/%v/", a.url, site), nil, 200)
				}
				requests.Add(1)
				if err != nil {
					p.fail(err)
				}
			}
		}()
	}
	pollFor(t, "reads served by the standby under load", 30*time.Second, func() bool {
		return standbyReads(t, admin, a.url) > 20
	})
	c.StopStandby(t)
	pollFor(t, "the standby to be taken out", 30*time.Second, func() bool {
		return standbyStatus(t, admin, a.url)["usable"] == false
	})
	down := standbyReads(t, admin, a.url)
	served := requests.Load()
	pollFor(t, "reads answered by the primary while the standby is down", 30*time.Second, func() bool {
		return requests.Load() > served+50
	})
	if got := standbyReads(t, admin, a.url); got != down {
		t.Errorf("a stopped standby was given %v reads", got-down)
	}
	c.StartStandby(t)
	pollFor(t, "reads back on the restarted standby", 60*time.Second, func() bool {
		return standbyReads(t, admin, a.url) > down+20
	})
	close(stop)
	wg.Wait()
	if p.failed.Load() > 0 {
		t.Fatalf("%d of %d requests failed: %v", p.failed.Load(), requests.Load(), p.errs)
	}
	t.Logf("%d requests, none failed", requests.Load())
}

// Replay paused: a client reads its own writes (from the primary) at
// once; other reads stay on the standby, old as its data is, until it is
// more than --read-max-lag behind, then go to the primary; resumed, the
// standby serves again.
func TestStandbyReplayPaused(t *testing.T) {
	c, primary, standby := standbySetup(t)
	a := startReplica(t, "A", primary, "--read-database", standby, "--read-max-lag", "1s")
	admin := newClient(t, adminToken, false)
	writer := newClient(t, otherToken(t, admin, a.url, "writer"), false)
	reader := newClient(t, otherToken(t, admin, a.url, "reader"), false)
	site := admin.must(t, "POST", a.url+"/api/dcim/sites/", map[string]any{"name": "paused", "slug": "paused", "description": "before"}, 201)["id"]
	c.CatchUp(t)
	detail := fmt.Sprintf("%s/api/dcim/sites/%v/", a.url, site)
	pollFor(t, "the reader to read from the standby", 30*time.Second, func() bool {
		return standbyStatus(t, admin, a.url)["usable"] == true && reader.must(t, "GET", detail, nil, 200)["description"] == "before"
	})
	// The lag counts from the first WAL the standby did not replay, at
	// the earliest a moment before the pause (replication is not
	// instant).
	paused := time.Now()
	c.PauseReplay(t)
	defer c.ResumeReplay(t)
	writer.must(t, "PATCH", detail, map[string]any{"description": "after"}, 200)
	if got := writer.must(t, "GET", detail, nil, 200)["description"]; got != "after" {
		t.Fatalf("the writer read %q after its own write", got)
	}
	// The reader has written nothing: the standby, behind but within the
	// limit, still serves it the old description.
	if got := reader.must(t, "GET", detail, nil, 200)["description"]; got != "before" && time.Since(paused) < 500*time.Millisecond {
		t.Fatalf("the reader read %q from a standby within the lag limit: it was not served by the standby", got)
	}
	pollFor(t, "the lagging standby to be taken out", 30*time.Second, func() bool {
		return reader.must(t, "GET", detail, nil, 200)["description"] == "after"
	})
	if lag := time.Since(paused); lag < 800*time.Millisecond {
		t.Errorf("reads left the standby %v after the pause, before the 1s lag limit", lag)
	}
	if st := standbyStatus(t, admin, a.url); st["state"] != "lagging" {
		t.Errorf("status of the paused standby: %v", st)
	}
	for range 20 {
		if got := writer.must(t, "GET", detail, nil, 200)["description"]; got != "after" {
			t.Fatalf("the writer read %q", got)
		}
	}
	c.ResumeReplay(t)
	pollFor(t, "the standby to serve again", 30*time.Second, func() bool {
		return standbyStatus(t, admin, a.url)["state"] == "ok"
	})
}
