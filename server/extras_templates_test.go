package server_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/inventory/inventory/server/servertest"
)

// templateWorld is what the template tests share: the device world plus
// three config templates (the device's, the role's, the platform's), a
// role and a platform carrying theirs, and devices choosing each way.
type templateWorld struct {
	*deviceWorld
	tDev, tRole, tPlat, roleT, roleBare, plat int
	dOwn, dRole, dPlat, dNone                 int
}

func newTemplateWorld(t *testing.T, e *servertest.Env) *templateWorld {
	t.Helper()
	w := &templateWorld{deviceWorld: newDeviceWorld(t, e)}
	mk := func(path string, body map[string]any) int {
		return idOf(w.e.Must(http.StatusCreated, "POST", path, body).Object())
	}
	w.tDev = mk("/api/extras/config-templates/", map[string]any{"name": "device template",
		"template_code": "hostname {{ device.name }}\n{% for s in ntp_servers %}ntp {{ s }}\n{% endfor %}{{ extra }}"})
	w.tRole = mk("/api/extras/config-templates/", map[string]any{"name": "role template",
		"template_code": "role {{ device.role.name }} at {{ device.site.name }}"})
	w.tPlat = mk("/api/extras/config-templates/", map[string]any{"name": "platform template",
		"template_code": "platform {{ device.platform.name }}"})
	w.roleT = mk("/api/dcim/device-roles/", map[string]any{"name": "Router", "slug": "router", "config_template": w.tRole})
	w.roleBare = mk("/api/dcim/device-roles/", map[string]any{"name": "Bare", "slug": "bare"})
	w.plat = mk("/api/dcim/platforms/", map[string]any{"name": "Junos", "slug": "junos", "config_template": w.tPlat})
	w.dOwn = mk("/api/dcim/devices/", w.device(w.oneU, "name", "own", "role", w.roleT, "platform", w.plat,
		"config_template", w.tDev, "local_context_data", map[string]any{"ntp_servers": []string{"10.0.0.1", "10.0.0.2"}}))
	w.dRole = mk("/api/dcim/devices/", w.device(w.oneU, "name", "by-role", "role", w.roleT, "platform", w.plat))
	w.dPlat = mk("/api/dcim/devices/", w.device(w.oneU, "name", "by-platform", "role", w.roleBare, "platform", w.plat))
	w.dNone = mk("/api/dcim/devices/", w.device(w.oneU, "name", "none", "role", w.roleBare))
	return w
}

func renderConfigPath(id int) string { return fmt.Sprintf("/api/dcim/devices/%d/render-config/", id) }

