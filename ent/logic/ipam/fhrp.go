package ipam

import (
	"context"
	"fmt"
	"strconv"

	"entgo.io/ent"

	"github.com/inventory/inventory/ent/logic/rawsql"
	"github.com/inventory/inventory/ent/schema/api"
)

// FHRP groups and their assignments to interfaces.
//
// NetBox's FHRPGroup.__str__ names the group's first IP address, and
// FHRPGroupAssignment.__str__ the interface and the group; a display
// function sees only its own row, so these are cached: a group's
// _first_ip (kept by the IP address hook), an assignment's _display
// ("<interface>: <group>", kept by the assignment, group, IP address and
// interface hooks).

// FHRPProtocols are the choices of an FHRP group's protocol (NetBox's
// FHRPGroupProtocolChoices, its groups flattened); FHRPAuthTypes of its
// authentication type. Declared here, where the display needs the labels;
// the schema uses them.
var (
	FHRPProtocols = api.C("vrrp2", "VRRPv2", "vrrp3", "VRRPv3", "carp", "CARP", "clusterxl", "ClusterXL",
		"hsrp", "HSRP", "glbp", "GLBP", "other", "Other")
	FHRPAuthTypes = api.C("plaintext", "Plaintext", "md5", "MD5")
)

// FHRPAssignmentInterfaceTypes are the objects an FHRP group may be
// assigned to (virtual machine interfaces join when they land).
var FHRPAssignmentInterfaceTypes = []string{ctInterface, ctVMInterface}

// label is the label of value among choices ("" when unknown).
func label(choices []api.Choice, value string) string {
	for _, c := range choices {
		if c.Value == value {
			return c.Label
		}
	}
	return ""
}

// FHRPGroupDisplay is NetBox's FHRPGroup.__str__: "[<name> ]<protocol>:
// <group id>", followed by its first IP address in parentheses when it has
// one.
func FHRPGroupDisplay(get api.Getter) string {
	return fhrpGroupDisplay(rawsql.StringOf(get("name")), rawsql.StringOf(get("protocol")), get("group_id"), rawsql.StringOf(get("_first_ip")))
}

func fhrpGroupDisplay(name, protocol string, groupID any, firstIP string) string {
	s := ""
	if name != "" {
		s = name + " "
	}
	gid, _ := rawsql.IntOf(groupID)
	s += label(FHRPProtocols, protocol) + ": " + strconv.Itoa(gid)
	if firstIP != "" {
		s += " (" + firstIP + ")"
	}
	return s
}

// FHRPGroupAssignmentDisplay is NetBox's FHRPGroupAssignment.__str__:
// "<interface>: <group> (<priority>)".
func FHRPGroupAssignmentDisplay(get api.Getter) string {
	p, _ := rawsql.IntOf(get("priority"))
	return fmt.Sprintf("%s (%d)", rawsql.StringOf(get("_display")), p)
}

// FHRPGroupHooks renew the cached display of a group's assignments when
// its name, protocol or group id changes.
func FHRPGroupHooks() []ent.Hook {
	return []ent.Hook{afterWrite("fhrp group", []string{"name", "protocol", "group_id"}, func(ctx context.Context, h *mutSQL, ids []int) error {
		return refreshAssignments(ctx, h, "group_id", ids)
	})}
}

// FHRPGroupAssignmentHooks keep an assignment's cached display.
func FHRPGroupAssignmentHooks() []ent.Hook {
	return []ent.Hook{afterWrite("fhrp group assignment", []string{"group_id", "interface_type", "interface_id"}, func(ctx context.Context, h *mutSQL, ids []int) error {
		return refreshAssignments(ctx, h, "id", ids)
	})}
}

// InterfaceHooks renew the cached display of the FHRP group assignments
// of interfaces whose name or label changes (wired into dcim.Interface).
func InterfaceHooks() []ent.Hook {
	return renamedInterfaceHooks(ctInterface, []string{"name", "label"})
}

// VMInterfaceHooks are InterfaceHooks for virtual machine interfaces
// (wired into virtualization.VMInterface).
func VMInterfaceHooks() []ent.Hook { return renamedInterfaceHooks(ctVMInterface, []string{"name"}) }

// renamedInterfaceHooks renew the cached display of the FHRP group
// assignments of interfaces of type ct whose fields change.
func renamedInterfaceHooks(ct string, fields []string) []ent.Hook {
	return []ent.Hook{afterWrite("interface", fields, func(ctx context.Context, h *mutSQL, ids []int) error {
		var assignments []int
		err := rawsql.Chunks(ids, func(ids []int) error {
			a := h.args()
			rows, err := h.rows(ctx, `SELECT id FROM "ipam_fhrpgroupassignment" WHERE interface_type = `+a.P(ct)+
				` AND interface_id IN (`+rawsql.In(a, ids)+`)`, a)
			for _, r := range rows {
				id, _ := rawsql.IntOf(r["id"])
				assignments = append(assignments, id)
			}
			return err
		})
		if err != nil || len(assignments) == 0 {
			return err
		}
		return refreshAssignments(ctx, h, "id", assignments)
	}, true)}
}

