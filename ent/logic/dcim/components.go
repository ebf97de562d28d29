package dcim

import (
	"context"
	"fmt"
	"net"
	"slices"
	"strconv"
	"strings"

	"entgo.io/ent"

	"github.com/inventory/inventory/ent/logic/rawsql"
	"github.com/inventory/inventory/ent/schema/api"
)

// Device components: the rules of NetBox's ComponentModel, CabledObjectModel
// and each component's clean(), as hooks built like the templates' ones
// (rowHook: the whole row a write leaves behind).

// ComponentCacheHooks keep a component's cached columns: _occupied equal
// to NetBox's property (mark_connected or a cable, CabledHook), and the
// device's site, location and rack on create (NetBox's _site, _location,
// _rack; a component never changes device).
func ComponentCacheHooks() []ent.Hook {
	return append([]ent.Hook{CabledHook}, DeviceComponentHooks()...)
}

// componentHook checks the rules every component shares (it stays on its
// device), then extra with the columns it names.
func componentHook(table string, columns []string, extra rawsql.RowCheck) ent.Hook {
	cols := append([]string{"device_id", "name", "label"}, columns...)
	check := rawsql.RowHook(table, cols, func(ctx context.Context, m rawsql.Mutation, id int, row, old map[string]any) error {
		if id != 0 && norm(old["device_id"]) != norm(row["device_id"]) {
			return &api.FieldError{Field: "device", Message: "Components cannot be moved to a different device."}
		}
		if extra != nil {
			return extra(ctx, m, id, row, old)
		}
		return nil
	})
	return func(next ent.Mutator) ent.Mutator {
		checked := check(next)
		return ent.MutateFunc(func(ctx context.Context, m ent.Mutation) (ent.Value, error) {
			// Components made from templates are checked as templates
			// (their type's rules), as NetBox's bulk_create of them runs
			// no clean(): checking each again would cost a query per row,
			// and the row each check is given a map (a device of a
			// 10 000-interface type built 10 000 for nothing).
			if api.Instantiating(ctx) {
				return next.Mutate(ctx, m)
			}
			return checked.Mutate(ctx, m)
		})
	}
}

// ComponentHooks are the hooks of a component without rules of its own
// (console ports, console server ports).
func ComponentHooks(table string) []ent.Hook {
	return []ent.Hook{componentHook(table, nil, nil)}
}

// PowerPortHooks: the allocated draw may not exceed the maximum.
func PowerPortHooks() []ent.Hook {
	return []ent.Hook{componentHook("dcim_powerport", []string{"maximum_draw", "allocated_draw"}, checkDraw)}
}

// checkDraw: a power port's or its template's allocated draw may not
// exceed its maximum draw.
func checkDraw(_ context.Context, _ rawsql.Mutation, _ int, row, _ map[string]any) error {
	max, okMax := rawsql.IntOf(row["maximum_draw"])
	alloc, okAlloc := rawsql.IntOf(row["allocated_draw"])
	if okMax && okAlloc && alloc > max {
		return &api.FieldError{Field: "allocated_draw", Message: fmt.Sprintf("Allocated draw cannot exceed the maximum draw (%dW).", max)}
	}
	return nil
}

// PowerOutletHooks: the power port feeding an outlet is on the same
// device. NetBox raises this without a field; we name power_port, the
// field to fix (as the outlet templates do).
func PowerOutletHooks() []ent.Hook {
	return []ent.Hook{componentHook("dcim_poweroutlet", []string{"power_port_id"},
		func(ctx context.Context, m rawsql.Mutation, id int, row, old map[string]any) error {
			pp, ok := rawsql.IntOf(row["power_port_id"])
			if !ok {
				return nil
			}
			s, err := loadSibling(ctx, m, "dcim_powerport", pp, false, false)
			if err != nil || !s.found {
				return err
			}
			if s.device != norm(row["device_id"]) {
				return &api.FieldError{Field: "power_port", Message: fmt.Sprintf("Parent power port (%s) must belong to the same device", s)}
			}
			return nil
		})}
}

// The two sides of a device's port mappings (see portmappings.go).
var (
	frontPortSide = portSide{table: "dcim_frontport", field: "rear_ports", self: "front_port", peer: "rear_port", peerTable: "dcim_rearport"}
	rearPortSide  = portSide{table: "dcim_rearport", field: "front_ports", self: "rear_port", peer: "front_port", peerTable: "dcim_frontport"}
)

