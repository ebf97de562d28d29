package server_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/inventory/inventory/server/servertest"
)

const browserAccept = "Accept: text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"

// TestBrowsableAPI: a browser gets an HTML page for an API URL, with the
// response's status and headers and its body pretty-printed in the
// serializer's order, the service's URLs as links and everything else
// escaped (an object named <script> is shown, never run); JSON clients
// (curl's */*, application/json, ?format=json) get the JSON bytes they
// always got; ?format=api asks for the page explicitly.
func TestBrowsableAPI(t *testing.T) {
	t.Parallel()
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		a := e.Admin()
		a.Must(http.StatusCreated, "POST", "/api/dcim/sites/", map[string]any{
			"name": "<script>alert(1)</script>", "slug": "x", "description": "javascript:alert(2)"})
		page := func(want int, path string, headers ...string) string {
			t.Helper()
			r := a.Must(want, "GET", path, nil, headers...)
			if ct := r.Header.Get("Content-Type"); ct != "text/html; charset=utf-8" {
				t.Fatalf("GET %s: content type %q", path, ct)
			}
			return string(r.Body)
		}
		for _, c := range []struct {
			path, header string
			want         int
			has, hasNot  []string
		}{
			{"/api/dcim/sites/", browserAccept, 200, []string{
				`<title>dcim / sites – inventory</title>`,
				`<a href="http://inventory.test/api/dcim/sites/1/">&#34;http://inventory.test/api/dcim/sites/1/&#34;</a>`,
				`&lt;script&gt;alert(1)&lt;/script&gt;`, `HTTP 200 OK`, `<span class="key">Allow:</span> GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS`,
				`<span class="str">&#34;javascript:alert(2)&#34;</span>`, `Signed in as admin`,
				`<li><a href="/api/">API root</a></li><li><a href="/api/dcim/">dcim</a></li>`,
			}, []string{"<script>", `href="javascript`}},
			{"/api/", browserAccept, 200, []string{`<a href="http://inventory.test/api/dcim/">`}, nil},
			{"/api/dcim/sites/1/?format=api", "Accept: */*", 200, []string{`HTTP 200 OK`, `<span class="key">&#34;id&#34;</span>: <span class="num">1</span>`}, nil},
			{"/api/dcim/sites/99/", browserAccept, 404, []string{`HTTP 404 Not Found`, `No Site matches the given query.`}, nil},
		} {
			body := page(c.want, c.path, c.header)
			for _, s := range c.has {
				if !strings.Contains(body, s) {
					t.Errorf("GET %s: page lacks %s", c.path, s)
				}
			}
			for _, s := range c.hasNot {
				if strings.Contains(body, s) {
					t.Errorf("GET %s: page has %s", c.path, s)
				}
			}
		}
		// The serializer's field order survives: id before url before display.
		body := page(200, "/api/dcim/sites/1/", browserAccept)
		if i, j := strings.Index(body, `&#34;id&#34;`), strings.Index(body, `&#34;display&#34;`); i < 0 || j < i {
			t.Errorf("field order lost")
		}
		// The page is never cached: it carries the caller's name and token.
		if r := a.Must(http.StatusOK, "GET", "/api/dcim/sites/1/", nil, browserAccept); r.Header.Get("ETag") != "" || r.Header.Get("Cache-Control") != "no-store" {
			t.Errorf("page headers: %v", r.Header)
		}
		// JSON clients: unchanged.
		want := a.Must(http.StatusOK, "GET", "/api/dcim/sites/", nil).Body
		for _, h := range []string{"Accept: */*", "Accept: application/json", "Accept: application/json, text/html;q=0.5"} {
			r := a.Must(http.StatusOK, "GET", "/api/dcim/sites/", nil, h)
			if string(r.Body) != string(want) || !strings.HasPrefix(r.Header.Get("Content-Type"), "application/json") {
				t.Errorf("%s: %s %s", h, r.Header.Get("Content-Type"), r.Body)
			}
		}
		r := a.Must(http.StatusOK, "GET", "/api/dcim/sites/?format=json", nil, browserAccept)
		if string(r.Body) != string(want) {
			t.Errorf("?format=json from a browser: %s", r.Body)
		}
		// Anonymous browsers see the refusal as a page.
		body = string(e.Anonymous().Must(http.StatusForbidden, "GET", "/api/dcim/sites/", nil, browserAccept).Body)
		if !strings.Contains(body, "Not signed in") || !strings.Contains(body, "HTTP 403 Forbidden") {
			t.Errorf("anonymous page: %s", body)
		}
	})
}

