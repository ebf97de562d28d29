package server_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/inventory/inventory/server"
	"github.com/inventory/inventory/server/servertest"
)

// hookCase is one webhook definition change: the fields sent over a good
// definition, and the field the 400 must name ("" for a good definition)
// with a fragment of its message.
type hookCase struct {
	name   string
	set    map[string]any
	field  string
	substr string
}

// badHooks are the definitions refused at save (issue 11): every spelling
// of an internal target, credentials, templates that do not parse or
// escape the sandbox, owned or malformed headers, header injection in the
// content type, short secrets and CA files outside the configured
// directory. caDir is that directory.
func badHooks(caDir, outside string) []hookCase {
	internal := "is an internal address"
	var cases []hookCase
	for _, u := range []string{
		"http://127.0.0.1/", "http://127.1/", "http://127.0.1/", "http://2130706433/", "http://0x7f000001/",
		"http://0X7F.0.0.1/", "http://0177.0.0.1/", "http://0177.1/", "http://127.0.0.1./", "http://%31%32%37.0.0.1/",
		"http://[::ffff:127.0.0.1]/", "http://[::ffff:7f00:1]/", "http://[::1]:8080/x", "https://localhost.example.com@127.0.0.1/",
		"http://0.0.0.0/", "http://0/", "http://[::]/",
		"http://169.254.169.254/latest/meta-data/", "http://[fe80::1%25eth0]/", "http://[fe80::1]/",
		"http://224.0.0.1/", "http://[ff02::1]/", "http://255.255.255.255/", "http://240.0.0.1/", "http://192.0.2.1/",
		"http://100.100.0.1/", "http://10.0.0.1/", "http://172.16.0.1/", "http://192.168.1.1/", "http://[fd00::1]/",
		"http://127.0.0.1/{{ data.slug }}", "https://127.1:8443/?q={{ data.id }}",
	} {
		want := internal
		switch {
		case strings.Contains(u, "@"):
			want = "Credentials"
		case strings.Contains(u, "%3"): // Go's URL parser refuses escaped host bytes
			want = "Enter a valid URL"
		}
		cases = append(cases, hookCase{"payload_url " + u, map[string]any{"payload_url": u}, "payload_url", want})
	}
	for _, u := range []string{"ftp://hooks.example.com/", "file:///etc/passwd", "gopher://hooks.example.com/", "javascript:alert(1)", "//hooks.example.com/"} {
		cases = append(cases, hookCase{"payload_url " + u, map[string]any{"payload_url": u}, "payload_url", "Enter a valid URL"})
	}
	for _, u := range []string{"http://user:pass@hooks.example.com/", "http://user@hooks.example.com/", "https://u:{{ data.id }}@hooks.example.com/"} {
		cases = append(cases, hookCase{"payload_url " + u, map[string]any{"payload_url": u}, "payload_url", "Credentials"})
	}
	templates := map[string]string{
		"a\n{{ data.name }":                 "Line: 2",
		"{% include '/etc/passwd' %}":       "include",
		"{% import 'x' as y %}":             "import",
		"{% extends 'base' %}":              "extends",
		"{{ data.__class__.__mro__ }}":      "__class__",
		"{{ data['__globals__'] }}":         "__globals__",
		"{{ data._private }}":               "_private",
		"a\nb\n{% for x in data %}":         "Line: 3",
		"{{ lipsum.__globals__['os'] }}":    "__globals__",
		"{{ cycler.__init__.__globals__ }}": "__init__",
	}
	for src, want := range templates {
		cases = append(cases,
			hookCase{"body_template " + src, map[string]any{"body_template": src}, "body_template", want},
			hookCase{"additional_headers " + src, map[string]any{"additional_headers": "X-A: " + src}, "additional_headers", want},
			hookCase{"payload_url " + src, map[string]any{"payload_url": "https://hooks.example.com/" + src}, "payload_url", want})
	}
	for h, want := range map[string]string{
		"Host: evil.example.com":          "Host",
		"content-length: 0":               "content-length",
		"Transfer-Encoding: chunked":      "Transfer-Encoding",
		"X-A: 1\nConnection: keep-alive":  "Line 2",
		"X-Hook-Signature: forged":        "X-Hook-Signature",
		"x-delivery-id: 1":                "x-delivery-id",
		"Bad Name: x":                     "not a valid header name",
		"X-A\rX-B: c":                     "control characters",
		"X(A): 1":                         "not a valid header name",
		": empty":                         "not a valid header name",
		"no colon here":                   "expected",
		"X-Ok: 1\r\n\r\nHost: x":          "Host",
		"{% if data %}Host: x{% endif %}": "", // the name is templated: judged when rendered
	} {
		if want == "" {
			continue
		}
		cases = append(cases, hookCase{"additional_headers " + h, map[string]any{"additional_headers": h}, "additional_headers", want})
	}
	// Surrounding blanks are trimmed as DRF's CharField trims them ("text/
	// plain\n" is stored as "text/plain"); control characters inside stay
	// refused.
	for _, ct := range []string{"application/json\r\nX-Evil: 1", "text/plain\n; charset=utf-8", "text/plain\r; x=1", "text/\x0bplain"} {
		cases = append(cases, hookCase{fmt.Sprintf("http_content_type %q", ct), map[string]any{"http_content_type": ct}, "http_content_type", "Control characters"})
	}
	for _, s := range []string{"short", "15-characters-x", "ééééééééééééééé"} {
		cases = append(cases, hookCase{"secret " + s, map[string]any{"secret": s}, "secret", "at least 16"})
	}
	for _, p := range []string{"/etc/shadow", "/etc/passwd", "/", caDir, filepath.Join(caDir, "..", "..", "etc", "passwd"),
		filepath.Join(caDir, "missing.pem"), filepath.Join(caDir, "escape.pem"), outside, "ca.pem", "../ca.pem", filepath.Join(caDir, "sub")} {
		cases = append(cases, hookCase{"ca_file_path " + p, map[string]any{"ca_file_path": p}, "ca_file_path", "must be a readable file"})
	}
	return cases
}