// FrontPortHooks validates a front port's rear_ports mappings (each maps one
// of its positions to a position of a rear port of the same device) and
// mirrors them onto the rear ports; the paths through them are traced
// again.
func FrontPortHooks() []ent.Hook {
	return []ent.Hook{retraceMappingsHook(CTFrontPort), componentHook("dcim_frontport", []string{"positions", "mappings"},
		portMappings("rear_ports", "rear_port", "dcim_rearport", "rear port")),
		mirrorHook(frontPortSide),
	}
}

// RearPortHooks validates a rear port's front_ports mappings, the mirror of
// the front ports' rear_ports.
func RearPortHooks() []ent.Hook {
	return []ent.Hook{retraceMappingsHook(CTRearPort), componentHook("dcim_rearport", []string{"positions", "mappings"},
		portMappings("front_ports", "front_port", "dcim_frontport", "front port")),
		mirrorHook(rearPortSide),
	}
}

// virtualTypeLabels are the labels of the virtual interface types, for
// messages that name the type ("Virtual interfaces cannot ...").
var virtualTypeLabels = map[string]string{"virtual": "Virtual", "bridge": "Bridge", "lag": "Link Aggregation Group (LAG)"}

// interfaceColumns are the columns the interface rules read.
var interfaceColumns = []string{"type", "parent_id", "bridge_id", "lag_id", "mark_connected", "poe_mode", "poe_type",
	"rf_role", "rf_channel", "rf_channel_frequency", "rf_channel_width", "mode", "untagged_vlan_id", "qinq_svlan_id",
	"primary_mac_address_id"}

// InterfaceHooks are NetBox's Interface.clean() and save() and the
// serializer's VLAN checks: parent, bridge and LAG on the same device;
// PoE and wireless settings only where they apply; the 802.1Q mode and
// the VLANs the interface may use; the primary MAC address assigned to
// this interface. After the write it fills the channel's frequency and
// width, keeps the cached mac_address and drops tagged VLANs of an
// interface that is no longer in tagged mode.
func InterfaceHooks() []ent.Hook {
	return []ent.Hook{
		channelHook(),
		componentHook("dcim_interface", interfaceColumns, checkInterface),
		InterfaceAfterHook(taggedVLANTable, taggedVLANOwn, false, ""),
		PrimaryMACHook(CTInterface),
	}
}

func checkInterface(ctx context.Context, m rawsql.Mutation, id int, row, old map[string]any) error {
	typ := rawsql.StringOf(row["type"])
	virtual := slices.Contains(virtualInterfaceTypes, typ)
	wireless := slices.Contains(wirelessInterfaceTypes, typ)
	device := norm(row["device_id"])
	if virtual && row["mark_connected"] == true {
		return &api.FieldError{Field: "mark_connected", Message: virtualTypeLabels[typ] + " interfaces cannot be marked as connected."}
	}
	// Parent, bridge and LAG: other interfaces of the same device or of
	// another member of its virtual chassis.
	if p, ok := rawsql.IntOf(row["parent_id"]); ok {
		if p == id {
			return &api.FieldError{Field: "parent", Message: "An interface cannot be its own parent."}
		}
		if typ != "virtual" {
			return &api.FieldError{Field: "parent", Message: "Only virtual interfaces may be assigned to a parent interface."}
		}
		if err := sameDevice(ctx, m, "parent", "parent", p, device, "The selected parent interface (%s) belongs to a different device (%s)"); err != nil {
			return err
		}
	}
	if b, ok := rawsql.IntOf(row["bridge_id"]); ok {
		if b == id {
			return &api.FieldError{Field: "bridge", Message: "An interface cannot be bridged to itself."}
		}
		if err := sameDevice(ctx, m, "bridge", "bridge", b, device, "The selected bridge interface (%s) belongs to a different device (%s)."); err != nil {
			return err
		}
	}
	if l, ok := rawsql.IntOf(row["lag_id"]); ok {
		if typ == "virtual" {
			return &api.FieldError{Field: "lag", Message: "Virtual interfaces cannot have a parent LAG interface."}
		}
		if l == id {
			return &api.FieldError{Field: "lag", Message: "A LAG interface cannot be its own parent."}
		}
		// Any interface of the device or of its virtual chassis: NetBox's
		// lag FK has no limit_choices_to (only the UI's choices are of
		// type lag), so its API takes any type.
		if err := sameDevice(ctx, m, "lag", "LAG", l, device, "The selected LAG interface (%s) belongs to a different device (%s)."); err != nil {
			return err
		}
	}
	switch {
	case row["poe_mode"] != nil && virtual:
		return &api.FieldError{Field: "poe_mode", Message: "Virtual interfaces cannot have a PoE mode."}
	case row["poe_type"] != nil && virtual:
		return &api.FieldError{Field: "poe_type", Message: "Virtual interfaces cannot have a PoE type."}
	case row["poe_type"] != nil && row["poe_mode"] == nil:
		return &api.FieldError{Field: "poe_type", Message: "Must specify PoE mode when designating a PoE type."}
	}
	if err := checkWireless(row, wireless); err != nil {
		return err
	}
	if err := checkVLANs(ctx, m, id, row, device); err != nil {
		return err
	}
	if mac, ok := rawsql.IntOf(row["primary_mac_address_id"]); ok {
		rows, err := rawsql.LoadRows(ctx, m, "dcim_macaddress", []string{"mac_address", "assigned_object_type", "assigned_object_id"}, []int{mac})
		if err != nil {
			return err
		}
		r, found := rows[mac]
		other, assigned := rawsql.IntOf(r["assigned_object_id"])
		if found && assigned && (rawsql.StringOf(r["assigned_object_type"]) != "dcim.interface" || other != id) {
			return &api.FieldError{Field: "primary_mac_address", Message: fmt.Sprintf(
				"MAC address %s is assigned to a different interface (%s).", rawsql.StringOf(r["mac_address"]), interfaceName(ctx, m, other))}
		}
	}
	return nil
}

