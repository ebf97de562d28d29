package extras

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"

	"entgo.io/ent"

	"github.com/inventory/inventory/ent/logic/dcim"
	"github.com/inventory/inventory/ent/logic/rawsql"
	"github.com/inventory/inventory/ent/schema/api"
)

// Config contexts: NetBox's ConfigContextModelQuerySet and
// ConfigContextModel.get_config_context, computed for a whole page of
// devices or virtual machines at once (NetBox's annotation joins every
// assignment table per object, its issue 4559). A page costs a fixed
// number of queries whatever its size: the active contexts, their
// assignments, then only the attributes of the page's objects that some
// active context is assigned by (site regions and groups, tree
// ancestors, clusters, tenant groups, tags).

// ContextCategory is one assignment list of a config context: its API
// name, its join table and the join table's column naming the target.
type ContextCategory struct {
	Name, Table, Column string
}

// ContextCategories are the assignment lists of a config context, in
// NetBox's serializer order. The schema declares its edges from them.
var ContextCategories = []ContextCategory{
	{"regions", "extras_configcontext_regions", "region_id"},
	{"site_groups", "extras_configcontext_site_groups", "sitegroup_id"},
	{"sites", "extras_configcontext_sites", "site_id"},
	{"locations", "extras_configcontext_locations", "location_id"},
	{"device_types", "extras_configcontext_device_types", "devicetype_id"},
	{"roles", "extras_configcontext_roles", "devicerole_id"},
	{"platforms", "extras_configcontext_platforms", "platform_id"},
	{"cluster_types", "extras_configcontext_cluster_types", "clustertype_id"},
	{"cluster_groups", "extras_configcontext_cluster_groups", "clustergroup_id"},
	{"clusters", "extras_configcontext_clusters", "cluster_id"},
	{"tenant_groups", "extras_configcontext_tenant_groups", "tenantgroup_id"},
	{"tenants", "extras_configcontext_tenants", "tenant_id"},
	{"tags", "extras_configcontext_tags", "tag_id"},
}

// ContextCategoryOf returns the category named name.
func ContextCategoryOf(name string) ContextCategory {
	for _, c := range ContextCategories {
		if c.Name == name {
			return c
		}
	}
	panic("extras: no config context category " + name)
}

// category indexes into ContextCategories.
const (
	catRegions = iota
	catSiteGroups
	catSites
	catLocations
	catDeviceTypes
	catRoles
	catPlatforms
	catClusterTypes
	catClusterGroups
	catClusters
	catTenantGroups
	catTenants
	catTags
	numCategories
)

// activeContext is an active config context: its data and, per category,
// the ids it is assigned to (nil: none, it matches everything).
type activeContext struct {
	data   map[string]any
	assign [numCategories]map[int]bool
}

// ConfigContexts is the PageFunc of the config_context of devices and
// virtual machines: for each row, the deep merge of the data of every
// active context that applies to it, by weight then name, with the row's
// local_context_data on top (BEHAVIOUR.md §14.2).
func ConfigContexts(ctx context.Context, q api.PageQuery) (map[int]json.RawMessage, error) {
	// The active contexts and their assignments are the same for every
	// page until something is written: the read cache keeps them.
	load := func() (any, error) { return loadActiveContexts(ctx, q) }
	var v any
	var err error
	if q.Cached != nil {
		v, err = q.Cached("extras.configcontext:active", load)
	} else {
		v, err = load()
	}
	if err != nil {
		return nil, err
	}
	contexts, _ := v.([]*activeContext)
	// used says which categories some active context is assigned by: only
	// those need the rows' attributes.
	var used [numCategories]bool
	for _, c := range contexts {
		for i := range c.assign {
			used[i] = used[i] || c.assign[i] != nil
		}
	}
	attrs, err := loadAttributes(ctx, q, used)
	if err != nil {
		return nil, err
	}
	out := make(map[int]json.RawMessage, len(q.IDs))
	for i, id := range q.IDs {
		merged := map[string]any{}
		for _, c := range contexts {
			if c.applies(&attrs[i]) {
				merged = DeepMerge(merged, c.data)
			}
		}
		if local, _ := decodeObject(q.Rows[i]("local_context_data")); len(local) > 0 {
			merged = DeepMerge(merged, local)
		}
		b, err := json.Marshal(merged)
		if err != nil {
			return nil, err
		}
		out[id] = b
	}
	return out, nil
}

