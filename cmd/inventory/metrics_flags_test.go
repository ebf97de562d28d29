package main

import (
	"bufio"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestMetricsFlagsParse: --metrics-token and --metrics-allow (and their
// INVENTORY_* twins, which the flags override) end up in the server's
// metrics guard; a bad network is refused at start, naming the flag.
func TestMetricsFlagsParse(t *testing.T) {
	loopback := []string{"127.0.0.0/8", "::1/128"}
	for _, c := range []struct {
		name      string
		env       map[string]string
		args      []string
		token     string
		allow     []string
		wantError string
	}{
		{name: "defaults", allow: loopback},
		{name: "token flag", args: []string{"--metrics-token", "scrape"}, token: "scrape", allow: loopback},
		{name: "token env", env: map[string]string{"INVENTORY_METRICS_TOKEN": "from-env"}, token: "from-env", allow: loopback},
		{name: "token flag over env", env: map[string]string{"INVENTORY_METRICS_TOKEN": "from-env"},
			args: []string{"--metrics-token", "flag"}, token: "flag", allow: loopback},
		{name: "allow list", args: []string{"--metrics-allow", "10.0.0.0/8, 192.0.2.7,2001:db8::/32"},
			allow: []string{"10.0.0.0/8", "192.0.2.7/32", "2001:db8::/32"}},
		{name: "allow empty refuses all", args: []string{"--metrics-allow", ""}, allow: nil},
		{name: "allow env", env: map[string]string{"INVENTORY_METRICS_ALLOW": "198.51.100.0/24"}, allow: []string{"198.51.100.0/24"}},
		{name: "allow flag over env", env: map[string]string{"INVENTORY_METRICS_ALLOW": "198.51.100.0/24"},
			args: []string{"--metrics-allow", "203.0.113.9"}, allow: []string{"203.0.113.9/32"}},
		{name: "bad network", args: []string{"--metrics-allow", "10.0.0.0/33"}, wantError: "metrics allow-list"},
		{name: "host bits refused, as in a token's allowed_ips", args: []string{"--metrics-allow", "10.1.2.3/8"}, wantError: "metrics allow-list"},
		{name: "bad address", args: []string{"--metrics-allow", "localhost"}, wantError: "metrics allow-list"},
		{name: "bad env", env: map[string]string{"INVENTORY_METRICS_ALLOW": "10.0.0.0/8,nope"}, wantError: "metrics allow-list"},
	} {
		t.Run(c.name, func(t *testing.T) {
			for _, k := range []string{"INVENTORY_METRICS_TOKEN", "INVENTORY_METRICS_ALLOW"} {
				if v, ok := c.env[k]; ok {
					t.Setenv(k, v)
				} else {
					t.Setenv(k, "")
					os.Unsetenv(k) // unset, not empty: an empty allow-list is a setting
				}
			}
			o, fs := newOptions("serve")
			fs.SetOutput(io.Discard)
			err := o.parse(fs, append([]string{"--data-dir", t.TempDir(), "--access-log", "off"}, c.args...))
			if c.wantError != "" {
				if err == nil || !strings.Contains(err.Error(), c.wantError) {
					t.Fatalf("error %v, want one naming %q", err, c.wantError)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			g := o.cfg.Metrics.Guard
			if g.Token != c.token {
				t.Errorf("token %q, want %q", g.Token, c.token)
			}
			var got []string
			for _, p := range g.Allow {
				got = append(got, p.String())
			}
			if !slices.Equal(got, c.allow) {
				t.Errorf("allow %v, want %v", got, c.allow)
			}
		})
	}
}

// TestMetricsFlagsServe runs the real `serve` command (this test binary
// started again, see TestMain) on a fresh SQLite database with the
// metrics flags or their environment twins, and scrapes /metrics over
// loopback as an operator would: on the API's listener unless
// --metrics-listen names another one (then the API's answers 404 and the
// metrics listener serves nothing else), behind --metrics-token when set
// (the allow-list no longer decides), else behind --metrics-allow.
func TestMetricsFlagsServe(t *testing.T) {
	type probe struct {
		on     string // "api" or "metrics": which listener
		path   string
		bearer string
		want   int
	}
	for _, c := range []struct {
		name   string
		env    []string
		args   []string
		probes []probe
	}{
		{name: "default: on the API listener, loopback allowed",
			probes: []probe{{"api", "/metrics", "", 200}}},
		{name: "metrics-listen: a listener of its own",
			args: []string{"--metrics-listen", "127.0.0.1:0"},
			probes: []probe{
				{"metrics", "/metrics", "", 200},
				{"api", "/metrics", "", 404},
				{"metrics", "/api/", "", 404},
			}},
		{name: "metrics-token: the token and only the token",
			args: []string{"--metrics-token", "scrape-me"},
			probes: []probe{
				{"api", "/metrics", "", 403},
				{"api", "/metrics", "wrong", 403},
				{"api", "/metrics", "scrape-me", 200},
			}},
		{name: "metrics-allow without loopback refuses this host",
			args:   []string{"--metrics-allow", "192.0.2.0/24"},
			probes: []probe{{"api", "/metrics", "", 403}}},
		{name: "metrics-allow empty refuses all, the token still opens",
			args: []string{"--metrics-allow", "", "--metrics-token", "t0k"},
			probes: []probe{
				{"api", "/metrics", "", 403},
				{"api", "/metrics", "t0k", 200},
			}},
		{name: "environment twins",
			env: []string{"INVENTORY_METRICS_LISTEN=127.0.0.1:0", "INVENTORY_METRICS_TOKEN=from-env", "INVENTORY_METRICS_ALLOW=127.0.0.1"},
			probes: []probe{
				{"metrics", "/metrics", "", 403},
				{"metrics", "/metrics", "from-env", 200},
				{"api", "/metrics", "", 404},
			}},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := startServe(t, c.env, c.args...)
			for _, p := range c.probes {
				base := s.api
				if p.on == "metrics" {
					if s.metrics == "" {
						t.Fatalf("no metrics listener was announced:\n%s", s.output())
					}
					base = s.metrics
				}
				req, _ := http.NewRequest("GET", base+p.path, nil)
				if p.bearer != "" {
					req.Header.Set("Authorization", "Bearer "+p.bearer)
				}
				resp, err := client.Do(req)
				if err != nil {
					t.Fatal(err)
				}
				body, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				if resp.StatusCode != p.want {
					t.Errorf("GET %s%s (%s, bearer %q): %d, want %d: %.200s", p.on, p.path, base, p.bearer, resp.StatusCode, p.want, body)
					continue
				}
				// A scrape that is let through is Prometheus text with
				// the service's own series.
				if p.want == 200 && p.path == "/metrics" && !strings.Contains(string(body), "# TYPE inventory_") {
					t.Errorf("GET %s/metrics: not the service's metrics: %.300s", p.on, body)
				}
			}
		})
	}
}

// served is one `serve` process and the addresses it announced.
type served struct {
	api, metrics string // http://127.0.0.1:port
	mu           sync.Mutex
	log          strings.Builder
}

func (s *served) output() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.log.String()
}

var (
	apiLine     = regexp.MustCompile(`level=INFO msg=serving listen=(http://[^ ]+)/api/`)
	metricsLine = regexp.MustCompile(`level=INFO msg="serving metrics" listen=(http://[^ ]+)/metrics`)
)

// startServe starts `inventory serve` on a fresh SQLite database in a
// temporary data directory, listening on a free loopback port, with env
// added to the environment (INVENTORY_METRICS_* unset otherwise), and
// waits until it has announced its listeners.
func startServe(t *testing.T, env []string, args ...string) *served {
	t.Helper()
	dir := t.TempDir()
	all, _ := json.Marshal(append([]string{"serve", "--data-dir", dir, "--api-token-peppers", peppers,
		"--listen", "127.0.0.1:0", "--no-worker", "--access-log", "off"}, args...))
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "INVENTORY_METRICS_") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	cmd.Env = append(append(cmd.Env, env...), replicaArgsEnv+"="+string(all))
	separate := slices.Contains(args, "--metrics-listen") || slices.ContainsFunc(env, func(kv string) bool {
		return strings.HasPrefix(kv, "INVENTORY_METRICS_LISTEN=")
	})
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	s := &served{}
	ready, done := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		sc := bufio.NewScanner(stderr)
		announced := false
		for sc.Scan() {
			line := sc.Text()
			s.mu.Lock()
			s.log.WriteString(line + "\n")
			if m := apiLine.FindStringSubmatch(line); m != nil {
				s.api = m[1]
			}
			var j struct{ Msg, Listen string }
			if json.Unmarshal([]byte(line), &j) == nil && j.Msg == "serving" { // --access-log json
				s.api = strings.TrimSuffix(j.Listen, "/api/")
			}
			if m := metricsLine.FindStringSubmatch(line); m != nil {
				s.metrics = m[1]
			}
			up := s.api != "" && (!separate || s.metrics != "")
			s.mu.Unlock()
			if up && !announced {
				announced = true
				close(ready)
			}
		}
		cmd.Wait()
	}()
	t.Cleanup(func() {
		cmd.Process.Kill()
		<-done
		if t.Failed() {
			t.Logf("serve output:\n%s", s.output())
		}
	})
	select {
	case <-ready:
	case <-done:
		t.Fatalf("serve exited:\n%s", s.output())
	case <-time.After(30 * time.Second):
		t.Fatalf("serve did not announce its listeners:\n%s", s.output())
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s
}
