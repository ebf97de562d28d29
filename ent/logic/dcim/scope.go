package dcim

import (
	"context"

	"entgo.io/ent"

	"github.com/inventory/inventory/ent/logic/ipam"
	"github.com/inventory/inventory/ent/logic/rawsql"
)

// SiteHooks are the hooks of dcim.Site: a site that changes region or group
// moves the cached scope of the prefixes on it (and on its locations).
func SiteHooks() []ent.Hook {
	return []ent.Hook{scopeMoveHook(ipam.ScopeSiteColumn, "region_id", "group_id")}
}

// LocationHooks are the hooks of dcim.Location: a location that changes
// site takes its descendants, what sits in them and the cached scope of
// the prefixes on them along (locationMoved).
func LocationHooks() []ent.Hook {
	return []ent.Hook{rawsql.AfterUpdate(locationMoved, "site_id")}
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
