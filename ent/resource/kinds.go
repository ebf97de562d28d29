package resource

import (
	"encoding/json"
	"fmt"
	"math"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/inventory/inventory/ent/logic/pyrepr"
)

// codec handles a field kind that needs more than the default treatment.
// encode renders a stored value; decode turns a JSON input into the Go value
// stored (errors are NetBox's messages for that field).
type codec struct {
	encode func(b []byte, v any) []byte
	decode func(f *Field, raw json.RawMessage) (any, []string)
}

var codecs = map[Kind]*codec{}

// RegisterKind adds a codec for a field kind named in schema annotations.
// Kinds with special storage (cidr, password, ...) register themselves.
func RegisterKind(k Kind, encode func(b []byte, v any) []byte, decode func(f *Field, raw json.RawMessage) (any, []string)) {
	codecs[k] = &codec{encode: encode, decode: decode}
}

var slugRE = regexp.MustCompile(`^[-a-zA-Z0-9_]+$`)
var colorRE = regexp.MustCompile(`^[0-9a-f]{6}$`)

func init() {
	RegisterKind("slug", nil, func(f *Field, raw json.RawMessage) (any, []string) {
		s, errs := decodeString(f, raw)
		if errs == nil && s != "" && !slugRE.MatchString(s) {
			return nil, []string{`Enter a valid "slug" consisting of letters, numbers, underscores or hyphens.`}
		}
		return s, errs
	})
	RegisterKind("color", nil, func(f *Field, raw json.RawMessage) (any, []string) {
		s, errs := decodeString(f, raw)
		if errs == nil && !colorRE.MatchString(s) && !(s == "" && f.Blank) {
			return nil, []string{"Enter a valid hexadecimal RGB color code."}
		}
		return s, errs
	})
	// link: Django's URLField (a contact's link), checked as its
	// URLValidator does: http, https, ftp or ftps with a host.
	RegisterKind("link", nil, func(f *Field, raw json.RawMessage) (any, []string) {
		s, errs := decodeString(f, raw)
		if errs != nil || s == "" {
			return s, errs
		}
		u, err := url.Parse(s)
		if err != nil || u.Host == "" || strings.ContainsAny(s, " \t\n") ||
			!slices.Contains([]string{"http", "https", "ftp", "ftps"}, strings.ToLower(u.Scheme)) {
			return nil, []string{"Enter a valid URL."}
		}
		return s, nil
	})
	RegisterKind("timezone", nil, func(f *Field, raw json.RawMessage) (any, []string) {
		s, errs := decodeString(f, raw)
		if errs != nil || s == "" {
			return s, errs
		}
		if _, err := time.LoadLocation(s); err != nil || s == "Local" {
			return nil, []string{fmt.Sprintf("A valid timezone is required.")}
		}
		return s, nil
	})
	// content-type: one "app.model" (a custom field's related_object_type:
	// NetBox's ContentTypeField over every object type); blank is null, as
	// DRF's related fields read it.
	RegisterKind("content-type", nil, func(f *Field, raw json.RawMessage) (any, []string) {
		s, errs := decodeString(f, raw)
		if errs != nil || s == "" && f.Nullable {
			return nil, errs
		}
		if msg := checkContentType(s, nil); msg != "" {
			return nil, []string{msg}
		}
		if f.ObjectTypes != "" && !ObjectTypeAccepted(f.ObjectTypes, s) {
			return nil, []string{"Invalid content type: " + s}
		}
		return s, nil
	})
	RegisterKind(KindContentTypes, nil, func(f *Field, raw json.RawMessage) (any, []string) {
		var list []string
		if err := json.Unmarshal(raw, &list); err != nil {
			return nil, []string{fmt.Sprintf("Expected a list of items but got type %q.", pyrepr.TypeOfJSON(raw))}
		}
		for _, ct := range list {
			if msg := checkContentType(ct, nil); msg != "" {
				return nil, []string{msg}
			}
			if f.ObjectTypes != "" && !ObjectTypeAccepted(f.ObjectTypes, ct) {
				return nil, []string{"Invalid content type: " + ct}
			}
		}
		if list == nil {
			list = []string{}
		}
		return list, nil
	})
}

// checkContentType validates an "app.model" value, optionally against an
// allowed list, with NetBox's messages.
func checkContentType(ct string, allowed []string) string {
	if strings.Count(ct, ".") != 1 {
		return "Invalid value. Specify a content type as '<app_label>.<model_name>'."
	}
	if ByContentType(ct) == nil && !isNetBoxObjectType(ct) {
		return "Invalid content type: " + ct
	}
	if allowed != nil {
		for _, a := range allowed {
			if a == ct {
				return ""
			}
		}
		return "Invalid content type: " + ct
	}
	return ""
}

