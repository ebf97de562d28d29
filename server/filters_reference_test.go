package server_test

import (
	"encoding/json"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/inventory/inventory/ent/resource"
	"github.com/inventory/inventory/filters"
	"github.com/inventory/inventory/server"
	"github.com/inventory/inventory/server/servertest"
)

// filterAdditions are filters served beyond NetBox's filter set, each a
// documented departure (README, Differences from NetBox): "endpoint name",
// or "endpoint *" for an endpoint NetBox serves without a filter set,
// which keeps the filters derived from its fields.
var filterAdditions = map[string]string{
	"extras/notifications *":              "README: NetBox has no filter set for them",
	"extras/notification-groups *":        "README: NetBox has no filter set for them",
	"extras/subscriptions *":              "README: NetBox has no filter set for them",
	"ipam/aggregates within":              "README: aggregate filters, as on prefixes",
	"ipam/aggregates within_include":      "README: aggregate filters, as on prefixes",
	"ipam/aggregates contains":            "README: aggregate filters, as on prefixes",
	"ipam/aggregates mask_length":         "README: aggregate filters, as on prefixes",
	"wireless/wireless-links interface_a": "README: Ansible's netbox_wireless_link looks links up by them",
	"wireless/wireless-links interface_b": "README: Ansible's netbox_wireless_link looks links up by them",
}

// filterGaps are NetBox filters not served, each for a reason: "name" on
// every endpoint, or "endpoint name".
var filterGaps = map[string]string{
	// Filters by numeric ObjectType ids: object types are "app.model"
	// strings here (README: filters by numeric object type id); the string
	// forms are served.
	// Object type id filters whose type filter is not a content type
	// filter here (an attribute column, the tagged items' own table): not
	// yet; the "app.model" forms are served.
	"extras/custom-fields related_object_type_id": "ObjectType ids",
	"extras/table-configs object_type_id":         "ObjectType ids",
	"extras/tagged-objects object_type_id":        "ObjectType ids",
	"extras/tags object_types":                    "ObjectType ids",
	"extras/tags content_type_id":                 "ObjectType ids",
	"extras/tags for_object_type_id":              "ObjectType ids",
	"users/permissions object_types":              "ObjectType ids",
	// Data files are written only by syncs, with no change records of
	// their own (NetBox's DataFile is no change-logged model either; its
	// filter set inherits these filters, which match nothing there).
	"core/data-files created_by_request":  "no change records of data files",
	"core/data-files updated_by_request":  "no change records of data files",
	"core/data-files modified_by_request": "no change records of data files",
	// README: the usable filter of saved filters and table configs.
	"extras/saved-filters usable": "the visibility rule already hides other users' private rows",
	"extras/table-configs usable": "the visibility rule already hides other users' private rows",
	// README: no data sources are served (config contexts, profiles,
	// config and export templates).
	"extras/export-templates auto_sync_enabled": "no data sources",
}

// lookupGaps are lookups NetBox generates for a filter that it is not
// served with ("endpoint name").
var lookupGaps = map[string]string{}

func init() {
	// NetBox's serializers show no auto_sync_enabled for these: here
	// they always follow their file (README).
	for _, ep := range []string{"extras/config-contexts", "extras/export-templates", "extras/config-context-profiles"} {
		filterGaps[ep+" auto_sync_enabled"] = "no auto_sync_enabled field: they always follow their file"
	}
}

// refFilter is one filter of the reference's filter sets.
type refFilter struct {
	Kind     string   `json:"kind"`
	Lookups  []string `json:"lookups"`
	Inferred []string `json:"lookups_inferred_4_6"`
}

