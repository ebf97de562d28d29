package ipam

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"entgo.io/ent"

	"github.com/inventory/inventory/ent/logic/rawsql"
	"github.com/inventory/inventory/ent/schema/api"
)

// Services and service templates (NetBox's ServiceBase).

// ServiceProtocols are the choices of a service's protocol.
var ServiceProtocols = api.C("tcp", "TCP", "udp", "UDP", "sctp", "SCTP")

// ServiceParentTypes are the objects a service may belong to (NetBox's
// SERVICE_ASSIGNMENT_MODELS; virtual machines join when they land).
var ServiceParentTypes = []string{ctDevice, ctFHRPGroup, ctVirtualMachine}

// Bounds of a service port (SERVICE_PORT_MIN, SERVICE_PORT_MAX).
const (
	ServicePortMin = 1
	ServicePortMax = 65535
)

// ServiceDisplay is NetBox's ServiceBase.__str__: "<name> (<protocol>/<ports>)",
// the ports collapsed into ranges ("SSH (TCP/22)", "web (TCP/80-81, 443)").
func ServiceDisplay(get api.Getter) string {
	return fmt.Sprintf("%s (%s/%s)", rawsql.StringOf(get("name")), label(ServiceProtocols, rawsql.StringOf(get("protocol"))), PortList(ports(get("ports"))))
}

// ports reads a stored JSON list of integers.
func ports(v any) []int {
	var out []int
	switch x := v.(type) {
	case []int:
		return x
	case json.RawMessage:
		_ = json.Unmarshal(x, &out)
	case []byte:
		_ = json.Unmarshal(x, &out)
	case string:
		_ = json.Unmarshal([]byte(x), &out)
	}
	return out
}

// PortList is NetBox's array_to_string: the sorted ports with runs of
// consecutive numbers as "a-b", joined by ", " ([22, 80, 81] → "22, 80-81").
func PortList(ports []int) string {
	s := slices.Sorted(slices.Values(ports))
	var parts []string
	for i := 0; i < len(s); {
		// A run is a stretch where value - index stays the same (Python's
		// groupby over count() - x, so a repeated value starts a new run).
		j := i + 1
		for j < len(s) && s[j]-j == s[i]-i {
			j++
		}
		if j-i == 1 {
			parts = append(parts, strconv.Itoa(s[i]))
		} else {
			parts = append(parts, strconv.Itoa(s[i])+"-"+strconv.Itoa(s[j-1]))
		}
		i = j
	}
	return strings.Join(parts, ", ")
}

// ServiceTemplateHooks keep the lowest port cached for the ordering.
func ServiceTemplateHooks() []ent.Hook { return []ent.Hook{portsHook(false)} }

// ServiceHooks keep the lowest port cached and check that the service's
// IP addresses belong to its parent.
func ServiceHooks() []ent.Hook { return []ent.Hook{portsHook(true)} }

// portsHook sets _ports_lowest (ServiceBase.save()) and, for a service,
// checks its addresses: those the request gives (api.Related), or the
// linked ones when only the parent changes.
func portsHook(service bool) ent.Hook {
	return func(next ent.Mutator) ent.Mutator {
		return ent.MutateFunc(func(ctx context.Context, m ent.Mutation) (ent.Value, error) {
			if !m.Op().Is(ent.OpCreate | ent.OpUpdate | ent.OpUpdateOne) {
				return next.Mutate(ctx, m)
			}
			if v, ok := m.Field("ports"); ok {
				ps := ports(v)
				for i, p := range ps {
					if p < ServicePortMin || p > ServicePortMax {
						return nil, &api.FieldError{Field: "ports", Index: strconv.Itoa(i),
							Message: fmt.Sprintf("Ensure this value is %s.", portBound(p))}
					}
				}
				if len(ps) == 0 {
					if err := m.ClearField("_ports_lowest"); err != nil && m.Op().Is(ent.OpUpdate|ent.OpUpdateOne) {
						return nil, err
					}
				} else if err := m.SetField("_ports_lowest", slices.Min(ps)); err != nil {
					return nil, err
				}
			}
			if !service {
				return next.Mutate(ctx, m)
			}
			sm, err := rawsql.As("service hook", m)
			if err != nil {
				return nil, err
			}
			if err := checkServiceAddresses(ctx, newMutSQL(sm)); err != nil {
				return nil, err
			}
			return next.Mutate(ctx, m)
		})
	}
}

