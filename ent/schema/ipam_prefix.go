package schema

import (
	"context"
	stdsql "database/sql"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"entgo.io/ent"
	"entgo.io/ent/dialect"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"

	"github.com/inventory/inventory/ent/schema/api"
	"github.com/inventory/inventory/ent/schema/ipnet"
)

// Prefix is ipam.Prefix.
//
// Besides the API fields it keeps hidden storage columns for containment
// (DESIGN.md §4, §8): network and broadcast as 16-byte binary (IPv4
// v4-mapped), prefix_length in the family's bits, and vrf_key (the VRF id,
// 0 for the global table) so that the index (vrf_key, family, network,
// prefix_length) has no NULL. The hook below derives them from prefix and
// vrf_id and keeps the cached _depth and _children of every prefix of the
// VRFs involved right.
type Prefix struct{ ent.Schema }

func (Prefix) Mixin() []ent.Mixin { return PrimaryMixins() }

// PrefixStatus are the choices of a prefix's status.
var PrefixStatus = api.C("container", "Container", "active", "Active", "reserved", "Reserved",
	"deprecated", "Deprecated")

// IPFamily are the choices of the read-only family of IP objects.
var IPFamily = []api.Choice{{Value: 4, Label: "IPv4"}, {Value: 6, Label: "IPv6"}}

// prefixScopeTypes are the content types a prefix may be scoped to.
var prefixScopeTypes = []string{"dcim.region", "dcim.sitegroup", "dcim.site", "dcim.location"}

func (Prefix) Fields() []ent.Field {
	return []ent.Field{
		field.Int("family").Annotations(api.Field{Kind: "choice", Choices: IPFamily, ReadOnly: true}),
		field.String("prefix").NotEmpty().Annotations(api.Field{Kind: "cidr"}),
		FKField("vrf"),
		field.String("scope_type").Optional().Nillable().Annotations(api.Field{Types: prefixScopeTypes}),
		field.Int("scope_id").Optional().Nillable(),
		FKField("tenant"),
		FKField("vlan"),
		field.String("status").MaxRuneLen(50).Default("active").Annotations(api.Field{Kind: "choice", Choices: PrefixStatus}),
		FKField("role"),
		field.Bool("is_pool").Default(false),
		field.Bool("mark_utilized").Default(false),
		field.Int("_children").Default(0).Annotations(api.Field{API: "children", ReadOnly: true}),
		field.Int("_depth").Default(0).Annotations(api.Field{ReadOnly: true}),
		// Hidden storage columns (not API fields: not in api.Model.Fields).
		field.Bytes("network").MaxLen(16),
		field.Bytes("broadcast").MaxLen(16),
		field.Int("prefix_length"),
		field.Int("vrf_key"),
		// The cached scope (NetBox's CachedScopeMixin), kept by
		// prefixScopeHook: the region, site group, site and location the
		// scope is or lies in. Read by the region/site/... filters and the
		// prefix_count of those models.
		field.Int("_region_id").Optional().Nillable(),
		field.Int("_site_group_id").Optional().Nillable(),
		field.Int("_site_id").Optional().Nillable(),
		field.Int("_location_id").Optional().Nillable(),
	}
}

func (Prefix) Edges() []ent.Edge {
	return []ent.Edge{
		// NetBox's vrf filter matches the route distinguisher.
		edge.To("vrf", VRF.Type).Field("vrf_id").Unique().
			Annotations(entsql.OnDelete(entsql.Restrict), api.Field{Protect: true, Lookup: "rd"}),
		FK("tenant", Tenant.Type, entsql.Restrict),
		FK("vlan", VLAN.Type, entsql.Restrict),
		FK("role", Role.Type, entsql.SetNull),
	}
}

func (Prefix) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("vrf_key", "family", "network", "prefix_length"),
		index.Fields("_region_id"), index.Fields("_site_group_id"), index.Fields("_site_id"), index.Fields("_location_id"),
	}
}

func (Prefix) Hooks() []ent.Hook { return []ent.Hook{prefixHook, prefixScopeHook} }

