package ipam

import (
	"context"
	"database/sql"
	"fmt"

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

// prefixScopeHook keeps the cached scope columns of prefixes: a create sets
// them from the new scope before the insert; updates that change the scope
// recompute them in SQL afterwards. Sites and locations that move (a site's
// region or group, a location's site) recompute the prefixes under them
// through RecomputePrefixScopes (ent/logic/dcim), as NetBox's
// sync_cached_scope_fields signal does. Deleting a scope object leaves the
// cache (and scope_id) as it was, like the scope itself.
func prefixScopeHook(next ent.Mutator) ent.Mutator {
	return ent.MutateFunc(func(ctx context.Context, m ent.Mutation) (ent.Value, error) {
		sm, err := rawsql.As("prefix scope hook", m)
		if err != nil {
			return nil, err
		}
		pg := rawsql.Postgres(sm)
		switch op := m.Op(); {
		case op.Is(ent.OpCreate):
			if err := setScopeCache(ctx, sm, pg); err != nil {
				return nil, err
			}
			return next.Mutate(ctx, m)
		case op.Is(ent.OpUpdateOne | ent.OpUpdate):
			if !rawsql.Touched(m, "scope_type", "scope_id") {
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
			return v, recomputePrefixScopes(ctx, sm, pg, "id", ids)
		}
		return next.Mutate(ctx, m)
	})
}

// setScopeCache sets the cached columns of a prefix being created.
func setScopeCache(ctx context.Context, m rawsql.Mutation, pg bool) error {
	t, ok1 := m.Field("scope_type")
	i, ok2 := m.Field("scope_id")
	if !ok1 || !ok2 {
		return nil
	}
	typ, _ := t.(string)
	id, _ := i.(int)
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

// prefixScopeSQL recomputes the cached scope columns of the prefixes
// matching the WHERE clause that follows it.
const prefixScopeSQL = `UPDATE "ipam_prefix" SET ` +
	`"_location_id" = CASE WHEN scope_type = 'dcim.location' THEN scope_id END, ` +
	`"_site_id" = CASE scope_type WHEN 'dcim.site' THEN scope_id ` +
	`WHEN 'dcim.location' THEN (SELECT l.site_id FROM "dcim_location" l WHERE l.id = "ipam_prefix".scope_id) END, ` +
	`"_region_id" = CASE scope_type WHEN 'dcim.region' THEN scope_id ` +
	`WHEN 'dcim.site' THEN (SELECT s.region_id FROM "dcim_site" s WHERE s.id = "ipam_prefix".scope_id) ` +
	`WHEN 'dcim.location' THEN (SELECT s.region_id FROM "dcim_location" l JOIN "dcim_site" s ON s.id = l.site_id WHERE l.id = "ipam_prefix".scope_id) END, ` +
	`"_site_group_id" = CASE scope_type WHEN 'dcim.sitegroup' THEN scope_id ` +
	`WHEN 'dcim.site' THEN (SELECT s.group_id FROM "dcim_site" s WHERE s.id = "ipam_prefix".scope_id) ` +
	`WHEN 'dcim.location' THEN (SELECT s.group_id FROM "dcim_location" l JOIN "dcim_site" s ON s.id = l.site_id WHERE l.id = "ipam_prefix".scope_id) END ` +
	`WHERE `

// Cached scope columns a scope object's id is found in, for
// RecomputePrefixScopes.
const (
	ScopeSiteColumn     = "_site_id"
	ScopeLocationColumn = "_location_id"
)

// RecomputePrefixScopes recomputes the cached scope of the prefixes whose
// column (ScopeSiteColumn, ScopeLocationColumn) is one of ids: the hook of a
// site or location that moves calls it after the move, in the move's
// transaction.
func RecomputePrefixScopes(ctx context.Context, m rawsql.Mutation, column string, ids []int) error {
	if column != ScopeSiteColumn && column != ScopeLocationColumn {
		return fmt.Errorf("recompute prefix scopes: unknown column %q", column)
	}
	return recomputePrefixScopes(ctx, m, rawsql.Postgres(m), column, ids)
}

// recomputePrefixScopes recomputes the cached scope of the prefixes whose
// column (id, _site_id, _location_id) is one of ids.
func recomputePrefixScopes(ctx context.Context, ex rawsql.Execer, pg bool, column string, ids []int) error {
	return rawsql.Chunks(ids, func(ids []int) error {
		a := &rawsql.Args{PG: pg}
		if err := rawsql.Exec(ctx, ex, prefixScopeSQL+`"`+column+`" IN (`+rawsql.In(a, ids)+`)`, a); err != nil {
			return fmt.Errorf("recompute prefix scopes: %w", err)
		}
		return nil
	})
}

// RebuildPrefixScopes recomputes the cached scope columns of every prefix
// (databases migrated from before the columns existed, bulk loads).
func RebuildPrefixScopes(ctx context.Context, ex rawsql.Execer) error {
	_, err := ex.ExecContext(ctx, prefixScopeSQL+`scope_type IS NOT NULL OR "_region_id" IS NOT NULL OR `+
		`"_site_group_id" IS NOT NULL OR "_site_id" IS NOT NULL OR "_location_id" IS NOT NULL`)
	return err
}