// TestRenderConfig: a device's render-config picks its template as NetBox
// does (config_template_id, else the device's, its role's, its
// platform's), renders the config context, the body's keys and the
// device's own data, and answers JSON or text as the client asks.
func TestRenderConfig(t *testing.T) {
	t.Parallel()
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		w := newTemplateWorld(t, e)
		a := w.e
		cases := []struct {
			name    string
			device  int
			body    any
			headers []string
			query   string
			status  int
			tmpl    int    // the configtemplate answered (JSON)
			content string // the rendered content, or the text body
			text    bool   // answered as text/plain
			err     string // the {"error": ...} of a 400
		}{
			{name: "the device's own template with its config context", device: w.dOwn, status: 200, tmpl: w.tDev,
				content: "hostname own\nntp 10.0.0.1\nntp 10.0.0.2\n"},
			{name: "body keys join the context", device: w.dOwn, body: map[string]any{"extra": "!"}, status: 200, tmpl: w.tDev,
				content: "hostname own\nntp 10.0.0.1\nntp 10.0.0.2\n!"},
			{name: "the body overrides the config context", device: w.dOwn, body: map[string]any{"ntp_servers": []string{"192.0.2.1"}},
				status: 200, tmpl: w.tDev, content: "hostname own\nntp 192.0.2.1\n"},
			{name: "the role's template", device: w.dRole, status: 200, tmpl: w.tRole, content: "role Router at Site A"},
			{name: "the platform's template", device: w.dPlat, status: 200, tmpl: w.tPlat, content: "platform Junos"},
			{name: "no template", device: w.dNone, status: 400, err: "No config template found for this device."},
			{name: "config_template_id chooses", device: w.dNone, body: map[string]any{"config_template_id": w.tRole},
				status: 200, tmpl: w.tRole, content: "role Bare at Site A"},
			{name: "config_template_id as a string", device: w.dRole, body: map[string]any{"config_template_id": fmt.Sprint(w.tPlat)},
				status: 200, tmpl: w.tPlat, content: "platform Junos"},
			{name: "config_template_id missing", device: w.dOwn, body: map[string]any{"config_template_id": missing},
				status: 400, err: fmt.Sprintf("Config template with ID %d not found.", missing)},
			{name: "config_template_id not a number", device: w.dOwn, body: map[string]any{"config_template_id": "abc"},
				status: 400, err: "Config template with ID abc not found."},
			{name: "text/plain", device: w.dRole, headers: []string{"Accept: text/plain"}, status: 200, text: true,
				content: "role Router at Site A"},
			{name: "?format=txt", device: w.dRole, query: "?format=txt", status: 200, text: true, content: "role Router at Site A"},
			{name: "JSON preferred among equals", device: w.dRole, headers: []string{"Accept: text/plain, application/json"},
				status: 200, tmpl: w.tRole, content: "role Router at Site A"},
			{name: "text/* is text", device: w.dRole, headers: []string{"Accept: text/*"}, status: 200, text: true,
				content: "role Router at Site A"},
			{name: "nothing acceptable", device: w.dRole, headers: []string{"Accept: image/png"}, status: http.StatusNotAcceptable},
			{name: "unknown format", device: w.dRole, query: "?format=xml", status: 404},
			{name: "a missing device", device: missing, status: 404},
		}
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				r := a.Do("POST", renderConfigPath(tc.device)+tc.query, tc.body, tc.headers...)
				if r.Status != tc.status {
					t.Fatalf("status %d, want %d: %s", r.Status, tc.status, r.Body)
				}
				switch {
				case tc.err != "":
					if got := r.Object()["error"]; got != tc.err {
						t.Fatalf("error %v, want %q", got, tc.err)
					}
				case tc.text:
					if ct := r.Header.Get("Content-Type"); ct != "text/plain; charset=utf-8" || string(r.Body) != tc.content {
						t.Fatalf("%s %q, want text %q", ct, r.Body, tc.content)
					}
				case tc.status == 200:
					o := r.Object()
					ct, _ := o["configtemplate"].(map[string]any)
					if o["content"] != tc.content || ct == nil || idOf(ct) != tc.tmpl || ct["url"] == nil || ct["name"] == nil {
						t.Fatalf("answer %s, want template %d and content %q", r.Body, tc.tmpl, tc.content)
					}
				}
			})
		}

		// The body must be an object.
		r := a.Must(400, "POST", renderConfigPath(w.dOwn), []any{1})
		if !strings.Contains(string(r.Body), "Expected a dictionary, but got list") {
			t.Fatalf("list body: %s", r.Body)
		}

		// A virtual machine renders under its NetBox name.
		tv := idOf(a.Must(201, "POST", "/api/extras/config-templates/", map[string]any{"name": "vm template",
			"template_code": "vm {{ virtualmachine.name }} {{ virtualmachine.site.name }} {{ dns }}"}).Object())
		vm := idOf(a.Must(201, "POST", "/api/virtualization/virtual-machines/", map[string]any{"name": "vm1",
			"site": w.siteA, "config_template": tv, "local_context_data": map[string]any{"dns": "ns0"}}).Object())
		r = a.Must(200, "POST", fmt.Sprintf("/api/virtualization/virtual-machines/%d/render-config/", vm),
			map[string]any{"dns": "ns1"})
		if got := r.Object()["content"]; got != "vm vm1 Site A ns1" {
			t.Fatalf("VM content %q", got)
		}
		r = a.Must(200, "POST", fmt.Sprintf("/api/virtualization/virtual-machines/%d/render-config/", vm), nil, "Accept: text/plain")
		if string(r.Body) != "vm vm1 Site A ns0" {
			t.Fatalf("VM's own template: %q", r.Body)
		}
		// A device's template has no "device" to read on a VM: an
		// attribute of an undefined name is an error, as in Jinja.
		r = a.Must(400, "POST", fmt.Sprintf("/api/virtualization/virtual-machines/%d/render-config/", vm),
			map[string]any{"config_template_id": w.tDev, "ntp_servers": []string{}})
		if msgs, _ := r.Object()["template_code"].([]any); len(msgs) != 1 || !strings.Contains(fmt.Sprint(msgs[0]), "device.name") {
			t.Fatalf("VM rendered with a device template: %s", r.Body)
		}
		a.Must(400, "POST", fmt.Sprintf("/api/virtualization/virtual-machines/%d/render-config/", idOf(a.Must(201, "POST",
			"/api/virtualization/virtual-machines/", map[string]any{"name": "vm2", "site": w.siteA}).Object())), nil)

		// A template in use is protected.
		a.Must(409, "DELETE", fmt.Sprintf("/api/extras/config-templates/%d/", w.tRole), nil)
	})
}