func (Prefix) Annotations() []schema.Annotation {
	return []schema.Annotation{
		entsql.Annotation{Table: "ipam_prefix"},
		api.Model{
			App: "ipam", Path: "prefixes", Verbose: "prefix",
			Fields: []string{"id", "url", "display_url", "display", "family", "prefix", "vrf", "scope_type", "scope_id",
				"scope", "tenant", "vlan", "status", "role", "is_pool", "mark_utilized", "description", "owner", "comments",
				"tags", "custom_fields", "created", "last_updated", "children", "_depth"},
			Brief:   []string{"id", "url", "display", "family", "prefix", "description", "_depth"},
			Display: "{prefix}",
			IP:      api.PrefixColumns(),
			Search:  []string{"prefix", "description", "comments"},
			// VRF (global first: vrf_key is 0 there), then the prefix in
			// numeric order (inet order: family, network, length).
			Ordering: []string{"vrf_key", "family", "network", "prefix_length"},
			Empty:    map[string]any{"owner": nil},
			Filters: []api.Filter{
				{Name: "family", Kind: "ip-family"},
				{Name: "prefix", Kind: "prefix-exact"},
				{Name: "within", Kind: "prefix-within"},
				{Name: "within_include", Kind: "prefix-within-include"},
				{Name: "contains", Kind: "prefix-contains"},
				{Name: "mask_length", Kind: "prefix-mask-length"},
				{Name: "depth", Kind: "integer", Column: "_depth"},
				// NetBox also includes the VRFs this one imports routes
				// from; route targets do not exist yet, so it is the VRF.
				{Name: "present_in_vrf_id", Kind: "fk-id", Column: "vrf_id", Target: "ipam.vrf"},
				{Name: "present_in_vrf", Kind: "fk-attr", Column: "vrf_id", Target: "ipam.vrf", Attr: "rd"},
				// The cached scope columns (NetBox's _region, _site_group,
				// _site, _location), kept by the hook below.
				{Name: "region_id", Kind: "tree-id", Column: "_region_id", Target: "dcim.region"},
				{Name: "region", Kind: "tree-attr", Column: "_region_id", Target: "dcim.region", Attr: "slug"},
				{Name: "site_group_id", Kind: "tree-id", Column: "_site_group_id", Target: "dcim.sitegroup"},
				{Name: "site_group", Kind: "tree-attr", Column: "_site_group_id", Target: "dcim.sitegroup", Attr: "slug"},
				{Name: "site_id", Kind: "fk-id", Column: "_site_id", Target: "dcim.site"},
				{Name: "site", Kind: "fk-attr", Column: "_site_id", Target: "dcim.site", Attr: "slug"},
				{Name: "location_id", Kind: "tree-id", Column: "_location_id", Target: "dcim.location"},
				{Name: "location", Kind: "tree-attr", Column: "_location_id", Target: "dcim.location", Attr: "slug"},
				{Name: "vlan_group_id", Kind: "fk-id", Via: "vlan", Column: "group"},
				{Name: "vlan_group", Kind: "fk-attr", Via: "vlan", Column: "group"},
				{Name: "vlan_vid", Kind: "integer", Via: "vlan", Column: "vid"},
				{Name: "tenant_group_id", Kind: "tree-id", Via: "tenant", Column: "group"},
				{Name: "tenant_group", Kind: "tree-attr", Via: "tenant", Column: "group"},
			},
			NoFilters: []string{"_depth"},
		},
	}
}

// prefixMutation is what the hook needs of the generated *ent.PrefixMutation.
// It is spelled as an interface so that this package need not import the
// generated code (which would make regeneration depend on it compiling).
type prefixMutation interface {
	ent.Mutation
	ExecContext(ctx context.Context, query string, args ...any) (stdsql.Result, error)
	QueryContext(ctx context.Context, query string, args ...any) (*stdsql.Rows, error)
	DriverDialect() string
	ID() (int, bool)
	IDs(ctx context.Context) ([]int, error)
}

// prefixRow is a prefix's place in the containment hierarchy.
type prefixRow struct {
	ipnet.Key
	VRF int // vrf_key: 0 for the global table
}

