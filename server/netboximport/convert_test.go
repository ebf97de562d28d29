package netboximport

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/inventory/inventory/ent/resource"
)

// NetBox's representation becomes the writable input.
func TestConvert(t *testing.T) {
	for _, tc := range []struct {
		ct      string
		netbox  string
		want    map[string]string // input key → JSON ("-" absent)
		slots   []string          // fields of deferrable slots
		unknown []string
	}{
		{
			ct: "dcim.site",
			netbox: `{"id":7,"url":"http://x/api/dcim/sites/7/","display":"a","name":"a","slug":"a",
				"status":{"value":"active","label":"Active"},"region":{"id":3,"url":"u","display":"r"},"tenant":null,
				"tags":[{"id":4,"name":"t"},{"id":9,"name":"u"}],"asns":[{"id":2}],"custom_fields":{"x":{"id":5,"display":"o"},"y":"s"},
				"created":"2021-01-01T00:00:00Z","last_updated":"2021-01-02T00:00:00Z","circuit_count":3,"bogus":1}`,
			want: map[string]string{"id": "7", "name": `"a"`, "status": `"active"`, "region": "3", "tenant": "null",
				"tags": "[4,9]", "asns": "[2]", "custom_fields": `{"x":5,"y":"s"}`, "created": `"2021-01-01T00:00:00Z"`,
				"last_updated": `"2021-01-02T00:00:00Z"`, "circuit_count": "-", "url": "-", "display": "-"},
			slots:   []string{"region", "asns", "custom_fields"},
			unknown: []string{"bogus"},
		},
		{
			ct:     "ipam.ipaddress",
			netbox: `{"id":1,"address":"10.0.0.1/24","assigned_object_type":"dcim.interface","assigned_object_id":12,"assigned_object":{"id":12}}`,
			want:   map[string]string{"assigned_object_type": `"dcim.interface"`, "assigned_object_id": "12", "assigned_object": "-"},
			slots:  []string{"assigned_object_type"},
		},
		{
			ct:     "dcim.cable",
			netbox: `{"id":1,"profile":null,"a_terminations":[{"object_type":"dcim.interface","object_id":3,"object":{"id":3}}],"b_terminations":[]}`,
			want:   map[string]string{"profile": "-", "a_terminations": `[{"object_id":3,"object_type":"dcim.interface"}]`, "b_terminations": "[]"},
		},
		{
			ct:      "extras.configtemplate",
			netbox:  `{"id":1,"name":"t","data_file":{"id":4},"data_source":null}`,
			want:    map[string]string{"data_file": "-"},
			unknown: []string{"data_file (refers to core.datafile, not imported)"},
		},
		{
			ct:     "dcim.rearport",
			netbox: `{"id":1,"front_ports":[{"position":1,"front_port":2,"front_port_position":1}]}`,
			want:   map[string]string{"front_ports": "-"},
		},
	} {
		t.Run(tc.ct, func(t *testing.T) {
			d := resource.ByContentType(tc.ct)
			c := newConverter(d)
			o, err := c.convert(json.RawMessage(tc.netbox))
			if err != nil {
				t.Fatal(err)
			}
			for k, want := range tc.want {
				got, ok := o.in[k]
				switch {
				case want == "-" && ok:
					t.Errorf("%s: %s, want absent", k, got)
				case want != "-" && string(got) != want:
					t.Errorf("%s: %s, want %s", k, got, want)
				}
			}
			var slots []string
			for _, s := range o.slots {
				if s.deferrable {
					slots = append(slots, s.fields[0])
				}
			}
			for _, want := range tc.slots {
				if !strings.Contains(strings.Join(slots, ","), want) {
					t.Errorf("deferrable slots %v lack %s", slots, want)
				}
			}
			var unknown []string
			for f := range c.unknown {
				unknown = append(unknown, f)
			}
			if !reflect.DeepEqual(unknown, tc.unknown) {
				t.Errorf("unknown %v, want %v", unknown, tc.unknown)
			}
		})
	}
	u, err := newConverter(resource.ByContentType("users.user")).convert(json.RawMessage(`{"id":1,"username":"a"}`))
	if err != nil || !strings.HasPrefix(string(u.in["password"]), `"!`) {
		t.Errorf("user: %v, %v", u.in, err)
	}
}
