package server_test

import (
	"net/http"
	"reflect"
	"testing"

	"github.com/inventory/inventory/server/servertest"
)

// TestPythonValueMessages: messages that show a request's value or its
// type as NetBox's do, through Python's str(), repr() and type names
// (ent/logic/pyrepr). Each expectation is what NetBox 4.6 answers:
// get_related_object_by_attrs formats the value with str() (a string
// bare, a list by its items' repr) and the attributes as the repr of
// dict_to_filter_params' dict; DRF names the type of a value that is no
// dictionary or list. (NetBox lists the attributes in the request's
// order; a Go map has none, so they come sorted, and the requests here
// send them sorted.)
func TestPythonValueMessages(t *testing.T) {
	t.Parallel()
	servertest.EachParallel(t, func(t *testing.T, e *servertest.Env) {
		const sites = "/api/dcim/sites/"
		for _, tc := range []struct {
			body string
			want map[string]any
		}{
			{`{"name": "s", "slug": "s", "region": "abc"}`, map[string]any{"region": []any{
				"Related objects must be referenced by numeric ID or by dictionary of attributes. Received an unrecognized value: abc"}}},
			{`{"name": "s", "slug": "s", "region": [1, 2.50, "x"]}`, map[string]any{"region": []any{
				"Related objects must be referenced by numeric ID or by dictionary of attributes. Received an unrecognized value: [1, 2.5, 'x']"}}},
			{`{"name": "s", "slug": "s", "region": {"slug": "it's"}}`, map[string]any{"region": []any{
				`Related object not found using the provided attributes: {'slug': "it's"}`}}},
			{`{"name": "s", "slug": "s", "region": {"name": "x", "parent": {"slug": "a\\b"}}}`, map[string]any{"region": []any{
				`Related object not found using the provided attributes: {'name': 'x', 'parent__slug': 'a\\b'}`}}},
			{`{"name": "s", "slug": "s", "asns": 1.5}`, map[string]any{"asns": []any{
				`Expected a list of items but got type "float".`}}},
			{`{"name": "s", "slug": "s", "asns": ["x"]}`, map[string]any{"asns": []any{
				`Incorrect type. Expected pk value, received str.`}}},
			{`{"name": "s", "slug": "s", "custom_fields": [1]}`, map[string]any{"custom_fields": []any{
				"Invalid data format. Custom field data must be passed as a dictionary mapping field names to their values."}}},
			{" 1.5", map[string]any{"non_field_errors": []any{
				"Invalid data. Expected a dictionary, but got float."}}},
		} {
			r := e.Do(http.MethodPost, sites, tc.body)
			if r.Status != http.StatusBadRequest {
				t.Errorf("POST %s: status %d, want 400: %s", tc.body, r.Status, r.Body)
				continue
			}
			if got := r.Object(); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("POST %s:\n got %v\nwant %v", tc.body, got, tc.want)
			}
		}
		if n := e.Must(http.StatusOK, http.MethodGet, sites+"?slug=s", nil).Object()["count"]; n != float64(0) {
			t.Errorf("a refused request wrote a site: count %v", n) // nothing may be written
		}
	})
}