func decodeString(f *Field, raw json.RawMessage) (string, []string) {
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return "", []string{"Not a valid string."}
	}
	var s string
	switch x := v.(type) {
	case string:
		s = x
	case float64:
		// DRF's CharField accepts numbers and stores their text.
		s = strconv.FormatFloat(x, 'f', -1, 64)
	default:
		return "", []string{"Not a valid string."}
	}
	// DRF's CharField trims surrounding whitespace (trim_whitespace=True,
	// which NetBox's serializers never turn off, text fields such as
	// comments and body templates included) before its checks: a required
	// "   " is blank, an optional " " is stored as "" (clients such as the
	// Terraform provider clear a field by sending " ").
	s = TrimSpace(s)
	if s == "" && !f.Blank {
		return "", []string{"This field may not be blank."}
	}
	if f.MaxLen > 0 && len([]rune(s)) > f.MaxLen {
		return "", []string{fmt.Sprintf("Ensure this field has no more than %d characters.", f.MaxLen)}
	}
	return s, nil
}

// TrimSpace strips what Python's str.strip() strips: Unicode white space
// (Go's unicode.IsSpace) and the separators U+001C..U+001F, which Python
// counts as white space and Go does not.
func TrimSpace(s string) string {
	return strings.TrimFunc(s, func(r rune) bool { return unicode.IsSpace(r) || r >= 0x1c && r <= 0x1f })
}

func decodeInt(f *Field, raw json.RawMessage) (any, []string) {
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return nil, []string{"A valid integer is required."}
	}
	var n float64
	switch x := v.(type) {
	case float64:
		n = x
	case string:
		p, err := strconv.ParseFloat(strings.TrimSpace(x), 64)
		if err != nil {
			return nil, []string{"A valid integer is required."}
		}
		n = p
	default:
		return nil, []string{"A valid integer is required."}
	}
	if n != math.Trunc(n) || math.Abs(n) > 1<<53 {
		return nil, []string{"A valid integer is required."}
	}
	if f.Min != nil && int(n) < *f.Min {
		return nil, []string{fmt.Sprintf("Ensure this value is greater than or equal to %d.", *f.Min)}
	}
	if f.Max != nil && int(n) > *f.Max {
		return nil, []string{fmt.Sprintf("Ensure this value is less than or equal to %d.", *f.Max)}
	}
	return int(n), nil
}

func decodeFloat(f *Field, raw json.RawMessage) (any, []string) {
	if f.Decimal != nil {
		return decodeDecimal(f, raw)
	}
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return nil, []string{"A valid number is required."}
	}
	switch x := v.(type) {
	case float64:
		return x, nil
	case string:
		p, err := strconv.ParseFloat(strings.TrimSpace(x), 64)
		if err != nil || math.IsNaN(p) || math.IsInf(p, 0) {
			return nil, []string{"A valid number is required."}
		}
		return p, nil
	}
	return nil, []string{"A valid number is required."}
}

func decodeBool(raw json.RawMessage) (any, []string) {
	var v any
	_ = json.Unmarshal(raw, &v)
	switch x := v.(type) {
	case bool:
		return x, nil
	case float64:
		if x == 1 || x == 0 {
			return x == 1, nil
		}
	case string:
		switch strings.ToLower(x) {
		case "true", "1", "yes", "on", "t", "y":
			return true, nil
		case "false", "0", "no", "off", "f", "n":
			return false, nil
		}
	}
	return nil, []string{"Must be a valid boolean."}
}

// ParseTime accepts the formats DRF accepts for a datetime.
func ParseTime(s string) (time.Time, bool) {
	s = strings.TrimSpace(s)
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05.999999999", "2006-01-02T15:04",
		"2006-01-02 15:04:05.999999999Z07:00", "2006-01-02 15:04:05.999999999", "2006-01-02 15:04", "2006-01-02T15:04Z07:00"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t.UTC().Truncate(time.Microsecond), true
		}
	}
	return time.Time{}, false
}

func decodeTime(raw json.RawMessage) (any, []string) {
	var s string
	if err := json.Unmarshal(raw, &s); err == nil {
		if t, ok := ParseTime(s); ok {
			return t, nil
		}
	}
	return nil, []string{"Datetime has wrong format. Use one of these formats instead: YYYY-MM-DDThh:mm[:ss[.uuuuuu]][+HH:MM|-HH:MM|Z]."}
}

// decodeChoice matches the raw value against the field's choices. Strings
// "true"/"false" and numeric strings are coerced first, as NetBox does.
// plain is DRF's ChoiceField (choices rendered as bare values), whose
// message quotes the value, unlike NetBox's ChoiceField.
func decodeChoice(f *Field, raw json.RawMessage, plain bool) (any, []string) {
	var v any
	_ = json.Unmarshal(raw, &v)
	switch v.(type) {
	case map[string]any, []any:
		return nil, []string{`Value must be passed directly (e.g. "foo": 123); do not use a dictionary or list.`}
	case nil:
		// NetBox's ChoiceField: null is None where the field allows null,
		// else it is read as "" (then refused unless blank is allowed).
		if f.Nullable {
			return nil, nil
		}
		v = ""
	}
	if v == "" {
		// Blank where NetBox's field allows it (Field.Blank), stored as
		// NetBox stores it; a default does not make blank valid.
		if f.Blank {
			return blankValue(f), nil
		}
		return nil, []string{"This field may not be blank."}
	}
	text := fmt.Sprint(v)
	if x, ok := v.(float64); ok {
		text = strconv.FormatFloat(x, 'f', -1, 64)
	}
	for _, c := range f.Choices {
		if fmt.Sprint(c.Value) == text {
			return c.Value, nil
		}
	}
	if plain {
		text = `"` + text + `"`
	}
	return nil, []string{text + " is not a valid choice."}
}