func (a prefixRow) same(b prefixRow) bool {
	return a.VRF == b.VRF && a.Family == b.Family && a.Length == b.Length && string(a.Network) == string(b.Network)
}

// prefixHook derives the hidden columns and keeps _depth (distinct strictly
// containing prefixes in the same VRF) and _children (strictly contained
// prefixes in the same VRF, duplicates counted) right, in the mutation's own
// transaction. Single-row creates, updates and deletes adjust the counters of
// the prefixes they enter or leave; many-row updates and deletes rebuild the
// VRFs involved. (CreateBulk runs every hook before inserting any row, so
// rows of one bulk do not see each other: call RebuildPrefixCaches after it.)
func prefixHook(next ent.Mutator) ent.Mutator {
	return ent.MutateFunc(func(ctx context.Context, m ent.Mutation) (ent.Value, error) {
		pm, ok := m.(prefixMutation)
		if !ok {
			return nil, fmt.Errorf("prefix hook: unexpected mutation %T", m)
		}
		h := &prefixSQL{m: pm, pg: pm.DriverDialect() == dialect.Postgres}
		switch op := m.Op(); {
		case op.Is(ent.OpCreate):
			row, err := h.derive(ctx, nil)
			if err != nil {
				return nil, err
			}
			if err := h.enter(ctx, row, 0); err != nil {
				return nil, err
			}
			return next.Mutate(ctx, m)
		case op.Is(ent.OpUpdateOne):
			if !h.touched() {
				return next.Mutate(ctx, m)
			}
			id, _ := pm.ID()
			old, err := h.load(ctx, id)
			if err != nil {
				return nil, err
			}
			if old == nil {
				return next.Mutate(ctx, m) // not found: ent answers
			}
			row, err := h.derive(ctx, old)
			if err != nil {
				return nil, err
			}
			if !old.same(*row) {
				if err := h.leave(ctx, *old, id); err != nil {
					return nil, err
				}
				if err := h.enter(ctx, row, id); err != nil {
					return nil, err
				}
			}
			return next.Mutate(ctx, m)
		case op.Is(ent.OpDeleteOne):
			id, _ := pm.ID()
			old, err := h.load(ctx, id)
			if err != nil {
				return nil, err
			}
			if old != nil {
				if err := h.leave(ctx, *old, id); err != nil {
					return nil, err
				}
			}
			return next.Mutate(ctx, m)
		default: // many-row update or delete
			if op.Is(ent.OpUpdate) && !h.touched() {
				return next.Mutate(ctx, m)
			}
			ids, err := pm.IDs(ctx)
			if err != nil {
				return nil, err
			}
			keys, err := h.vrfKeys(ctx, ids)
			if err != nil {
				return nil, err
			}
			if op.Is(ent.OpUpdate) {
				if err := h.deriveMany(); err != nil {
					return nil, err
				}
				if k, ok := h.newVRFKey(); ok {
					keys = append(keys, k)
				}
			}
			v, err := next.Mutate(ctx, m)
			if err != nil {
				return nil, err
			}
			return v, rebuildPrefixCaches(ctx, pm, h.pg, keys)
		}
	})
}

// prefixSQL runs the hook's statements on the mutation's connection.
type prefixSQL struct {
	m  prefixMutation
	pg bool
}

const prefixTable = `"ipam_prefix"`

// touched reports whether the mutation changes the prefix or its VRF.
func (h *prefixSQL) touched() bool {
	_, p := h.m.Field("prefix")
	_, v := h.m.Field("vrf_id")
	return p || v || h.m.FieldCleared("vrf_id")
}

// newVRFKey is the VRF key the mutation sets, if it sets one.
func (h *prefixSQL) newVRFKey() (int, bool) {
	if h.m.FieldCleared("vrf_id") {
		return 0, true
	}
	if v, ok := h.m.Field("vrf_id"); ok {
		return v.(int), true
	}
	return 0, false
}