// interfaceName is an interface's display, for messages.
func interfaceName(ctx context.Context, m rawsql.Mutation, id int) string {
	s, err := loadSibling(ctx, m, "dcim_interface", id, false, false)
	if err != nil || !s.found {
		return strconv.Itoa(id)
	}
	return s.String()
}

// sameDevice refuses interface other unless it is on device or, when
// device is in a virtual chassis, on another member of it (NetBox's
// Interface.clean()); msg takes the other interface and its device, kind
// names the relation in the chassis message.
func sameDevice(ctx context.Context, m rawsql.Mutation, field, kind string, other int, device any, msg string) error {
	s, err := loadSibling(ctx, m, "dcim_interface", other, false, false)
	if err != nil || !s.found {
		return err
	}
	if s.device == device {
		return nil
	}
	var ids []int
	for _, d := range []any{device, s.device} {
		if n, ok := rawsql.IntOf(d); ok {
			ids = append(ids, n)
		}
	}
	devices, err := rawsql.LoadRows(ctx, m, "dcim_device", []string{"name", "virtual_chassis_id"}, ids)
	if err != nil {
		return err
	}
	own, theirs := devices[intOr(device)], devices[intOr(s.device)]
	name := rawsql.StringOf(theirs["name"])
	if name == "" {
		name = fmt.Sprint(s.device)
	}
	vc, inChassis := rawsql.IntOf(own["virtual_chassis_id"])
	if !inChassis {
		return &api.FieldError{Field: field, Message: fmt.Sprintf(msg, s, name)}
	}
	if other, ok := rawsql.IntOf(theirs["virtual_chassis_id"]); ok && other == vc {
		return nil
	}
	chassis, err := rawsql.LoadRows(ctx, m, "dcim_virtualchassis", []string{"name"}, []int{vc})
	if err != nil {
		return err
	}
	return &api.FieldError{Field: field, Message: fmt.Sprintf(
		"The selected %s interface (%s) belongs to %s, which is not part of virtual chassis %s.",
		kind, s, name, rawsql.StringOf(chassis[vc]["name"]))}
}

// intOr is a row value as an int key, 0 when it is none.
func intOr(v any) int {
	n, _ := rawsql.IntOf(v)
	return n
}

