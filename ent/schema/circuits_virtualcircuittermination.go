package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"

	"github.com/inventory/inventory/ent/logic/circuits"
	"github.com/inventory/inventory/ent/schema/api"
)

// VirtualCircuitTermination is circuits.VirtualCircuitTermination: a
// virtual interface of a device taking part in a virtual circuit as peer,
// hub or spoke; an interface terminates one virtual circuit at most.
// Deleting the circuit or the interface deletes it. The display reads the
// circuit's cid from a cached copy (the hooks keep it).
type VirtualCircuitTermination struct{ ent.Schema }

func (VirtualCircuitTermination) Mixin() []ent.Mixin {
	return []ent.Mixin{ChangeLogged{}, Tagged{}, CustomFields{}}
}

func (VirtualCircuitTermination) Fields() []ent.Field {
	return []ent.Field{
		field.Int("virtual_circuit_id"),
		field.String("role").MaxRuneLen(50).Default("peer").
			Annotations(api.Field{Kind: "choice", Choices: circuits.VirtualTerminationRoles}),
		field.Int("interface_id"),
		field.String("description").MaxRuneLen(200).Default(""),
		field.String("_virtual_circuit_cid").Default("").Annotations(api.Field{Kind: "hidden"}),
	}
}

func (VirtualCircuitTermination) Edges() []ent.Edge {
	return []ent.Edge{
		FKRequired("virtual_circuit", VirtualCircuit.Type, api.Cascade),
		FKRequired("interface", DeviceInterface.Type, api.Cascade),
	}
}

func (VirtualCircuitTermination) Indexes() []ent.Index {
	return []ent.Index{index.Fields("interface_id").Unique(), index.Fields("virtual_circuit_id", "role", "id")}
}

func (VirtualCircuitTermination) Hooks() []ent.Hook { return circuits.VirtualCircuitTerminationHooks() }

func (VirtualCircuitTermination) Annotations() []schema.Annotation {
	return []schema.Annotation{
		entsql.Annotation{Table: "circuits_virtualcircuittermination"},
		api.Model{
			App: "circuits", Path: "virtual-circuit-terminations", Verbose: "virtual circuit termination",
			ChangeRelated: []string{"virtual_circuit"}, // NetBox's to_objectchange()
			GenericOnly:   true,
			Fields: []string{"id", "url", "display_url", "display", "virtual_circuit", "role", "interface", "description",
				"tags", "custom_fields", "created", "last_updated"},
			Brief:       []string{"id", "url", "display", "virtual_circuit", "role", "interface", "description"},
			DisplayFunc: api.Func(api.LogicPkg("circuits"), "VirtualCircuitTerminationDisplay"),
			Search:      []string{"_virtual_circuit_cid", "description"},
			Ordering:    []string{"virtual_circuit", "role", "id"},
			Unique:      []api.Unique{{Fields: []string{"interface"}}},
			Filters: []api.Filter{
				{Name: "provider_id", Kind: "fk-id", Via: "virtual_circuit.provider_network", Column: "provider"},
				{Name: "provider", Kind: "fk-attr", Via: "virtual_circuit.provider_network", Column: "provider"},
				{Name: "provider_account_id", Kind: "fk-id", Via: "virtual_circuit", Column: "provider_account"},
				{Name: "provider_account", Kind: "fk-attr", Via: "virtual_circuit", Column: "provider_account"},
				{Name: "provider_network_id", Kind: "fk-id", Via: "virtual_circuit", Column: "provider_network"},
			},
			Endpoints: []api.Endpoint{terminationPaths()},
		},
	}
}