// deriveMany sets the derived columns of a many-row update (the same prefix
// and VRF for every row).
func (h *prefixSQL) deriveMany() error {
	if v, ok := h.m.Field("prefix"); ok {
		if _, err := h.setPrefix(v.(string)); err != nil {
			return err
		}
	}
	if k, ok := h.newVRFKey(); ok {
		return h.m.SetField("vrf_key", k)
	}
	return nil
}

// derive computes and sets the hidden columns of a single-row create or
// update; old is the row before an update.
func (h *prefixSQL) derive(ctx context.Context, old *prefixRow) (*prefixRow, error) {
	row := &prefixRow{}
	if old != nil {
		*row = *old
	}
	if v, ok := h.m.Field("prefix"); ok {
		k, err := h.setPrefix(v.(string))
		if err != nil {
			return nil, err
		}
		row.Key = k
	} else if old == nil {
		return nil, errors.New("prefix: missing required field \"prefix\"")
	}
	if k, ok := h.newVRFKey(); ok {
		row.VRF = k
	}
	return row, h.m.SetField("vrf_key", row.VRF)
}

// setPrefix canonicalises the prefix text (clearing host bits, as NetBox's
// Prefix.save() does) and sets the columns derived from it.
func (h *prefixSQL) setPrefix(s string) (ipnet.Key, error) {
	p, msg := ipnet.Canonical(s, true)
	if msg != "" {
		return ipnet.Key{}, fmt.Errorf("prefix: %s", msg)
	}
	k := ipnet.KeyOf(p)
	for name, v := range map[string]any{"prefix": p.String(), "family": k.Family, "network": k.Network,
		"broadcast": k.Broadcast, "prefix_length": k.Length} {
		if err := h.m.SetField(name, v); err != nil {
			return ipnet.Key{}, err
		}
	}
	return k, nil
}

// args renders bind parameters for the dialect.
type args struct {
	pg   bool
	list []any
}

func (a *args) p(v any) string {
	a.list = append(a.list, v)
	if a.pg {
		return "$" + strconv.Itoa(len(a.list))
	}
	return "?"
}

func (a *args) in(vals [][]byte) string {
	ps := make([]string, len(vals))
	for i, v := range vals {
		ps[i] = a.p(v)
	}
	return strings.Join(ps, ", ")
}

// parents is the WHERE clause of the strict supernets of r (other than
// row self).
func (a *args) parents(r prefixRow, self int) string {
	sup := ipnet.Supernets(r.Key)
	if len(sup) == 0 {
		return "1 = 0"
	}
	return fmt.Sprintf(`vrf_key = %s AND family = %s AND network IN (%s) AND prefix_length < %s AND broadcast >= %s AND id <> %s`,
		a.p(r.VRF), a.p(r.Family), a.in(sup), a.p(r.Length), a.p(r.Broadcast), a.p(self))
}

// children is the WHERE clause of the strict subnets of r (a range scan).
func (a *args) children(r prefixRow, self int) string {
	return fmt.Sprintf(`vrf_key = %s AND family = %s AND network >= %s AND network <= %s AND prefix_length > %s AND id <> %s`,
		a.p(r.VRF), a.p(r.Family), a.p(r.Network), a.p(r.Broadcast), a.p(r.Length), a.p(self))
}

func (h *prefixSQL) count(ctx context.Context, q string, a *args) (int, error) {
	rows, err := h.m.QueryContext(ctx, q, a.list...)
	if err != nil {
		return 0, err
	}
	defer rows.Close()
	n := 0
	if rows.Next() {
		if err := rows.Scan(&n); err != nil {
			return 0, err
		}
	}
	return n, rows.Err()
}

func (h *prefixSQL) exec(ctx context.Context, q string, a *args) error {
	_, err := h.m.ExecContext(ctx, q, a.list...)
	return err
}

// duplicate reports whether another row than self has r's prefix in r's VRF.
func (h *prefixSQL) duplicate(ctx context.Context, r prefixRow, self int) (bool, error) {
	a := &args{pg: h.pg}
	q := fmt.Sprintf(`SELECT COUNT(*) FROM (SELECT 1 FROM %s WHERE vrf_key = %s AND family = %s AND network = %s AND prefix_length = %s AND id <> %s LIMIT 1) d`,
		prefixTable, a.p(r.VRF), a.p(r.Family), a.p(r.Network), a.p(r.Length), a.p(self))
	n, err := h.count(ctx, q, a)
	return n > 0, err
}