// referenceFilters reads every endpoint's filters from the reference:
// "app/path" → name → the lookup suffixes NetBox generates. A choice
// filter has the character lookups NetBox 4.6 gives ChoiceFilter and
// MultipleChoiceFilter (BaseFilterSet._get_filter_lookup_dict), which the
// 4.2 schema the reference's lookups come from left out; a filter listed
// under a lookup name (mask_length__gte) is that lookup of its base.
func referenceFilters(t *testing.T) map[string]map[string][]string {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("..", "testdata", "reference", "netbox-models.json"))
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Endpoints map[string]struct {
			Filters map[string]refFilter `json:"filters"`
		} `json:"endpoints"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	out := map[string]map[string][]string{}
	for ep, e := range doc.Endpoints {
		m := map[string][]string{}
		for name, f := range e.Filters {
			if base, lookup, ok := strings.Cut(name, "__"); ok {
				m[base] = append(m[base], lookup)
				continue
			}
			m[name] = append(m[name], f.Lookups...)
			if f.Kind == "choice" {
				m[name] = append(m[name], f.Inferred...)
			}
		}
		out[ep] = m
	}
	return out
}

// probeLookups are every lookup suffix a parameter may carry, NetBox's
// and the filter language's.
var probeLookups = []string{"n", "ic", "nic", "isw", "nisw", "iew", "niew", "ie", "nie", "empty", "regex", "iregex",
	"lt", "lte", "gt", "gte", "any", "c", "sw", "ew", "isnull", "in", "exact", "contains"}

// TestServedFiltersMatchReference: every endpoint serves exactly NetBox's
// filters (names and lookups) plus the documented additions, less the
// documented gaps. It asks the served API with FILTER_UNKNOWN=strict: one
// GET per endpoint naming every parameter NetBox or this service could
// know, each with a blank value (a known filter with no value filters
// nothing), answers 400 naming exactly the parameters the endpoint does
// not know.
func TestServedFiltersMatchReference(t *testing.T) {
	ref := referenceFilters(t)
	used := map[string]bool{}
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		for _, d := range resource.All() {
			ep := d.App + "/" + d.Path
			want, ok := ref[ep]
			if !ok {
				t.Errorf("%s: not in the reference", ep)
				continue
			}
			names := map[string]bool{}
			for name := range want {
				names[name] = true
			}
			for _, f := range d.Filters().Filters {
				names[f.Name] = true
			}
			q := url.Values{}
			for name := range names {
				for _, p := range append([]string{name}, prefixed(name, probeLookups)...) {
					if !slices.Contains(filters.Reserved, p) {
						q[p] = []string{""}
					}
				}
			}
			r := e.Do("GET", "/api/"+ep+"/?"+q.Encode(), nil)
			unknown := map[string]any{}
			switch r.Status {
			case http.StatusOK:
			case http.StatusBadRequest:
				if err := json.Unmarshal(r.Body, &unknown); err != nil {
					t.Fatalf("%s: %s", ep, r.Body)
				}
			default:
				t.Errorf("%s: %d %.300s", ep, r.Status, r.Body)
				continue
			}
			served := func(p string) bool { _, no := unknown[p]; return !no }
			var extra, missing []string
			for p := range q {
				base, _, _ := strings.Cut(p, "__")
				if !served(p) || filterAdditions[ep+" "+base] != "" || filterAdditions[ep+" *"] != "" {
					continue
				}
				lookups, listed := want[base]
				if _, lookup, ok := strings.Cut(p, "__"); !listed || ok && !slices.Contains(lookups, lookup) {
					extra = append(extra, p)
				}
			}
			for name, lookups := range want {
				if why := gapOf(ep, name); why != "" {
					if served(name) {
						t.Errorf("%s: %s is served, drop it from filterGaps (%s)", ep, name, why)
					}
					used[gapKey(ep, name)] = true
					continue
				}
				for _, p := range append([]string{name}, prefixed(name, lookups)...) {
					if !served(p) {
						if lookupGaps[ep+" "+name] != "" && p != name {
							used[ep+" "+name] = true
							continue
						}
						missing = append(missing, p)
					}
				}
			}
			for k := range filterAdditions {
				if a, name, _ := strings.Cut(k, " "); a == ep && name != "*" && !served(name) {
					t.Errorf("%s: the documented addition %s is not served", ep, name)
				}
			}
			sort.Strings(extra)
			sort.Strings(missing)
			if len(extra) > 0 {
				t.Errorf("%s: served beyond NetBox's filter set (drop them, or document them in filterAdditions and the README): %v", ep, extra)
			}
			if len(missing) > 0 {
				t.Errorf("%s: NetBox's filters not served (add them, or list them in filterGaps with a reason): %v", ep, missing)
			}
		}
	}, func(c *server.Config) { c.FilterUnknown = filters.Strict })
	for k := range filterGaps {
		if !used[k] {
			t.Errorf("filterGaps: %q matches no reference filter of a served endpoint", k)
		}
	}
	for k := range lookupGaps {
		if !used[k] {
			t.Errorf("lookupGaps: %q: every lookup is served now", k)
		}
	}
}

func prefixed(name string, lookups []string) []string {
	out := make([]string, len(lookups))
	for i, l := range lookups {
		out[i] = name + "__" + l
	}
	return out
}

func gapKey(ep, name string) string {
	if filterGaps[name] != "" {
		return name
	}
	return ep + " " + name
}

func gapOf(ep, name string) string { return filterGaps[gapKey(ep, name)] }

// TestUnknownFilterBesideKnown: a filter NetBox does not have is unknown
// here too. Ansible resolves a power port template with
// ?name=...&device_type=8&device_type_id=8: NetBox's filter set has only
// device_type_id, so device_type is ignored (named in X-Ignored-Filters
// beside the known filters) and the template is found; alone it is an
// unknown filter (400 under FILTER_UNKNOWN=guard).
func TestUnknownFilterBesideKnown(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		mf := e.Must(http.StatusCreated, "POST", "/api/dcim/manufacturers/", map[string]any{"name": "M", "slug": "m"}).Object()
		dt := e.Must(http.StatusCreated, "POST", "/api/dcim/device-types/", map[string]any{"manufacturer": mf["id"], "model": "T", "slug": "t"}).Object()
		id := strconv.Itoa(idOf(dt))
		e.Must(http.StatusCreated, "POST", "/api/dcim/power-port-templates/", map[string]any{"device_type": dt["id"], "name": "Power Port Template"})
		e.Must(http.StatusCreated, "POST", "/api/dcim/power-port-templates/", map[string]any{"device_type": dt["id"], "name": "Other"})
		cases := []struct {
			name, query string
			status      int
			ignored     string
			count       int
		}{
			{"Ansible's lookup", "name=Power+Port+Template&device_type=" + id + "&device_type_id=" + id, http.StatusOK, "device_type", 1},
			{"by slug beside the id", "device_type=t&device_type_id=" + id, http.StatusOK, "device_type", 2},
			{"device_type alone", "device_type=" + id, http.StatusBadRequest, "", 0},
			{"module alone on a device component", "module=1", http.StatusBadRequest, "", 0},
		}
		for _, c := range cases {
			path := "/api/dcim/power-port-templates/?" + c.query
			if strings.HasPrefix(c.name, "module") {
				path = "/api/dcim/interfaces/?" + c.query
			}
			r := e.Do("GET", path, nil)
			if r.Status != c.status {
				t.Errorf("%s: GET %s: %d %.300s", c.name, path, r.Status, r.Body)
				continue
			}
			if c.status != http.StatusOK {
				var body map[string][]string
				if json.Unmarshal(r.Body, &body) != nil || len(body) != 1 || !strings.HasPrefix(strings.Join(body[strings.Split(c.query, "=")[0]], ""), "Unknown filter parameter") {
					t.Errorf("%s: want a 400 naming the unknown parameter: %s", c.name, r.Body)
				}
				continue
			}
			if got := r.Header.Get("X-Ignored-Filters"); got != c.ignored {
				t.Errorf("%s: X-Ignored-Filters %q, want %q", c.name, got, c.ignored)
			}
			if n := len(r.Results()); n != c.count {
				t.Errorf("%s: %d results, want %d: %.300s", c.name, n, c.count, r.Body)
			}
		}
	})
}
