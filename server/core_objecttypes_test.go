package server_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/inventory/inventory/ent/resource"
	"github.com/inventory/inventory/server/servertest"
)

// TestObjectTypes: /api/core/object-types/ lists every served model (itself
// included) as NetBox 4.6.8 lists its object types: NetBox's ids and
// attributes (a circuit type's row is NetBox's, field for field), ordered
// by app label and model, the brief form the full one (NetBox declares no
// brief fields), NetBox's filters; read-only (405 on writes, OPTIONS
// without actions); migrating again changes no id.
func TestObjectTypes(t *testing.T) {
	t.Parallel()
	raw, err := os.ReadFile(filepath.Join("..", "ent", "resource", "objecttype_rows.json"))
	if err != nil {
		t.Fatal(err)
	}
	var data struct {
		Rows map[string]map[string]any `json:"rows"`
	}
	if err := json.Unmarshal(raw, &data); err != nil {
		t.Fatal(err)
	}
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		a := e.Admin()
		const path = "/api/core/object-types/"
		list := a.Must(http.StatusOK, "GET", path+"?limit=0", nil).Results()
		served := resource.All()
		if len(list) != len(served) {
			t.Fatalf("%d object types, %d served models", len(list), len(served))
		}
		var order []string
		for _, o := range list {
			ct := fmt.Sprint(o["app_label"], ".", o["model"])
			order = append(order, ct)
			if resource.ByContentType(ct) == nil {
				t.Errorf("object type %s is no served model", ct)
			}
			if want := data.Rows[ct]["id"]; o["id"] != want {
				t.Errorf("%s: id %v, NetBox's %v", ct, o["id"], want)
			}
		}
		if !slices.IsSorted(order) {
			t.Errorf("not ordered by app label and model: %v", order)
		}
		// A row as NetBox renders it, key order included.
		want := data.Rows["circuits.circuittype"]
		body := a.Must(http.StatusOK, "GET", path+"22/", nil).Body
		wantJSON := fmt.Sprintf(`{"id":22,"url":"%s/api/core/object-types/22/","display":%q,"app_label":"circuits","app_name":%q,`+
			`"model":"circuittype","model_name":%q,"model_name_plural":%q,"public":true,"features":%s,"is_plugin_model":false,`+
			`"rest_api_endpoint":"/api/circuits/circuit-types/","description":%s}`,
			host, want["display"], want["app_name"], want["model_name"], want["model_name_plural"], mustJSON(t, want["features"]), mustJSON(t, want["description"]))
		if string(body) != wantJSON {
			t.Errorf("object type 22:\n got %s\nwant %s", body, wantJSON)
		}
		if brief := a.Must(http.StatusOK, "GET", path+"22/?brief=true", nil).Body; string(brief) != wantJSON {
			t.Errorf("brief object type 22: %s", brief)
		}
		cases := []struct {
			query string
			want  []float64
		}{
			{"app_label=circuits&model=circuittype", []float64{22}},
			{"model=site&model=region", []float64{56, 57}},
			{"features=journaling&app_label=tenancy", []float64{109, 110, 111, 112, 113}},
			{"q=circuittermination", []float64{21, 161}},
			{"id=22&id=57", []float64{22, 57}},
			{"public=false&app_label=core", []float64{}},
		}
		for _, c := range cases {
			got := []float64{}
			for _, o := range a.Must(http.StatusOK, "GET", path+"?limit=0&"+c.query, nil).Results() {
				got = append(got, o["id"].(float64))
			}
			slices.Sort(got)
			if !slices.Equal(got, c.want) {
				t.Errorf("?%s: %v, want %v", c.query, got, c.want)
			}
		}
		for _, m := range []string{"POST", "PUT", "PATCH", "DELETE"} {
			target := path
			if m != "POST" {
				target = path + "22/"
			}
			if r := a.Do(m, target, map[string]any{"app_label": "x"}); r.Status != http.StatusMethodNotAllowed {
				t.Errorf("%s %s: %d %.200s", m, target, r.Status, r.Body)
			}
		}
		opts := a.Must(http.StatusOK, "OPTIONS", path, nil)
		if allow := opts.Header.Get("Allow"); allow != "GET, HEAD, OPTIONS" {
			t.Errorf("Allow %q", allow)
		}
		if _, has := opts.Object()["actions"]; has {
			t.Errorf("OPTIONS of a read-only endpoint lists actions: %s", opts.Body)
		}
		// No permission can name object types (NetBox's
		// OBJECTPERMISSION_OBJECT_TYPES): any authenticated caller reads
		// them; anonymous callers only when LOGIN_REQUIRED is off.
		u, _ := e.NewUser("nobody")
		u.Must(http.StatusOK, "GET", path+"22/", nil)
		if n := len(u.Must(http.StatusOK, "GET", path+"?limit=0", nil).Results()); n != len(served) {
			t.Errorf("a user without permissions lists %d object types", n)
		}
		if r := e.Anonymous().Do("GET", path, nil); r.Status != http.StatusForbidden {
			t.Errorf("anonymous GET: %d", r.Status)
		}
		refusal := a.Do("POST", "/api/users/permissions/", map[string]any{"name": "ot", "object_types": []string{"core.objecttype"}, "actions": []string{"view"}})
		if refusal.Status != http.StatusBadRequest {
			t.Errorf("a permission on core.objecttype: %d %s", refusal.Status, refusal.Body)
		}
		if root := a.Must(http.StatusOK, "GET", "/api/core/", nil).Object(); !strings.HasSuffix(fmt.Sprint(root["object-types"]), "/api/core/object-types/") {
			t.Errorf("/api/core/ lists %v", root)
		}
		before := a.Must(http.StatusOK, "GET", path+"?limit=0", nil).Body
		if err := e.DB.Migrate(context.Background()); err != nil {
			t.Fatal(err)
		}
		e.DB.Cache.Bump()
		if after := a.Must(http.StatusOK, "GET", path+"?limit=0", nil).Body; string(after) != string(before) {
			t.Errorf("a second migration changed the object types")
		}
	})
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return strings.NewReplacer(`\u003c`, "<", `\u003e`, ">", `\u0026`, "&").Replace(string(b))
}
