package server_test

import (
	"context"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/inventory/inventory/ent/db"
	entsession "github.com/inventory/inventory/ent/session"
	"github.com/inventory/inventory/server"
	"github.com/inventory/inventory/server/servertest"
	"github.com/inventory/inventory/server/session"
)

const formType = "Content-Type: application/x-www-form-urlencoded"

// cookies are the cookies a response sets, by name.
func cookies(r *servertest.Response) map[string]*http.Cookie {
	out := map[string]*http.Cookie{}
	for _, c := range (&http.Response{Header: r.Header}).Cookies() {
		out[c.Name] = c
	}
	return out
}

var csrfInput = regexp.MustCompile(`name="csrfmiddlewaretoken" value="([^"]+)"`)

// loginForm fetches the login page and returns its CSRF cookie.
func loginForm(t *testing.T, e *servertest.Env) string {
	t.Helper()
	r := e.Anonymous().Must(http.StatusOK, "GET", "/login/?next=/api/dcim/sites/", nil)
	ck := cookies(r)[session.CSRFCookie]
	if ck == nil || !ck.HttpOnly || ck.SameSite != http.SameSiteLaxMode {
		t.Fatalf("login page's csrftoken cookie: %v", r.Header.Values("Set-Cookie"))
	}
	if m := csrfInput.FindStringSubmatch(string(r.Body)); m == nil || m[1] != ck.Value {
		t.Fatalf("login form lacks the token of its cookie: %s", r.Body)
	}
	return ck.Value
}

// postLogin submits the login form.
func postLogin(e *servertest.Env, csrf, username, password, next string, headers ...string) *servertest.Response {
	form := url.Values{"username": {username}, "password": {password}, "next": {next}, session.CSRFField: {csrf}}
	return e.Anonymous().Do("POST", "/login/", form.Encode(),
		append([]string{formType, "Cookie: " + session.CSRFCookie + "=" + csrf}, headers...)...)
}

// browserLogin logs username in and returns its session cookie header and
// the session's CSRF token (read from the page, as a browser would).
func browserLogin(t *testing.T, e *servertest.Env, username, password string) (cookie, csrf string) {
	t.Helper()
	r := postLogin(e, loginForm(t, e), username, password, "/api/")
	ck := cookies(r)[session.Cookie]
	if r.Status != http.StatusFound || ck == nil {
		t.Fatalf("login of %s: %d %v %s", username, r.Status, r.Header, r.Body)
	}
	cookie = "Cookie: " + session.Cookie + "=" + ck.Value
	page := e.Anonymous().Must(http.StatusOK, "GET", "/api/", nil, cookie, browserAccept)
	m := csrfInput.FindStringSubmatch(string(page.Body))
	if m == nil {
		t.Fatalf("no CSRF token on the page of %s", username)
	}
	return cookie, m[1]
}

