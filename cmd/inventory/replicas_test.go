package main

import (
	"bufio"
	"bytes"
	stdsql "database/sql"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib"

	"github.com/inventory/inventory/ent/db/standbytest"
)

// The replicas test runs the real `serve` command twice against one
// PostgreSQL database, each in its own process: this test binary started
// again with replicaArgsEnv set runs `inventory <args>` (TestMain) instead
// of the tests, so a replica can be killed with -9.
const replicaArgsEnv = "INVENTORY_TEST_REPLICA_ARGS"

func TestMain(m *testing.M) {
	if raw := os.Getenv(replicaArgsEnv); raw != "" {
		var args []string
		if err := json.Unmarshal([]byte(raw), &args); err != nil {
			fmt.Fprintln(os.Stderr, "replica args:", err)
			os.Exit(2)
		}
		if err := run(args); err != nil {
			fmt.Fprintln(os.Stderr, "inventory:", err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	code := m.Run()
	standbytest.Shutdown()
	os.Exit(code)
}

const (
	adminToken = "0123456789abcdef0123456789abcdef01234567"
	peppers    = `{"1":"pepper-for-the-replicas-test-pepper-for-the-replicas-test"}`
	// cacheTTL is far longer than the test waits for anything: a replica
	// that refuses a revoked token at once was told, not timed out.
	cacheTTL = 60 * time.Second
	// prompt is how long a notification may take to reach the other
	// replica (milliseconds in practice).
	prompt = 2 * time.Second
)

// replicaDatabase creates the shared database (dropped afterwards) and
// returns its URL. PostgreSQL only: SQLite is one process.
func replicaDatabase(t *testing.T) string {
	admin := os.Getenv("INVENTORY_TEST_POSTGRES")
	if admin == "" {
		if os.Getenv("CI") == "true" {
			t.Fatal("INVENTORY_TEST_POSTGRES is not set in CI: the replicas test must run")
		}
		t.Skip("INVENTORY_TEST_POSTGRES not set: replicas share a PostgreSQL database")
	}
	conn, err := stdsql.Open("pgx", admin)
	if err != nil {
		t.Fatal(err)
	}
	name := fmt.Sprintf("inv_replicas_%d", os.Getpid())
	if _, err := conn.Exec("CREATE DATABASE " + name); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		conn.Exec("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)")
		conn.Close()
	})
	u, err := url.Parse(admin)
	if err != nil {
		t.Fatal(err)
	}
	u.Path = "/" + name
	return u.String()
}

// replica is one `serve` process.
type replica struct {
	name string
	cmd  *exec.Cmd
	url  string // http://127.0.0.1:port
	mu   sync.Mutex
	log  bytes.Buffer
	done chan struct{}
}

var listenLine = regexp.MustCompile(`listen=(http://[^ ]+)/api/`)

func startReplica(t *testing.T, name, dsn string, extra ...string) *replica {
	t.Helper()
	args, _ := json.Marshal(append([]string{"serve",
		"--database", dsn, "--data-dir", t.TempDir(), "--api-token-peppers", peppers,
		"--listen", "127.0.0.1:0", "--no-migrate", "--cache-ttl", cacheTTL.String(),
		"--webhook-allow", "127.0.0.1/32", "--webhook-poll-interval", "50ms",
		// A held send outlives the kill; a dead worker's claims are taken
		// over 6 s after they were made; failed sends retry quickly.
		"--webhook-timeout", "5s", "--webhook-lease", "6s",
		"--webhook-backoff", "100ms", "--webhook-backoff-max", "500ms",
	}, extra...))
	r := &replica{name: name, done: make(chan struct{})}
	r.cmd = exec.Command(os.Args[0], "-test.run=^$")
	r.cmd.Env = append(os.Environ(), replicaArgsEnv+"="+string(args))
	stderr, err := r.cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := r.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	addr := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			line := sc.Text()
			r.mu.Lock()
			r.log.WriteString(line + "\n")
			r.mu.Unlock()
			if m := listenLine.FindStringSubmatch(line); m != nil {
				select {
				case addr <- m[1]:
				default:
				}
			}
		}
		r.cmd.Wait()
		close(r.done)
	}()
	t.Cleanup(func() {
		r.cmd.Process.Kill()
		<-r.done
		if t.Failed() {
			r.mu.Lock()
			t.Logf("replica %s output:\n%s", name, r.log.String())
			r.mu.Unlock()
		}
	})
	select {
	case r.url = <-addr:
	case <-r.done:
		t.Fatalf("replica %s exited:\n%s", name, r.log.String())
	case <-time.After(30 * time.Second):
		t.Fatalf("replica %s did not start", name)
	}
	return r
}

