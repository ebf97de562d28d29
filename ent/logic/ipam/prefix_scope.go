package ipam

import (
	"context"
	"database/sql"
	"fmt"
	"sort"
	"strings"

	"entgo.io/ent"

	"github.com/inventory/inventory/ent/logic/rawsql"
)

// Scope types a prefix may be scoped to, and the cached columns they fill
// (NetBox's CachedScopeMixin: _region, _site_group, _site, _location).
const (
	scopeRegion    = "dcim.region"
	scopeSiteGroup = "dcim.sitegroup"
	scopeSite      = "dcim.site"
	scopeLocation  = "dcim.location"
)

var prefixScopeColumns = []string{"_region_id", "_site_group_id", "_site_id", "_location_id"}

// CachedScope names a model that keeps NetBox's cached scope
// (CachedScopeMixin's _region, _site_group, _site and _location, and the
// like) derived from a generic relation to a region, site group, site or
// location: prefixes (scope), circuit terminations (termination).
type CachedScope struct {
	// Table is the model's table; Type and ID the generic relation's
	// columns ("scope_type", "scope_id").
	Table, Type, ID string
	// Own maps further content types to the cached column that holds
	// their id as is (a circuit termination at a provider network:
	// "circuits.providernetwork" → "_provider_network_id").
	Own map[string]string
}

// prefixScope is the cached scope of prefixes.
var prefixScope = CachedScope{Table: "ipam_prefix", Type: "scope_type", ID: "scope_id"}

// ClusterScope is the cached scope of virtualization clusters, which
// NetBox's sync_cached_scope_fields recomputes beside prefixes'.
var ClusterScope = CachedScope{Table: "virtualization_cluster", Type: "scope_type", ID: "scope_id"}

// WirelessLANScope is the cached scope of wireless LANs, the third model
// NetBox's sync_cached_scope_fields recomputes.
var WirelessLANScope = CachedScope{Table: "wireless_wirelesslan", Type: "scope_type", ID: "scope_id"}

// prefixScopeHook keeps the cached scope columns of prefixes.
var prefixScopeHook = prefixScope.Hook()

// Hook keeps the cached scope columns: a create sets them from the new
// scope before the insert; updates that change the scope recompute them in
// SQL afterwards. Sites and locations that move (a site's region or group,
// a location's site) recompute the prefixes under them through
// RecomputePrefixScopes (ent/logic/dcim), as NetBox's
// sync_cached_scope_fields signal does. Deleting a scope object leaves the
// cache (and the id) as it was, like the scope itself.
func (c CachedScope) Hook() ent.Hook {
	return func(next ent.Mutator) ent.Mutator {
		return ent.MutateFunc(func(ctx context.Context, m ent.Mutation) (ent.Value, error) {
			sm, err := rawsql.As("scope hook "+c.Table, m)
			if err != nil {
				return nil, err
			}
			pg := rawsql.Postgres(sm)
			switch op := m.Op(); {
			case op.Is(ent.OpCreate):
				if err := c.setCache(ctx, sm, pg); err != nil {
					return nil, err
				}
				return next.Mutate(ctx, m)
			case op.Is(ent.OpUpdateOne | ent.OpUpdate):
				if !rawsql.Touched(m, c.Type, c.ID) {
					return next.Mutate(ctx, m)
				}
				ids, err := rawsql.TargetIDs(ctx, sm)
				if err != nil {
					return nil, err
				}
				v, err := next.Mutate(ctx, m)
				if err != nil {
					return nil, err
				}
				return v, c.recompute(ctx, sm, pg, "id", ids)
			}
			return next.Mutate(ctx, m)
		})
	}
}

// setCache sets the cached columns of a row being created.
func (c CachedScope) setCache(ctx context.Context, m rawsql.Mutation, pg bool) error {
	t, ok1 := m.Field(c.Type)
	i, ok2 := m.Field(c.ID)
	if !ok1 || !ok2 {
		return nil
	}
	typ := rawsql.StringOf(t)
	id, _ := rawsql.IntOf(i)
	vals := map[string]any{}
	a := &rawsql.Args{PG: pg}
	var q string
	switch typ {
	case scopeRegion:
		vals["_region_id"] = id
	case scopeSiteGroup:
		vals["_site_group_id"] = id
	case scopeSite:
		vals["_site_id"] = id
		q = `SELECT NULL, id, region_id, group_id FROM "dcim_site" WHERE id = ` + a.P(id)
	case scopeLocation:
		vals["_location_id"] = id
		q = `SELECT l.id, l.site_id, s.region_id, s.group_id FROM "dcim_location" l JOIN "dcim_site" s ON s.id = l.site_id WHERE l.id = ` + a.P(id)
	default:
		if col, ok := c.Own[typ]; ok {
			return m.SetField(col, id)
		}
	}
	if q != "" {
		rows, err := m.QueryContext(ctx, q, a.List...)
		if err != nil {
			return err
		}
		defer rows.Close()
		if rows.Next() {
			var loc, site, region, group sql.NullInt64
			if err := rows.Scan(&loc, &site, &region, &group); err != nil {
				return err
			}
			for col, v := range map[string]sql.NullInt64{"_site_id": site, "_region_id": region, "_site_group_id": group} {
				if v.Valid {
					vals[col] = int(v.Int64)
				}
			}
		}
		if err := rows.Err(); err != nil {
			return err
		}
	}
	for _, col := range prefixScopeColumns {
		if v, ok := vals[col]; ok {
			if err := m.SetField(col, v); err != nil {
				return err
			}
		}
	}
	return nil
}

