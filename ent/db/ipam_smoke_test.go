package db_test

import (
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/inventory/inventory/ent"
	"github.com/inventory/inventory/ent/db"
	"github.com/inventory/inventory/ent/resource"
)

// TestIPAMWrites exercises the schema hooks and validators of the IPAM and
// custom field models through the resource layer.
func TestIPAMWrites(t *testing.T) {
	ctx := context.Background()
	d, err := db.Open(ctx, filepath.Join(t.TempDir(), "t.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if err := d.Migrate(ctx); err != nil {
		t.Fatal(err)
	}
	create := func(ct, body string) (int, error) {
		var in resource.Input
		if err := json.Unmarshal([]byte(body), &in); err != nil {
			t.Fatal(err)
		}
		var id int
		err := d.InTx(ctx, func(ctx context.Context, tx *ent.Tx) error {
			var err error
			id, err = resource.ByContentType(ct).Create(ctx, &resource.Tx{Client: tx.Client(), Dialect: d.Dialect}, in)
			return err
		})
		return id, err
	}
	render := func(ct string, id int) map[string]any {
		rd := resource.ByContentType(ct)
		r, err := rd.Get(ctx, d.Store(), id)
		if err != nil || r == nil {
			t.Fatalf("get %s %d: %v", ct, id, err)
		}
		p, err := rd.Load(ctx, d.Store(), []*resource.Row{r}, resource.View{})
		if err != nil {
			t.Fatal(err)
		}
		var m map[string]any
		if err := json.Unmarshal(p.JSON(r), &m); err != nil {
			t.Fatal(err)
		}
		return m
	}
	fieldErr := func(err error, key, want string) {
		t.Helper()
		var ve *resource.ValidationError
		if !errors.As(err, &ve) {
			t.Fatalf("want 400 on %s, got %v", key, err)
		}
		msgs, _ := ve.Fields[key].([]string)
		if len(msgs) == 0 || !strings.Contains(msgs[0], want) {
			t.Fatalf("%s: got %v, want %q", key, ve.Fields, want)
		}
	}

	gid, err := create("ipam.vlangroup", `{"name":"G","slug":"g"}`)
	if err != nil {
		t.Fatal(err)
	}
	g := render("ipam.vlangroup", gid)
	if g["total_vlan_ids"] != float64(4094) || g["vlan_count"] != float64(0) {
		t.Fatalf("default group: %v", g)
	}
	gid2, err := create("ipam.vlangroup", `{"name":"G2","slug":"g2","vid_ranges":[[10,19],[100,199]]}`)
	if err != nil {
		t.Fatal(err)
	}
	if g := render("ipam.vlangroup", gid2); g["total_vlan_ids"] != float64(110) {
		t.Fatalf("total_vlan_ids = %v", g["total_vlan_ids"])
	}
	_, err = create("ipam.vlangroup", `{"name":"G3","slug":"g3","vid_ranges":[[10,5000]]}`)
	fieldErr(err, "vid_ranges", "Ending VLAN ID in range (5000) cannot exceed 4094")
	_, err = create("ipam.vlangroup", `{"name":"G3","slug":"g3","vid_ranges":[[10,20],[15,30]]}`)
	fieldErr(err, "vid_ranges", "Ranges cannot overlap.")

	vid, err := create("ipam.vlan", `{"vid":10,"name":"v10","group":`+itoa(gid)+`}`)
	if err != nil {
		t.Fatal(err)
	}
	if v := render("ipam.vlan", vid); v["display"] != "v10 (10)" {
		t.Fatalf("vlan display %v", v["display"])
	}
	if g := render("ipam.vlangroup", gid); g["vlan_count"] != float64(1) {
		t.Fatalf("vlan_count = %v", g["vlan_count"])
	}
	_, err = create("ipam.vlan", `{"vid":10,"name":"other","group":`+itoa(gid)+`}`)
	fieldErr(err, "__all__", "VLAN with this Group and VLAN ID already exists.")
	_, err = create("ipam.vlan", `{"vid":4095,"name":"x"}`)
	fieldErr(err, "vid", "Ensure this value is less than or equal to 4094.")

	rid, err := create("ipam.vrf", `{"name":"red","rd":"65000:1"}`)
	if err != nil {
		t.Fatal(err)
	}
	if v := render("ipam.vrf", rid); v["display"] != "red (65000:1)" {
		t.Fatalf("vrf display %v", v["display"])
	}
	_, err = create("ipam.vrf", `{"name":"blue","rd":"65000:1"}`)
	fieldErr(err, "rd", "VRF with this route distinguisher already exists.")

	csid, err := create("extras.customfieldchoiceset", `{"name":"cs","extra_choices":[["a","A"],["b","B"]]}`)
	if err != nil {
		t.Fatal(err)
	}
	if cs := render("extras.customfieldchoiceset", csid); cs["choices_count"] != float64(2) {
		t.Fatalf("choices_count = %v", cs["choices_count"])
	}
	_, err = create("extras.customfield", `{"name":"bad-name","type":"text","object_types":["dcim.site"]}`)
	fieldErr(err, "name", "Only alphanumeric characters and underscores are allowed.")
	cfid, err := create("extras.customfield", `{"name":"my_choice","type":"select","object_types":["dcim.site"],"choice_set":`+itoa(csid)+`,"default":"a"}`)
	if err != nil {
		t.Fatal(err)
	}
	if cf := render("extras.customfield", cfid); cf["display"] != "My choice" || cf["default"] != "a" {
		t.Fatalf("custom field: %v", cf)
	}
	defs, err := resource.CustomFieldsFor(ctx, d.Store(), "dcim.site")
	if err != nil || len(defs) != 1 || strings.Join(defs[0].Choices, ",") != "a,b" || string(defs[0].Default) != `"a"` {
		t.Fatalf("CustomFieldsFor = %+v, %v", defs, err)
	}
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }
