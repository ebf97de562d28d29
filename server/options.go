package server

import (
	"net/http"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/inventory/inventory/ent/resource"
)

// options serves OPTIONS (BEHAVIOUR.md §1.8): the endpoint's name and, for
// callers who may write, the fields of POST (list) and PUT with their
// choices, which pynetbox's choices() reads. The body is DRF's
// SimpleMetadata: keys name, description, renders, parses, actions in this
// order, the fields in serializer order.
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
	var actions jsonObject
	if !d.ReadOnlyAPI {
		fields := fieldInfo(d)
		// Shown only to callers who would pass the gate for POST (add) and
		// PUT (change); constraints are not evaluated.
		if _, err := s.permits(ctx, p, d, actionAdd); list && err == nil {
			actions = append(actions, jsonKV{"POST", fields})
		}
		if _, err := s.permits(ctx, p, d, actionChange); err == nil {
			actions = append(actions, jsonKV{"PUT", fields})
		}
	}
	return writeMetadata(c, titleCase(d.Verbose)+suffix, "", actions)
}

// writeMetadata answers an OPTIONS request with DRF's metadata body;
// actions is left out when empty, as DRF does.
func writeMetadata(c *gin.Context, name, description string, actions jsonObject) error {
	body := jsonObject{
		{"name", name},
		{"description", description},
		// A browser gets every JSON answer as the browsable API's page.
		{"renders", []string{"application/json", "text/html"}},
		{"parses", []string{"application/json"}},
	}
	if len(actions) > 0 {
		body = append(body, jsonKV{"actions", actions})
	}
	b, err := marshal(body)
	if err != nil {
		return err
	}
	writeJSON(c, http.StatusOK, b)
	return nil
}

// jsonObject is a JSON object whose keys keep their order.
type jsonObject []jsonKV

type jsonKV struct {
	K string
	V any
}

func (o jsonObject) MarshalJSON() ([]byte, error) {
	b := []byte{'{'}
	for i, kv := range o {
		if i > 0 {
			b = append(b, ',')
		}
		k, err := marshal(kv.K)
		if err != nil {
			return nil, err
		}
		v, err := marshal(kv.V)
		if err != nil {
			return nil, err
		}
		b = append(append(append(b, k...), ':'), v...)
	}
	return append(b, '}'), nil
}

// titleCase upper-cases the first letter of each word, keeping capitals.
func titleCase(s string) string {
	words := strings.Fields(s)
	for i, w := range words {
		words[i] = strings.ToUpper(w[:1]) + w[1:]
	}
	return strings.Join(words, " ")
}

// fieldInfo describes the model's fields as DRF's SimpleMetadata does
// (get_field_info): type, required, read_only, label, then the bounds
// and the choices, in serializer field order.
func fieldInfo(d *resource.Descriptor) jsonObject {
	var out jsonObject
	for _, f := range d.Fields {
		if f.Kind == resource.KindHidden {
			continue
		}
		readOnly := f.ReadOnly
		if f.Kind == resource.KindTags {
			// Written through their own path (tags.go), but a writable
			// serializer field: pynetbox and Terraform read this.
			readOnly = false
		}
		typ, required := fieldType(f), f.Required
		if m := f.Meta; m != nil {
			// What NetBox's serializer field is where this field's kind
			// does not say it (api.Model.Metadata).
			if m.Type != "" {
				typ = m.Type
			}
			readOnly = readOnly && !m.Writable
			required = (required || m.Required) && !m.Optional
		}
		info := jsonObject{
			{"type", typ},
			{"required", required && !readOnly},
			{"read_only", readOnly},
			{"label", fieldLabel(f.Name)},
		}
		if f.MaxLen > 0 {
			info = append(info, jsonKV{"max_length", f.MaxLen})
		}
		if f.Min != nil {
			info = append(info, jsonKV{"min_value", *f.Min})
		}
		if f.Max != nil {
			info = append(info, jsonKV{"max_value", *f.Max})
		}
		if len(f.Choices) > 0 && !readOnly {
			ch := make([]jsonObject, 0, len(f.Choices))
			for _, c := range f.Choices {
				ch = append(ch, jsonObject{{"value", c.Value}, {"display_name", c.Label}})
			}
			info = append(info, jsonKV{"choices", ch})
		}
		out = append(out, jsonKV{f.Name, info})
	}
	return out
}

