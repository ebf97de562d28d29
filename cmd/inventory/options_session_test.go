package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/inventory/inventory/server"
	"github.com/inventory/inventory/server/session"
)

// TestSessionOptions: the session lifetime and the login limits come
// from flags, the environment or the config file (SESSION_COOKIE_AGE in
// seconds, as Django's), flags first; nonsense is refused.
func TestSessionOptions(t *testing.T) {
	dir := t.TempDir()
	conf := filepath.Join(dir, "config.json")
	if err := os.WriteFile(conf, []byte(`{"SESSION_COOKIE_AGE": 3600}`), 0o600); err != nil {
		t.Fatal(err)
	}
	def := server.Defaults().LoginLimit
	for _, c := range []struct {
		name  string
		args  []string
		env   map[string]string
		age   time.Duration
		limit server.LoginLimit
		err   string
	}{
		{"defaults", nil, nil, session.DefaultLifetime, def, ""},
		{"flags", []string{"--session-cookie-age", "8h", "--login-failures-per-user", "3", "--login-failures-per-address", "0", "--login-failure-window", "1m"},
			nil, 8 * time.Hour, server.LoginLimit{PerUser: 3, PerAddress: 0, Window: time.Minute}, ""},
		{"environment", nil, map[string]string{"INVENTORY_SESSION_COOKIE_AGE": "30m", "INVENTORY_LOGIN_FAILURES_PER_ADDRESS": "7"},
			30 * time.Minute, server.LoginLimit{PerUser: def.PerUser, PerAddress: 7, Window: def.Window}, ""},
		{"config file", []string{"--config", conf}, nil, time.Hour, def, ""},
		{"flag over config file", []string{"--config", conf, "--session-cookie-age", "2h"}, nil, 2 * time.Hour, def, ""},
		{"zero age", []string{"--session-cookie-age", "0s"}, nil, 0, def, "SESSION_COOKIE_AGE must be positive"},
		{"negative limit", []string{"--login-failures-per-user", "-1"}, nil, 0, def, "must not be negative"},
	} {
		t.Run(c.name, func(t *testing.T) {
			for k, v := range c.env {
				t.Setenv(k, v)
			}
			o, fs := newOptions("serve")
			err := o.parse(fs, append([]string{"--data-dir", dir}, c.args...))
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) {
					t.Fatalf("error %v, want %q", err, c.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if o.cfg.SessionCookieAge != c.age || o.cfg.LoginLimit != c.limit {
				t.Fatalf("age %v limit %+v, want %v %+v", o.cfg.SessionCookieAge, o.cfg.LoginLimit, c.age, c.limit)
			}
		})
	}
}