// checkWireless: the RF settings only on wireless interfaces, and a
// channel's frequency and width are the channel's own.
func checkWireless(row map[string]any, wireless bool) error {
	ch := rawsql.StringOf(row["rf_channel"])
	freq, hasFreq := asDecimal(row["rf_channel_frequency"])
	width, hasWidth := asDecimal(row["rf_channel_width"])
	switch {
	case row["rf_role"] != nil && rawsql.StringOf(row["rf_role"]) != "" && !wireless:
		return &api.FieldError{Field: "rf_role", Message: "Wireless role may be set only on wireless interfaces."}
	case ch != "" && !wireless:
		return &api.FieldError{Field: "rf_channel", Message: "Channel may be set only on wireless interfaces."}
	case hasFreq && !wireless:
		return &api.FieldError{Field: "rf_channel_frequency", Message: "Channel frequency may be set only on wireless interfaces."}
	case hasWidth && !wireless:
		return &api.FieldError{Field: "rf_channel_width", Message: "Channel width may be set only on wireless interfaces."}
	}
	if ch == "" {
		return nil
	}
	cf, cw, ok := ChannelAttrs(ch)
	if !ok {
		return nil // the choice validation answers
	}
	if hasFreq && freq != cf {
		return &api.FieldError{Field: "rf_channel_frequency", Message: "Cannot specify custom frequency with channel selected."}
	}
	if hasWidth && width != cw {
		return &api.FieldError{Field: "rf_channel_width", Message: "Cannot specify custom width with channel selected."}
	}
	return nil
}

// ChannelAttrs are the frequency and width (MHz) a wireless channel value
// names ("5g-36-5180-20"), as NetBox's get_channel_attr reads them.
func ChannelAttrs(channel string) (freq, width float64, ok bool) {
	parts := strings.Split(channel, "-")
	if len(parts) != 4 {
		return 0, 0, false
	}
	f, err1 := strconv.ParseFloat(parts[2], 64)
	w, err2 := strconv.ParseFloat(parts[3], 64)
	return f, w, err1 == nil && err2 == nil
}

// asDecimal reads a nullable decimal column value (false when null).
func asDecimal(v any) (float64, bool) {
	switch x := v.(type) {
	case nil:
		return 0, false
	case *float64:
		if x == nil {
			return 0, false
		}
	case string:
		f, err := strconv.ParseFloat(x, 64)
		return f, err == nil
	}
	return asFloat(v), true
}

// channelHook fills a channel's frequency and width when a write sets the
// channel without them (NetBox's Interface.save()).
func channelHook() ent.Hook {
	return func(next ent.Mutator) ent.Mutator {
		return ent.MutateFunc(func(ctx context.Context, m ent.Mutation) (ent.Value, error) {
			v, ok := m.Field("rf_channel")
			ch, _ := v.(string)
			if f, w, valid := ChannelAttrs(ch); ok && valid {
				if _, given := m.Field("rf_channel_frequency"); !given {
					if err := m.SetField("rf_channel_frequency", f); err != nil {
						return nil, err
					}
				}
				if _, given := m.Field("rf_channel_width"); !given {
					if err := m.SetField("rf_channel_width", w); err != nil {
						return nil, err
					}
				}
			}
			return next.Mutate(ctx, m)
		})
	}
}

// The join table of an interface's tagged VLANs.
const taggedVLANTable, taggedVLANOwn = "dcim_interface_tagged_vlans", "interface_id"

// InterfaceVLANs are the VLANs an interface's row and request name.
type InterfaceVLANs struct {
	Untagged, SVLAN       int
	HasUntagged, HasSVLAN bool
	// Tagged are the tagged VLANs the request sets; TaggedGiven says
	// whether it sets them at all.
	Tagged      []int
	TaggedGiven bool
}

// CheckVLANMode is the serializer's 802.1Q check, shared by device and VM
// interfaces: a mode carries only the VLANs it supports. table and own
// name the join table of the interface's tagged VLANs, read when the
// request leaves them as they are.
func CheckVLANMode(ctx context.Context, m rawsql.Mutation, id int, row map[string]any, table, own string) (InterfaceVLANs, error) {
	var v InterfaceVLANs
	mode := rawsql.StringOf(row["mode"])
	v.Tagged, v.TaggedGiven = api.Related(ctx, "tagged_vlans")
	hasTagged := len(v.Tagged) > 0
	if !v.TaggedGiven && id != 0 {
		a := &rawsql.Args{PG: rawsql.Postgres(m)}
		n, err := rawsql.Int(ctx, m, `SELECT COUNT(*) FROM `+table+` WHERE `+own+` = `+a.P(id), a)
		if err != nil {
			return v, err
		}
		hasTagged = n > 0
	}
	v.Untagged, v.HasUntagged = rawsql.IntOf(row["untagged_vlan_id"])
	v.SVLAN, v.HasSVLAN = rawsql.IntOf(row["qinq_svlan_id"])
	switch {
	case mode != "q-in-q" && v.HasSVLAN:
		return v, &api.FieldError{Field: "qinq_svlan", Message: "Interface mode does not support q-in-q service vlan"}
	case mode == "" && v.HasUntagged:
		return v, &api.FieldError{Field: "untagged_vlan", Message: "Interface mode does not support untagged vlan"}
	case (mode == "" || mode == "access" || mode == "tagged-all") && hasTagged:
		return v, &api.FieldError{Field: "tagged_vlans", Message: "Interface mode does not support tagged vlans"}
	}
	return v, nil
}

