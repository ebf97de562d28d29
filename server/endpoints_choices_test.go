package server_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"strings"
	"testing"

	"github.com/inventory/inventory/server/servertest"
)

// TestChoiceSetChoices: NetBox's choices action of a custom field choice
// set (a model endpoint whose handler lives in ent/logic/extras): ordered,
// searchable, paginated, 404 for a missing set or one outside the caller's
// constraints. Cases in testdata/endpoints/choiceset-choices.json.
func TestChoiceSetChoices(t *testing.T) {
	t.Parallel()
	raw, err := os.ReadFile("../testdata/endpoints/choiceset-choices.json")
	if err != nil {
		t.Fatal(err)
	}
	var golden struct {
		Set   map[string]any `json:"set"`
		Cases []struct {
			Query  string          `json:"query"`
			Status int             `json:"status"`
			Body   json.RawMessage `json:"body"`
		} `json:"cases"`
	}
	if err := json.Unmarshal(raw, &golden); err != nil {
		t.Fatal(err)
	}
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		admin := e.Admin()
		set := admin.Must(http.StatusCreated, "POST", "/api/extras/custom-field-choice-sets/", golden.Set).Object()
		id := int(set["id"].(float64))
		path := fmt.Sprintf("/api/extras/custom-field-choice-sets/%d/choices/", id)
		for _, c := range golden.Cases {
			r := admin.Must(c.Status, "GET", path+c.Query, nil)
			want := strings.ReplaceAll(string(c.Body), "{id}", fmt.Sprint(id))
			if !jsonEqual(t, r.Body, []byte(want)) {
				t.Errorf("%s: got %s\nwant %s", c.Query, r.Body, want)
			}
		}
		admin.Must(http.StatusNotFound, "GET", "/api/extras/custom-field-choice-sets/999999/choices/", nil)
		// A user may view only sets named "Other": this one is hidden.
		u, uid := e.NewUser("chooser")
		u.Must(http.StatusForbidden, "GET", path, nil)
		e.Grant(uid, []string{"extras.customfieldchoiceset"}, []string{"view"}, map[string]any{"name": "Other"})
		u.Must(http.StatusNotFound, "GET", path, nil)
	})
}

func jsonEqual(t *testing.T, a, b []byte) bool {
	t.Helper()
	var x, y any
	if err := json.Unmarshal(a, &x); err != nil {
		t.Fatalf("%v: %s", err, a)
	}
	if err := json.Unmarshal(b, &y); err != nil {
		t.Fatalf("%v: %s", err, b)
	}
	xa, _ := json.Marshal(x)
	ya, _ := json.Marshal(y)
	return string(xa) == string(ya)
}