// TestConfigTemplateRender: POST config-templates/<id>/render/ renders
// with the body as the context; failures at render time (limits, strict
// undefined) are 400s naming template_code, as are templates that do
// not parse when saved (nothing written).
func TestConfigTemplateRender(t *testing.T) {
	t.Parallel()
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		a := e.Admin()
		mk := func(name, code string, params map[string]any) int {
			body := map[string]any{"name": name, "template_code": code}
			if params != nil {
				body["environment_params"] = params
			}
			return idOf(a.Must(201, "POST", "/api/extras/config-templates/", body).Object())
		}
		render := func(id int) string { return fmt.Sprintf("/api/extras/config-templates/%d/render/", id) }
		plain := mk("plain", "{% if on %}\n  up {{ name }}\n{% endif %}\n", nil)
		trimmed := mk("trimmed", "{% if on %}\n  up {{ name }}\n{% endif %}\n", map[string]any{"trim_blocks": true, "lstrip_blocks": true})
		// Text fields are trimmed as DRF trims them (NetBox too), so a
		// stored template never ends in a newline to keep.
		kept := mk("kept", "{{ name }}\n", map[string]any{"keep_trailing_newline": true})
		delims := mk("delims", "<% if on %>[[ name ]]<% endif %>", map[string]any{"block_start_string": "<%", "block_end_string": "%>",
			"variable_start_string": "[[", "variable_end_string": "]]"})
		strict := mk("strict", "{{ missing }}", map[string]any{"undefined": "jinja2.StrictUndefined"})
		lax := mk("lax", "[{{ missing }}]", map[string]any{"undefined": "jinja2.Undefined"})
		noEscape := mk("no escape", "{{ name }}", map[string]any{"autoescape": true})
		big := mk("big", "{% for i in range(100000) %}xxxxxxxxxxxxxxxxxxxx{% endfor %}", nil)
		long := mk("long", "{% for i in range(200000) %}x{% endfor %}", nil)
		crlf := mk("crlf", "a\r\nb", nil)
		for _, tc := range []struct {
			name    string
			id      int
			body    any
			status  int
			content string
			field   string
		}{
			{"Jinja's defaults", plain, map[string]any{"on": true, "name": "ge-0"}, 200, "\n  up ge-0\n", ""},
			{"trim_blocks and lstrip_blocks", trimmed, map[string]any{"on": true, "name": "ge-0"}, 200, "  up ge-0\n", ""},
			{"keep_trailing_newline", kept, map[string]any{"name": "x"}, 200, "x", ""},
			{"delimiters", delims, map[string]any{"on": true, "name": "y"}, 200, "y", ""},
			{"an empty body", lax, nil, 200, "[]", ""},
			{"autoescape stays off in config templates", noEscape, map[string]any{"name": "<b>"}, 200, "<b>", ""},
			{"CRLF line ends are replaced", crlf, nil, 200, "a\nb", ""},
			{"StrictUndefined", strict, map[string]any{}, 400, "", "template_code"},
			{"the output limit", big, nil, 400, "", "template_code"},
			{"the iteration limit", long, nil, 400, "", "template_code"},
			{"a list body", plain, []any{}, 400, "", "non_field_errors"},
		} {
			t.Run(tc.name, func(t *testing.T) {
				r := a.Do("POST", render(tc.id), tc.body)
				if r.Status != tc.status {
					t.Fatalf("status %d, want %d: %s", r.Status, tc.status, r.Body)
				}
				o := r.Object()
				if tc.field != "" {
					if o[tc.field] == nil {
						t.Fatalf("400 does not name %s: %s", tc.field, r.Body)
					}
					return
				}
				if o["content"] != tc.content {
					t.Fatalf("content %q, want %q", o["content"], tc.content)
				}
			})
		}

		// Refused when saved, nothing written.
		before := a.Must(200, "GET", "/api/extras/config-templates/?limit=1", nil).Object()["count"]
		for _, tc := range []struct {
			name   string
			body   map[string]any
			field  string
			substr string
		}{
			{"an unclosed tag", map[string]any{"template_code": "{% for x in y %}"}, "template_code", "Invalid template"},
			{"an unclosed variable", map[string]any{"template_code": "a\n{{ x"}, "template_code", "Line: 2"},
			{"include", map[string]any{"template_code": "{% include 'x' %}"}, "template_code", "Invalid template"},
			{"a dunder attribute", map[string]any{"template_code": "{{ x.__class__ }}"}, "template_code", "not allowed"},
			{"parses only with other delimiters", map[string]any{"template_code": "<% if %>",
				"environment_params": map[string]any{"block_start_string": "<%", "block_end_string": "%>"}}, "template_code", "Invalid template"},
			{"an empty template", map[string]any{"template_code": ""}, "template_code", "blank"},
			{"a parameter NetBox does not allow", map[string]any{"environment_params": map[string]any{"loader": "x"}},
				"environment_params", `"loader" is not a permitted Jinja2 environment parameter.`},
			{"finalize", map[string]any{"environment_params": map[string]any{"finalize": "os.system"}},
				"environment_params", `The "finalize" parameter is deprecated`},
			{"an unknown undefined", map[string]any{"environment_params": map[string]any{"undefined": "x.Y"}},
				"environment_params", `Invalid value "x.Y" for parameter "undefined". Allowed values are: jinja2.ChainableUndefined`},
			{"DebugUndefined", map[string]any{"environment_params": map[string]any{"undefined": "jinja2.DebugUndefined"}},
				"environment_params", "not supported"},
			{"a boolean that is not", map[string]any{"environment_params": map[string]any{"trim_blocks": "yes"}},
				"environment_params", "must be true or false"},
			{"a bad newline", map[string]any{"environment_params": map[string]any{"newline_sequence": "x"}},
				"environment_params", "newline_sequence"},
			{"not an object", map[string]any{"environment_params": []any{"trim_blocks"}}, "environment_params", ""},
		} {
			t.Run("refused "+tc.name, func(t *testing.T) {
				body := map[string]any{"name": "bad", "template_code": "ok"}
				for k, v := range tc.body {
					body[k] = v
				}
				r := a.Must(400, "POST", "/api/extras/config-templates/", body)
				msgs, _ := r.Object()[tc.field].([]any)
				if len(msgs) == 0 || !strings.Contains(fmt.Sprint(msgs[0]), tc.substr) {
					t.Fatalf("%s: %s", tc.field, r.Body)
				}
				// The same on update of a good template.
				delete(body, "name")
				a.Must(400, "PATCH", fmt.Sprintf("/api/extras/config-templates/%d/", plain), body)
			})
		}
		if got := a.Must(200, "GET", "/api/extras/config-templates/?limit=1", nil).Object()["count"]; got != before {
			t.Fatalf("count %v after refused writes, was %v", got, before)
		}
		if got := a.Must(200, "GET", fmt.Sprintf("/api/extras/config-templates/%d/", plain), nil).Object()["template_code"]; got != "{% if on %}\n  up {{ name }}\n{% endif %}" {
			t.Fatalf("refused updates changed the template: %q", got)
		}
		// Parameters that change nothing rendered are accepted, as NetBox does.
		mk("cache", "x", map[string]any{"cache_size": 10, "auto_reload": false, "optimized": true, "enable_async": false})
	})
}

