package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"

	"github.com/inventory/inventory/ent/logic/dcim"
	"github.com/inventory/inventory/ent/schema/api"
)

// Cable is dcim.Cable: a physical connection between the objects of its A
// end and those of its B end. a_terminations and b_terminations are kept
// on the row as written ([{object_type, object_id}]) and mirrored by the
// hooks into dcim_cabletermination rows and the terminated objects' cable
// columns (NetBox's Cable.save() and CableTermination.save()), in the
// write's transaction.
type Cable struct{ ent.Schema }

func (Cable) Mixin() []ent.Mixin { return PrimaryMixins() }

// Choices of a cable's type, status, profile and length unit (NetBox's
// CableTypeChoices, LinkStatusChoices, CableProfileChoices,
// CableLengthUnitChoices).
var (
	CableType = api.C("cat3", "CAT3", "cat5", "CAT5", "cat5e", "CAT5e", "cat6", "CAT6", "cat6a", "CAT6a",
		"cat7", "CAT7", "cat7a", "CAT7a", "cat8", "CAT8", "mrj21-trunk", "MRJ21 Trunk",
		"dac-active", "Direct Attach Copper (Active)", "dac-passive", "Direct Attach Copper (Passive)",
		"coaxial", "Coaxial", "rg-6", "RG-6", "rg-8", "RG-8", "rg-11", "RG-11", "rg-59", "RG-59", "rg-62", "RG-62",
		"rg-213", "RG-213", "lmr-100", "LMR-100", "lmr-200", "LMR-200", "lmr-400", "LMR-400",
		"mmf", "Multimode Fiber", "mmf-om1", "Multimode Fiber (OM1)", "mmf-om2", "Multimode Fiber (OM2)",
		"mmf-om3", "Multimode Fiber (OM3)", "mmf-om4", "Multimode Fiber (OM4)", "mmf-om5", "Multimode Fiber (OM5)",
		"smf", "Single-mode Fiber", "smf-os1", "Single-mode Fiber (OS1)", "smf-os2", "Single-mode Fiber (OS2)",
		"aoc", "Active Optical Cabling (AOC)", "power", "Power", "usb", "USB")
	LinkStatus   = api.C("connected", "Connected", "planned", "Planned", "decommissioning", "Decommissioning")
	CableProfile = api.C("single-1c1p", "1C1P", "single-1c2p", "1C2P", "single-1c4p", "1C4P", "single-1c6p", "1C6P",
		"single-1c8p", "1C8P", "single-1c12p", "1C12P", "single-1c16p", "1C16P",
		"trunk-2c1p", "2C1P trunk", "trunk-2c2p", "2C2P trunk", "trunk-2c4p", "2C4P trunk",
		"trunk-2c4p-shuffle", "2C4P trunk (shuffle)", "trunk-2c6p", "2C6P trunk", "trunk-2c8p", "2C8P trunk",
		"trunk-2c12p", "2C12P trunk", "trunk-4c1p", "4C1P trunk", "trunk-4c2p", "4C2P trunk",
		"trunk-4c4p", "4C4P trunk", "trunk-4c4p-shuffle", "4C4P trunk (shuffle)", "trunk-4c6p", "4C6P trunk",
		"trunk-4c8p", "4C8P trunk", "trunk-8c4p", "8C4P trunk",
		"breakout-1c2p-2c1p", "1C2P:2C1P breakout", "breakout-1c4p-4c1p", "1C4P:4C1P breakout",
		"breakout-1c6p-6c1p", "1C6P:6C1P breakout", "breakout-1c8p-8c1p", "1C8P:8C1P breakout",
		"breakout-2c4p-8c1p-shuffle", "2C4P:8C1P breakout (shuffle)")
	CableLengthUnit = api.C("km", "Kilometers", "m", "Meters", "cm", "Centimeters", "mi", "Miles", "ft", "Feet", "in", "Inches")
	// CableEnd is NetBox's CableEndChoices, rendered as the bare value.
	CableEnd = api.C("A", "A", "B", "B")
)