// TestBrowsablePages: the API root and app roots list their endpoints as
// links; a page of a list links its previous and next pages; a page shows
// the URL's OPTIONS metadata; a session user who may write gets the raw
// JSON form with the methods the OPTIONS actions allow (an object's form
// filled with its writable fields), a read-only user and a token get
// none; the form's overloaded POST is the request it names, and needs the
// session's CSRF token.
func TestBrowsablePages(t *testing.T) {
	t.Parallel()
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		a := e.Admin()
		for _, n := range []string{"s1", "s2", "s3"} {
			a.Must(http.StatusCreated, "POST", "/api/dcim/sites/", map[string]any{"name": n, "slug": n})
		}
		admin, token := browserLogin(t, e, "admin", "admin")
		viewer, vid := e.NewUser("viewer")
		_ = viewer
		e.Grant(vid, []string{"dcim.site"}, []string{"view"}, nil)
		reader, _ := browserLogin(t, e, "viewer", "pw-viewer")
		anon := e.Anonymous()
		form := `<form class="write" method="post" action="`
		for _, c := range []struct {
			name, path string
			headers    []string
			has, not   []string
		}{
			{"API root", "/api/", []string{admin}, []string{`<h2 id="links">Endpoints</h2>`,
				`<li><a href="http://inventory.test/api/dcim/">dcim</a></li>`, `<button type="submit">Log out</button>`}, []string{form}},
			{"app root", "/api/dcim/", []string{admin}, []string{`<li><a href="http://inventory.test/api/dcim/sites/">sites</a></li>`}, nil},
			{"page", "/api/dcim/sites/?limit=1&offset=1", []string{admin}, []string{`<span>3 results</span>`,
				`<a rel="prev" href="http://inventory.test/api/dcim/sites/?limit=1">`,
				`<a rel="next" href="http://inventory.test/api/dcim/sites/?limit=1&amp;offset=2">`,
				`<h2 id="options">OPTIONS</h2>`, `<span class="key">&#34;actions&#34;</span>`,
				form + `/api/dcim/sites/?limit=1&amp;offset=1">`, `<option>POST</option><option>PUT</option><option>PATCH</option><option>DELETE</option></select>`}, []string{`<h2 id="links">`}},
			{"object", "/api/dcim/sites/1/", []string{admin}, []string{form + `/api/dcim/sites/1/">`,
				`<option>PUT</option><option>PATCH</option><option>DELETE</option></select>`,
				`name="csrfmiddlewaretoken" value="` + token + `"`, `    &#34;name&#34;: &#34;s1&#34;,`, `&#34;status&#34;: &#34;active&#34;`},
				[]string{`&#34;display&#34;:`, `&#34;url&#34;:`, `<option>POST</option>`}},
			{"read-only user", "/api/dcim/sites/1/", []string{reader}, []string{`Signed in as viewer`, `<h2 id="options">OPTIONS</h2>`}, []string{form, "&#34;actions&#34;"}},
			{"token", "/api/dcim/sites/1/", []string{"Authorization: Token " + servertest.Token}, []string{`Signed in as admin`}, []string{form, `Log out`}},
			{"anonymous", "/api/dcim/sites/?limit=1", nil, []string{`<a href="/login/?next=%2Fapi%2Fdcim%2Fsites%2F%3Flimit%3D1">Log in</a>`}, []string{form}},
		} {
			body := string(anon.Must(http.StatusOK*boolInt(c.name != "anonymous")+http.StatusForbidden*boolInt(c.name == "anonymous"),
				"GET", c.path, nil, append([]string{browserAccept}, c.headers...)...).Body)
			for _, s := range c.has {
				if !strings.Contains(body, s) {
					t.Errorf("%s: page lacks %s", c.name, s)
				}
			}
			for _, s := range c.not {
				if strings.Contains(body, s) {
					t.Errorf("%s: page has %s", c.name, s)
				}
			}
		}

		// The form's overloaded POST.
		send := func(path, method, content, csrf string) *servertest.Response {
			f := url.Values{"_method": {method}, "_content": {content}}
			if csrf != "" {
				f.Set("csrfmiddlewaretoken", csrf)
			}
			return anon.Do("POST", path, f.Encode(), formType, browserAccept, admin)
		}
		for _, c := range []struct {
			name, path, method, content, csrf string
			status                            int
			has                               string
		}{
			{"no token", "/api/dcim/sites/1/", "PATCH", `{"description":"x"}`, "", 403, "CSRF Failed: CSRF token missing."},
			{"patch", "/api/dcim/sites/1/", "PATCH", `{"description":"from the form"}`, token, 200, `<strong>PATCH</strong>`},
			{"post", "/api/dcim/sites/", "POST", `{"name":"s4","slug":"s4"}`, token, 201, `&#34;s4&#34;`},
			{"bad JSON", "/api/dcim/sites/1/", "PUT", `{`, token, 400, `HTTP 400 Bad Request`},
			{"delete", "/api/dcim/sites/3/", "DELETE", ``, token, 200, `HTTP 204 No Content`},
		} {
			r := send(c.path, c.method, c.content, c.csrf)
			if r.Status != c.status || !strings.Contains(string(r.Body), c.has) {
				t.Errorf("%s: %d %s", c.name, r.Status, r.Body)
			}
		}
		// What DRF's browsable API has besides (issue 36): a format
		// switch, the list's filters as a form (from the OpenAPI
		// document's parameters, built once), a list's POST form started
		// from a new object's writable fields, a confirmation before a
		// DELETE, a form that keeps what was sent, and forms on the
		// allocation endpoints.
		anon.Must(http.StatusOK, "GET", "/api/schema/", nil)
		list := string(anon.Must(http.StatusOK, "GET", "/api/dcim/sites/?status=active", nil, browserAccept, admin).Body)
		for _, want := range []string{`<a href="/api/dcim/sites/?format=json&amp;status=active">json</a>`,
			`<form class="filter" method="get" action="/api/dcim/sites/">`, `<input type="hidden" name="status" value="active">`,
			`<option value="name__ic">`, `<option value="region_id">`, `<a href="/api/dcim/sites/">Clear filters</a>`,
			"    &#34;name&#34;: &#34;&#34;,\n    &#34;slug&#34;: &#34;&#34;,", `confirm(`} {
			if !strings.Contains(list, want) {
				t.Errorf("list page lacks %s", want)
			}
		}
		if r := anon.Do("GET", "/api/dcim/sites/?status=active&_filter=name__ic&_value=s", nil, browserAccept, admin); r.Status != http.StatusFound ||
			r.Header.Get("Location") != "/api/dcim/sites/?name__ic=s&status=active" {
			t.Errorf("filter form: %d to %q", r.Status, r.Header.Get("Location"))
		}
		bad := send("/api/dcim/sites/", "POST", `{"name":"","slug":"kept"}`, token)
		if b := string(bad.Body); bad.Status != http.StatusBadRequest || !strings.Contains(b, `{&#34;name&#34;:&#34;&#34;,&#34;slug&#34;:&#34;kept&#34;}</textarea>`) ||
			!strings.Contains(b, `<option selected>POST</option>`) {
			t.Errorf("the form after a 400 does not keep what was sent: %d %s", bad.Status, b)
		}
		a.Must(http.StatusCreated, "POST", "/api/ipam/prefixes/", map[string]any{"prefix": "10.9.0.0/24"})
		if b := string(anon.Must(http.StatusOK, "GET", "/api/ipam/prefixes/1/available-ips/", nil, browserAccept, admin).Body); !strings.Contains(b, `<option>POST</option>`) {
			t.Errorf("no POST form on available-ips")
		}
		if d := a.Must(http.StatusOK, "GET", "/api/dcim/sites/1/", nil).Object()["description"]; d != "from the form" {
			t.Errorf("description after the form's PATCH: %v", d)
		}
		a.Must(http.StatusNotFound, "GET", "/api/dcim/sites/3/", nil)
		// API clients' form posts are not overloaded.
		if r := anon.Do("POST", "/api/dcim/sites/", "_method=DELETE&_content=%7B%7D", formType, admin, "X-CSRFToken: "+token); r.Status == http.StatusNoContent {
			t.Errorf("a JSON client's form post was overloaded")
		}
	})
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