// rowAttrs are what the categories match of one row: per category, the
// ids it counts as (its site's region and that region's ancestors, ...).
type rowAttrs [numCategories][]int

func (c *activeContext) applies(a *rowAttrs) bool {
	for i, set := range c.assign {
		if set == nil {
			continue
		}
		hit := false
		for _, id := range a[i] {
			if set[id] {
				hit = true
				break
			}
		}
		if !hit {
			return false
		}
	}
	return true
}

// loadActiveContexts reads the active contexts in merge order and their
// assignments: two queries (one when none is active).
func loadActiveContexts(ctx context.Context, q api.PageQuery) ([]*activeContext, error) {
	rs, err := q.Q.QueryContext(ctx, `SELECT id, data FROM extras_configcontext WHERE is_active ORDER BY weight, name, id`)
	if err != nil {
		return nil, err
	}
	var out []*activeContext
	byID := map[int]*activeContext{}
	for rs.Next() {
		var id int
		var raw any
		if err := rs.Scan(&id, &raw); err != nil {
			rs.Close()
			return nil, err
		}
		data, err := decodeObject(raw)
		if err != nil {
			rs.Close()
			return nil, fmt.Errorf("config context %d: %w", id, err)
		}
		c := &activeContext{data: data}
		out = append(out, c)
		byID[id] = c
	}
	rs.Close()
	if err := rs.Err(); err != nil || len(out) == 0 {
		return nil, err
	}
	var union bytes.Buffer
	for i, c := range ContextCategories {
		if i > 0 {
			union.WriteString(" UNION ALL ")
		}
		fmt.Fprintf(&union, "SELECT %d, configcontext_id, %s FROM %s", i, c.Column, c.Table)
	}
	rs, err = q.Q.QueryContext(ctx, union.String())
	if err != nil {
		return nil, err
	}
	defer rs.Close()
	for rs.Next() {
		var cat, cid, tid int
		if err := rs.Scan(&cat, &cid, &tid); err != nil {
			return nil, err
		}
		c := byID[cid]
		if c == nil {
			continue // inactive
		}
		if c.assign[cat] == nil {
			c.assign[cat] = map[int]bool{}
		}
		c.assign[cat][tid] = true
	}
	return out, rs.Err()
}