// kill ends the replica with SIGKILL: no shutdown, no deferred cleanup.
func (r *replica) kill(t *testing.T) {
	t.Helper()
	if err := r.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	<-r.done
}

var client = &http.Client{Timeout: 30 * time.Second}

// try makes one request; token "" is anonymous. It returns the status and
// the decoded body; a 5xx is an error.
func try(base, token, method, path string, body any) (int, any, error) {
	var rd io.Reader
	if body != nil {
		raw, _ := json.Marshal(body)
		rd = bytes.NewReader(raw)
	}
	req, err := http.NewRequest(method, base+path, rd)
	if err != nil {
		return 0, nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	if token != "" {
		req.Header.Set("Authorization", token)
	}
	resp, err := client.Do(req)
	if err != nil {
		return 0, nil, fmt.Errorf("%s %s%s: %w", method, base, path, err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	var v any
	if len(raw) > 0 {
		if err := json.Unmarshal(raw, &v); err != nil {
			return 0, nil, fmt.Errorf("%s %s: %d %s", method, path, resp.StatusCode, raw)
		}
	}
	if resp.StatusCode >= 500 {
		return 0, nil, fmt.Errorf("%s %s%s: %d %s", method, base, path, resp.StatusCode, raw)
	}
	return resp.StatusCode, v, nil
}

// call is try for the test's goroutine: an error ends the test.
func call(t *testing.T, base, token, method, path string, body any) (int, any) {
	t.Helper()
	code, v, err := try(base, token, method, path, body)
	if err != nil {
		t.Fatal(err)
	}
	return code, v
}

func must(t *testing.T, want int, base, token, method, path string, body any) map[string]any {
	t.Helper()
	code, v := call(t, base, token, method, path, body)
	if code != want {
		t.Fatalf("%s %s: %d, want %d: %v", method, path, code, want, v)
	}
	m, _ := v.(map[string]any)
	return m
}

func idOf(m map[string]any) int { return int(m["id"].(float64)) }

// refusedAtOnce asserts that a request which was allowed is refused with
// 403 within prompt: the notification of the other replica's commit has
// arrived (the cache's TTL is a minute).
func refusedAtOnce(t *testing.T, what, base, token, path string) {
	t.Helper()
	start := time.Now()
	for {
		code, v := call(t, base, token, "GET", path, nil)
		if code == http.StatusForbidden {
			t.Logf("%s: refused after %v", what, time.Since(start).Round(time.Millisecond))
			return
		}
		if code != http.StatusOK {
			t.Fatalf("%s: %d %v", what, code, v)
		}
		if time.Since(start) > prompt {
			t.Fatalf("%s: still allowed after %v (cache TTL %v): the other replica was not told", what, prompt, cacheTTL)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// poll waits up to 10 s for cond.
func poll(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// barrier returns once b has received every notification of the writes
// committed so far: it caches a count on b, changes it through a, and
// waits for b to answer the new count (notifications arrive in commit
// order).
func barrier(t *testing.T, a, b *replica) {
	t.Helper()
	admin := "Token " + adminToken
	count := func() float64 {
		return must(t, 200, b.url, admin, "GET", "/api/extras/tags/?limit=1", nil)["count"].(float64)
	}
	before := count()
	n := fmt.Sprintf("barrier-%d", time.Now().UnixNano())
	must(t, 201, a.url, admin, "POST", "/api/extras/tags/", map[string]any{"name": n, "slug": n})
	poll(t, "the barrier's notification", func() bool { return count() == before+1 })
}

// Two `serve` processes on one PostgreSQL database: what one revokes the
// other refuses at its next request, concurrent bulk writes stay
// all-or-none, and webhook events produced on both are all delivered,
// each under one delivery id, while one replica is killed with -9.
func TestReplicas(t *testing.T) {
	dsn := replicaDatabase(t)
	if err := run([]string{"migrate", "--database", dsn}); err != nil {
		t.Fatal(err)
	}
	if err := run([]string{"createsuperuser", "--database", dsn, "--api-token-peppers", peppers,
		"--data-dir", t.TempDir(), "--username", "admin", "--password", "admin", "--token", adminToken}); err != nil {
		t.Fatal(err)
	}
	raw, err := stdsql.Open("pgx", dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()

	var (
		mu       sync.Mutex
		received = map[string][]string{} // delivery id → manufacturer names
		hold     = make(chan struct{})   // closed: stop holding requests
		holding  = 50                    // requests answered before holding starts
	)
	rcv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var body struct {
			Data struct {
				Name string `json:"name"`
			} `json:"data"`
		}
		json.NewDecoder(r.Body).Decode(&body)
		mu.Lock()
		id := r.Header.Get("X-Delivery-ID")
		received[id] = append(received[id], body.Data.Name)
		n := len(received)
		mu.Unlock()
		if n > holding {
			// Hold the sender until the test has killed a replica with
			// sends in flight.
			select {
			case <-hold:
			case <-r.Context().Done():
			}
		}
	}))
	defer rcv.Close()

	a := startReplica(t, "A", dsn)
	b := startReplica(t, "B", dsn)
	admin := "Token " + adminToken

	t.Run("revocation", func(t *testing.T) {
		uid := idOf(must(t, 201, a.url, admin, "POST", "/api/users/users/", map[string]any{"username": "u", "password": "pw-u-12345"}))
		tok := func() (int, string) {
			m := must(t, 201, a.url, admin, "POST", "/api/users/tokens/", map[string]any{"user": uid, "version": 1})
			return idOf(m), "Token " + m["token"].(string)
		}
		t1, u1 := tok()
		t2, u2 := tok()
		grant := func(ct string) int {
			return idOf(must(t, 201, a.url, admin, "POST", "/api/users/permissions/", map[string]any{
				"name": "view " + ct, "object_types": []string{ct}, "actions": []string{"view"}, "users": []int{uid}}))
		}
		sites, tenants := grant("dcim.site"), grant("tenancy.tenant")
		allowed := func(token, path string) bool {
			code, v := call(t, b.url, token, "GET", path, nil)
			if code != http.StatusOK && code != http.StatusForbidden {
				t.Fatalf("GET %s on B: %d %v", path, code, v)
			}
			return code == http.StatusOK
		}
		// warm fills B's cache with both users' tokens and grants (after
		// a notified write B may still answer from the cache it had for
		// a moment: polled).
		warm := func() {
			for _, u := range []string{u1, u2} {
				for _, path := range []string{"/api/dcim/sites/", "/api/tenancy/tenants/"} {
					poll(t, "B allows "+path, func() bool { return allowed(u, path) })
				}
			}
		}
		// The first use of a token writes its last_used in the background
		// (quietly: it notifies no replica); wait for both.
		warm()
		poll(t, "last_used of the new tokens", func() bool {
			var n int
			raw.QueryRow(`SELECT count(*) FROM users_token WHERE id IN ($1, $2) AND last_used IS NOT NULL`, t1, t2).Scan(&n)
			return n == 2
		})
		behindTheBack := func(enabled bool) {
			t.Helper()
			if _, err := raw.Exec(`UPDATE users_objectpermission SET enabled = $2 WHERE id = $1`, tenants, enabled); err != nil {
				t.Fatal(err)
			}
			if _, err := raw.Exec(`UPDATE users_token SET enabled = $2 WHERE id = $1`, t2, enabled); err != nil {
				t.Fatal(err)
			}
		}
		// Control: changes made behind the service's back (no
		// notification) stay unseen on B for the TTL, so what follows is
		// the notification's doing. A notification of an earlier write
		// still on its way (the barrier's poll can end on a read B did
		// not take from its cache, before B has heard of the barrier's
		// own write) may empty B's cache between the warming and the
		// control: then the rows are enabled again and the control is
		// made again after the next barrier. A B that drops its cache
		// without being told fails every attempt.
		for attempt := 1; ; attempt++ {
			barrier(t, a, b)
			warm()
			behindTheBack(false)
			c1, c2 := allowed(u1, "/api/tenancy/tenants/"), allowed(u2, "/api/dcim/sites/")
			if c1 && c2 {
				break
			}
			if attempt == 5 {
				t.Fatalf("control: B saw changes it was not told of, %d times running (tenants allowed: %v, sites allowed: %v)", attempt, c1, c2)
			}
			t.Logf("control, attempt %d: B's cache was emptied by a late notification (tenants allowed: %v, sites allowed: %v); again", attempt, c1, c2)
			behindTheBack(true)
		}

		must(t, 204, a.url, admin, "DELETE", fmt.Sprintf("/api/users/permissions/%d/", sites), nil)
		refusedAtOnce(t, "permission removed through A, on B", b.url, u1, "/api/dcim/sites/")
		// The notification dropped B's whole cache: the unnotified
		// changes are seen too.
		must(t, 403, b.url, u1, "GET", "/api/tenancy/tenants/", nil)
		must(t, 403, b.url, u2, "GET", "/api/users/tokens/", nil)

		must(t, 200, b.url, u1, "GET", "/api/users/tokens/", nil) // own tokens: a default permission
		must(t, 204, a.url, admin, "DELETE", fmt.Sprintf("/api/users/tokens/%d/", t1), nil)
		refusedAtOnce(t, "token deleted through A, on B", b.url, u1, "/api/users/tokens/")
	})

	t.Run("concurrent bulk writes", func(t *testing.T) {
		// Pairs of 10-item bulk creates, one on each replica at once,
		// racing for one shared name: one of each pair commits whole, the
		// other changes nothing.
		const pairs, size = 20, 10
		type result struct {
			code int
			body any
		}
		results := make([][2]result, pairs)
		// One pair at a time (both of its bulks at once): few connections,
		// beside other packages' tests on the same server.
		for p := 0; p < pairs; p++ {
			var wg sync.WaitGroup
			for side, r := range []*replica{a, b} {
				items := make([]map[string]any, 0, size)
				for i := 0; i < size-1; i++ {
					n := fmt.Sprintf("bulk-%d-%s-%d", p, r.name, i)
					items = append(items, map[string]any{"name": n, "slug": n})
				}
				shared := fmt.Sprintf("bulk-%d-shared", p)
				items = append(items[:size/2], append([]map[string]any{{"name": shared, "slug": shared}}, items[size/2:]...)...)
				wg.Add(1)
				go func() {
					defer wg.Done()
					code, body, err := try(r.url, admin, "POST", "/api/tenancy/tenants/", items)
					if err != nil {
						t.Error(err)
					}
					results[p][side] = result{code, body}
				}()
			}
			wg.Wait()
		}
		for p := 0; p < pairs; p++ {
			won := 0
			for side, r := range []*replica{a, b} {
				res := results[p][side]
				var n int
				if err := raw.QueryRow(`SELECT count(*) FROM tenancy_tenant WHERE name LIKE $1`,
					fmt.Sprintf("bulk-%d-%s-%%", p, r.name)).Scan(&n); err != nil {
					t.Fatal(err)
				}
				switch {
				case res.code == 201 && n == size-1:
					won++
				case res.code == 400 && n == 0:
				default:
					t.Errorf("pair %d on %s: %d with %d of its %d other rows stored: %v", p, r.name, res.code, n, size-1, res.body)
				}
			}
			if won != 1 {
				t.Errorf("pair %d: %d bulk creates committed, want exactly 1", p, won)
			}
		}
	})

	t.Run("webhooks with a replica killed", func(t *testing.T) {
		hook := idOf(must(t, 201, a.url, admin, "POST", "/api/extras/webhooks/", map[string]any{"name": "hook", "payload_url": rcv.URL}))
		rule := idOf(must(t, 201, a.url, admin, "POST", "/api/extras/event-rules/", map[string]any{
			"name": "rule", "object_types": []string{"dcim.manufacturer"}, "event_types": []string{"object_created"},
			"action_type": "webhook", "action_object_type": "extras.webhook", "action_object_id": hook}))
		const events = 200
		var wg sync.WaitGroup
		for side, r := range []*replica{a, b} {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := side; i < events; i += 2 {
					n := fmt.Sprintf("m-%03d", i)
					code, body, err := try(r.url, admin, "POST", "/api/dcim/manufacturers/", map[string]any{"name": n, "slug": n})
					if err == nil && code != 201 {
						err = fmt.Errorf("create %s on %s: %d %v", n, r.name, code, body)
					}
					if err != nil {
						t.Error(err)
						return
					}
				}
			}()
		}
		start := time.Now()
		wg.Wait()
		if t.Failed() {
			t.FailNow()
		}
		t.Logf("%d events produced on two replicas in %v", events, time.Since(start).Round(time.Millisecond))
		// Kill A while it holds claimed deliveries (the receiver holds
		// every send after the first 50).
		pidA := fmt.Sprintf("%%:%d:%%", a.cmd.Process.Pid)
		var claimedByA []string
		deadline := time.Now().Add(30 * time.Second)
		for len(claimedByA) == 0 {
			if time.Now().After(deadline) {
				t.Fatal("A never held a delivery in flight")
			}
			rows, err := raw.Query(`SELECT uuid FROM core_delivery WHERE status = 'started' AND worker LIKE $1`, pidA)
			if err != nil {
				t.Fatal(err)
			}
			for rows.Next() {
				var u string
				rows.Scan(&u)
				claimedByA = append(claimedByA, u)
			}
			rows.Close()
			time.Sleep(10 * time.Millisecond)
		}
		a.kill(t)
		close(hold)
		t.Logf("killed A with %d deliveries in flight", len(claimedByA))

		// B delivers the rest, A's claims included once their lease ends.
		deadline = time.Now().Add(60 * time.Second)
		for {
			var open int
			if err := raw.QueryRow(`SELECT count(*) FROM core_delivery WHERE rule_id = $1 AND status <> 'finished'`, rule).Scan(&open); err != nil {
				t.Fatal(err)
			}
			var total int
			raw.QueryRow(`SELECT count(*) FROM core_delivery WHERE rule_id = $1`, rule).Scan(&total)
			if open == 0 && total == events {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("%d of %d deliveries, %d not finished, after 60 s", total, events, open)
			}
			time.Sleep(20 * time.Millisecond)
		}
		type row struct {
			name     string
			attempts int
			worker   string
		}
		rows, err := raw.Query(`SELECT d.uuid, m.name, d.attempts, d.worker FROM core_delivery d
			JOIN dcim_manufacturer m ON m.id = d.object_id WHERE d.rule_id = $1`, rule)
		if err != nil {
			t.Fatal(err)
		}
		stored := map[string]row{}
		names := map[string]int{}
		for rows.Next() {
			var id string
			var r row
			if err := rows.Scan(&id, &r.name, &r.attempts, &r.worker); err != nil {
				t.Fatal(err)
			}
			stored[id] = r
			names[r.name]++
		}
		rows.Close()
		if len(names) != events {
			t.Fatalf("deliveries for %d manufacturers, want %d", len(names), events)
		}
		for n, c := range names {
			if c != 1 {
				t.Errorf("%s: %d deliveries, want 1", n, c)
			}
		}
		mu.Lock()
		defer mu.Unlock()
		if len(received) != events {
			t.Errorf("receiver got %d distinct delivery ids, want %d", len(received), events)
		}
		pidPart := ":" + strconv.Itoa(a.cmd.Process.Pid) + ":"
		resent := 0
		for id, got := range received {
			r, ok := stored[id]
			switch {
			case !ok:
				t.Errorf("received unknown delivery id %s", id)
			case got[0] != r.name:
				t.Errorf("delivery %s carried %s, stored for %s", id, got[0], r.name)
			case len(got) > 1 && r.attempts < 2:
				// Sent again under the same id only by a new attempt (a
				// takeover from the dead worker, or a retry after a held
				// send timed out): receivers de-duplicate by id.
				t.Errorf("delivery %s received %d times in %d attempt", id, len(got), r.attempts)
			}
			if len(got) > 1 {
				resent++
			}
		}
		t.Logf("%d delivery ids received more than once (same id, a later attempt)", resent)
		for _, id := range claimedByA {
			if r := stored[id]; strings.Contains(r.worker, pidPart) {
				t.Errorf("delivery %s, claimed by the killed replica, was not taken over (worker %s)", id, r.worker)
			}
		}
	})
}