func portBound(p int) string {
	if p < ServicePortMin {
		return "greater than or equal to " + strconv.Itoa(ServicePortMin)
	}
	return "less than or equal to " + strconv.Itoa(ServicePortMax)
}

// checkServiceAddresses refuses IP addresses that do not belong to the
// service's parent: for a device, addresses on its interfaces (or, for a
// virtual chassis master, its members' non-management interfaces: NetBox's
// vc_interfaces(), what its form offers); for an FHRP group, the group's
// own addresses.
func checkServiceAddresses(ctx context.Context, h *mutSQL) error {
	m := h.m
	given, ok := api.Related(ctx, "ipaddresses")
	var olds []map[string]any
	if m.Op().Is(ent.OpCreate) {
		olds = []map[string]any{nil}
	} else {
		if !ok && !rawsql.Touched(m, "parent_object_type", "parent_object_id") {
			return nil
		}
		ids, err := rawsql.TargetIDs(ctx, h.m)
		if err != nil {
			return err
		}
		err = rawsql.Chunks(ids, func(ids []int) error {
			a := h.args()
			rows, err := h.rows(ctx, `SELECT id, parent_object_type, parent_object_id FROM "ipam_service" WHERE id IN (`+rawsql.In(a, ids)+`)`, a)
			olds = append(olds, rows...)
			return err
		})
		if err != nil {
			return err
		}
	}
	for _, old := range olds {
		addrs := given
		if !ok {
			if old == nil {
				continue
			}
			self, _ := rawsql.IntOf(old["id"])
			a := h.args()
			rows, err := h.rows(ctx, `SELECT ipaddress_id FROM "ipam_service_ipaddresses" WHERE service_id = `+a.P(self), a)
			if err != nil {
				return err
			}
			addrs = nil
			for _, r := range rows {
				id, _ := rawsql.IntOf(r["ipaddress_id"])
				addrs = append(addrs, id)
			}
		}
		if len(addrs) == 0 {
			continue
		}
		ptype := rawsql.StringOf(finalValue(m, old, "parent_object_type"))
		pid, _ := rawsql.IntOf(finalValue(m, old, "parent_object_id"))
		a := h.args()
		in := rawsql.In(a, addrs)
		var owned string
		switch ptype {
		case ctDevice:
			owned = `assigned_object_type = ` + a.P(ctInterface) + ` AND assigned_object_id IN (` + deviceInterfacesSQL(a, pid) + `)`
		case ctFHRPGroup:
			owned = `assigned_object_type = ` + a.P(ctFHRPGroup) + ` AND assigned_object_id = ` + a.P(pid)
		case ctVirtualMachine:
			owned = `assigned_object_type = ` + a.P(ctVMInterface) + ` AND assigned_object_id IN (SELECT i.id FROM ` +
				`"virtualization_vminterface" i WHERE i.virtual_machine_id = ` + a.P(pid) + `)`
		default:
			continue
		}
		// COALESCE: an unassigned address has NULL columns, and NOT NULL
		// would keep it out of the refusal.
		q := `SELECT id, address FROM ` + ipTable + ` WHERE id IN (` + in + `) AND NOT COALESCE((` + owned + `), FALSE) ORDER BY id`
		bad, err := h.row(ctx, q, a)
		if err != nil {
			return err
		}
		if bad != nil {
			what := "device"
			switch ptype {
			case ctFHRPGroup:
				what = "FHRP group"
			case ctVirtualMachine:
				what = "virtual machine"
			}
			return &api.FieldError{Field: "ipaddresses",
				Message: fmt.Sprintf("IP address %s does not belong to the parent %s.", rawsql.StringOf(bad["address"]), what)}
		}
	}
	return nil
}

// deviceInterfacesSQL selects the interfaces of device (NetBox's
// Device.vc_interfaces()): its own, and when it is the master of a
// virtual chassis, the non-management interfaces of every member.
func deviceInterfacesSQL(a *rawsql.Args, device int) string {
	return `SELECT i.id FROM "dcim_interface" i WHERE i.device_id = ` + a.P(device) +
		` OR (i.mgmt_only = ` + a.P(false) + ` AND i.device_id IN (SELECT m.id FROM "dcim_device" m JOIN "dcim_virtualchassis" vc ` +
		`ON vc.id = m.virtual_chassis_id WHERE vc.master_id = ` + a.P(device) + `))`
}