// loadAttributes reads, for the categories in use, what each row matches:
// one query per kind of attribute needed, whatever the number of rows.
func loadAttributes(ctx context.Context, q api.PageQuery, used [numCategories]bool) ([]rowAttrs, error) {
	attrs := make([]rowAttrs, len(q.IDs))
	fk := func(name string) []int {
		out := make([]int, len(q.Rows))
		for i, get := range q.Rows {
			out[i], _ = rawsql.IntOf(get(name))
		}
		return out
	}
	direct := func(cat int, ids []int) {
		for i, id := range ids {
			if id != 0 {
				attrs[i][cat] = []int{id}
			}
		}
	}
	tree := func(cat int, table string, ids []int) error {
		anc, err := ancestors(ctx, q, table, ids)
		if err != nil {
			return err
		}
		for i, id := range ids {
			if id != 0 {
				attrs[i][cat] = anc[id]
			}
		}
		return nil
	}
	sites := fk("site")
	if used[catSites] {
		direct(catSites, sites)
	}
	if used[catRegions] || used[catSiteGroups] {
		cols, err := columnsOf(ctx, q, "dcim_site", sites, "region_id", "group_id")
		if err != nil {
			return nil, err
		}
		if used[catRegions] {
			if err := tree(catRegions, "dcim_region", cols[0]); err != nil {
				return nil, err
			}
		}
		if used[catSiteGroups] {
			if err := tree(catSiteGroups, "dcim_sitegroup", cols[1]); err != nil {
				return nil, err
			}
		}
	}
	// A virtual machine has no location or device type: only contexts
	// assigned to none of them apply to it, as NetBox's queryset says.
	for _, t := range []struct {
		cat          int
		field, table string
	}{{catLocations, "location", "dcim_location"}, {catRoles, "role", "dcim_devicerole"}, {catPlatforms, "platform", "dcim_platform"}} {
		if used[t.cat] {
			if err := tree(t.cat, t.table, fk(t.field)); err != nil {
				return nil, err
			}
		}
	}
	if used[catDeviceTypes] {
		direct(catDeviceTypes, fk("device_type"))
	}
	clusters := fk("cluster")
	if used[catClusters] {
		direct(catClusters, clusters)
	}
	if used[catClusterTypes] || used[catClusterGroups] {
		cols, err := columnsOf(ctx, q, "virtualization_cluster", clusters, "type_id", "group_id")
		if err != nil {
			return nil, err
		}
		direct(catClusterTypes, cols[0])
		direct(catClusterGroups, cols[1])
	}
	tenants := fk("tenant")
	if used[catTenants] {
		direct(catTenants, tenants)
	}
	// The tenant's own group only: NetBox matches tenant groups exactly,
	// not by ancestry.
	if used[catTenantGroups] {
		cols, err := columnsOf(ctx, q, "tenancy_tenant", tenants, "group_id")
		if err != nil {
			return nil, err
		}
		direct(catTenantGroups, cols[0])
	}
	if used[catTags] {
		index := make(map[int]int, len(q.IDs))
		for i, id := range q.IDs {
			index[id] = i
		}
		err := rawsql.Chunks(q.IDs, func(chunk []int) error {
			a := &rawsql.Args{PG: q.Postgres}
			rows, err := rawsql.Rows(ctx, q.Q, `SELECT object_id, tag_id FROM extras_taggeditem WHERE object_type = `+
				a.P(q.ContentType)+` AND object_id IN (`+rawsql.In(a, chunk)+`)`, a)
			for _, r := range rows {
				oid, _ := rawsql.IntOf(r["object_id"])
				tid, _ := rawsql.IntOf(r["tag_id"])
				attrs[index[oid]][catTags] = append(attrs[index[oid]][catTags], tid)
			}
			return err
		})
		if err != nil {
			return nil, err
		}
	}
	return attrs, nil
}

// distinct are the non-zero values of ids, once each.
func distinct(ids []int) []int {
	seen := map[int]bool{}
	var out []int
	for _, id := range ids {
		if id != 0 && !seen[id] {
			seen[id] = true
			out = append(out, id)
		}
	}
	return out
}