// enter accounts for row self taking place r: its own counters are computed
// and set on the mutation, its supernets gain a child, and its subnets gain
// a level unless an equal prefix was there already.
func (h *prefixSQL) enter(ctx context.Context, r *prefixRow, self int) error {
	a := &args{pg: h.pg}
	depth, err := h.count(ctx, `SELECT COUNT(DISTINCT prefix_length) FROM `+prefixTable+` WHERE `+a.parents(*r, self), a)
	if err != nil {
		return err
	}
	a = &args{pg: h.pg}
	children, err := h.count(ctx, `SELECT COUNT(*) FROM `+prefixTable+` WHERE `+a.children(*r, self), a)
	if err != nil {
		return err
	}
	if err := h.m.SetField("_depth", depth); err != nil {
		return err
	}
	if err := h.m.SetField("_children", children); err != nil {
		return err
	}
	if depth > 0 {
		a = &args{pg: h.pg}
		if err := h.exec(ctx, `UPDATE `+prefixTable+` SET "_children" = "_children" + 1 WHERE `+a.parents(*r, self), a); err != nil {
			return err
		}
	}
	if children > 0 {
		dup, err := h.duplicate(ctx, *r, self)
		if err != nil || dup {
			return err
		}
		a = &args{pg: h.pg}
		return h.exec(ctx, `UPDATE `+prefixTable+` SET "_depth" = "_depth" + 1 WHERE `+a.children(*r, self), a)
	}
	return nil
}

// leave undoes enter for row self leaving place r.
func (h *prefixSQL) leave(ctx context.Context, r prefixRow, self int) error {
	a := &args{pg: h.pg}
	if err := h.exec(ctx, `UPDATE `+prefixTable+` SET "_children" = "_children" - 1 WHERE `+a.parents(r, self), a); err != nil {
		return err
	}
	dup, err := h.duplicate(ctx, r, self)
	if err != nil || dup {
		return err
	}
	a = &args{pg: h.pg}
	return h.exec(ctx, `UPDATE `+prefixTable+` SET "_depth" = "_depth" - 1 WHERE `+a.children(r, self), a)
}

