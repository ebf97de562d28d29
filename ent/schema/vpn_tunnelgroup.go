package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"

	"github.com/inventory/inventory/ent/schema/api"
)

// TunnelGroup is vpn.TunnelGroup: an administrative grouping of tunnels
// (the tunnels of one mesh).
type TunnelGroup struct{ ent.Schema }

func (TunnelGroup) Mixin() []ent.Mixin { return OrganizationalMixins() }

func (TunnelGroup) Annotations() []schema.Annotation {
	return []schema.Annotation{
		entsql.Annotation{Table: "vpn_tunnelgroup"},
		api.Model{
			App: "vpn", Path: "tunnel-groups", Model: "tunnelgroup", Verbose: "tunnel group",
			GenericOnly: true,
			Fields: []string{"id", "url", "display_url", "display", "name", "slug", "description", "owner",
				"comments", "tags", "custom_fields", "created", "last_updated", "tunnel_count"},
			Brief:    []string{"id", "url", "display", "name", "slug", "description", "tunnel_count"},
			Display:  "{name}",
			Search:   []string{"name", "slug", "description", "comments"},
			Ordering: []string{"name"},
			Counts:   map[string]api.Count{"tunnel_count": {Model: "vpn.tunnel", Column: "group_id"}},
		},
	}
}