// VLANString is str() of a VLAN row read with its name and vid, as
// NetBox's messages name a VLAN: "<name> (<vid>)".
func VLANString(r map[string]any) string {
	vid, _ := rawsql.IntOf(r["vid"])
	return fmt.Sprintf("%s (%d)", rawsql.StringOf(r["name"]), vid)
}

// checkVLANs is the serializer's 802.1Q mode check, then the VLAN sites
// as NetBox checks them: the tagged VLANs the request sets (the
// serializer) and the untagged VLAN (Interface.clean()) belong to the
// device's site or to none. NetBox checks no more: a VLAN of a group
// scoped elsewhere but with no site is accepted (the UI's choices are
// narrower, VLANQuerySet.get_for_device, the API's are not), and the
// Q-in-Q service VLAN's site is not checked at all.
func checkVLANs(ctx context.Context, m rawsql.Mutation, id int, row map[string]any, device any) error {
	vlans, err := CheckVLANMode(ctx, m, id, row, taggedVLANTable, taggedVLANOwn)
	if err != nil {
		return err
	}
	check := slices.Clone(vlans.Tagged)
	if vlans.HasUntagged {
		check = append(check, vlans.Untagged)
	}
	if len(check) == 0 {
		return nil
	}
	d, ok := rawsql.IntOf(device)
	if !ok {
		return nil
	}
	dev, err := rawsql.LoadRows(ctx, m, "dcim_device", []string{"site_id"}, []int{d})
	if err != nil {
		return err
	}
	site, _ := rawsql.IntOf(dev[d]["site_id"])
	rows, err := rawsql.LoadRows(ctx, m, "ipam_vlan", []string{"name", "vid", "site_id"}, check)
	if err != nil {
		return err
	}
	// refused names the VLAN when it has a site other than the device's.
	refused := func(vlan int) (string, bool) {
		r, found := rows[vlan]
		s, hasSite := rawsql.IntOf(r["site_id"])
		return VLANString(r), found && hasSite && s != site
	}
	for _, v := range vlans.Tagged {
		if n, bad := refused(v); bad {
			return &api.FieldError{Field: "tagged_vlans", Message: fmt.Sprintf(
				"VLAN %s must belong to the same site as the interface's parent device, or it must be global.", n)}
		}
	}
	if n, bad := refused(vlans.Untagged); vlans.HasUntagged && bad {
		return &api.FieldError{Field: "untagged_vlan", Message: fmt.Sprintf(
			"The untagged VLAN (%s) must belong to the same site as the interface's parent device, or it must be global.", n)}
	}
	return nil
}