func (Cable) Fields() []ent.Field {
	return []ent.Field{
		// A CharField with choices rendered as is (NetBox's serializer
		// declares no ChoiceField for it).
		field.String("type").MaxRuneLen(50).Optional().Nillable().Annotations(api.Field{Choices: CableType}),
		// The ends as written: [{object_type, object_id}], rendered with
		// each object nested (the generic-refs kind).
		field.JSON("a_terminations", []any{}).Default([]any{}).
			Annotations(api.Field{Kind: "generic-refs", Types: dcim.CabledTypes}),
		field.JSON("b_terminations", []any{}).Default([]any{}).
			Annotations(api.Field{Kind: "generic-refs", Types: dcim.CabledTypes}),
		field.String("status").MaxRuneLen(50).Default("connected").Annotations(api.Field{Kind: "choice", Choices: LinkStatus}),
		// blank=True without null: "" is no profile, rendered null.
		// NetBox's serializer declares profile without allow_blank: a
		// blank (or null, which its ChoiceField reads as blank) is refused.
		field.String("profile").MaxRuneLen(50).Default("").Annotations(api.Field{Kind: "choice", Choices: CableProfile, NoBlank: true}),
		FKField("tenant"), FKField("bundle"),
		field.String("label").MaxRuneLen(100).Default(""),
		field.String("color").MaxRuneLen(6).Default("").Annotations(api.Field{Kind: "color"}),
		field.Float("length").Optional().Nillable().Annotations(api.Field{Decimal: &api.Decimal{Digits: 8, Places: 2}}),
		field.String("length_unit").MaxRuneLen(50).Optional().Nillable().
			Annotations(api.Field{Kind: "choice", Choices: CableLengthUnit}),
		// _abs_length is the length in meters, for ordering (Cable.save()).
		field.Float("_abs_length").Optional().Nillable().Annotations(api.Field{Kind: "hidden"}),
	}
}

func (Cable) Edges() []ent.Edge {
	return []ent.Edge{
		FK("tenant", Tenant.Type, api.Protect),
		FK("bundle", CableBundle.Type, api.SetNull),
	}
}

func (Cable) Indexes() []ent.Index {
	return []ent.Index{index.Fields("tenant_id"), index.Fields("bundle_id")}
}

// Hooks: NetBox's Cable.clean() and save(): the ends' rules, the
// termination rows and the terminated objects' cable columns
// (ent/logic/dcim/cable_hooks.go).
func (Cable) Hooks() []ent.Hook { return dcim.CableHooks() }

func (Cable) Annotations() []schema.Annotation {
	return []schema.Annotation{
		entsql.Annotation{Table: "dcim_cable"},
		api.Model{
			App: "dcim", Path: "cables", Verbose: "cable",
			// The defaults NetBox's serializer declares (PUT writes them).
			Defaults:    map[string]any{"bundle": nil},
			GenericOnly: true,
			Fields: []string{"id", "url", "display_url", "display", "type", "a_terminations", "b_terminations", "status",
				"profile", "tenant", "bundle", "label", "color", "length", "length_unit", "description", "owner",
				"comments", "tags", "custom_fields", "created", "last_updated"},
			Brief:       []string{"id", "url", "display", "label", "description"},
			DisplayFunc: api.Func(api.LogicPkg("dcim"), "CableDisplay"),
			Search:      []string{"label", "description", "comments"},
			Ordering:    []string{"id"},
			Filters:     cableFilters(),
		},
	}
}

// cableFilters are NetBox's CableFilterSet filters beyond the fields':
// by the terminations' type and id per end, by the objects cabled, and by
// the device, rack, location and site cached on the terminations.
func cableFilters() []api.Filter {
	fs := append(TenancyFilters(),
		api.Filter{Name: "termination_a_type", Kind: "cable-termination-type"},
		api.Filter{Name: "termination_a_id", Kind: "cable-end-id", Attr: "A"},
		api.Filter{Name: "termination_b_type", Kind: "cable-termination-type"},
		api.Filter{Name: "termination_b_id", Kind: "cable-end-id", Attr: "B"},
		api.Filter{Name: "unterminated", Kind: "cable-unterminated"},
		api.Filter{Name: "device_id", Kind: "cable-cached", Column: "_device_id"},
		api.Filter{Name: "device", Kind: "cable-cached", Column: "_device_id", Target: "dcim.device", Attr: "name"},
		api.Filter{Name: "rack_id", Kind: "cable-cached", Column: "_rack_id"},
		api.Filter{Name: "rack", Kind: "cable-cached", Column: "_rack_id", Target: "dcim.rack", Attr: "name"},
		api.Filter{Name: "location_id", Kind: "cable-cached", Column: "_location_id"},
		api.Filter{Name: "location", Kind: "cable-cached", Column: "_location_id", Target: "dcim.location", Attr: "name"},
		api.Filter{Name: "site_id", Kind: "cable-cached", Column: "_site_id"},
		api.Filter{Name: "site", Kind: "cable-cached", Column: "_site_id", Target: "dcim.site", Attr: "slug"},
	)
	for _, ct := range dcim.CabledTypes {
		fs = append(fs, api.Filter{Name: ctModel(ct) + "_id", Kind: "cable-termination", Target: ct})
	}
	return fs
}

// ctModel is the model name of a content type ("dcim.interface" →
// "interface").
func ctModel(ct string) string {
	for i := range ct {
		if ct[i] == '.' {
			return ct[i+1:]
		}
	}
	return ct
}