// goodHooks are definitions still accepted: public targets, host names
// (resolved and checked at delivery), allow-listed internal ranges and
// names, templated hosts, templated header lines, long secrets, a CA file
// in the directory.
func goodHooks(caFile string) []hookCase {
	return []hookCase{
		{"public", map[string]any{"payload_url": "https://hooks.example.com/x"}, "", ""},
		{"public address", map[string]any{"payload_url": "http://8.8.8.8:8080/x?y=1"}, "", ""},
		{"public IPv6", map[string]any{"payload_url": "http://[2606:4700::1111]/"}, "", ""},
		{"host name", map[string]any{"payload_url": "http://localhost:9000/"}, "", ""},
		{"allowed CGNAT", map[string]any{"payload_url": "http://100.64.0.1/"}, "", ""},
		{"allowed host", map[string]any{"payload_url": "http://receiver.internal/"}, "", ""},
		{"templated host", map[string]any{"payload_url": "https://{{ data.slug }}.hooks.example.com/{{ data.id }}"}, "", ""},
		{"templated URL", map[string]any{"payload_url": "{{ data.custom_fields.url }}"}, "", ""},
		{"headers", map[string]any{"additional_headers": "X-Site: {{ data.name | header_safe }}\r\nAuthorization: Bearer x\n\n{% if data.id %}X-Id: {{ data.id }}{% endif %}\n{% if data %}\nX-B: 2\n{% endif %}"}, "", ""},
		{"templated header name", map[string]any{"additional_headers": "{{ 'X-' ~ data.slug }}: 1"}, "", ""},
		{"body", map[string]any{"body_template": `{"name": "{{ data.name }}", "tags": [{% for t in data.tags %}"{{ t.slug }}"{% endfor %}]}`}, "", ""},
		{"content type", map[string]any{"http_content_type": "application/xml; charset=utf-8"}, "", ""},
		{"secret", map[string]any{"secret": "0123456789abcdef"}, "", ""},
		{"empty secret", map[string]any{"secret": ""}, "", ""},
		{"CA file", map[string]any{"ca_file_path": caFile}, "", ""},
		{"no CA file", map[string]any{"ca_file_path": nil}, "", ""},
	}
}

// hookState is what must not change when a definition is refused.
func hookState(t *testing.T, e *servertest.Env, id int) string {
	t.Helper()
	ctx := context.Background()
	hooks := e.Must(200, "GET", "/api/extras/webhooks/?brief=1", nil).Object()["count"]
	changes, err := e.DB.Client.ObjectChange.Query().Count(ctx)
	if err != nil {
		t.Fatal(err)
	}
	row := e.Must(200, "GET", fmt.Sprintf("/api/extras/webhooks/%d/", id), nil).Object()
	delete(row, "last_updated")
	b, _ := json.Marshal(row)
	return fmt.Sprintf("%v hooks, %d changes, %s", hooks, changes, b)
}

