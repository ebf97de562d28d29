package extras

import (
	"context"
	"encoding/json"
	"slices"

	"entgo.io/ent"
	"github.com/inventory/inventory/ent/logic/rawsql"
	"github.com/inventory/inventory/ent/schema/api"
)

// Objects keep their custom field values in custom_field_data, keyed by
// the field's name. NetBox keeps that data in step with the definitions
// (CustomField.populate_initial_data, rename_object_data,
// remove_stale_data, run from its save(), delete() and the object types'
// m2m_changed signal), and so does customFieldData:
//   - a field created with a default, or given object types, writes its
//     default into every existing object of the types it gains (without
//     a default nothing is written: the objects report null);
//   - a renamed field moves each object's value to the new name;
//   - a field deleted, or losing object types, takes its key out of the
//     objects of the types it loses, so that a field made later under the
//     same name starts empty.
//
// As in NetBox these are plain UPDATEs of the objects (queryset.update()):
// no change records, no events, no last_updated. Adding a default to an
// existing field does not backfill (NetBox neither).
func customFieldData(next ent.Mutator) ent.Mutator {
	return ent.MutateFunc(func(ctx context.Context, m ent.Mutation) (ent.Value, error) {
		sm, err := rawsql.As("custom field data", m)
		if err != nil {
			return nil, err
		}
		var ids []int
		var before map[int]map[string]any
		if !m.Op().Is(ent.OpCreate) && (m.Op().Is(ent.OpDelete|ent.OpDeleteOne) || rawsql.Touched(m, "name", "object_types")) {
			if ids, err = rawsql.TargetIDs(ctx, sm); err != nil {
				return nil, err
			}
			if before, err = rawsql.LoadRows(ctx, sm, "extras_customfield", cfDataColumns, ids); err != nil {
				return nil, err
			}
		}
		v, err := next.Mutate(ctx, m)
		if err != nil {
			return v, err
		}
		switch {
		case m.Op().Is(ent.OpCreate):
			name, _ := m.Field("name")
			types, _ := m.Field("object_types")
			def, _ := m.Field("default")
			n, _ := name.(string)
			ts, _ := types.([]string)
			raw, _ := def.(json.RawMessage)
			return v, cfPopulate(ctx, sm, n, raw, ts)
		case m.Op().Is(ent.OpDelete | ent.OpDeleteOne):
			for _, id := range ids {
				old := cfDataOf(before[id])
				if err := cfRemove(ctx, sm, old.name, old.types); err != nil {
					return v, err
				}
			}
		case before != nil:
			after, err := rawsql.LoadRows(ctx, sm, "extras_customfield", cfDataColumns, ids)
			if err != nil {
				return v, err
			}
			for _, id := range ids {
				old, cur := cfDataOf(before[id]), cfDataOf(after[id])
				var kept, lost, gained []string
				for _, t := range old.types {
					if slices.Contains(cur.types, t) {
						kept = append(kept, t)
					} else {
						lost = append(lost, t)
					}
				}
				for _, t := range cur.types {
					if !slices.Contains(old.types, t) {
						gained = append(gained, t)
					}
				}
				if err := cfRemove(ctx, sm, old.name, lost); err != nil {
					return v, err
				}
				if old.name != cur.name {
					if err := cfRename(ctx, sm, old.name, cur.name, kept); err != nil {
						return v, err
					}
				}
				if err := cfPopulate(ctx, sm, cur.name, cur.def, gained); err != nil {
					return v, err
				}
			}
		}
		return v, nil
	})
}

var cfDataColumns = []string{"name", "object_types", "default"}

type cfDataDef struct {
	name  string
	types []string
	def   json.RawMessage
}

func cfDataOf(row map[string]any) cfDataDef {
	d := cfDataDef{name: rawsql.StringOf(row["name"])}
	_ = json.Unmarshal([]byte(rawsql.StringOf(row["object_types"])), &d.types)
	if s := rawsql.StringOf(row["default"]); s != "" {
		d.def = json.RawMessage(s)
	}
	return d
}

// cfPopulate writes def under name into every object of types; nothing
// for no default (JSON null included).
func cfPopulate(ctx context.Context, m rawsql.Mutation, name string, def json.RawMessage, types []string) error {
	if len(def) == 0 || string(def) == "null" {
		return nil
	}
	return cfUpdate(ctx, m, types, func(a *rawsql.Args) (string, string) {
		if a.PG {
			return `jsonb_set(COALESCE(custom_field_data::jsonb, '{}'::jsonb), ARRAY[` + a.P(name) + `::text], ` + a.P(string(def)) + `::jsonb)`, ""
		}
		return `json_set(COALESCE(custom_field_data, '{}'), ` + a.P(cfPath(name)) + `, json(` + a.P(string(def)) + `))`, ""
	})
}

// cfRename moves each object's value of from to to.
func cfRename(ctx context.Context, m rawsql.Mutation, from, to string, types []string) error {
	return cfUpdate(ctx, m, types, func(a *rawsql.Args) (string, string) {
		if a.PG {
			f := a.P(from)
			return `(custom_field_data::jsonb - ` + f + `::text) || jsonb_build_object(` + a.P(to) + `::text, custom_field_data::jsonb -> ` + f + `::text)`,
				`jsonb_exists(custom_field_data::jsonb, ` + f + `::text)`
		}
		// SQLite's ? takes the next argument each time: one per use.
		f := func() string { return a.P(cfPath(from)) }
		return `json_set(json_remove(custom_field_data, ` + f() + `), ` + a.P(cfPath(to)) + `, json(custom_field_data -> ` + f() + `))`,
			`json_type(custom_field_data, ` + f() + `) IS NOT NULL`
	})
}

// cfRemove takes name out of every object of types.
func cfRemove(ctx context.Context, m rawsql.Mutation, name string, types []string) error {
	return cfUpdate(ctx, m, types, func(a *rawsql.Args) (string, string) {
		if a.PG {
			n := a.P(name)
			return `custom_field_data::jsonb - ` + n + `::text`, `jsonb_exists(custom_field_data::jsonb, ` + n + `::text)`
		}
		return `json_remove(custom_field_data, ` + a.P(cfPath(name)) + `)`, `json_type(custom_field_data, ` + a.P(cfPath(name)) + `) IS NOT NULL`
	})
}

// cfUpdate runs UPDATE <table> SET custom_field_data = <value> [WHERE
// <where>] for the table of each type.
func cfUpdate(ctx context.Context, m rawsql.Mutation, types []string, expr func(a *rawsql.Args) (value, where string)) error {
	for _, ct := range types {
		info, ok := api.ModelOf(ctx, ct)
		if !ok {
			continue
		}
		a := &rawsql.Args{PG: rawsql.Postgres(m)}
		value, where := expr(a)
		q := `UPDATE ` + quoteIdent(info.Table) + ` SET custom_field_data = ` + value
		if where != "" {
			q += ` WHERE ` + where
		}
		if err := rawsql.Exec(ctx, m, q, a); err != nil {
			return err
		}
	}
	return nil
}

// cfPath is SQLite's JSON path of key name.
func cfPath(name string) string { return `$."` + name + `"` }
