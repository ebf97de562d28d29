package extras

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"entgo.io/ent"
	"github.com/goccy/go-yaml"

	"github.com/inventory/inventory/ent/logic/jsonlimit"
	"github.com/inventory/inventory/ent/logic/rawsql"
	"github.com/inventory/inventory/ent/schema/api"
)

// SyncedDataHooks are NetBox's SyncedDataMixin.clean() for a model whose
// content field (a template's template_code, a config context's data, a
// profile's schema)
// comes from a data file: a write that leaves a file assigned takes the
// file's source and path and copies its content (NetBox's sync_data(),
// on every clean), with data_synced now; a write that leaves none clears
// data_source, data_path and data_synced (and auto_sync_enabled where
// the model has it). It must run before the hooks that check the
// content, so they check what the file holds.
func SyncedDataHooks(content string) ent.Hook {
	return func(next ent.Mutator) ent.Mutator {
		return ent.MutateFunc(func(ctx context.Context, m ent.Mutation) (ent.Value, error) {
			if !m.Op().Is(ent.OpCreate | ent.OpUpdateOne) {
				return next.Mutate(ctx, m)
			}
			if err := syncData(ctx, m, content); err != nil {
				return nil, err
			}
			return next.Mutate(ctx, m)
		})
	}
}

func syncData(ctx context.Context, m ent.Mutation, content string) error {
	rm, err := rawsql.As("synced data", m)
	if err != nil {
		return err
	}
	var file any
	switch v, set := m.Field("data_file_id"); {
	case set:
		file = v
	case m.FieldCleared("data_file_id") || m.Op().Is(ent.OpCreate):
	default:
		if file, err = m.OldField(ctx, "data_file_id"); err != nil {
			return err
		}
	}
	id, ok := rawsql.IntOf(rawsql.Deref(file))
	if !ok {
		if m.Op().Is(ent.OpCreate) || rawsql.Touched(m, "data_file_id", "data_source_id") {
			clearSynced(m)
		}
		return nil
	}
	a := &rawsql.Args{PG: rawsql.Postgres(rm)}
	rows, err := rawsql.Rows(ctx, rm, "SELECT source_id, path, data FROM core_datafile WHERE id = "+a.P(id), a)
	if err != nil {
		return err
	}
	if len(rows) == 0 {
		return &api.FieldError{Field: "data_file", Message: fmt.Sprintf(`Invalid pk "%d" - object does not exist.`, id)}
	}
	row := rows[0]
	value, err := FileContent(content, rawsql.StringOf(row["path"]), bytesOf(row["data"]))
	if err != nil {
		return &api.FieldError{Field: "data_file", Message: err.Error()}
	}
	src, _ := rawsql.IntOf(row["source_id"])
	for name, v := range map[string]any{"data_source_id": src, "data_path": rawsql.StringOf(row["path"]),
		content: value, "data_synced": time.Now().UTC().Truncate(time.Microsecond)} {
		if err := m.SetField(name, v); err != nil {
			return err
		}
	}
	return nil
}

func clearSynced(m ent.Mutation) {
	_ = m.ClearField("data_source_id")
	_ = m.SetField("data_path", "")
	_ = m.ClearField("data_synced")
	_ = m.SetField("auto_sync_enabled", false) // models without it refuse: nothing to clear
}

func bytesOf(v any) []byte {
	switch x := v.(type) {
	case []byte:
		return x
	case string:
		return []byte(x)
	}
	return nil
}

// FileContent is what a data file gives the content field: the text of
// a template (UTF-8), or a config context's data or a profile's schema
// (NetBox's DataFile.get_data(): YAML, which JSON is too; a mapping).
func FileContent(content, path string, data []byte) (any, error) {
	if !utf8.Valid(data) {
		return nil, fmt.Errorf("%s is not UTF-8 text.", path)
	}
	if content == "template_code" {
		return string(data), nil
	}
	if yamlNesting(data) > 2*jsonlimit.MaxDepth {
		return nil, fmt.Errorf("%s: %s", path, jsonlimit.Message())
	}
	var v any
	if err := yaml.Unmarshal(data, &v); err != nil {
		return nil, fmt.Errorf("%s is neither YAML nor JSON: %v", path, err)
	}
	// Through JSON: YAML's maps become map[string]any, and the nesting
	// limit of every JSON value applies.
	raw, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	if jsonlimit.Exceeds(v, jsonlimit.MaxDepth) {
		return nil, fmt.Errorf("%s: %s", path, jsonlimit.Message())
	}
	var obj map[string]any
	if err := json.Unmarshal(raw, &obj); err != nil || obj == nil {
		return nil, fmt.Errorf("%s must hold a mapping (a JSON object).", path)
	}
	return obj, nil
}

// yamlNesting over-estimates how deeply a YAML text nests, without
// parsing it: block levels (indentation, and "- " items that open a
// level on the same line) plus open flow brackets outside quotes. The
// parser recurses per level, so a text nested without bound is refused
// before it is parsed (a stack overflow cannot be recovered).
func yamlNesting(data []byte) int {
	deepest, flow := 0, 0
	var indents []int
	for _, line := range strings.Split(string(data), "\n") {
		trimmed := strings.TrimLeft(line, " ")
		if trimmed == "" || strings.HasPrefix(trimmed, "#") {
			continue
		}
		indent := len(line) - len(trimmed)
		for len(indents) > 0 && indents[len(indents)-1] >= indent {
			indents = indents[:len(indents)-1]
		}
		indents = append(indents, indent)
		dashes := 0
		for strings.HasPrefix(trimmed, "- ") {
			dashes++
			trimmed = strings.TrimLeft(trimmed[2:], " ")
		}
		var quote rune
		for _, r := range trimmed {
			switch {
			case quote != 0:
				if r == quote {
					quote = 0
				}
			case r == '"' || r == '\'':
				quote = r
			case r == '[' || r == '{':
				flow++
			case r == ']' || r == '}':
				flow = max(0, flow-1)
			}
			deepest = max(deepest, len(indents)+dashes+flow)
		}
		deepest = max(deepest, len(indents)+dashes+flow)
	}
	return deepest
}
