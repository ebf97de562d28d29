package circuits

import (
	"context"
	"fmt"
	"strings"

	"entgo.io/ent"

	"github.com/inventory/inventory/ent/logic/rawsql"
	"github.com/inventory/inventory/ent/schema/api"
)

// Tables the hooks read and write.
const (
	tableCircuit         = "circuits_circuit"
	tableTermination     = "circuits_circuittermination"
	tableProviderAccount = "circuits_provideraccount"
	tableProviderNetwork = "circuits_providernetwork"
	tableVirtualCircuit  = "circuits_virtualcircuit"
	tableVirtualTerm     = "circuits_virtualcircuittermination"
	tableGroup           = "circuits_circuitgroup"
	tableGroupAssignment = "circuits_circuitgroupassignment"
	tableInterface       = "dcim_interface"
)

// ValidateDistance checks a distance as NetBox's DistanceMixin declares
// it: DecimalField(max_digits=8, decimal_places=2), with DRF's messages.
func ValidateDistance(v float64) error {
	const digits, places = 8, 2
	s := fmt.Sprintf("%.*f", places+6, v)
	s = strings.TrimLeft(strings.TrimRight(s, "0"), "-")
	intPart, frac, _ := strings.Cut(s, ".")
	if len(frac) > places {
		return &api.FieldError{Field: "distance", Message: fmt.Sprintf("Ensure that there are no more than %d decimal places.", places)}
	}
	if intPart == "0" {
		intPart = ""
	}
	if len(intPart) > digits-places {
		return &api.FieldError{Field: "distance", Message: fmt.Sprintf("Ensure that there are no more than %d digits before the decimal point.", digits-places)}
	}
	return nil
}

// CircuitHooks are the hooks of circuits.Circuit: Circuit.clean() and
// DistanceMixin's clean() and save(), and the cid copied into the
// terminations' displays.
func CircuitHooks() []ent.Hook {
	return []ent.Hook{
		distanceUnitHook,
		rowHook(tableCircuit, []string{"provider_id", "provider_account_id", "distance", "distance_unit"},
			func(ctx context.Context, m rawsql.Mutation, _ int, row map[string]any) error {
				if err := checkDistance(row); err != nil {
					return err
				}
				acct, ok := rawsql.IntOf(row["provider_account_id"])
				if !ok {
					return nil
				}
				a, err := lookup(ctx, m, tableProviderAccount, acct, "provider_id")
				if err != nil || a == nil {
					return err
				}
				if p, _ := rawsql.IntOf(row["provider_id"]); p != a["provider_id"] {
					return &api.FieldError{Field: "provider_account", Message: "The assigned account must belong to the assigned provider."}
				}
				return nil
			}),
		rawsql.CopyOnRename("cid", tableTermination, "circuit_id", "_circuit_cid"),
	}
}

// CheckDistance and DistanceUnitHook are DistanceMixin's clean() and
// save() for the other models with a distance (wireless links).
func CheckDistance(row map[string]any) error { return checkDistance(row) }

// DistanceUnitHook: see CheckDistance.
var DistanceUnitHook ent.Hook = distanceUnitHook

// checkDistance is DistanceMixin.clean(): a distance needs its unit.
// NetBox raises it without a field; we name distance_unit, the field to
// fix (as device types do for their weight).
func checkDistance(row map[string]any) error {
	if d, _ := row["distance"].(float64); d != 0 && row["distance_unit"] == nil {
		return &api.FieldError{Field: "distance_unit", Message: "Must specify a unit when setting a distance"}
	}
	return nil
}

// distanceUnitHook is DistanceMixin.save(): a write that clears the
// distance clears its unit too.
func distanceUnitHook(next ent.Mutator) ent.Mutator {
	return ent.MutateFunc(func(ctx context.Context, m ent.Mutation) (ent.Value, error) {
		cleared := m.FieldCleared("distance")
		if v, ok := m.Field("distance"); ok && rawsql.Plain(v) == nil {
			cleared = true
		}
		if m.Op().Is(ent.OpCreate) {
			_, set := m.Field("distance")
			cleared = !set || cleared
		}
		if cleared {
			if err := m.ClearField("distance_unit"); err != nil {
				return nil, err
			}
		}
		return next.Mutate(ctx, m)
	})
}