// fieldLabel is DRF's default label: the name with spaces, capitalised
// as Python's str.capitalize does.
func fieldLabel(name string) string {
	s := strings.ToLower(strings.ReplaceAll(strings.TrimPrefix(name, "_"), "_", " "))
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// fieldType is the "type" DRF's SimpleMetadata gives the serializer field
// NetBox declares for f: the name of the nearest DRF class in its MRO, and
// "field" for classes DRF does not name (method fields, hyperlinks,
// related and many-related fields, NetBox's ChoiceField, JSON and custom
// fields, lists of nested serializers).
func fieldType(f *resource.Field) string {
	if len(f.Choices) > 0 && f.Kind != resource.KindChoice {
		return "choice" // DRF's own ChoiceField (a bare value)
	}
	switch f.Kind {
	case resource.KindImage:
		return "image upload" // DRF's ImageField
	case resource.KindInt:
		if f.Target != "" {
			return "field" // a bare id: DRF's PrimaryKeyRelatedField
		}
		return "integer"
	case resource.KindID, resource.KindGenericID:
		return "integer"
	case resource.KindCount:
		return countType(f.Count)
	case resource.KindEmpty:
		switch f.Empty.(type) {
		case nil:
			return "nested object" // a related object not served yet (owner)
		case int, int64, float64:
			// A count of a model not served yet: NetBox's
			// RelatedObjectCountField.
			return "field"
		}
		return "field"
	case resource.KindBool:
		return "boolean"
	case resource.KindFloat:
		return "decimal"
	case resource.KindTime:
		return "datetime"
	case "date":
		return "date"
	case resource.KindFK, resource.KindCoalesce:
		if f.PK {
			return "field" // DRF's PrimaryKeyRelatedField
		}
		return "nested object"
	case resource.KindReverse:
		switch {
		case f.Reverse == nil || f.Reverse.Many:
			return "field" // a nested serializer with many=True: DRF's ListSerializer
		case f.Reverse.Exists:
			return "boolean" // whether one exists (a module bay's _occupied)
		case f.Reverse.Through != "":
			return "field" // reached through another model: a method field
		}
		return "nested object" // one object (a bay's installed module)
	case resource.KindJSON:
		if f.GoType == "[]int" {
			return "list" // an ArrayField: DRF's ListField
		}
		return "field"
	case resource.KindStrings, "actions", "allowed-ips":
		return "list"
	case resource.KindSlug:
		return "slug"
	case "email":
		return "email"
	case "link":
		return "url"
	case resource.KindString, resource.KindText, resource.KindSecret,
		"color", "mac", "wwn", "cidr", "cidr-aggregate", "inet", "ip-with-mask", "password", "username":
		return "string"
	}
	// url, display_url, display, choice (NetBox's ChoiceField), tags, m2m,
	// custom fields, content types, generic objects, reverse lists,
	// timezone, changelog data, constraints.
	return "field"
}

// countType is the OPTIONS type of the serializer field NetBox declares
// for a related-object count. A plain count of the rows pointing here is
// NetBox's RelatedObjectCountField, a ReadOnlyField DRF names "field"; a
// CounterCacheField's column, a tree's cumulative count and the counts a
// viewset annotates otherwise (distinct, between bounds, of a generic
// relation) are IntegerFields, "integer"; a percentage is a CharField. An
// annotated IntegerField that looks like a plain count says so in
// api.Model.Metadata.
func countType(c *resource.Count) string {
	switch {
	case c == nil:
		return "integer"
	case c.Percent != "":
		return "string"
	case c.Cached || c.Cumulative || c.Distinct != "" || c.Between[0] != "" || c.TypeColumn != "":
		return "integer"
	}
	return "field"
}

// writeMetadataFor is a DRF view's OPTIONS without serializer (roots,
// status, special endpoints): name and description only.
func writeMetadataFor(c *gin.Context, name, description string) error {
	return writeMetadata(c, name, description, nil)
}
