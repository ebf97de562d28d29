package vpn

import (
	"context"

	"entgo.io/ent"

	"github.com/inventory/inventory/ent/logic/rawsql"
	"github.com/inventory/inventory/ent/schema/api"
)

// The rules of NetBox's vpn/models/crypto.py.

// IPSecProposalHooks: IPSecProposal.clean(): a proposal names an
// encryption algorithm, an authentication algorithm or both.
func IPSecProposalHooks() []ent.Hook {
	return []ent.Hook{rawsql.RowHook("vpn_ipsecproposal", []string{"encryption_algorithm", "authentication_algorithm"},
		func(_ context.Context, _ rawsql.Mutation, _ int, row, _ map[string]any) error {
			if rawsql.StringOf(rawsql.Plain(row["encryption_algorithm"])) == "" && rawsql.StringOf(rawsql.Plain(row["authentication_algorithm"])) == "" {
				return &api.FieldError{Field: "non_field_errors", Message: "Encryption and/or authentication algorithm must be defined"}
			}
			return nil
		})}
}

// IKEPolicyHooks: IKEPolicy.clean(): IKEv1 needs a mode, IKEv2 takes
// none (NetBox's messages, without a field).
func IKEPolicyHooks() []ent.Hook {
	return []ent.Hook{rawsql.RowHook("vpn_ikepolicy", []string{"version", "mode"},
		func(_ context.Context, _ rawsql.Mutation, _ int, row, _ map[string]any) error {
			version, _ := rawsql.IntOf(rawsql.Plain(row["version"]))
			mode := rawsql.StringOf(rawsql.Plain(row["mode"]))
			switch {
			case version == 1 && mode == "":
				return &api.FieldError{Field: "non_field_errors", Message: "Mode is required for selected IKE version"}
			case version == 2 && mode != "":
				return &api.FieldError{Field: "non_field_errors", Message: "Mode cannot be used for selected IKE version"}
			}
			return nil
		})}
}