// columnsOf reads integer columns of the rows ids of table and returns
// them aligned with ids (0 for a null or a missing row).
func columnsOf(ctx context.Context, q api.PageQuery, table string, ids []int, cols ...string) ([][]int, error) {
	vals := map[int][]int{}
	err := rawsql.Chunks(distinct(ids), func(chunk []int) error {
		a := &rawsql.Args{PG: q.Postgres}
		sel := "id"
		for _, c := range cols {
			sel += ", " + c
		}
		rows, err := rawsql.Rows(ctx, q.Q, `SELECT `+sel+` FROM `+table+` WHERE id IN (`+rawsql.In(a, chunk)+`)`, a)
		for _, r := range rows {
			id, _ := rawsql.IntOf(r["id"])
			v := make([]int, len(cols))
			for i, c := range cols {
				v[i], _ = rawsql.IntOf(r[c])
			}
			vals[id] = v
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	out := make([][]int, len(cols))
	for i := range cols {
		out[i] = make([]int, len(ids))
		for j, id := range ids {
			if v := vals[id]; v != nil {
				out[i][j] = v[i]
			}
		}
	}
	return out, nil
}

// ancestors maps each of ids (nodes of the tree table) to itself and its
// ancestors, with one recursive query per chunk: NetBox's
// get_ancestors(include_self=True) and its MPTT bounds in the annotation.
func ancestors(ctx context.Context, q api.PageQuery, table string, ids []int) (map[int][]int, error) {
	out := map[int][]int{}
	err := rawsql.Chunks(distinct(ids), func(chunk []int) error {
		a := &rawsql.Args{PG: q.Postgres}
		query := `WITH RECURSIVE a(node, anc) AS (SELECT id, id FROM ` + table + ` WHERE id IN (` + rawsql.In(a, chunk) + `)` +
			` UNION SELECT a.node, t.parent_id FROM a JOIN ` + table + ` t ON t.id = a.anc WHERE t.parent_id IS NOT NULL)` +
			` SELECT node, anc FROM a`
		rows, err := rawsql.Rows(ctx, q.Q, query, a)
		for _, r := range rows {
			n, _ := rawsql.IntOf(r["node"])
			anc, _ := rawsql.IntOf(r["anc"])
			out[n] = append(out[n], anc)
		}
		return err
	})
	return out, err
}

// DeepMerge is NetBox's utilities.data.deepmerge: new merged into
// original, as a new map. Where both values are objects and the new one
// is not empty, the merge recurses; otherwise the new value wins (lists
// are replaced, an empty object replaces too).
func DeepMerge(original, new map[string]any) map[string]any {
	merged := make(map[string]any, len(original)+len(new))
	for k, v := range original {
		merged[k] = v
	}
	for k, v := range new {
		old, oldObj := original[k].(map[string]any)
		nv, newObj := v.(map[string]any)
		if _, had := original[k]; had && oldObj && newObj && len(nv) > 0 {
			merged[k] = DeepMerge(old, nv)
			continue
		}
		merged[k] = v
	}
	return merged
}

// decodeObject reads a JSON object as a database driver or the resource
// layer hands it over (text, bytes or decoded), numbers kept exact; nil
// for null or a value that is not an object.
func decodeObject(v any) (map[string]any, error) {
	var raw []byte
	switch x := v.(type) {
	case nil:
		return nil, nil
	case map[string]any:
		return x, nil
	case json.RawMessage:
		raw = x
	case []byte:
		raw = x
	case string:
		raw = []byte(x)
	default:
		b, err := json.Marshal(x)
		if err != nil {
			return nil, err
		}
		raw = b
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var out any
	if err := dec.Decode(&out); err != nil {
		return nil, err
	}
	m, _ := out.(map[string]any)
	return m, nil
}

// ConfigContextHooks are the hooks of extras.ConfigContext: its data must
// satisfy its profile's JSON schema, when the profile has one (NetBox's
// ConfigContext.clean(); that data is an object the field kind checks).
func ConfigContextHooks() []ent.Hook {
	return []ent.Hook{rawsql.RowHook("extras_configcontext", []string{"profile_id", "data"},
		func(ctx context.Context, m rawsql.Mutation, id int, row, old map[string]any) error {
			profile, ok := rawsql.IntOf(row["profile_id"])
			if !ok || id != 0 && !rawsql.Touched(m, "profile_id", "data") {
				return nil
			}
			a := &rawsql.Args{PG: rawsql.Postgres(m)}
			rows, err := rawsql.Rows(ctx, m, `SELECT schema FROM extras_configcontextprofile WHERE id = `+a.P(profile), a)
			if err != nil || len(rows) == 0 {
				return err
			}
			doc := rows[0]["schema"]
			var schemaDoc []byte
			switch x := doc.(type) {
			case []byte:
				schemaDoc = x
			case string:
				schemaDoc = []byte(x)
			}
			if len(schemaDoc) == 0 || string(schemaDoc) == "null" {
				return nil
			}
			data, err := decodeObject(row["data"])
			if err != nil {
				return err
			}
			msg, err := dcim.SchemaViolation(schemaDoc, data)
			if err != nil || msg == "" {
				return err
			}
			return &api.FieldError{Field: "__all__", Message: "Data does not conform to profile schema: " + msg}
		})}
}

// ConfigContextProfileHooks: a profile's schema must itself be a valid
// JSON Schema when saved (NetBox's validate_schema), as a module type
// profile's.
func ConfigContextProfileHooks() []ent.Hook { return dcim.ModuleTypeProfileHooks() }
