package server

import (
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/inventory/inventory/ent/resource"
)

// options serves OPTIONS (BEHAVIOUR.md §1.8): the endpoint's name and, for
// callers who may write, the fields of POST (list) and PUT with their
// choices, which pynetbox's choices() reads.
func (s *Server) options(c *gin.Context, d *resource.Descriptor, list bool) error {
	// OPTIONS needs no model permission, only authentication when
	// LOGIN_REQUIRED (BEHAVIOUR.md §1.8).
	ctx := c.Request.Context()
	p := PrincipalFrom(ctx)
	if p == nil && s.cfg.LoginRequired {
		return errNotAuthenticated
	}
	suffix := " Instance"
	if list {
		suffix = " List"
	}
	body := map[string]any{
		"name":        titleCase(d.Verbose) + suffix,
		"description": "",
		"renders":     []string{"application/json"},
		"parses":      []string{"application/json"},
	}
	actions := map[string]any{}
	fields := fieldInfo(d)
	if !d.ReadOnlyAPI {
		// Shown only to callers who would pass the gate for POST (add) and
		// PUT (change); constraints are not evaluated.
		if _, err := s.permits(ctx, p, d, actionAdd); list && err == nil {
			actions["POST"] = fields
		}
		if _, err := s.permits(ctx, p, d, actionChange); err == nil {
			actions["PUT"] = fields
		}
	}
	if len(actions) > 0 {
		body["actions"] = actions
	}
	b, err := marshal(body)
	if err != nil {
		return err
	}
	c.Header("Allow", allowList(d))
	writeJSON(c, 200, b)
	return nil
}

// titleCase upper-cases the first letter of each word, keeping capitals.
func titleCase(s string) string {
	words := strings.Fields(s)
	for i, w := range words {
		words[i] = strings.ToUpper(w[:1]) + w[1:]
	}
	return strings.Join(words, " ")
}

// fieldInfo describes the model's fields as DRF's metadata does.
func fieldInfo(d *resource.Descriptor) map[string]any {
	out := map[string]any{}
	for _, f := range d.Fields {
		if f.Kind == resource.KindHidden {
			continue
		}
		info := map[string]any{
			"type":      fieldType(f),
			"required":  f.Required && !f.ReadOnly,
			"read_only": f.ReadOnly,
			"label":     titleCase(strings.ReplaceAll(strings.TrimPrefix(f.Name, "_"), "_", " ")),
		}
		if f.MaxLen > 0 {
			info["max_length"] = f.MaxLen
		}
		if len(f.Choices) > 0 && !f.ReadOnly {
			var ch []map[string]any
			for _, c := range f.Choices {
				ch = append(ch, map[string]any{"value": c.Value, "display_name": c.Label})
			}
			info["choices"] = ch
		}
		out[f.Name] = info
	}
	return out
}

func fieldType(f *resource.Field) string {
	if f.Kind == resource.KindCount && f.Count.Percent != "" {
		return "string" // a percentage, NetBox's CharField
	}
	if f.Kind == "date" {
		return "date"
	}
	switch f.Kind {
	case resource.KindID, resource.KindInt, resource.KindCount, resource.KindGenericID:
		return "integer"
	case resource.KindBool:
		return "boolean"
	case resource.KindFloat:
		return "decimal"
	case resource.KindTime:
		return "datetime"
	case resource.KindChoice:
		return "choice"
	case resource.KindJSON:
		if f.GoType == "[]int" {
			return "list" // DRF's ListField of integers (a reservation's units)
		}
		return "nested object"
	case resource.KindFK, resource.KindGenericObject, resource.KindCustomFields:
		return "nested object"
	case resource.KindTags, resource.KindStrings, resource.KindContentTypes:
		return "list"
	case resource.KindURL:
		return "url"
	case resource.KindSlug:
		return "slug"
	}
	return "string"
}
