package circuits

import (
	"context"
	"fmt"
	"strings"

	"entgo.io/ent"

	"github.com/inventory/inventory/ent/logic/dcim"
	"github.com/inventory/inventory/ent/logic/ipam"
	"github.com/inventory/inventory/ent/logic/rawsql"
	"github.com/inventory/inventory/ent/schema/api"
)

// TerminationTypes are the objects a circuit termination may attach to
// (CIRCUIT_TERMINATION_TERMINATION_TYPES).
var TerminationTypes = []string{"dcim.region", "dcim.sitegroup", "dcim.site", "dcim.location", "circuits.providernetwork"}

// TerminationSides are the sides of a circuit, rendered as the bare value.
var TerminationSides = api.C("A", "A", "Z", "Z")

// terminationScope is a termination's cached scope: NetBox's
// cache_related_objects() fills _region, _site_group, _site and _location
// like a prefix's CachedScopeMixin, and _provider_network.
var terminationScope = ipam.CachedScope{Table: tableTermination, Type: "termination_type", ID: "termination_id",
	Own: map[string]string{"circuits.providernetwork": "_provider_network_id"}}

// CircuitTerminationDisplay is NetBox's CircuitTermination.__str__,
// "<circuit>: Termination <side>", the cid read from the cached copy.
func CircuitTerminationDisplay(get api.Getter) string {
	return fmt.Sprintf("%s: Termination %s", rawsql.StringOf(get("_circuit_cid")), rawsql.StringOf(get("term_side")))
}

// CircuitTerminationHooks are the hooks of circuits.CircuitTermination:
// clean() (a termination attaches to an object), the circuit's cid copied
// for the display, the cached scope, and the circuit's termination_a /
// termination_z kept pointing at its sides (save()).
func CircuitTerminationHooks() []ent.Hook {
	return []ent.Hook{
		rowHook(tableTermination, []string{"termination_type", "termination_id"},
			func(_ context.Context, _ rawsql.Mutation, _ int, row map[string]any) error {
				if row["termination_type"] == nil || row["termination_id"] == nil {
					return &api.FieldError{Field: "__all__", Message: "A circuit termination must attach to a terminating object."}
				}
				return nil
			}),
		copyName("circuit_id", tableCircuit, "cid", "_circuit_cid"),
		terminationScope.Hook(),
		sidesHook,
		dcim.CabledHook,
	}
}

// sidesHook keeps the circuits' cached termination_a and termination_z:
// after a create, or an update that moves a termination to another
// circuit or side, the old side forgets it and the new one points at it.
// (A deleted termination is forgotten by the SET_NULL of those keys.)
func sidesHook(next ent.Mutator) ent.Mutator {
	return ent.MutateFunc(func(ctx context.Context, m ent.Mutation) (ent.Value, error) {
		op := m.Op()
		if !op.Is(ent.OpCreate) && !(op.Is(ent.OpUpdate|ent.OpUpdateOne) && rawsql.Touched(m, "circuit_id", "term_side")) {
			return next.Mutate(ctx, m)
		}
		sm, err := rawsql.As("circuit sides hook", m)
		if err != nil {
			return nil, err
		}
		old := map[int]map[string]any{}
		v, ids, err := rawsql.Written(ctx, sm, next, func(ids []int) (err error) {
			if len(ids) > 0 {
				old, err = loadRows(ctx, sm, tableTermination, []string{"circuit_id", "term_side"}, ids)
			}
			return err
		})
		if err != nil {
			return nil, err
		}
		now, err := loadRows(ctx, sm, tableTermination, []string{"circuit_id", "term_side"}, ids)
		if err != nil {
			return nil, err
		}
		for _, id := range ids {
			if o := old[id]; o != nil {
				if err := setSide(ctx, sm, o, id, nil); err != nil {
					return nil, err
				}
			}
			if n := now[id]; n != nil {
				if err := setSide(ctx, sm, n, id, id); err != nil {
					return nil, err
				}
			}
		}
		return v, nil
	})
}

// setSide points the side of row's circuit at value (nil: forgets it
// when it still points at id).
func setSide(ctx context.Context, m rawsql.Mutation, row map[string]any, id int, value any) error {
	circuit, ok := rawsql.IntOf(row["circuit_id"])
	side := strings.ToLower(rawsql.StringOf(row["term_side"]))
	if !ok || (side != "a" && side != "z") {
		return nil
	}
	col := `"termination_` + side + `_id"`
	a := &rawsql.Args{PG: rawsql.Postgres(m)}
	q := `UPDATE "` + tableCircuit + `" SET ` + col + ` = ` + a.P(value) + ` WHERE id = ` + a.P(circuit)
	if value == nil {
		q += ` AND ` + col + ` = ` + a.P(id)
	}
	return rawsql.Exec(ctx, m, q, a)
}

// TerminationPaths serves GET .../<id>/paths/ of virtual circuit
// terminations (NetBox's PassThroughPortMixin.paths): the cable paths
// that pass through the termination. A virtual circuit termination takes
// no cable, so no path passes through one and the list is empty (circuit
// terminations serve dcim.CircuitTerminationPaths); the object itself was
// read through the caller's permissions (404 when hidden).
func TerminationPaths(r api.Request) (any, error) {
	if r.Object() == nil {
		return nil, &api.StatusError{Status: 404, Detail: "Not found."}
	}
	return []any{}, nil
}
