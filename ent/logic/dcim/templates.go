package dcim

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"entgo.io/ent"

	"github.com/inventory/inventory/ent/logic/rawsql"
	"github.com/inventory/inventory/ent/schema/api"
)

// Component templates: the rules NetBox's ComponentTemplateModel,
// ModularComponentTemplateModel and each template's clean() apply. One
// hook per template model, built by templateHook from the common rules
// plus the model's own.

// ModuleToken is the placeholder a module type's template names carry
// for the position of the module bay the module is installed in.
const ModuleToken = "{module}"

// TemplateDisplay is a template's display: "name (label)" when a label is
// set, else the name (NetBox's ComponentTemplateModel.__str__).
func TemplateDisplay(get api.Getter) string {
	name, _ := get("name").(string)
	if label, _ := get("label").(string); label != "" {
		return name + " (" + label + ")"
	}
	return name
}

// TemplateHooks are the hooks of a template model without rules of its
// own (console port, console server port and module bay templates):
// table is its table; modular says it may belong to a module type.
func TemplateHooks(table string, modular bool) []ent.Hook {
	return []ent.Hook{templateHook(table, modular, nil, nil)}
}

// templateHook checks the rules every template shares, then extra with
// the columns it names.
func templateHook(table string, modular bool, columns []string, extra rawsql.RowCheck) ent.Hook {
	cols := append([]string{"device_type_id", "name"}, columns...)
	if modular {
		cols = append(cols, "module_type_id")
	}
	return rawsql.RowHook(table, cols, func(ctx context.Context, m rawsql.Mutation, id int, row, old map[string]any) error {
		_, hasDT := rawsql.IntOf(row["device_type_id"])
		_, hasMT := rawsql.IntOf(row["module_type_id"])
		if id != 0 && norm(old["device_type_id"]) != norm(row["device_type_id"]) {
			return &api.FieldError{Field: "device_type", Message: "Component templates cannot be moved to a different device type."}
		}
		if modular && hasDT && hasMT {
			return &api.FieldError{Field: "__all__", Message: "A component template cannot be associated with both a device type and a module type."}
		}
		if modular && !hasDT && !hasMT {
			return &api.FieldError{Field: "__all__", Message: "A component template must be associated with either a device type or a module type."}
		}
		// NetBox substitutes {module} only when a module type's template is
		// instantiated; on a device type's template it would stay literal
		// in every device's component name, so it is refused there.
		if hasDT && strings.Contains(rawsql.StringOf(row["name"]), ModuleToken) {
			return &api.FieldError{Field: "name", Message: "The {module} placeholder may be used only in templates of module types."}
		}
		if extra != nil {
			return extra(ctx, m, id, row, old)
		}
		return nil
	})
}

// sibling is another template row that a template points at.
type sibling struct {
	deviceType, moduleType any
	device                 any // a component's device (components, not templates)
	name, label            string
	positions              int
	found                  bool
}

func (s sibling) String() string {
	if s.label != "" {
		return s.name + " (" + s.label + ")"
	}
	return s.name
}

// loadSibling reads template id of table (positions only when withPositions).
func loadSibling(ctx context.Context, m rawsql.Mutation, table string, id int, modular, withPositions bool) (sibling, error) {
	cols := []string{"device_type_id", "name", "label"}
	if modular {
		cols = append(cols, "module_type_id")
	}
	if !strings.HasSuffix(table, "template") {
		cols = []string{"device_id", "name", "label"}
	}
	if withPositions {
		cols = append(cols, "positions")
	}
	rows, err := rawsql.LoadRows(ctx, m, table, cols, []int{id})
	if err != nil {
		return sibling{}, err
	}
	r, ok := rows[id]
	if !ok {
		return sibling{}, nil
	}
	p, _ := rawsql.IntOf(r["positions"])
	return sibling{deviceType: norm(r["device_type_id"]), moduleType: norm(r["module_type_id"]), device: norm(r["device_id"]),
		name: rawsql.StringOf(r["name"]), label: rawsql.StringOf(r["label"]), positions: p, found: true}, nil
}

// sameParent reports whether s has the parent of row; kind is "device
// type" or "module type" for the message.
func sameParent(s sibling, row map[string]any) (bool, string) {
	if d := norm(row["device_id"]); d != nil {
		return s.device == d, "device"
	}
	if dt := norm(row["device_type_id"]); dt != nil {
		return s.deviceType == dt, "device type"
	}
	return s.moduleType == norm(row["module_type_id"]), "module type"
}

// norm makes an id comparable across drivers (nil when null).
func norm(v any) any {
	if n, ok := rawsql.IntOf(v); ok {
		return n
	}
	return nil
}

func notFound(field string, id int) error {
	return &api.FieldError{Field: field, Message: fmt.Sprintf("Invalid pk \"%d\" - object does not exist.", id)}
}

// PowerPortTemplateHooks: the allocated draw may not exceed the maximum.
func PowerPortTemplateHooks() []ent.Hook {
	return []ent.Hook{templateHook("dcim_powerporttemplate", true, []string{"maximum_draw", "allocated_draw"}, checkDraw)}
}

