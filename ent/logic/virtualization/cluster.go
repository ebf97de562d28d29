package virtualization

import (
	"context"
	"fmt"

	"entgo.io/ent"

	"github.com/inventory/inventory/ent/logic/ipam"
	"github.com/inventory/inventory/ent/logic/rawsql"
	"github.com/inventory/inventory/ent/schema/api"
)

// ClusterScopeTypes are the objects a cluster may be scoped to.
var ClusterScopeTypes = []string{"dcim.region", "dcim.sitegroup", "dcim.site", "dcim.location"}

// ClusterHooks are the hooks of virtualization.Cluster: clean() (the host
// devices lie in the scope), the cached scope, and the cluster's site
// passed on to its virtual machines after the write.
func ClusterHooks() []ent.Hook {
	return []ent.Hook{
		rawsql.RowHook(tableCluster, []string{"name", "scope_type", "scope_id"},
			func(ctx context.Context, m rawsql.Mutation, id int, row, _ map[string]any) error {
				typ, scope := rawsql.StringOf(rawsql.Plain(row["scope_type"])), rawsql.Plain(row["scope_id"])
				if err := uniqueAtSite(ctx, m, id, rawsql.StringOf(rawsql.Plain(row["name"])), typ, scope); err != nil {
					return err
				}
				if id == 0 {
					return nil // a new cluster has no hosts
				}
				return checkHosts(ctx, m, id, typ, scope)
			}),
		// Outside the scope hook: the VMs read the cached site it
		// recomputes after the write.
		clusterSiteHook,
		ipam.ClusterScope.Hook(),
	}
}

// uniqueAtSite is NetBox's constraint unique (_site, name): no two
// clusters of a name at one site (scoped to it or to one of its
// locations).
func uniqueAtSite(ctx context.Context, m rawsql.Mutation, id int, clusterName, typ string, scope any) error {
	sid, ok := rawsql.IntOf(scope)
	if !ok || (typ != "dcim.site" && typ != "dcim.location") {
		return nil
	}
	if typ == "dcim.location" {
		loc, err := rawsql.Lookup(ctx, m, tableLocation, sid, "site_id")
		if err != nil || loc == nil {
			return err
		}
		if sid, ok = rawsql.IntOf(loc["site_id"]); !ok {
			return nil
		}
	}
	a := args(m)
	n, err := rawsql.Int(ctx, m, `SELECT COUNT(*) FROM "`+tableCluster+`" WHERE "_site_id" = `+a.P(sid)+
		` AND name = `+a.P(clusterName)+` AND id <> `+a.P(id), a)
	if err != nil || n == 0 {
		return err
	}
	return &api.FieldError{Field: "__all__", Message: "Cluster with this Site and Name already exists."}
}

// checkHosts is Cluster.clean(): scoped to a site (or a location), every
// device hosting the cluster is at that site (in that location).
func checkHosts(ctx context.Context, m rawsql.Mutation, id int, typ string, scope any) error {
	sid, ok := rawsql.IntOf(scope)
	if !ok {
		return nil
	}
	column, table, what := "", "", ""
	switch typ {
	case "dcim.site":
		column, table, what = "site_id", tableSite, "site"
	case "dcim.location":
		column, table, what = "location_id", tableLocation, "location"
	default:
		return nil
	}
	a := args(m)
	n, err := rawsql.Int(ctx, m, `SELECT COUNT(*) FROM "`+tableDevice+`" WHERE cluster_id = `+a.P(id)+
		` AND (`+column+` IS NULL OR `+column+` <> `+a.P(sid)+`)`, a)
	if err != nil || n == 0 {
		return err
	}
	return &api.FieldError{Field: "scope", Message: fmt.Sprintf(
		"%d devices are assigned as hosts for this cluster but are not in %s %s", n, what, name(ctx, m, table, sid))}
}

// clusterSiteHook is NetBox's update_virtualmachine_site: after a cluster
// is saved, its virtual machines take its (cached) site, if it has one.
var clusterSiteHook = rawsql.AfterUpdate(func(ctx context.Context, m rawsql.Mutation, ids []int) error {
	a := args(m)
	return rawsql.Exec(ctx, m, `UPDATE "`+tableVM+`" SET site_id = (SELECT c."_site_id" FROM "`+tableCluster+
		`" c WHERE c.id = "`+tableVM+`".cluster_id) WHERE cluster_id IN (`+rawsql.In(a, ids)+`) AND EXISTS `+
		`(SELECT 1 FROM "`+tableCluster+`" c WHERE c.id = "`+tableVM+`".cluster_id AND c."_site_id" IS NOT NULL)`, a)
}, "scope_type", "scope_id")

// refreshAllocations recomputes the cached sums over the virtual machines
// of clusters ids (NetBox's allocated_vcpus, allocated_memory and
// allocated_disk annotations; NULL without virtual machines).
func refreshAllocations(ctx context.Context, m rawsql.Mutation, ids []int) error {
	if len(ids) == 0 {
		return nil
	}
	sum := func(col string) string {
		return `(SELECT SUM(v.` + col + `) FROM "` + tableVM + `" v WHERE v.cluster_id = "` + tableCluster + `".id)`
	}
	return rawsql.Chunks(ids, func(ids []int) error {
		a := args(m)
		return rawsql.Exec(ctx, m, `UPDATE "`+tableCluster+`" SET allocated_vcpus = `+sum("vcpus")+
			`, allocated_memory = `+sum("memory")+`, allocated_disk = `+sum("disk")+
			` WHERE id IN (`+rawsql.In(a, ids)+`)`, a)
	})
}
