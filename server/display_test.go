package server_test

import (
	"encoding/json"
	"net/http"
	"os"
	"strings"
	"testing"

	"github.com/inventory/inventory/server/servertest"
)

// TestDisplay checks the display strings of the models whose display is a
// function of their logic package (api.Model.DisplayFunc), in the object
// itself and nested in another object. Cases in testdata/display.json, run
// in order on every database ({key} and {last6} stand for the created
// token's key and last six secret characters).
func TestDisplay(t *testing.T) {
	t.Parallel()
	raw, err := os.ReadFile("../testdata/display.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases []struct {
		Name    string            `json:"name"`
		Path    string            `json:"path"`
		Body    map[string]any    `json:"body"`
		Display string            `json:"display"`
		Nested  map[string]string `json:"nested"`
	}
	if err := json.Unmarshal(raw, &cases); err != nil {
		t.Fatal(err)
	}
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		admin := e.Admin()
		for _, c := range cases {
			obj := admin.Must(http.StatusCreated, "POST", c.Path, c.Body).Object()
			want := c.Display
			if secret, ok := obj["token"].(string); ok && len(secret) >= 6 {
				want = strings.ReplaceAll(want, "{last6}", secret[len(secret)-6:])
			}
			if key, ok := obj["key"].(string); ok {
				want = strings.ReplaceAll(want, "{key}", key)
			}
			// The created object, then read back (the list form).
			id := int(obj["id"].(float64))
			got := admin.Must(http.StatusOK, "GET", c.Path+itoa(id)+"/", nil).Object()
			for _, o := range []map[string]any{obj, got} {
				if o["display"] != want {
					t.Errorf("%s: display %q, want %q", c.Name, o["display"], want)
				}
			}
			for field, disp := range c.Nested {
				n, _ := got[field].(map[string]any)
				if n["display"] != disp {
					t.Errorf("%s: %s.display %v, want %q", c.Name, field, n["display"], disp)
				}
			}
		}
	})
}