// PowerOutletTemplateHooks: the power port template feeding an outlet
// template belongs to the same device type or module type. NetBox raises
// this without a field; we name power_port, the field to fix.
func PowerOutletTemplateHooks() []ent.Hook {
	return []ent.Hook{templateHook("dcim_poweroutlettemplate", true, []string{"power_port_id"},
		func(ctx context.Context, m rawsql.Mutation, id int, row, old map[string]any) error {
			pp, ok := rawsql.IntOf(row["power_port_id"])
			if !ok {
				return nil
			}
			s, err := loadSibling(ctx, m, "dcim_powerporttemplate", pp, true, false)
			if err != nil || !s.found {
				return err
			}
			if same, kind := sameParent(s, row); !same {
				return &api.FieldError{Field: "power_port", Message: fmt.Sprintf("Parent power port (%s) must belong to the same %s", s, kind)}
			}
			return nil
		})}
}

// Interface types that are not physical (VIRTUAL_IFACE_TYPES) and those
// that are wireless (WIRELESS_IFACE_TYPES), from NetBox's dcim/constants.py.
var (
	virtualInterfaceTypes  = []string{"virtual", "lag", "bridge"}
	wirelessInterfaceTypes = []string{"ieee802.11a", "ieee802.11g", "ieee802.11n", "ieee802.11ac", "ieee802.11ad",
		"ieee802.11ax", "ieee802.11ay", "ieee802.11be", "ieee802.15.1", "ieee802.15.4", "other-wireless", "gsm",
		"cdma", "lte", "4g", "5g"}
)

// IsWirelessType reports whether an interface type is wireless (NetBox's
// WIRELESS_IFACE_TYPES): the ends of a wireless link must be.
func IsWirelessType(typ string) bool { return slices.Contains(wirelessInterfaceTypes, typ) }

// InterfaceTemplateHooks: a bridge is another interface template of the
// same device type or module type; PoE only on physical interfaces, a PoE
// type needs a mode; a wireless role only on wireless interfaces
// (InterfaceValidationMixin and InterfaceTemplate.clean()).
func InterfaceTemplateHooks() []ent.Hook {
	return []ent.Hook{templateHook("dcim_interfacetemplate", true, []string{"type", "bridge_id", "poe_mode", "poe_type", "rf_role"},
		func(ctx context.Context, m rawsql.Mutation, id int, row, old map[string]any) error {
			typ := rawsql.StringOf(row["type"])
			if br, ok := rawsql.IntOf(row["bridge_id"]); ok {
				if br == id {
					return &api.FieldError{Field: "bridge", Message: "An interface cannot be bridged to itself."}
				}
				s, err := loadSibling(ctx, m, "dcim_interfacetemplate", br, true, false)
				if err != nil {
					return err
				}
				if same, kind := sameParent(s, row); s.found && !same {
					return &api.FieldError{Field: "bridge", Message: fmt.Sprintf("Bridge interface (%s) must belong to the same %s", s, kind)}
				}
			}
			virtual := slices.Contains(virtualInterfaceTypes, typ)
			switch {
			case row["poe_mode"] != nil && virtual:
				return &api.FieldError{Field: "poe_mode", Message: "Virtual interfaces cannot have a PoE mode."}
			case row["poe_type"] != nil && virtual:
				return &api.FieldError{Field: "poe_type", Message: "Virtual interfaces cannot have a PoE type."}
			case row["poe_type"] != nil && row["poe_mode"] == nil:
				return &api.FieldError{Field: "poe_type", Message: "Must specify PoE mode when designating a PoE type."}
			case row["rf_role"] != nil && !slices.Contains(wirelessInterfaceTypes, typ):
				return &api.FieldError{Field: "rf_role", Message: "Wireless role may be set only on wireless interfaces."}
			}
			return nil
		})}
}

// FrontPortTemplateHooks validates a front port template's rear_ports
// mappings: each maps one of its positions to a position of a rear port
// template on the same device type or module type.
func FrontPortTemplateHooks() []ent.Hook {
	return []ent.Hook{templateHook("dcim_frontporttemplate", true, []string{"positions", "mappings"},
		portMappings("rear_ports", "rear_port", "dcim_rearporttemplate", "rear port")),
		mirrorHook(frontSide),
	}
}

// RearPortTemplateHooks validates a rear port template's front_ports
// mappings, the mirror of a front port template's rear_ports.
func RearPortTemplateHooks() []ent.Hook {
	return []ent.Hook{templateHook("dcim_rearporttemplate", true, []string{"positions", "mappings"},
		portMappings("front_ports", "front_port", "dcim_frontporttemplate", "front port")),
		mirrorHook(rearSide),
	}
}