// TestRenderPermissions: render and render_config are their own actions
// (NetBox's restrict(user, action).restrict(user, "view")): without the
// action 403, with it but without view the object is not found, with
// both it renders; read-only tokens and anonymous callers are refused.
func TestRenderPermissions(t *testing.T) {
	t.Parallel()
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		w := newTemplateWorld(t, e)
		a := w.e
		static := idOf(a.Must(201, "POST", "/api/extras/config-templates/", map[string]any{"name": "static",
			"template_code": "static"}).Object())
		renderStatic := fmt.Sprintf("/api/extras/config-templates/%d/render/", static)
		type grant struct {
			actions     []string
			constraints any
		}
		dev := "dcim.device"
		for i, tc := range []struct {
			name   string
			path   string
			model  string
			grants []grant
			want   int
		}{
			{"render-config: view only", renderConfigPath(w.dRole), dev, []grant{{[]string{"view"}, nil}}, 403},
			{"render-config: the action without view", renderConfigPath(w.dRole), dev, []grant{{[]string{"render_config"}, nil}}, 404},
			{"render-config: the action and view", renderConfigPath(w.dRole), dev, []grant{{[]string{"render_config", "view"}, nil}}, 200},
			{"render-config: outside the action's constraints", renderConfigPath(w.dRole), dev,
				[]grant{{[]string{"view"}, nil}, {[]string{"render_config"}, map[string]any{"name": "own"}}}, 404},
			{"render-config: outside the view constraints", renderConfigPath(w.dRole), dev,
				[]grant{{[]string{"render_config"}, nil}, {[]string{"view"}, map[string]any{"name": "own"}}}, 404},
			{"render-config: inside both", renderConfigPath(w.dOwn), dev,
				[]grant{{[]string{"view"}, nil}, {[]string{"render_config"}, map[string]any{"name": "own"}}}, 200},
			{"render: view only", renderStatic, "extras.configtemplate",
				[]grant{{[]string{"view"}, nil}}, 403},
			{"render: the action without view", renderStatic, "extras.configtemplate",
				[]grant{{[]string{"render"}, nil}}, 404},
			{"render: the action and view", renderStatic, "extras.configtemplate",
				[]grant{{[]string{"render", "view"}, nil}}, 200},
		} {
			t.Run(tc.name, func(t *testing.T) {
				u, id := e.NewUser(fmt.Sprintf("perm-case-%d", i))
				for _, g := range tc.grants {
					e.Grant(id, []string{tc.model}, g.actions, g.constraints)
				}
				if r := u.Do("POST", tc.path, nil); r.Status != tc.want {
					t.Fatalf("status %d, want %d: %s", r.Status, tc.want, r.Body)
				}
			})
		}
		// A template the caller may not view is not found through
		// config_template_id; the device's own resolves whatever the
		// caller may see of templates, as NetBox's get_config_template().
		u, id := e.NewUser("renderer")
		e.Grant(id, []string{"dcim.device"}, []string{"view", "render_config"}, nil)
		r := u.Must(400, "POST", renderConfigPath(w.dNone), map[string]any{"config_template_id": w.tPlat})
		if r.Object()["error"] != fmt.Sprintf("Config template with ID %d not found.", w.tPlat) {
			t.Fatalf("hidden template: %s", r.Body)
		}
		u.Must(200, "POST", renderConfigPath(w.dRole), nil)
		// Read-only tokens and anonymous callers.
		u.WithToken("").Must(403, "POST", renderConfigPath(w.dRole), nil)
		ro := e.TokenFor(id, false)
		ro.Must(403, "POST", renderConfigPath(w.dRole), nil)
		a.Must(200, "POST", renderConfigPath(w.dRole), nil)
	})
}