// InterfaceAfterHook keeps what NetBox's BaseInterface.save() does beside
// the row, for device and VM interfaces: an interface out of tagged mode
// keeps no tagged VLANs (in the join table named by table and own), and
// the cached mac_address follows the primary MAC address.
//
// save() clears the tagged VLANs on every update of an interface whose
// mode is not tagged (the serializer then sets those the request gives,
// as writeM2M does after this hook). A device interface has tagged VLANs
// only in tagged mode (its serializer refuses them otherwise), so for it
// only a change of mode can leave some to clear; a VM interface takes
// tagged VLANs in any mode, and everySave makes any save of one clear
// them as NetBox's does: ifaces is then the interface table, read for
// the mode after the write.
func InterfaceAfterHook(table, own string, everySave bool, ifaces string) ent.Hook {
	return func(next ent.Mutator) ent.Mutator {
		return ent.MutateFunc(func(ctx context.Context, m ent.Mutation) (ent.Value, error) {
			if !m.Op().Is(ent.OpCreate | ent.OpUpdate | ent.OpUpdateOne) {
				return next.Mutate(ctx, m)
			}
			sm, err := rawsql.As("interface", m)
			if err != nil {
				return nil, err
			}
			if rawsql.Touched(m, "primary_mac_address_id") {
				var text any
				if v, ok := m.Field("primary_mac_address_id"); ok {
					mac, _ := rawsql.IntOf(rawsql.Plain(v))
					rows, err := rawsql.LoadRows(ctx, sm, "dcim_macaddress", []string{"mac_address"}, []int{mac})
					if err != nil {
						return nil, err
					}
					text = rows[mac]["mac_address"]
				}
				if text == nil {
					err = m.ClearField("mac_address")
				} else {
					err = m.SetField("mac_address", rawsql.StringOf(text))
				}
				if err != nil {
					return nil, err
				}
			}
			if everySave && m.Op().Is(ent.OpUpdateOne) {
				// One interface saved (UpdateOne), not the bulk updates
				// of cascades, which are SQL updates in NetBox too.
				ids, err := rawsql.TargetIDs(ctx, sm)
				if err != nil {
					return nil, err
				}
				v, err := next.Mutate(ctx, m)
				if err != nil {
					return v, err
				}
				a := &rawsql.Args{PG: rawsql.Postgres(sm)}
				q := `DELETE FROM ` + table + ` WHERE ` + own + ` IN (` + rawsql.In(a, ids) + `) AND ` + own +
					` NOT IN (SELECT id FROM ` + ifaces + ` WHERE mode = 'tagged')`
				return v, rawsql.Exec(ctx, sm, q, a)
			}
			v, err := next.Mutate(ctx, m)
			if err != nil || !rawsql.Touched(m, "mode") {
				return v, err
			}
			if mode, _ := m.Field("mode"); rawsql.Plain(mode) == "tagged" {
				return v, nil
			}
			ids, err := rawsql.TargetIDs(ctx, sm)
			if err != nil {
				return nil, err
			}
			a := &rawsql.Args{PG: rawsql.Postgres(sm)}
			q := `DELETE FROM ` + table + ` WHERE ` + own + ` IN (` + rawsql.In(a, ids) + `)`
			return v, rawsql.Exec(ctx, sm, q, a)
		})
	}
}