// Bounds of a PositiveSmallIntegerField list element.
var zero, smallMax = 0, 32767

// decodeIntList reads a JSON list of integers within the field's declared
// bounds (a service's ports: ArrayField(PositiveIntegerField) with
// validators). A bad element answers as DRF's ListField does, under its
// index: index is "" for an error of the list itself.
func decodeIntList(f *Field, raw json.RawMessage) (out []int, index string, msgs []string) {
	var items []json.RawMessage
	if err := json.Unmarshal(raw, &items); err != nil || items == nil {
		return nil, "", []string{fmt.Sprintf("Expected a list of items but got type %q.", pyrepr.TypeOfJSON(raw))}
	}
	out = make([]int, 0, len(items))
	elem := &Field{Min: f.Min, Max: f.Max}
	for i, it := range items {
		v, msgs := decodeInt(elem, it)
		if msgs != nil {
			return nil, strconv.Itoa(i), msgs
		}
		out = append(out, v.(int))
	}
	return out, "", nil
}

func decodeJSON(f *Field, raw json.RawMessage) (any, []string) {
	switch f.GoType {
	case "[]string":
		var out []string
		if err := json.Unmarshal(raw, &out); err != nil {
			return nil, []string{fmt.Sprintf("Expected a list of items but got type %q.", pyrepr.TypeOfJSON(raw))}
		}
		if out == nil {
			out = []string{}
		}
		return out, nil
	case "map[string]interface {}":
		var out map[string]any
		if err := json.Unmarshal(raw, &out); err != nil {
			// Valid JSON of another type: the message of NetBox's
			// ConfigContextModel.clean() (local_context_data, a config
			// context's data), the JSON fields held as objects here.
			if json.Valid(raw) {
				return nil, []string{`JSON data must be in object form. Example: {"foo": 123}`}
			}
			return nil, []string{"Value must be valid JSON."}
		}
		return out, nil
	case "[]interface {}":
		var out []any
		if err := json.Unmarshal(raw, &out); err != nil {
			return nil, []string{fmt.Sprintf("Expected a list of items but got type %q.", pyrepr.TypeOfJSON(raw))}
		}
		return out, nil
	case "[]int":
		if f.Min != nil || f.Max != nil {
			out, _, msgs := decodeIntList(f, raw)
			return out, msgs
		}
		// A list of small positive integers (NetBox's
		// ArrayField(PositiveSmallIntegerField): a reservation's units).
		var items []json.RawMessage
		if err := json.Unmarshal(raw, &items); err != nil {
			return nil, []string{fmt.Sprintf("Expected a list of items but got type %q.", pyrepr.TypeOfJSON(raw))}
		}
		out := make([]int, 0, len(items))
		elem := &Field{Min: &zero, Max: &smallMax}
		for _, it := range items {
			v, msgs := decodeInt(elem, it)
			if msgs != nil {
				return nil, msgs
			}
			out = append(out, v.(int))
		}
		return out, nil
	case "[][]int":
		var out [][]int
		if err := json.Unmarshal(raw, &out); err != nil {
			return nil, []string{"Ranges must be specified in the form (lower, upper)."}
		}
		return out, nil
	case "[][]string":
		// Pairs (a choice set's [value, label]): NetBox's
		// ListField(child=ListField(min_length=2, max_length=2)) over an
		// ArrayField of CharFields: a number is stored as its text, null
		// is refused.
		var items [][]json.RawMessage
		if err := json.Unmarshal(raw, &items); err != nil {
			return nil, []string{fmt.Sprintf("Expected a list of items but got type %q.", pyrepr.TypeOfJSON(raw))}
		}
		out := make([][]string, 0, len(items))
		for _, p := range items {
			switch {
			case p == nil:
				return nil, []string{"This field may not be null."}
			case len(p) < 2:
				return nil, []string{"Ensure this field has at least 2 elements."}
			case len(p) > 2:
				return nil, []string{"Ensure this field has no more than 2 elements."}
			}
			pair := make([]string, len(p))
			for i, v := range p {
				var s string
				var n json.Number
				switch {
				case json.Unmarshal(v, &s) == nil && string(v) != "null":
					pair[i] = s
				case json.Unmarshal(v, &n) == nil && string(v) != "null":
					pair[i] = n.String()
				case string(v) == "null":
					return nil, []string{"This field may not be null."}
				default:
					return nil, []string{"Not a valid string."}
				}
			}
			out = append(out, pair)
		}
		return out, nil
	case "json.RawMessage":
		if !json.Valid(raw) {
			return nil, []string{"Value must be valid JSON."}
		}
		return json.RawMessage(append([]byte(nil), raw...)), nil
	}
	return nil, []string{"Unsupported value."}
}
