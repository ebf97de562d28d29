package resource

import (
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"sort"

	"entgo.io/ent/dialect"

	"github.com/inventory/inventory/ent/schema/api"
	"github.com/inventory/inventory/filters"
)

// NetBox's object types, as data: every model of NetBox 4.6 with the
// features its registry gives it and whether it is public
// (netbox_object_types.json, extracted from NetBox's source by
// objecttypes_extract.py). Fields that take object types
// (api.Field.ObjectTypes) accept what NetBox's serializer field accepts,
// whether this service serves the model yet or not: clients copy these
// lists from NetBox (Ansible's permission module names
// vpn.tunneltermination).

//go:embed netbox_object_types.json
var netboxObjectTypesJSON []byte

type objectTypeInfo struct {
	Public   bool     `json:"public"`
	Features []string `json:"features"`
}

// objectTypeSelection is a queryset of object types that is no single
// feature (OBJECTPERMISSION_OBJECT_TYPES).
type objectTypeSelection struct {
	Public bool     `json:"public"`
	Except []string `json:"except"`
	Also   []string `json:"also"`
}

var netboxObjectTypes = func() (doc struct {
	Selections map[string]objectTypeSelection `json:"selections"`
	Models     map[string]objectTypeInfo      `json:"models"`
}) {
	if err := json.Unmarshal(netboxObjectTypesJSON, &doc); err != nil {
		panic("resource: netbox_object_types.json: " + err.Error())
	}
	return doc
}()

// ObjectTypeAccepted reports whether a content-types field of selection
// sel (api.Field.ObjectTypes: a feature name or a selection) accepts ct.
// NetBox's models follow NetBox's data; a model served here that NetBox
// does not have (a webhook delivery) follows its descriptor.
func ObjectTypeAccepted(sel, ct string) bool {
	if info, ok := netboxObjectTypes.Models[ct]; ok {
		if s, ok := netboxObjectTypes.Selections[sel]; ok {
			if slices.Contains(s.Also, ct) {
				return true
			}
			return (!s.Public || info.Public) && !slices.Contains(s.Except, ct)
		}
		return slices.Contains(info.Features, sel)
	}
	d := ByContentType(ct)
	if d == nil {
		return false
	}
	switch sel {
	case "custom_fields":
		return d.Custom
	case "tags":
		return d.Tagged
	case "event_rules":
		return d.Logged
	}
	_, isSelection := netboxObjectTypes.Selections[sel]
	return isSelection
}

// ObjectTypes lists, sorted, every object type selection sel accepts
// (NetBox's and served ones).
func ObjectTypes(sel string) []string {
	var out []string
	for ct := range netboxObjectTypes.Models {
		if ObjectTypeAccepted(sel, ct) {
			out = append(out, ct)
		}
	}
	for _, d := range All() {
		if _, ok := netboxObjectTypes.Models[d.ContentType()]; !ok && ObjectTypeAccepted(sel, d.ContentType()) {
			out = append(out, d.ContentType())
		}
	}
	sort.Strings(out)
	return out
}

// isNetBoxObjectType reports whether ct names a NetBox model.
func isNetBoxObjectType(ct string) bool {
	_, ok := netboxObjectTypes.Models[ct]
	return ok
}

// featureRefusals are the clean() messages of NetBox's models whose
// generic relation is limited to a feature while their serializer field
// takes any object type (ContactAssignment, JournalEntry,
// ImageAttachment): for a type that exists but lacks the feature NetBox
// answers the model's message under "__all__", not under the _type
// field. (Bookmarks, notifications and subscriptions limit the serializer
// field itself: "Invalid content type" under object_type.)
var featureRefusals = map[string]string{
	"contacts":          "Contacts cannot be assigned to this object type (%s).",
	"journaling":        "Journaling is not supported for this object type (%s).",
	"image_attachments": "Image attachments cannot be assigned to this object type (%s).",
}

// featureRefusal gives NetBox's message for ct on a generic relation
// limited to feature, or "" when ct takes the feature, is no object type
// at all, or the feature has no such message.
func featureRefusal(feature, ct string) string {
	msg, ok := featureRefusals[feature]
	if !ok || ObjectTypeAccepted(feature, ct) || (ByContentType(ct) == nil && !isNetBoxObjectType(ct)) {
		return ""
	}
	return fmt.Sprintf(msg, ContentTypeLabel(ct))
}

// ModelInfo is the api.ModelInfo lookup over the served models
// (api.WithModels).
func ModelInfo(ct string) (api.ModelInfo, bool) {
	d := ByContentType(ct)
	if d == nil {
		return api.ModelInfo{}, false
	}
	return api.ModelInfo{Table: d.Table, Label: ContentTypeLabel(ct), CheckFilters: d.checkFilters}, true
}

// checkFilters resolves params with the model's filter spec as a list
// request would, with unknown parameters refused (FILTER_UNKNOWN=strict)
// and without looking related objects up (filters.Options.NoLookups: the
// objects a saved filter names may come and go), the custom fields read
// through q: the parameters refused, with their messages.
func (d *Descriptor) checkFilters(ctx context.Context, q api.Querier, pg bool, params url.Values) (map[string][]string, error) {
	dia := dialect.SQLite
	if pg {
		dia = dialect.Postgres
	}
	_, err := d.Filters().Resolve(WithStore(ctx, Store{Dialect: dia, Q: q}), params, filters.Options{
		Unknown: filters.Strict, Reserved: filters.Reserved, Dialect: dia, NoLookups: true})
	var fe filters.Errors
	if errors.As(err, &fe) {
		return fe, nil
	}
	return nil, err
}
