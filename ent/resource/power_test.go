package resource_test

import (
	"context"
	"testing"

	"github.com/inventory/inventory/ent"
	"github.com/inventory/inventory/ent/db"
	"github.com/inventory/inventory/ent/resource"
)

// TestPowerFeedManyRowUpdate: a many-row ent update of power feeds (no API
// request makes one; hand-written code may) keeps each row's own cached
// available power, as PowerFeed.save() would for each, on both databases.
func TestPowerFeedManyRowUpdate(t *testing.T) {
	for name, d := range testDBs(t) {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			create := func(path string, kv map[string]any) int {
				t.Helper()
				var id int
				err := d.InTx(ctx, func(ctx context.Context, etx *ent.Tx) error {
					var err error
					id, err = resource.ByPath("dcim", path).Create(ctx, tx(d, etx), input(t, kv))
					return err
				})
				if err != nil {
					t.Fatalf("create %s: %v", path, describeErr(err))
				}
				return id
			}
			site := create("sites", map[string]any{"name": "S", "slug": "s"})
			panel := create("power-panels", map[string]any{"name": "P", "site": site})
			ac := create("power-feeds", map[string]any{"name": "AC", "power_panel": panel})
			dc := create("power-feeds", map[string]any{"name": "DC", "power_panel": panel, "supply": "dc", "voltage": -48, "phase": "three-phase"})
			err := d.InTx(ctx, func(ctx context.Context, etx *ent.Tx) error {
				u := etx.PowerFeed.Update()
				if err := u.Mutation().SetField("amperage", 10); err != nil {
					return err
				}
				if err := u.Mutation().SetField("mark_connected", true); err != nil {
					return err
				}
				_, err := u.Save(ctx)
				return err
			})
			if err != nil {
				t.Fatal(err)
			}
			want := map[int]int{ac: 960, dc: 665} // 120 × 10 × 0.8; 48 × 10 × 0.8 × 1.732 = 665.088
			for id, power := range storedPower(t, d) {
				if power != want[id] {
					t.Errorf("feed %d: available_power %d, want %d", id, power, want[id])
				}
			}
		})
	}
}

// storedPower reads every feed's available_power, and checks _occupied.
func storedPower(t *testing.T, d *db.DB) map[int]int {
	t.Helper()
	ctx := context.Background()
	out := map[int]int{}
	err := d.InTx(ctx, func(ctx context.Context, etx *ent.Tx) error {
		rows, err := etx.Client().QueryContext(ctx, `SELECT id, available_power, "_occupied" FROM dcim_powerfeed`)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var id, power int
			var occupied bool
			if err := rows.Scan(&id, &power, &occupied); err != nil {
				return err
			}
			if !occupied {
				t.Errorf("feed %d marked connected is not _occupied", id)
			}
			out[id] = power
		}
		return rows.Err()
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(out) != 2 {
		t.Fatalf("%d feeds stored", len(out))
	}
	return out
}