// afterWrite runs fn with the rows a create or update wrote, after the
// write, when it set one of cols (always on create, unless updatesOnly).
func afterWrite(name string, cols []string, fn func(ctx context.Context, h *mutSQL, ids []int) error, updatesOnly ...bool) ent.Hook {
	return func(next ent.Mutator) ent.Mutator {
		return ent.MutateFunc(func(ctx context.Context, m ent.Mutation) (ent.Value, error) {
			creating := m.Op().Is(ent.OpCreate)
			if !m.Op().Is(ent.OpCreate|ent.OpUpdate|ent.OpUpdateOne) || creating && len(updatesOnly) > 0 ||
				!creating && !rawsql.Touched(m, cols...) {
				return next.Mutate(ctx, m)
			}
			sm, err := rawsql.As(name+" hook", m)
			if err != nil {
				return nil, err
			}
			var ids []int
			if !creating {
				if ids, err = rawsql.TargetIDs(ctx, sm); err != nil {
					return nil, err
				}
			}
			v, err := next.Mutate(ctx, m)
			if err != nil {
				return nil, err
			}
			if creating {
				id, ok := sm.ID()
				if !ok {
					return v, nil
				}
				ids = []int{id}
			}
			return v, fn(ctx, newMutSQL(sm), ids)
		})
	}
}

// refreshFHRPGroups recomputes the cached first address of the groups ids
// (the lowest, in the IP addresses' order), then their assignments'
// displays.
func refreshFHRPGroups(ctx context.Context, h *mutSQL, ids []int) error {
	if len(ids) == 0 {
		return nil
	}
	err := rawsql.Chunks(ids, func(ids []int) error {
		a := h.args()
		return h.exec(ctx, `UPDATE "ipam_fhrpgroup" SET "_first_ip" = COALESCE((SELECT a.address FROM `+ipTable+` a `+
			`WHERE a.assigned_object_type = `+a.P(ctFHRPGroup)+` AND a.assigned_object_id = "ipam_fhrpgroup".id `+
			`ORDER BY a.family, a.host, a.prefix_length, a.id LIMIT 1), '') WHERE id IN (`+rawsql.In(a, ids)+`)`, a)
	})
	if err != nil {
		return err
	}
	return refreshAssignments(ctx, h, "group_id", ids)
}

// refreshAssignments recomputes the cached "<interface>: <group>" of the
// assignments whose column (id or group_id) is one of ids.
func refreshAssignments(ctx context.Context, h *mutSQL, column string, ids []int) error {
	return rawsql.Chunks(ids, func(ids []int) error {
		a := h.args()
		rows, err := h.rows(ctx, `SELECT s.id, s._display, s.interface_type, s.interface_id, g.name AS g_name, g.protocol, `+
			`g.group_id, g._first_ip FROM "ipam_fhrpgroupassignment" s JOIN "ipam_fhrpgroup" g ON g.id = s.group_id `+
			`WHERE s.`+column+` IN (`+rawsql.In(a, ids)+`)`, a)
		if err != nil || len(rows) == 0 {
			return err
		}
		// Keyed by type and id: device interfaces show their label, VM
		// interfaces have none.
		ifaces := map[string]string{}
		ifaceIDs := map[string][]int{}
		for _, r := range rows {
			if id, ok := rawsql.IntOf(r["interface_id"]); ok {
				t := rawsql.StringOf(r["interface_type"])
				ifaceIDs[t] = append(ifaceIDs[t], id)
			}
		}
		for t, q := range map[string]string{ctInterface: `SELECT id, name, label FROM "dcim_interface"`,
			ctVMInterface: `SELECT id, name, '' AS label FROM "virtualization_vminterface"`} {
			if len(ifaceIDs[t]) == 0 {
				continue
			}
			a := h.args()
			irows, err := h.rows(ctx, q+` WHERE id IN (`+rawsql.In(a, ifaceIDs[t])+`)`, a)
			if err != nil {
				return err
			}
			for _, r := range irows {
				id, _ := rawsql.IntOf(r["id"])
				ifaces[t+"#"+strconv.Itoa(id)] = componentDisplay(rawsql.StringOf(r["name"]), rawsql.StringOf(r["label"]))
			}
		}
		for _, r := range rows {
			iid, _ := rawsql.IntOf(r["interface_id"])
			disp := ifaces[rawsql.StringOf(r["interface_type"])+"#"+strconv.Itoa(iid)] + ": " + fhrpGroupDisplay(rawsql.StringOf(r["g_name"]), rawsql.StringOf(r["protocol"]), r["group_id"], rawsql.StringOf(r["_first_ip"]))
			if disp == rawsql.StringOf(r["_display"]) {
				continue
			}
			id, _ := rawsql.IntOf(r["id"])
			a := h.args()
			if err := h.exec(ctx, `UPDATE "ipam_fhrpgroupassignment" SET "_display" = `+a.P(disp)+` WHERE id = `+a.P(id), a); err != nil {
				return err
			}
		}
		return nil
	})
}

// componentDisplay is a device component's display: "name (label)" with a
// label, else the name (NetBox's ComponentModel.__str__).
func componentDisplay(name, label string) string {
	if label != "" {
		return name + " (" + label + ")"
	}
	return name
}