// TestSessionLogin: /login/ checks the form's double-submit token and the
// password, sets an HttpOnly, SameSite=Lax session cookie (Secure over
// TLS) lasting SESSION_COOKIE_AGE and goes on to a local next only; the
// cookie authenticates API requests, on another replica too; unsafe ones
// need the session's CSRF token while token authentication never does;
// logout, revocation, expiry, deactivation and deletion of the user end
// the session; the table holds digests, never the cookie's secret.
func TestSessionLogin(t *testing.T) {
	t.Parallel()
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		ctx := context.Background()
		anon := e.Anonymous()
		csrf := loginForm(t, e)
		for _, c := range []struct {
			name, csrf, password, next string
			headers                    []string
			status                     int
			has, location              string
			secure                     bool
		}{
			{"no token", "", "admin", "/api/", nil, 403, "CSRF verification failed", "", false},
			{"wrong token", strings.Repeat("x", 43), "admin", "/api/", nil, 403, "CSRF verification failed", "", false},
			{"wrong password", csrf, "nope", "/api/", nil, 200, "Please enter a correct username and password.", "", false},
			{"unknown user", csrf, "admin", "/api/", nil, 200, "Please enter a correct username and password.", "", false},
			{"success", csrf, "admin", "/api/dcim/sites/?limit=1", nil, 302, "", "/api/dcim/sites/?limit=1", false},
			{"foreign next", csrf, "admin", "//evil.example/", nil, 302, "", "/api/", false},
			{"over TLS", csrf, "admin", "/api/", []string{"X-Forwarded-Proto: https"}, 302, "", "/api/", true},
		} {
			t.Run(c.name, func(t *testing.T) {
				user := "admin"
				if c.name == "unknown user" {
					user = "nobody"
				}
				form := url.Values{"username": {user}, "password": {c.password}, "next": {c.next}}
				if c.csrf != "" {
					form.Set(session.CSRFField, c.csrf)
				}
				r := anon.Do("POST", "/login/", form.Encode(), append([]string{formType, "Cookie: " + session.CSRFCookie + "=" + csrf}, c.headers...)...)
				if r.Status != c.status || !strings.Contains(string(r.Body), c.has) || r.Header.Get("Location") != c.location {
					t.Fatalf("%d %q %s", r.Status, r.Header.Get("Location"), r.Body)
				}
				ck := cookies(r)[session.Cookie]
				if c.status != 302 {
					if ck != nil {
						t.Fatalf("failed login set a session cookie")
					}
					return
				}
				if ck == nil || !ck.HttpOnly || ck.SameSite != http.SameSiteLaxMode || ck.Secure != c.secure || ck.MaxAge != 14*24*3600 || ck.Path != "/" {
					t.Fatalf("session cookie: %v", r.Header.Values("Set-Cookie"))
				}
				if n := e.DB.Client.Session.Query().Where(entsession.KeyEQ(ck.Value)).CountX(ctx); n != 0 {
					t.Fatalf("the table holds the cookie's secret")
				}
				if n := e.DB.Client.Session.Query().Where(entsession.KeyEQ(session.Digest(ck.Value))).CountX(ctx); n != 1 {
					t.Fatalf("no session row for the cookie")
				}
			})
		}

		cookie, token := browserLogin(t, e, "admin", "admin")
		site := map[string]any{"name": "s1", "slug": "s1"}
		if r := anon.Must(http.StatusOK, "GET", "/api/dcim/sites/", nil, cookie); !strings.HasPrefix(r.Header.Get("Content-Type"), "application/json") {
			t.Fatalf("a session's JSON request: %s", r.Header.Get("Content-Type"))
		}
		for _, c := range []struct {
			name    string
			headers []string
			status  int
			detail  string
		}{
			{"no token", []string{cookie}, 403, `{"detail":"CSRF Failed: CSRF token missing."}`},
			{"wrong token", []string{cookie, "X-CSRFToken: " + strings.Repeat("y", 43)}, 403, `{"detail":"CSRF Failed: CSRF token incorrect."}`},
			{"token", []string{cookie, "X-CSRFToken: " + token}, 201, ""},
		} {
			r := anon.Do("POST", "/api/dcim/sites/", site, c.headers...)
			if r.Status != c.status || c.detail != "" && string(r.Body) != c.detail {
				t.Errorf("%s: %d %s", c.name, r.Status, r.Body)
			}
		}
		// Token authentication needs no CSRF token, cookie or not.
		e.Admin().Must(http.StatusCreated, "POST", "/api/dcim/sites/", map[string]any{"name": "s2", "slug": "s2"}, cookie)

		// Another replica over the same database knows the session.
		d2, err := db.Open(ctx, e.DSN)
		if err != nil {
			t.Fatal(err)
		}
		defer d2.Close()
		replica := server.New(e.Config, d2).Handler()
		req, _ := http.NewRequest("GET", "http://inventory.test/api/dcim/sites/", nil)
		req.Header.Set("Cookie", strings.TrimPrefix(cookie, "Cookie: "))
		rec := &recorder{header: http.Header{}}
		replica.ServeHTTP(rec, req)
		if rec.status != http.StatusOK {
			t.Fatalf("the replica refused the session: %d", rec.status)
		}

		// Logout needs the token, ends the session and clears the cookie.
		if r := anon.Do("POST", "/logout/", "", formType, cookie); r.Status != 403 {
			t.Fatalf("logout without the token: %d", r.Status)
		}
		r := anon.Do("POST", "/logout/", session.CSRFField+"="+token, formType, cookie)
		if ck := cookies(r)[session.Cookie]; r.Status != 302 || r.Header.Get("Location") != "/login/" || ck == nil || ck.MaxAge >= 0 {
			t.Fatalf("logout: %d %v", r.Status, r.Header)
		}
		gone := `{"detail":"Authentication credentials were not provided."}`
		if r := anon.Do("GET", "/api/dcim/sites/", nil, cookie); r.Status != 403 || string(r.Body) != gone {
			t.Fatalf("after logout: %d %s", r.Status, r.Body)
		}

		// Revocation, a password change (even back to the same password: the
		// hash is salted), deactivation and deletion end a user's sessions.
		anon.Must(http.StatusCreated, "POST", "/api/users/users/", map[string]any{"username": "ops", "password": "ops-secret-1"}, "Authorization: Token "+servertest.Token)
		for _, c := range []struct {
			name string
			end  func()
		}{
			{"revoked", func() {
				if n, err := e.Server.RevokeSessions(ctx, "ops"); err != nil || n != 1 {
					t.Fatalf("revoke: %d %v", n, err)
				}
			}},
			{"password changed", func() {
				id := e.Admin().Must(200, "GET", "/api/users/users/?username=ops", nil).Results()[0]["id"]
				e.Admin().Must(200, "PATCH", "/api/users/users/"+itoa(int(id.(float64)))+"/", map[string]any{"password": "ops-secret-2"})
				e.Admin().Must(200, "PATCH", "/api/users/users/"+itoa(int(id.(float64)))+"/", map[string]any{"password": "ops-secret-1"})
			}},
			{"deactivated", func() {
				id := e.Admin().Must(200, "GET", "/api/users/users/?username=ops", nil).Results()[0]["id"]
				e.Admin().Must(200, "PATCH", "/api/users/users/"+itoa(int(id.(float64)))+"/", map[string]any{"is_active": false})
			}},
			{"deleted", func() {
				id := e.Admin().Must(200, "GET", "/api/users/users/?username=ops", nil).Results()[0]["id"]
				e.Admin().Must(200, "PATCH", "/api/users/users/"+itoa(int(id.(float64)))+"/", map[string]any{"is_active": true})
				browserLogin(t, e, "ops", "ops-secret-1")
				e.Admin().Must(204, "DELETE", "/api/users/users/"+itoa(int(id.(float64)))+"/", nil)
				if n := e.DB.Client.Session.Query().Where(entsession.UserIDEQ(int(id.(float64)))).CountX(ctx); n != 0 {
					t.Fatalf("the deleted user's sessions stay: %d", n)
				}
			}},
		} {
			if c.name == "deleted" {
				c.end()
				continue
			}
			cookie, _ := browserLogin(t, e, "ops", "ops-secret-1")
			anon.Must(http.StatusOK, "GET", "/api/", nil, cookie)
			c.end()
			if r := anon.Do("GET", "/api/", nil, cookie); r.Status != 403 || string(r.Body) != gone {
				t.Errorf("%s: %d %s", c.name, r.Status, r.Body)
			}
		}

		// Expiry: an expired session authenticates nothing, and the prune
		// deletes it and only it.
		now := time.Now().UTC()
		admin := e.DB.Client.User.Query().FirstX(ctx)
		old, _, err := session.Create(ctx, e.DB.Client, admin, now.Add(-time.Hour), time.Minute)
		if err != nil {
			t.Fatal(err)
		}
		live, _, err := session.Create(ctx, e.DB.Client, admin, now, time.Hour)
		if err != nil {
			t.Fatal(err)
		}
		if r := anon.Do("GET", "/api/dcim/sites/", nil, "Cookie: sessionid="+old); r.Status != 403 {
			t.Fatalf("expired session: %d", r.Status)
		}
		if n, err := session.Prune(ctx, e.DB.Client, now); err != nil || n != 1 {
			t.Fatalf("prune: %d %v", n, err)
		}
		anon.Must(http.StatusOK, "GET", "/api/dcim/sites/", nil, "Cookie: sessionid="+live)
	})
}

