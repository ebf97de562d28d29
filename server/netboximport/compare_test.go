package netboximport

import (
	"reflect"
	"testing"
)

func TestCompareObject(t *testing.T) {
	for _, tc := range []struct {
		name         string
		endpoint     string
		netbox, ours string
		want         []string // field paths of real differences
		departures   []string // field paths set aside
	}{
		{name: "identical", netbox: `{"id":1,"name":"a"}`, ours: `{"id":1,"name":"a"}`},
		{name: "urls by path", netbox: `{"url":"http://127.0.0.1:8001/api/dcim/sites/1/"}`, ours: `{"url":"http://example.com/api/dcim/sites/1/"}`},
		{name: "url paths differ", netbox: `{"url":"http://a/api/dcim/sites/1/"}`, ours: `{"url":"http://b/api/dcim/sites/2/"}`, want: []string{"url"}},
		{name: "url and plain string", netbox: `{"x":"http://a/b/"}`, ours: `{"x":"/b/"}`, want: []string{"x"}},
		{name: "numbers by value", netbox: `{"length":10.0,"n":1}`, ours: `{"length":10,"n":1.00}`},
		{name: "numbers differ", netbox: `{"n":1}`, ours: `{"n":2}`, want: []string{"n"}},
		{name: "number and string", netbox: `{"n":1}`, ours: `{"n":"1"}`, want: []string{"n"}},
		{name: "nested", netbox: `{"site":{"id":1,"name":"a"}}`, ours: `{"site":{"id":1,"name":"b"}}`, want: []string{"site.name"}},
		{name: "absent here", netbox: `{"a":1,"b":2}`, ours: `{"a":1}`, want: []string{"b"}},
		{name: "absent there", netbox: `{"a":1}`, ours: `{"a":1,"b":null}`, want: []string{"b"}},
		{name: "list element", netbox: `{"tags":[{"id":1},{"id":2}]}`, ours: `{"tags":[{"id":1},{"id":3}]}`, want: []string{"tags[1].id"}},
		{name: "list length", netbox: `{"tags":[1,2]}`, ours: `{"tags":[1]}`, want: []string{"tags"}},
		{name: "null and object", netbox: `{"tenant":null}`, ours: `{"tenant":{"id":1}}`, want: []string{"tenant"}},
		{name: "bools", netbox: `{"a":true}`, ours: `{"a":false}`, want: []string{"a"}},
		{name: "vlan display_name set aside", endpoint: "ipam/vlans", netbox: `{"id":1}`, ours: `{"id":1,"display_name":"x (1)"}`, departures: []string{"display_name"}},
		{name: "display_name elsewhere is a difference", endpoint: "dcim/sites", netbox: `{"id":1}`, ours: `{"id":1,"display_name":"x"}`, want: []string{"display_name"}},
		{name: "empty custom field as null", netbox: `{"custom_fields":{"a":"","b":"x"}}`, ours: `{"custom_fields":{"a":null,"b":"y"}}`, want: []string{"custom_fields.b"}, departures: []string{"custom_fields.a"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ep := tc.endpoint
			if ep == "" {
				ep = "dcim/sites"
			}
			diffs, err := compareObject(ep, 1, []byte(tc.netbox), []byte(tc.ours))
			if err != nil {
				t.Fatal(err)
			}
			var got, dep []string
			for _, d := range diffs {
				if d.Departure != "" {
					dep = append(dep, d.Field)
				} else {
					got = append(got, d.Field)
				}
			}
			if !reflect.DeepEqual(got, tc.want) || !reflect.DeepEqual(dep, tc.departures) {
				t.Errorf("differences %v, set aside %v; want %v, %v (%v)", got, dep, tc.want, tc.departures, diffs)
			}
		})
	}
}