// portMappings checks a list of {position, <peer>, <peer>_position}
// (NetBox 4.6's PortTemplateMapping as the serializers show it): positions
// within both ports' counts, each own position mapped once, the peer on
// the same parent.
func portMappings(field, peer, peerTable, peerName string) rawsql.RowCheck {
	return func(ctx context.Context, m rawsql.Mutation, id int, row, old map[string]any) error {
		if !rawsql.Touched(m, "mappings", "positions") && id != 0 {
			return nil
		}
		list, err := mappingList(row["mappings"])
		if err != nil {
			return &api.FieldError{Field: field, Message: err.Error()}
		}
		positions, _ := rawsql.IntOf(row["positions"])
		mapped := peerName + "s"
		peerTitle := strings.ToUpper(peerName[:1]) + peerName[1:] // at a sentence's start
		if strings.HasSuffix(peerTable, "template") {
			mapped = peerName + " templates"
		}
		if positions < len(list) {
			return &api.FieldError{Field: "positions", Message: fmt.Sprintf(
				"The number of positions cannot be less than the number of mapped %s (%d)", mapped, len(list))}
		}
		seen := map[int]bool{}
		for i, e := range list {
			bad := func(msg string) error {
				return &api.FieldError{Field: field, Index: fmt.Sprint(i), Message: msg}
			}
			pos, ok1 := rawsql.IntOf(e["position"])
			pid, ok2 := rawsql.IntOf(e[peer])
			ppos, ok3 := rawsql.IntOf(e[peer+"_position"])
			if !ok1 || !ok2 || !ok3 {
				return bad(fmt.Sprintf("Each mapping needs position, %s and %s_position.", peer, peer))
			}
			if pos < 1 || pos > positions {
				return bad(fmt.Sprintf("Invalid position (%d); this port has only %d positions", pos, positions))
			}
			if seen[pos] {
				return bad(fmt.Sprintf("Position %d is mapped more than once.", pos))
			}
			seen[pos] = true
			s, err := loadSibling(ctx, m, peerTable, pid, true, true)
			if err != nil {
				return err
			}
			if !s.found {
				return bad(fmt.Sprintf("Invalid pk \"%d\" - object does not exist.", pid))
			}
			if same, kind := sameParent(s, row); !same {
				return bad(fmt.Sprintf("%s (%s) must belong to the same %s", peerTitle, s, kind))
			}
			if ppos < 1 || ppos > s.positions {
				// PortMappingBase.clean()'s words (the rear port's side; the
				// front port's, which NetBox does not check, in their shape).
				return bad(fmt.Sprintf("Invalid %s position (%d): %s %s has only %d positions.",
					peerName, ppos, peerTitle, s.name, s.positions))
			}
		}
		return nil
	}
}

// mappingList reads the mappings column: a JSON list of objects.
func mappingList(v any) ([]map[string]any, error) {
	var items []any
	switch x := v.(type) {
	case nil:
		return nil, nil
	case []any:
		items = x
	case string:
		if err := jsonUnmarshal(x, &items); err != nil {
			return nil, err
		}
	default:
		return nil, fmt.Errorf("Expected a list of items.")
	}
	out := make([]map[string]any, len(items))
	for i, it := range items {
		obj, ok := it.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("Invalid data. Expected a dictionary, but got %T.", it)
		}
		out[i] = obj
	}
	return out, nil
}

// DeviceBayTemplateHooks: device bays only on parent device types.
func DeviceBayTemplateHooks() []ent.Hook {
	return []ent.Hook{templateHook("dcim_devicebaytemplate", false, nil,
		func(ctx context.Context, m rawsql.Mutation, id int, row, old map[string]any) error {
			dt, ok := rawsql.IntOf(row["device_type_id"])
			if !ok {
				return nil
			}
			rows, err := rawsql.LoadRows(ctx, m, "dcim_devicetype", []string{"model", "subdevice_role"}, []int{dt})
			if err != nil {
				return err
			}
			if r, ok := rows[dt]; ok && rawsql.StringOf(r["subdevice_role"]) != "parent" {
				return &api.FieldError{Field: "__all__", Message: fmt.Sprintf(
					"Subdevice role of device type (%s) must be set to \"parent\" to allow device bays.", rawsql.StringOf(r["model"]))}
			}
			return nil
		})}
}

// InventoryItemTemplateHooks: the parent is an inventory item template of
// the same device type (the column has no database FK: the resource layer
// keeps the tree, this keeps it within one device type).
func InventoryItemTemplateHooks() []ent.Hook {
	return []ent.Hook{templateHook("dcim_inventoryitemtemplate", false, []string{"parent_id"},
		func(ctx context.Context, m rawsql.Mutation, id int, row, old map[string]any) error {
			p, ok := rawsql.IntOf(row["parent_id"])
			if !ok {
				return nil
			}
			s, err := loadSibling(ctx, m, "dcim_inventoryitemtemplate", p, false, false)
			if err != nil {
				return err
			}
			if !s.found {
				return notFound("parent", p)
			}
			if s.deviceType != norm(row["device_type_id"]) {
				return &api.FieldError{Field: "parent", Message: fmt.Sprintf("Parent inventory item template (%s) must belong to the same device type", s)}
			}
			return nil
		})}
}