// MACAddressHooks: a MAC address is EUI-48, stored as NetBox renders it
// (upper case, colons); interfaces that hold it as their primary MAC keep
// its text (their cached mac_address), and lose it with it.
func MACAddressHooks() []ent.Hook {
	return []ent.Hook{func(next ent.Mutator) ent.Mutator {
		return ent.MutateFunc(func(ctx context.Context, m ent.Mutation) (ent.Value, error) {
			sm, err := rawsql.As("mac address", m)
			if err != nil {
				return nil, err
			}
			if v, ok := m.Field("mac_address"); ok {
				s, _ := v.(string)
				mac := NormalizeMAC(s)
				if mac == "" {
					return nil, &api.FieldError{Field: "mac_address", Message: "Invalid MAC address format: " + s}
				}
				if err := m.SetField("mac_address", mac); err != nil {
					return nil, err
				}
			}
			if t, ok := m.Field("assigned_object_type"); ok && t != nil {
				if _, hasID := m.Field("assigned_object_id"); !hasID && m.Op().Is(ent.OpCreate) {
					return nil, &api.FieldError{Field: "assigned_object_id", Message: "This field is required."}
				}
			}
			var ids []int
			if !m.Op().Is(ent.OpCreate) {
				if ids, err = rawsql.TargetIDs(ctx, sm); err != nil {
					return nil, err
				}
			}
			if m.Op().Is(ent.OpUpdate|ent.OpUpdateOne) && rawsql.Touched(m, "assigned_object_type", "assigned_object_id") {
				// NetBox refuses to move a MAC that is its interface's primary.
				cols := []string{"assigned_object_type", "assigned_object_id"}
				old, err := rawsql.LoadRows(ctx, sm, "dcim_macaddress", cols, ids)
				if err != nil {
					return nil, err
				}
				var moved []int
				unassigned := false
				for _, id := range ids {
					row := rawsql.Overlay(m, cols, old[id])
					if rawsql.StringOf(row["assigned_object_type"]) != rawsql.StringOf(old[id]["assigned_object_type"]) ||
						norm(row["assigned_object_id"]) != norm(old[id]["assigned_object_id"]) {
						moved = append(moved, id)
						_, has := rawsql.IntOf(row["assigned_object_id"])
						unassigned = unassigned || !has
					}
				}
				n := 0
				if len(moved) > 0 {
					a := &rawsql.Args{PG: rawsql.Postgres(sm)}
					if n, err = rawsql.Int(ctx, sm, `SELECT (SELECT COUNT(*) FROM dcim_interface WHERE primary_mac_address_id IN (`+rawsql.In(a, moved)+
						`)) + (SELECT COUNT(*) FROM virtualization_vminterface WHERE primary_mac_address_id IN (`+rawsql.In(a, moved)+`))`, a); err != nil {
						return nil, err
					}
				}
				if n > 0 {
					// NetBox's MACAddress.clean: "unassign" when the MAC
					// is left without an object, "reassign" when moved.
					verb := "reassign"
					if unassigned {
						verb = "unassign"
					}
					return nil, &api.FieldError{Field: "__all__", Message: "Cannot " + verb + " MAC Address while it is designated as the primary MAC for an object"}
				}
			}
			v, err := next.Mutate(ctx, m)
			if err != nil || m.Op().Is(ent.OpCreate) {
				return v, err
			}
			var mac any
			if !m.Op().Is(ent.OpDelete | ent.OpDeleteOne) {
				if !rawsql.Touched(m, "mac_address") {
					return v, nil
				}
				mac, _ = m.Field("mac_address")
			}
			// Both kinds of interface cache it: device and VM interfaces.
			for _, t := range []string{"dcim_interface", "virtualization_vminterface"} {
				a := &rawsql.Args{PG: rawsql.Postgres(sm)}
				set := "NULL"
				if mac != nil {
					set = a.P(mac)
				}
				q := `UPDATE ` + t + ` SET mac_address = ` + set + ` WHERE primary_mac_address_id IN (` + rawsql.In(a, ids) + `)`
				if err := rawsql.Exec(ctx, sm, q, a); err != nil {
					return nil, err
				}
			}
			return v, nil
		})
	}}
}

// PrimaryMACHook: an interface created with a primary MAC address gets
// that MAC assigned to it (NetBox's update_mac_address_interface, for
// device and VM interfaces; ct is the interface's content type). The
// interface's own check has already refused a MAC assigned elsewhere.
func PrimaryMACHook(ct string) ent.Hook {
	return func(next ent.Mutator) ent.Mutator {
		return ent.MutateFunc(func(ctx context.Context, m ent.Mutation) (ent.Value, error) {
			v, ok := m.Field("primary_mac_address_id")
			if !m.Op().Is(ent.OpCreate) || !ok || api.Importing(ctx) {
				return next.Mutate(ctx, m)
			}
			mac, _ := rawsql.IntOf(rawsql.Plain(v))
			sm, err := rawsql.As("primary MAC", m)
			if err != nil {
				return nil, err
			}
			val, ids, err := rawsql.Written(ctx, sm, next, nil)
			if err != nil {
				return nil, err
			}
			if err := api.Saving(ctx, m, "dcim.macaddress", []int{mac}); err != nil {
				return nil, err
			}
			a := &rawsql.Args{PG: rawsql.Postgres(sm)}
			return val, rawsql.Exec(ctx, sm, `UPDATE "dcim_macaddress" SET assigned_object_type = `+a.P(ct)+
				`, assigned_object_id = `+a.P(ids[0])+`, last_updated = `+a.P(now())+` WHERE id = `+a.P(mac), a)
		})
	}
}

// InterfaceKindTypes are the interface types of a kind (NetBox's kind
// filter: virtual and wireless types; physical is every other type, nil).
func InterfaceKindTypes(kind string) []string {
	switch kind {
	case "virtual":
		return virtualInterfaceTypes
	case "wireless":
		return wirelessInterfaceTypes
	}
	return nil
}

// NormalizeMAC is a MAC address as stored (upper case, colons), or "" when
// s is none.
func NormalizeMAC(s string) string {
	hw, err := net.ParseMAC(strings.TrimSpace(s))
	if err != nil || len(hw) != 6 {
		return ""
	}
	return strings.ToUpper(hw.String())
}
