package main

import (
	"encoding/json"
	"errors"
	"flag"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// What a newcomer meets on the command line (issue 36): --help is not an
// error, a command run away from the data directory does not make a new
// empty database there, and a taken port names the setting to change.
func TestFirstRunCommandLine(t *testing.T) {
	t.Run("help", func(t *testing.T) {
		for _, args := range [][]string{{"serve", "--help"}, {"migrate", "-h"}, {"createsuperuser", "--help"},
			{"user", "list", "--help"}, {"permission", "grant", "-h"}, {"webhooks", "list", "--help"}, {"worker", "-h"}} {
			if err := run(args); !errors.Is(err, flag.ErrHelp) {
				t.Errorf("%q: %v, want the help (exit status 0)", args, err)
			}
		}
	})
	t.Run("no database", func(t *testing.T) {
		for _, args := range [][]string{{"user", "list"}, {"permission", "grant", "--name", "n", "--users", "x", "--object-types", "dcim.site", "--actions", "view"},
			{"webhooks", "list"}, {"user", "create", "--username", "u", "--password", "p"}} {
			dir := filepath.Join(t.TempDir(), "data")
			err := run(append(args, "--data-dir", dir))
			if err == nil || !strings.Contains(err.Error(), "no database at "+filepath.Join(dir, "inventory.db")) || !strings.Contains(err.Error(), "--data-dir") {
				t.Errorf("%q: %v, want the missing database named", args, err)
			}
			if _, err := os.Stat(dir); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("%q: the data directory was created (%v)", args, err)
			}
		}
	})
	t.Run("port taken", func(t *testing.T) {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		defer ln.Close()
		_, err = listenOn(ln.Addr().String(), "--listen", "INVENTORY_LISTEN", "make run LISTEN=127.0.0.1:8010")
		if err == nil {
			t.Fatal("listened twice on one port")
		}
		for _, w := range []string{ln.Addr().String(), "--listen", "INVENTORY_LISTEN", "make run LISTEN="} {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%v: does not name %s", err, w)
			}
		}
	})
}

// With --access-log json every line on stderr is JSON with a level (the
// start-up lines, the access log, the application's warnings), and a line
// written while serving a request carries that request's id (issue 36).
func TestLogLinesJSON(t *testing.T) {
	s := startServe(t, nil, "--access-log", "json", "--login-required=false", "--exempt-view-permissions", "*")
	get := func(path string) string {
		t.Helper()
		req, _ := http.NewRequest("GET", s.api+path, nil)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.Header.Get("X-Request-ID")
	}
	// A known filter beside an unknown one: the service logs the ignored one.
	ignored := get("/api/dcim/sites/?name=x&colour=red")
	missing := get("/api/dcim/sites/999999/")
	var lines []map[string]any
	for deadline := time.Now().Add(10 * time.Second); ; {
		lines = lines[:0]
		found := 0
		for _, l := range strings.Split(strings.TrimSpace(s.output()), "\n") {
			var m map[string]any
			if err := json.Unmarshal([]byte(l), &m); err != nil {
				t.Fatalf("not a JSON line: %q", l)
			}
			if m["level"] == nil || m["msg"] == nil {
				t.Fatalf("line without level or msg: %q", l)
			}
			lines = append(lines, m)
			if m["request_id"] == ignored && m["msg"] == "ignored filter parameters" {
				found++
			}
			if m["request_id"] == missing && m["msg"] == "request" {
				found++
			}
		}
		if found == 2 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("no ignored-filter line with request_id %s or access line with %s in:\n%s", ignored, missing, s.output())
		}
		time.Sleep(20 * time.Millisecond)
	}
}