// load reads the stored place of row id (nil when it does not exist).
func (h *prefixSQL) load(ctx context.Context, id int) (*prefixRow, error) {
	a := &args{pg: h.pg}
	q := `SELECT vrf_key, family, network, broadcast, prefix_length FROM ` + prefixTable + ` WHERE id = ` + a.p(id)
	rows, err := h.m.QueryContext(ctx, q, a.list...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	if !rows.Next() {
		return nil, rows.Err()
	}
	r := &prefixRow{}
	if err := rows.Scan(&r.VRF, &r.Family, &r.Network, &r.Broadcast, &r.Length); err != nil {
		return nil, err
	}
	return r, rows.Err()
}

// vrfKeys are the distinct VRF keys of the rows ids.
func (h *prefixSQL) vrfKeys(ctx context.Context, ids []int) ([]int, error) {
	var out []int
	for len(ids) > 0 {
		n := min(len(ids), 500)
		a := &args{pg: h.pg}
		ps := make([]string, n)
		for i, id := range ids[:n] {
			ps[i] = a.p(id)
		}
		ids = ids[n:]
		rows, err := h.m.QueryContext(ctx, `SELECT DISTINCT vrf_key FROM `+prefixTable+` WHERE id IN (`+strings.Join(ps, ", ")+`)`, a.list...)
		if err != nil {
			return nil, err
		}
		for rows.Next() {
			var k int
			if err := rows.Scan(&k); err != nil {
				rows.Close()
				return nil, err
			}
			out = append(out, k)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// Execer runs statements (the generated *ent.Client and *ent.Tx with the
// execquery feature, *database/sql.DB and *sql.Tx all satisfy it).
type Execer interface {
	ExecContext(ctx context.Context, query string, args ...any) (stdsql.Result, error)
}

// RebuildPrefixCaches recomputes _depth and _children of every prefix in the
// given VRF keys (0 is the global table) from scratch.
func RebuildPrefixCaches(ctx context.Context, ex Execer, dia string, vrfKeys []int) error {
	return rebuildPrefixCaches(ctx, ex, dia == dialect.Postgres, vrfKeys)
}

func rebuildPrefixCaches(ctx context.Context, ex Execer, pg bool, vrfKeys []int) error {
	seen := map[int]bool{}
	for _, k := range vrfKeys {
		if seen[k] {
			continue
		}
		seen[k] = true
		a := &args{pg: pg}
		q := `UPDATE ` + prefixTable + ` SET ` +
			`"_depth" = (SELECT COUNT(DISTINCT p.prefix_length) FROM ` + prefixTable + ` p WHERE p.vrf_key = ipam_prefix.vrf_key ` +
			`AND p.family = ipam_prefix.family AND p.network <= ipam_prefix.network AND p.broadcast >= ipam_prefix.broadcast ` +
			`AND p.prefix_length < ipam_prefix.prefix_length), ` +
			`"_children" = (SELECT COUNT(*) FROM ` + prefixTable + ` c WHERE c.vrf_key = ipam_prefix.vrf_key ` +
			`AND c.family = ipam_prefix.family AND c.network >= ipam_prefix.network AND c.network <= ipam_prefix.broadcast ` +
			`AND c.prefix_length > ipam_prefix.prefix_length) ` +
			`WHERE vrf_key = ` + a.p(k)
		if _, err := ex.ExecContext(ctx, q, a.list...); err != nil {
			return fmt.Errorf("rebuild prefix caches of VRF key %d: %w", k, err)
		}
	}
	return nil
}

// sqlMutation is what the cached-scope hooks need of a generated mutation
// (see prefixMutation).
type sqlMutation interface {
	ent.Mutation
	ExecContext(ctx context.Context, query string, args ...any) (stdsql.Result, error)
	QueryContext(ctx context.Context, query string, args ...any) (*stdsql.Rows, error)
	DriverDialect() string
	ID() (int, bool)
	IDs(ctx context.Context) ([]int, error)
}

// Scope types and the cached columns they fill.
const (
	scopeRegion    = "dcim.region"
	scopeSiteGroup = "dcim.sitegroup"
	scopeSite      = "dcim.site"
	scopeLocation  = "dcim.location"
)

var prefixScopeColumns = []string{"_region_id", "_site_group_id", "_site_id", "_location_id"}

// scopeTouched reports whether m sets or clears scope_type or scope_id.
func scopeTouched(m ent.Mutation) bool {
	_, t := m.Field("scope_type")
	_, i := m.Field("scope_id")
	return t || i || m.FieldCleared("scope_type") || m.FieldCleared("scope_id")
}

// prefixScopeHook keeps the cached scope columns of prefixes: a create sets
// them from the new scope before the insert; updates that change the scope
// recompute them in SQL afterwards. Sites and locations that move (a site's
// region or group, a location's site) recompute the prefixes under them
// (siteScopeHook, locationScopeHook), as NetBox's sync_cached_scope_fields
// signal does. Deleting a scope object leaves the cache (and scope_id) as it
// was, like the scope itself.
func prefixScopeHook(next ent.Mutator) ent.Mutator {
	return ent.MutateFunc(func(ctx context.Context, m ent.Mutation) (ent.Value, error) {
		sm, ok := m.(sqlMutation)
		if !ok {
			return nil, fmt.Errorf("prefix scope hook: unexpected mutation %T", m)
		}
		pg := sm.DriverDialect() == dialect.Postgres
		switch op := m.Op(); {
		case op.Is(ent.OpCreate):
			if err := setScopeCache(ctx, sm, pg); err != nil {
				return nil, err
			}
			return next.Mutate(ctx, m)
		case op.Is(ent.OpUpdateOne | ent.OpUpdate):
			if !scopeTouched(m) {
				return next.Mutate(ctx, m)
			}
			var ids []int
			if id, ok := sm.ID(); ok {
				ids = []int{id}
			} else {
				var err error
				if ids, err = sm.IDs(ctx); err != nil {
					return nil, err
				}
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
func setScopeCache(ctx context.Context, m sqlMutation, pg bool) error {
	t, ok1 := m.Field("scope_type")
	i, ok2 := m.Field("scope_id")
	if !ok1 || !ok2 {
		return nil
	}
	typ, _ := t.(string)
	id, _ := i.(int)
	vals := map[string]any{}
	a := &args{pg: pg}
	var q string
	switch typ {
	case scopeRegion:
		vals["_region_id"] = id
	case scopeSiteGroup:
		vals["_site_group_id"] = id
	case scopeSite:
		vals["_site_id"] = id
		q = `SELECT NULL, id, region_id, group_id FROM "dcim_site" WHERE id = ` + a.p(id)
	case scopeLocation:
		vals["_location_id"] = id
		q = `SELECT l.id, l.site_id, s.region_id, s.group_id FROM "dcim_location" l JOIN "dcim_site" s ON s.id = l.site_id WHERE l.id = ` + a.p(id)
	}
	if q != "" {
		rows, err := m.QueryContext(ctx, q, a.list...)
		if err != nil {
			return err
		}
		defer rows.Close()
		if rows.Next() {
			var loc, site, region, group stdsql.NullInt64
			if err := rows.Scan(&loc, &site, &region, &group); err != nil {
				return err
			}
			for col, v := range map[string]stdsql.NullInt64{"_site_id": site, "_region_id": region, "_site_group_id": group} {
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

// recomputePrefixScopes recomputes the cached scope of the prefixes whose
// column (id, _site_id, _location_id) is one of ids.
func recomputePrefixScopes(ctx context.Context, ex Execer, pg bool, column string, ids []int) error {
	for len(ids) > 0 {
		n := min(len(ids), 500)
		a := &args{pg: pg}
		ps := make([]string, n)
		for i, id := range ids[:n] {
			ps[i] = a.p(id)
		}
		ids = ids[n:]
		if _, err := ex.ExecContext(ctx, prefixScopeSQL+`"`+column+`" IN (`+strings.Join(ps, ", ")+`)`, a.list...); err != nil {
			return fmt.Errorf("recompute prefix scopes: %w", err)
		}
	}
	return nil
}

// RebuildPrefixScopes recomputes the cached scope columns of every prefix
// (databases migrated from before the columns existed, bulk loads).
func RebuildPrefixScopes(ctx context.Context, ex Execer) error {
	_, err := ex.ExecContext(ctx, prefixScopeSQL+`scope_type IS NOT NULL OR "_region_id" IS NOT NULL OR `+
		`"_site_group_id" IS NOT NULL OR "_site_id" IS NOT NULL OR "_location_id" IS NOT NULL`)
	return err
}

// scopeMoveHook recomputes the cached scope of the prefixes whose column
// holds the id of a row of this model when the mutation changes one of
// fields (a site's region or group, a location's site).
func scopeMoveHook(column string, fields ...string) ent.Hook {
	return func(next ent.Mutator) ent.Mutator {
		return ent.MutateFunc(func(ctx context.Context, m ent.Mutation) (ent.Value, error) {
			if !m.Op().Is(ent.OpUpdate | ent.OpUpdateOne) {
				return next.Mutate(ctx, m)
			}
			moved := false
			for _, f := range fields {
				_, set := m.Field(f)
				moved = moved || set || m.FieldCleared(f)
			}
			sm, ok := m.(sqlMutation)
			if !moved || !ok {
				return next.Mutate(ctx, m)
			}
			var ids []int
			if id, ok := sm.ID(); ok {
				ids = []int{id}
			} else {
				var err error
				if ids, err = sm.IDs(ctx); err != nil {
					return nil, err
				}
			}
			v, err := next.Mutate(ctx, m)
			if err != nil {
				return nil, err
			}
			return v, recomputePrefixScopes(ctx, sm, sm.DriverDialect() == dialect.Postgres, column, ids)
		})
	}
}
