package server_test

import (
	"net/http"
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