// TestLoginRateLimit: failed logins count per username and per client
// address; a blocked one is 429 with Retry-After even with the right
// password, and another username from another address is unaffected.
func TestLoginRateLimit(t *testing.T) {
	t.Parallel()
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		csrf := loginForm(t, e)
		e.Admin().Must(http.StatusCreated, "POST", "/api/users/users/", map[string]any{"username": "ops", "password": "ops-secret-1"})
		from := func(addr string) string { return "X-Forwarded-For: " + addr }
		for i, c := range []struct {
			user, password, addr string
			status               int
		}{
			{"admin", "bad", "192.0.2.1", 200},
			{"admin", "bad", "192.0.2.2", 200},
			{"admin", "admin", "192.0.2.3", 429}, // the username's limit, from any address
			{"ops", "bad", "198.51.100.1", 200},
			{"x", "bad", "198.51.100.1", 200},
			{"ops", "ops-secret-1", "198.51.100.1", 429}, // the address's limit
			{"ops", "ops-secret-1", "198.51.100.2", 302},
		} {
			r := postLogin(e, csrf, c.user, c.password, "/api/", from(c.addr))
			if r.Status != c.status {
				t.Fatalf("attempt %d (%s from %s): %d, want %d: %s", i, c.user, c.addr, r.Status, c.status, r.Body)
			}
			if c.status == 429 && (r.Header.Get("Retry-After") == "" || !strings.Contains(string(r.Body), "Too many failed logins")) {
				t.Fatalf("attempt %d: 429 without Retry-After or message: %v", i, r.Header)
			}
		}
	}, func(c *server.Config) {
		c.LoginLimit = server.LoginLimit{PerUser: 2, PerAddress: 2, Window: time.Hour}
		c.HTTPClientIPHeaders = []string{"X-Forwarded-For"}
	})
}

// recorder is a minimal http.ResponseWriter for a second replica.
type recorder struct {
	header http.Header
	status int
}

func (r *recorder) Header() http.Header { return r.header }
func (r *recorder) WriteHeader(code int) {
	if r.status == 0 {
		r.status = code
	}
}
func (r *recorder) Write(b []byte) (int, error) {
	r.WriteHeader(200)
	return len(b), nil
}
