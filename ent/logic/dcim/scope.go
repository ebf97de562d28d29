package dcim

import (
	"context"
	"fmt"

	"entgo.io/ent"

	"github.com/inventory/inventory/ent/logic/ipam"
	"github.com/inventory/inventory/ent/logic/rawsql"
	"github.com/inventory/inventory/ent/schema/api"
)

// SiteHooks are the hooks of dcim.Site: a site that changes region or group
// moves the cached scope of the prefixes on it (and on its locations).
func SiteHooks() []ent.Hook {
	return []ent.Hook{scopeMoveHook(ipam.ScopeSiteColumn, "region_id", "group_id")}
}

// LocationHooks are the hooks of dcim.Location: its parent belongs to its
// site (Location.clean()), and a location that changes site takes its
// descendants, what sits in them and the cached scope of the prefixes on
// them along (locationMoved).
func LocationHooks() []ent.Hook {
	return []ent.Hook{rawsql.Chain(rawsql.AfterUpdate(locationMoved, "site_id"), rawsql.RowHook("dcim_location", []string{"site_id", "parent_id"}, checkLocationParent))}
}

// checkLocationParent is Location.clean(): a parent location must belong
// to the same site, a non-field error naming both. Only writes that set
// the site or the parent ask (a move to another site takes the location's
// descendants along, so a child never strays from its parent's site).
func checkLocationParent(ctx context.Context, m rawsql.Mutation, id int, loc, _ map[string]any) error {
	parent, ok := rawsql.IntOf(rawsql.Deref(loc["parent_id"]))
	if !ok || (id != 0 && !rawsql.Touched(m, "site_id", "parent_id")) {
		return nil
	}
	site, _ := rawsql.IntOf(rawsql.Deref(loc["site_id"]))
	a := &rawsql.Args{PG: rawsql.Postgres(m)}
	r, err := row(ctx, m, `SELECT p.site_id, p.name, (SELECT s.name FROM "dcim_site" s WHERE s.id = `+a.P(site)+`) AS site_name `+
		`FROM "dcim_location" p WHERE p.id = `+a.P(parent), a)
	if err != nil || r == nil {
		return err // a missing parent was refused by the resource layer
	}
	if ps, _ := rawsql.IntOf(r["site_id"]); ps != site {
		return &api.FieldError{Field: "__all__", Message: fmt.Sprintf("Parent location (%s) must belong to the same site (%s).",
			str(r["name"]), str(r["site_name"]))}
	}
	return nil
}

// scopeMoveHook recomputes, after an update of this model that changes one
// of fields, the cached scope of the objects whose cached column holds the
// id of an updated row, in the update's transaction: NetBox's
// sync_cached_scope_fields signal. Prefixes are the only model with a
// cached scope so far; clusters and wireless LANs will join them here.
func scopeMoveHook(column string, fields ...string) ent.Hook {
	return rawsql.AfterUpdate(func(ctx context.Context, m rawsql.Mutation, ids []int) error {
		return ipam.RecomputePrefixScopes(ctx, m, column, ids)
	}, fields...)
}
