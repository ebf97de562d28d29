package circuits

import (
	"context"
	"fmt"
	"slices"

	"entgo.io/ent"

	"github.com/inventory/inventory/ent/logic/rawsql"
	"github.com/inventory/inventory/ent/schema/api"
)

// VirtualTerminationRoles are the roles of a virtual circuit termination.
var VirtualTerminationRoles = api.C("peer", "Peer", "hub", "Hub", "spoke", "Spoke")

// virtualInterfaceTypes are NetBox's VIRTUAL_IFACE_TYPES: the interfaces
// a virtual circuit may terminate on.
var virtualInterfaceTypes = []string{"virtual", "lag", "bridge"}

// VirtualCircuitHooks are the hooks of circuits.VirtualCircuit:
// VirtualCircuit.clean() (the account belongs to the provider of the
// provider network) and the cid copied into the terminations' displays.
func VirtualCircuitHooks() []ent.Hook {
	return []ent.Hook{
		rowHook(tableVirtualCircuit, []string{"provider_network_id", "provider_account_id"},
			func(ctx context.Context, m rawsql.Mutation, _ int, row map[string]any) error {
				acct, ok := rawsql.IntOf(row["provider_account_id"])
				net, ok2 := rawsql.IntOf(row["provider_network_id"])
				if !ok || !ok2 {
					return nil
				}
				a, err := lookup(ctx, m, tableProviderAccount, acct, "provider_id")
				if err != nil || a == nil {
					return err
				}
				n, err := lookup(ctx, m, tableProviderNetwork, net, "provider_id")
				if err != nil || n == nil {
					return err
				}
				if a["provider_id"] != n["provider_id"] {
					return &api.FieldError{Field: "provider_account", Message: "The assigned account must belong to the provider of the assigned network."}
				}
				return nil
			}),
		rawsql.CopyOnRename("cid", tableVirtualTerm, "virtual_circuit_id", "_virtual_circuit_cid"),
	}
}

// VirtualCircuitTerminationDisplay is NetBox's
// VirtualCircuitTermination.__str__, "<virtual circuit>: <Role>
// termination".
func VirtualCircuitTerminationDisplay(get api.Getter) string {
	return fmt.Sprintf("%s: %s termination", rawsql.StringOf(get("_virtual_circuit_cid")), label(VirtualTerminationRoles, rawsql.StringOf(get("role"))))
}

// VirtualCircuitTerminationHooks: clean() (the interface is virtual; NetBox
// raises it without a field, we name interface, the field to fix) and the
// virtual circuit's cid copied for the display.
func VirtualCircuitTerminationHooks() []ent.Hook {
	return []ent.Hook{
		rowHook(tableVirtualTerm, []string{"interface_id"},
			func(ctx context.Context, m rawsql.Mutation, _ int, row map[string]any) error {
				ifc, ok := rawsql.IntOf(row["interface_id"])
				if !ok {
					return nil
				}
				r, err := lookup(ctx, m, tableInterface, ifc, "type")
				if err != nil || r == nil {
					return err
				}
				if !slices.Contains(virtualInterfaceTypes, rawsql.StringOf(r["type"])) {
					return &api.FieldError{Field: "interface", Message: "Virtual circuits may be terminated only to virtual interfaces."}
				}
				return nil
			}),
		copyName("virtual_circuit_id", tableVirtualCircuit, "cid", "_virtual_circuit_cid"),
	}
}

// label is the label of value among choices ("" when unknown).
func label(choices []api.Choice, value string) string {
	for _, c := range choices {
		if c.Value == value {
			return c.Label
		}
	}
	return ""
}
