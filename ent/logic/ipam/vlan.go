package ipam

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"entgo.io/ent"

	"github.com/inventory/inventory/ent/logic/rawsql"
	"github.com/inventory/inventory/ent/schema/api"
)

// vlanColumns are what VLAN.clean() reads of a VLAN.
var vlanColumns = []string{"site_id", "group_id", "vid", "qinq_role", "qinq_svlan_id"}

// VLANHooks are the hooks of ipam.VLAN: NetBox's VLAN.clean() before every
// row a create, update or bulk write leaves behind (a many-row update that
// writes none of the columns clean() reads, a deleted role's SET_NULL,
// passes: rawsql.RowHook).
func VLANHooks() []ent.Hook {
	return []ent.Hook{rawsql.RowHook("ipam_vlan", vlanColumns, checkVLAN)}
}

// checkVLAN is VLAN.clean(), its checks in NetBox's order (it raises at the
// first): a site must agree with a group scoped to a site or a site group,
// the VID must be in the group's ranges, and a Q-in-Q service VLAN goes
// with the customer role and only with it. The names in the messages are
// NetBox's str() of the objects: their names.
func checkVLAN(ctx context.Context, m rawsql.Mutation, _ int, row, _ map[string]any) error {
	for c, v := range row {
		row[c] = rawsql.Plain(v)
	}
	if group, ok := rawsql.IntOf(row["group_id"]); ok {
		if err := checkVLANGroup(ctx, m, group, row); err != nil {
			return err
		}
	}
	_, svlan := rawsql.IntOf(row["qinq_svlan_id"])
	role := rawsql.StringOf(row["qinq_role"])
	if svlan && role != "cvlan" {
		return &api.FieldError{Field: "qinq_svlan", Message: "Only Q-in-Q customer VLANs maybe assigned to a service VLAN."}
	}
	if role == "cvlan" && !svlan {
		return &api.FieldError{Field: "qinq_role", Message: "A Q-in-Q customer VLAN must be assigned to a service VLAN."}
	}
	return nil
}

// checkVLANGroup makes the checks of VLAN.clean() that concern the VLAN's
// group: its scope against the VLAN's site, its vid_ranges against the VID.
func checkVLANGroup(ctx context.Context, m rawsql.Mutation, group int, row map[string]any) error {
	g, err := rawsql.Lookup(ctx, m, "ipam_vlangroup", group, "name", "scope_type", "scope_id", "vid_ranges")
	if err != nil || g == nil {
		return err // a missing group was refused by the resource layer
	}
	gname := rawsql.StringOf(g["name"])
	if site, ok := rawsql.IntOf(row["site_id"]); ok {
		scope, _ := rawsql.IntOf(g["scope_id"])
		switch rawsql.StringOf(g["scope_type"]) {
		case "dcim.site":
			if scope != site {
				return &api.FieldError{Field: "__all__", Message: fmt.Sprintf(
					"VLAN is assigned to group %s (scope: %s); cannot also assign to site %s.",
					gname, vlanName(ctx, m, "dcim_site", scope), vlanName(ctx, m, "dcim_site", site))}
			}
		case "dcim.sitegroup":
			// Site.group is the site's own group, not its ancestors:
			// NetBox tests membership in scope.sites.all().
			s, err := rawsql.Lookup(ctx, m, "dcim_site", site, "name", "group_id")
			if err != nil {
				return err
			}
			if sg, ok := rawsql.IntOf(s["group_id"]); !ok || sg != scope {
				return &api.FieldError{Field: "__all__", Message: fmt.Sprintf(
					"The assigned site %s is not a member of the assigned group %s (scope: %s).",
					rawsql.StringOf(s["name"]), gname, vlanName(ctx, m, "dcim_sitegroup", scope))}
			}
		}
	}
	vid, ok := rawsql.IntOf(row["vid"])
	if !ok {
		return nil
	}
	var ranges [][]int
	if err := json.Unmarshal([]byte(rawsql.StringOf(g["vid_ranges"])), &ranges); err != nil {
		return fmt.Errorf("vlan group %d: vid_ranges: %w", group, err)
	}
	for _, r := range ranges {
		if len(r) == 2 && r[0] <= vid && vid <= r[1] {
			return nil
		}
	}
	return &api.FieldError{Field: "vid", Message: fmt.Sprintf("VID must be in ranges %s for VLANs in group %s",
		RangesString(ranges), gname)}
}

// RangesString is NetBox's ranges_to_string of inclusive [lower, upper]
// ranges, in their stored order: "lower-upper", or "lower" alone when the
// range holds one ID, joined by commas ("1-5,8,10-12").
func RangesString(ranges [][]int) string {
	parts := make([]string, 0, len(ranges))
	for _, r := range ranges {
		if len(r) != 2 {
			continue
		}
		if r[0] == r[1] {
			parts = append(parts, strconv.Itoa(r[0]))
		} else {
			parts = append(parts, strconv.Itoa(r[0])+"-"+strconv.Itoa(r[1]))
		}
	}
	return strings.Join(parts, ",")
}

// vlanName is the name of row id of table, as NetBox's str() renders a
// site or site group; "None" for a scope that is not set.
func vlanName(ctx context.Context, m rawsql.Mutation, table string, id int) string {
	if id == 0 {
		return "None"
	}
	r, err := rawsql.Lookup(ctx, m, table, id, "name")
	if err != nil || r == nil {
		return "None"
	}
	return rawsql.StringOf(r["name"])
}
