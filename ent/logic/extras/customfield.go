package extras

import (
	"context"
	"fmt"
	"regexp"
	"strings"

	"entgo.io/ent"

	"github.com/inventory/inventory/ent/schema/api"
)

var cfNameRE = regexp.MustCompile(`(?i)^[a-z0-9_]+$`)

// ValidateCustomFieldName applies NetBox's validators of a custom field's
// name (the field's ent validator).
func ValidateCustomFieldName(s string) error {
	if !cfNameRE.MatchString(s) {
		return &api.FieldError{Field: "name", Message: "Only alphanumeric characters and underscores are allowed."}
	}
	if strings.Contains(s, "__") {
		return &api.FieldError{Field: "name", Message: "Double underscores are not permitted in custom field names."}
	}
	return nil
}

// customFieldDataTypes is NetBox's CustomFieldSerializer.get_data_type;
// every other type is "string".
var customFieldDataTypes = map[string]string{
	"integer": "integer", "decimal": "decimal", "boolean": "boolean", "json": "object",
	"multiselect": "array", "multiobject": "array",
}

// CustomFieldHooks are the hooks of extras.CustomField: data_type is kept
// in step with type (NetBox computes it in the serializer; storing it lets
// it be read, filtered and ordered like any column).
func CustomFieldHooks() []ent.Hook {
	return []ent.Hook{
		func(next ent.Mutator) ent.Mutator {
			return ent.MutateFunc(func(ctx context.Context, m ent.Mutation) (ent.Value, error) {
				if v, ok := m.Field("type"); ok && m.Op().Is(ent.OpCreate|ent.OpUpdate|ent.OpUpdateOne) {
					dt, known := customFieldDataTypes[fmt.Sprint(v)]
					if !known {
						dt = "string"
					}
					if err := m.SetField("data_type", dt); err != nil {
						return nil, err
					}
				}
				return next.Mutate(ctx, m)
			})
		},
	}
}

// CustomFieldChoiceSetHooks are the hooks of extras.CustomFieldChoiceSet:
// choices_count is kept equal to the number of extra choices. Base choice
// sets are not bundled, so their choices are not counted.
func CustomFieldChoiceSetHooks() []ent.Hook {
	return []ent.Hook{
		func(next ent.Mutator) ent.Mutator {
			return ent.MutateFunc(func(ctx context.Context, m ent.Mutation) (ent.Value, error) {
				if v, ok := m.Field("extra_choices"); ok && m.Op().Is(ent.OpCreate|ent.OpUpdate|ent.OpUpdateOne) {
					extra, _ := v.([][]string)
					if err := m.SetField("choices_count", len(extra)); err != nil {
						return nil, err
					}
				}
				return next.Mutate(ctx, m)
			})
		},
	}
}
