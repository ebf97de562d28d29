package dcim

import (
	"context"
	"strings"

	"github.com/inventory/inventory/ent/logic/ipam"
	"github.com/inventory/inventory/ent/logic/rawsql"
	"github.com/inventory/inventory/ent/schema/api"
)

// NetBox's placement signals (dcim/signals.py handle_location_site_change,
// handle_rack_site_change, handle_device_site_change): what sits in a
// location, rack or device follows it when it moves. Like NetBox's
// queryset update() calls they rewrite the rows with SQL in the moving
// write's transaction, with no change records of their own, at a fixed
// number of statements whatever the number of rows moved.

// componentTables are NetBox's COMPONENT_MODELS: the tables whose rows
// cache their device's site, location and rack.
var componentTables = []string{"dcim_consoleport", "dcim_consoleserverport", "dcim_devicebay", "dcim_frontport",
	"dcim_interface", "dcim_inventoryitem", "dcim_modulebay", "dcim_poweroutlet", "dcim_powerport", "dcim_rearport"}

// locationMoved: the location's descendants, and the racks, devices and
// power panels in any of them, take its site; so does the components'
// cached site, and the prefixes scoped to any of them recompute their
// cached scope.
func locationMoved(ctx context.Context, m rawsql.Mutation, ids []int) error {
	a := &rawsql.Args{PG: rawsql.Postgres(m)}
	tree := `WITH RECURSIVE tree(id, site_id) AS (SELECT id, site_id FROM "dcim_location" WHERE id IN (` +
		rawsql.In(a, ids) + `) UNION SELECT l.id, tree.site_id FROM "dcim_location" l JOIN tree ON l.parent_id = tree.id) ` +
		`SELECT id, site_id FROM tree`
	rows, err := m.QueryContext(ctx, tree, a.List...)
	if err != nil {
		return err
	}
	site := map[int]int{}
	for rows.Next() {
		var id, s int
		if err := rows.Scan(&id, &s); err != nil {
			rows.Close()
			return err
		}
		site[id] = s
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	all := make([]int, 0, len(site))
	for id := range site {
		all = append(all, id)
	}
	return rawsql.Chunks(all, func(locs []int) error {
		// The descendants take the moved location's site, which the
		// recursive query carried down.
		a := &rawsql.Args{PG: rawsql.Postgres(m)}
		var b strings.Builder
		b.WriteString(`UPDATE "dcim_location" SET site_id = CASE id`)
		for _, id := range locs {
			b.WriteString(` WHEN ` + a.P(id) + ` THEN ` + a.P(site[id]))
		}
		b.WriteString(` ELSE site_id END WHERE id IN (` + rawsql.In(a, locs) + `)`)
		if err := rawsql.Exec(ctx, m, b.String(), a); err != nil {
			return err
		}
		for _, t := range []string{"dcim_rack", "dcim_device", "dcim_powerpanel"} {
			a := &rawsql.Args{PG: rawsql.Postgres(m)}
			q := `UPDATE "` + t + `" SET site_id = (SELECT l.site_id FROM "dcim_location" l WHERE l.id = "` + t +
				`".location_id) WHERE location_id IN (` + rawsql.In(a, locs) + `)`
			if err := rawsql.Exec(ctx, m, q, a); err != nil {
				return err
			}
		}
		a = &rawsql.Args{PG: rawsql.Postgres(m)}
		if err := componentsFollow(ctx, m, `location_id IN (`+rawsql.In(a, locs)+`)`, a); err != nil {
			return err
		}
		// The cable ends in these locations (circuit terminations and
		// power feeds as well as device components) cache their site.
		a = &rawsql.Args{PG: rawsql.Postgres(m)}
		if err := rawsql.Exec(ctx, m, `UPDATE "dcim_cabletermination" SET "_site_id" = (SELECT l.site_id FROM "dcim_location" l `+
			`WHERE l.id = "dcim_cabletermination"."_location_id") WHERE "_location_id" IN (`+rawsql.In(a, locs)+`)`, a); err != nil {
			return err
		}
		return ipam.RecomputePrefixScopes(ctx, m, ipam.ScopeLocationColumn, locs)
	})
}

// rackMoved: the devices in the rack take its site and location, and
// their components' cached site and location follow.
func rackMoved(ctx context.Context, m rawsql.Mutation, ids []int) error {
	a := &rawsql.Args{PG: rawsql.Postgres(m)}
	q := `UPDATE "dcim_device" SET site_id = (SELECT r.site_id FROM "dcim_rack" r WHERE r.id = "dcim_device".rack_id), ` +
		`location_id = (SELECT r.location_id FROM "dcim_rack" r WHERE r.id = "dcim_device".rack_id) ` +
		`WHERE rack_id IN (` + rawsql.In(a, ids) + `)`
	if err := rawsql.Exec(ctx, m, q, a); err != nil {
		return err
	}
	a = &rawsql.Args{PG: rawsql.Postgres(m)}
	return componentsFollow(ctx, m, `rack_id IN (`+rawsql.In(a, ids)+`)`, a)
}

// deviceMoved: the device's components cache its new site, location and
// rack, and the child devices installed in its bays take them (NetBox's
// Device.save saves each child with its parent's site, rack and
// location: an update record each), their components following.
func deviceMoved(ctx context.Context, m rawsql.Mutation, ids []int) error {
	a := &rawsql.Args{PG: rawsql.Postgres(m)}
	if err := componentsFollow(ctx, m, `id IN (`+rawsql.In(a, ids)+`)`, a); err != nil {
		return err
	}
	a = &rawsql.Args{PG: rawsql.Postgres(m)}
	rows, err := rawsql.Rows(ctx, m, `SELECT installed_device_id AS id FROM "dcim_devicebay" WHERE device_id IN (`+
		rawsql.In(a, ids)+`) AND installed_device_id IS NOT NULL`, a)
	if err != nil || len(rows) == 0 {
		return err
	}
	children := make([]int, 0, len(rows))
	for _, r := range rows {
		if id, ok := rawsql.IntOf(r["id"]); ok {
			children = append(children, id)
		}
	}
	// Saving: the children whose columns change get an update record. A
	// child-role type has no bays, so this goes one level down.
	if err := api.Saving(ctx, m, "dcim.device", children); err != nil {
		return err
	}
	a = &rawsql.Args{PG: rawsql.Postgres(m)}
	parent := func(col string) string {
		return `(SELECT p.` + col + ` FROM "dcim_devicebay" b JOIN "dcim_device" p ON p.id = b.device_id WHERE b.installed_device_id = "dcim_device".id)`
	}
	// Placeholders in the order of the text ("?" on SQLite).
	set := `UPDATE "dcim_device" SET site_id = ` + parent("site_id") + `, location_id = ` + parent("location_id") +
		`, rack_id = ` + parent("rack_id") + `, last_updated = ` + a.P(now())
	if err := rawsql.Exec(ctx, m, set+` WHERE id IN (`+rawsql.In(a, children)+`)`, a); err != nil {
		return err
	}
	a = &rawsql.Args{PG: rawsql.Postgres(m)}
	return componentsFollow(ctx, m, `id IN (`+rawsql.In(a, children)+`)`, a)
}

// componentsFollow copies each device's site, location and rack into the
// cached scope of its components, for the devices matching where (a
// condition on dcim_device with a's parameters): one statement per
// component table. The cable terminations on the devices' components
// follow too (one more statement): they cache the same three for the
// cables' site, location and rack filters. NetBox refreshes them only
// when a location moves (handle_location_site_change), leaving them
// stale when a rack or a device moves.
func componentsFollow(ctx context.Context, m rawsql.Mutation, where string, a *rawsql.Args) error {
	follow := func(t, key string) error {
		sub := func(col string) string {
			return `(SELECT d.` + col + ` FROM "dcim_device" d WHERE d.id = "` + t + `".` + key + `)`
		}
		q := `UPDATE "` + t + `" SET "_site_id" = ` + sub("site_id") + `, "_location_id" = ` + sub("location_id") +
			`, "_rack_id" = ` + sub("rack_id") + ` WHERE ` + key + ` IN (SELECT id FROM "dcim_device" WHERE ` + where + `)`
		return rawsql.Exec(ctx, m, q, a)
	}
	for _, t := range componentTables {
		if err := follow(t, "device_id"); err != nil {
			return err
		}
	}
	return follow("dcim_cabletermination", `"_device_id"`)
}