// scopeSQL recomputes the cached scope columns of the rows matching the
// WHERE clause that follows it.
func (c CachedScope) scopeSQL() string {
	r := strings.NewReplacer("{t}", `"`+c.Table+`"`, "{type}", `"`+c.Table+`".`+c.Type, "{id}", `"`+c.Table+`".`+c.ID)
	s := `UPDATE {t} SET ` +
		`"_location_id" = CASE WHEN {type} = 'dcim.location' THEN {id} END, ` +
		`"_site_id" = CASE {type} WHEN 'dcim.site' THEN {id} ` +
		`WHEN 'dcim.location' THEN (SELECT l.site_id FROM "dcim_location" l WHERE l.id = {id}) END, ` +
		`"_region_id" = CASE {type} WHEN 'dcim.region' THEN {id} ` +
		`WHEN 'dcim.site' THEN (SELECT s.region_id FROM "dcim_site" s WHERE s.id = {id}) ` +
		`WHEN 'dcim.location' THEN (SELECT s.region_id FROM "dcim_location" l JOIN "dcim_site" s ON s.id = l.site_id WHERE l.id = {id}) END, ` +
		`"_site_group_id" = CASE {type} WHEN 'dcim.sitegroup' THEN {id} ` +
		`WHEN 'dcim.site' THEN (SELECT s.group_id FROM "dcim_site" s WHERE s.id = {id}) ` +
		`WHEN 'dcim.location' THEN (SELECT s.group_id FROM "dcim_location" l JOIN "dcim_site" s ON s.id = l.site_id WHERE l.id = {id}) END`
	types := make([]string, 0, len(c.Own))
	for typ := range c.Own {
		types = append(types, typ)
	}
	sort.Strings(types)
	for _, typ := range types {
		s += `, "` + c.Own[typ] + `" = CASE WHEN {type} = '` + typ + `' THEN {id} END`
	}
	return r.Replace(s) + ` WHERE `
}

// recompute recomputes the cached scope of the rows whose column (id,
// _site_id, _location_id) is one of ids.
func (c CachedScope) recompute(ctx context.Context, ex rawsql.Execer, pg bool, column string, ids []int) error {
	q := c.scopeSQL()
	return rawsql.Chunks(ids, func(ids []int) error {
		a := &rawsql.Args{PG: pg}
		if err := rawsql.Exec(ctx, ex, q+`"`+c.Table+`"."`+column+`" IN (`+rawsql.In(a, ids)+`)`, a); err != nil {
			return fmt.Errorf("recompute %s scopes: %w", c.Table, err)
		}
		return nil
	})
}

// Cached scope columns a scope object's id is found in, for
// RecomputePrefixScopes.
const (
	ScopeSiteColumn     = "_site_id"
	ScopeLocationColumn = "_location_id"
)

// RecomputePrefixScopes recomputes the cached scope of the prefixes (and
// clusters, ClusterScope, and wireless LANs, WirelessLANScope) whose
// column (ScopeSiteColumn, ScopeLocationColumn) is one of ids: the hook of a
// site or location that moves calls it after the move, in the move's
// transaction.
func RecomputePrefixScopes(ctx context.Context, m rawsql.Mutation, column string, ids []int) error {
	if column != ScopeSiteColumn && column != ScopeLocationColumn {
		return fmt.Errorf("recompute prefix scopes: unknown column %q", column)
	}
	for _, c := range []CachedScope{prefixScope, ClusterScope, WirelessLANScope} {
		if err := c.recompute(ctx, m, rawsql.Postgres(m), column, ids); err != nil {
			return err
		}
	}
	return nil
}

// RebuildPrefixScopes recomputes the cached scope columns of every prefix
// (databases migrated from before the columns existed, bulk loads).
func RebuildPrefixScopes(ctx context.Context, ex rawsql.Execer) error {
	_, err := ex.ExecContext(ctx, prefixScope.scopeSQL()+`scope_type IS NOT NULL OR "_region_id" IS NOT NULL OR `+
		`"_site_group_id" IS NOT NULL OR "_site_id" IS NOT NULL OR "_location_id" IS NOT NULL`)
	return err
}