// TestWebhookSaveChecks: a webhook definition that delivery would refuse
// or could not render is refused at POST, PUT and PATCH (single and bulk)
// with a 400 naming the field, and nothing is written; good definitions
// are still created.
func TestWebhookSaveChecks(t *testing.T) {
	caDir := t.TempDir()
	caFile := filepath.Join(caDir, "ca.pem")
	outside := filepath.Join(t.TempDir(), "outside.pem")
	for _, f := range []string{caFile, outside} {
		if err := os.WriteFile(f, []byte("-----BEGIN CERTIFICATE-----\n"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(outside, filepath.Join(caDir, "escape.pem")); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(caDir, "sub"), 0o700); err != nil {
		t.Fatal(err)
	}
	configure := func(c *server.Config) {
		c.Webhooks.AllowedTargets = []string{"100.64.0.0/24", "receiver.internal"}
		c.Webhooks.CAFileDir = caDir
	}
	base := map[string]any{"name": "base", "payload_url": "https://hooks.example.com/base"}
	with := func(name string, set map[string]any) map[string]any {
		body := map[string]any{"name": name}
		for k, v := range base {
			if k != "name" {
				body[k] = v
			}
		}
		for k, v := range set {
			body[k] = v
		}
		return body
	}
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		id := int(e.Must(201, "POST", "/api/extras/webhooks/", base).Object()["id"].(float64))
		id2 := int(e.Must(201, "POST", "/api/extras/webhooks/", with("other", nil)).Object()["id"].(float64))
		detail := fmt.Sprintf("/api/extras/webhooks/%d/", id)
		before := hookState(t, e, id) + hookState(t, e, id2)
		for _, c := range badHooks(caDir, outside) {
			for _, req := range []struct {
				method, path string
				body         any
			}{
				{"POST", "/api/extras/webhooks/", with("new", c.set)},
				{"POST", "/api/extras/webhooks/", []any{with("new1", nil), with("new2", c.set)}},
				{"PUT", detail, with("base", c.set)},
				{"PATCH", detail, c.set},
				{"PATCH", "/api/extras/webhooks/", []any{map[string]any{"id": id2, "description": "bulk"}, mergeID(c.set, id)}},
			} {
				r := e.Do(req.method, req.path, req.body)
				if r.Status != 400 || !strings.Contains(string(r.Body), `"`+c.field+`":`) || !strings.Contains(strings.ToLower(string(r.Body)), strings.ToLower(c.substr)) {
					t.Errorf("%s %s %s: %d %s; want 400 naming %s with %q", c.name, req.method, req.path, r.Status, r.Body, c.field, c.substr)
				}
				if r.Status >= 500 {
					continue
				}
				if after := hookState(t, e, id) + hookState(t, e, id2); after != before {
					t.Fatalf("%s %s %s wrote:\n%s\nwas\n%s", c.name, req.method, req.path, after, before)
				}
			}
		}
		for i, c := range goodHooks(caFile) {
			r := e.Do("POST", "/api/extras/webhooks/", with(fmt.Sprintf("good %d", i), c.set))
			if r.Status != 201 {
				t.Errorf("%s: POST %d %s", c.name, r.Status, r.Body)
				continue
			}
			if r := e.Do("PATCH", detail, c.set); r.Status != 200 {
				t.Errorf("%s: PATCH %d %s", c.name, r.Status, r.Body)
			}
		}
	}, configure)
}

// mergeID is set plus the object id, a bulk PATCH element.
func mergeID(set map[string]any, id int) map[string]any {
	out := map[string]any{"id": id}
	for k, v := range set {
		out[k] = v
	}
	return out
}

// TestWebhookCAFileDisabled: without a CA directory configured, any
// ca_file_path is refused (an empty one is fine).
func TestWebhookCAFileDisabled(t *testing.T) {
	caFile := filepath.Join(t.TempDir(), "ca.pem")
	if err := os.WriteFile(caFile, []byte("pem"), 0o600); err != nil {
		t.Fatal(err)
	}
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		r := e.Must(400, "POST", "/api/extras/webhooks/", map[string]any{"name": "h", "payload_url": "https://hooks.example.com/", "ca_file_path": caFile})
		if !strings.Contains(string(r.Body), `{"ca_file_path":["CA files are disabled`) {
			t.Errorf("got %s", r.Body)
		}
		e.Must(201, "POST", "/api/extras/webhooks/", map[string]any{"name": "h", "payload_url": "https://hooks.example.com/", "ca_file_path": ""})
	})
}