// TestExportTemplates: ?export=<name> on a list renders the filtered list
// with the export template of that name for the list's model, with its
// MIME type and attachment name; unknown, hidden or other models'
// templates are 404.
func TestExportTemplates(t *testing.T) {
	t.Parallel()
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		a := e.Admin()
		for i, s := range []string{"alpha", "bravo", "charlie"} {
			a.Must(201, "POST", "/api/dcim/sites/", map[string]any{"name": strings.ToUpper(s[:1]) + s[1:], "slug": s,
				"status": []string{"active", "planned", "active"}[i]})
		}
		a.Must(201, "POST", "/api/tenancy/tenants/", map[string]any{"name": "T1", "slug": "t1"})
		mk := func(body map[string]any) int {
			return idOf(a.Must(201, "POST", "/api/extras/export-templates/", body).Object())
		}
		mk(map[string]any{"name": "csv", "object_types": []string{"dcim.site", "tenancy.tenant"}, "mime_type": "text/csv",
			"file_extension": "csv", "template_code": "name,slug\n{% for s in queryset %}{{ s.name }},{{ s.slug }}\n{% endfor %}"})
		mk(map[string]any{"name": "count", "object_types": []string{"dcim.site"}, "as_attachment": false,
			"template_code": "{{ queryset | length }}"})
		mk(map[string]any{"name": "named", "object_types": []string{"dcim.site"}, "file_name": "sites é",
			"template_code": "{{ queryset[0].slug }}"})
		mk(map[string]any{"name": "html", "object_types": []string{"dcim.site"}, "mime_type": "text/html",
			"environment_params": map[string]any{"autoescape": true}, "template_code": "{{ x }}{{ queryset[0].name }}"})
		mk(map[string]any{"name": "tenants only", "object_types": []string{"tenancy.tenant"}, "template_code": "t"})
		for _, tc := range []struct {
			name, path     string
			status         int
			body, ctype    string
			disposition    string
			contentTypeHas string
		}{
			{"the whole list", "/api/dcim/sites/?export=csv", 200, "name,slug\nAlpha,alpha\nBravo,bravo\nCharlie,charlie\n",
				"text/csv", `attachment; filename="netbox_sites.csv"`, ""},
			{"filtered and ordered, not paginated", "/api/dcim/sites/?export=csv&status=active&ordering=-name&limit=1", 200,
				"name,slug\nCharlie,charlie\nAlpha,alpha\n", "text/csv", `attachment; filename="netbox_sites.csv"`, ""},
			{"another model's list", "/api/tenancy/tenants/?export=csv", 200, "name,slug\nT1,t1\n", "text/csv",
				`attachment; filename="netbox_tenants.csv"`, ""},
			{"inline with the default MIME type", "/api/dcim/sites/?export=count", 200, "3", "text/plain; charset=utf-8", "", ""},
			{"a file name beyond ASCII", "/api/dcim/sites/?export=named", 200, "alpha", "text/plain; charset=utf-8",
				"attachment; filename*=utf-8''sites%20%C3%A9", ""},
			{"autoescape in export templates", "/api/dcim/sites/?export=html&name=Alpha", 200, "Alpha", "text/html",
				`attachment; filename="netbox_sites"`, ""},
			{"an unknown template", "/api/dcim/sites/?export=nope", 404, "", "", "", ""},
			{"an empty name", "/api/dcim/sites/?export=", 404, "", "", "", ""},
			{"a name differing in case", "/api/dcim/sites/?export=CSV", 404, "", "", "", ""},
			{"two names are no name", "/api/dcim/sites/?export=csv,count", 404, "", "", "", ""},
			{"a template of another model", "/api/dcim/sites/?export=tenants+only", 404, "", "", "", ""},
			{"a filter's error stays a 400", "/api/dcim/sites/?export=csv&id=x", 400, "", "", "", ""},
		} {
			t.Run(tc.name, func(t *testing.T) {
				r := a.Do("GET", tc.path, nil)
				if r.Status != tc.status {
					t.Fatalf("status %d, want %d: %s", r.Status, tc.status, r.Body)
				}
				if tc.status != 200 {
					return
				}
				if string(r.Body) != tc.body || r.Header.Get("Content-Type") != tc.ctype ||
					r.Header.Get("Content-Disposition") != tc.disposition {
					t.Fatalf("%q %q %q, want %q %q %q", r.Body, r.Header.Get("Content-Type"), r.Header.Get("Content-Disposition"),
						tc.body, tc.ctype, tc.disposition)
				}
			})
		}
		// The template and the list each need the view permission.
		u, id := e.NewUser("exporter")
		e.Grant(id, []string{"dcim.site"}, []string{"view"}, map[string]any{"slug": "bravo"})
		u.Must(404, "GET", "/api/dcim/sites/?export=count", nil)
		e.Grant(id, []string{"extras.exporttemplate"}, []string{"view"}, map[string]any{"name": "count"})
		if r := u.Must(200, "GET", "/api/dcim/sites/?export=count", nil); string(r.Body) != "1" {
			t.Fatalf("export through the view restriction: %q", r.Body)
		}
		u.Must(404, "GET", "/api/dcim/sites/?export=csv", nil)
		// "table" is a reserved name (NetBox's ExportTemplate.clean()).
		r := a.Must(400, "POST", "/api/extras/export-templates/", map[string]any{"name": "Table",
			"object_types": []string{"dcim.site"}, "template_code": "x"})
		if msgs, _ := r.Object()["name"].([]any); len(msgs) == 0 {
			t.Fatalf("reserved name: %s", r.Body)
		}
		a.Must(400, "POST", "/api/extras/export-templates/", map[string]any{"name": "x",
			"object_types": []string{"dcim.site"}, "template_code": "{% if %}"})
	})
}
