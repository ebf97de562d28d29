package resource

import (
	_ "embed"
	"encoding/json"
	"strings"
	"sync"

	"github.com/inventory/inventory/filters"
)

// NetBox declares a filter set by hand for each model: which foreign keys
// also filter by slug or name (`site` beside `site_id`), which fields are
// filters at all, which lookups each one takes. No rule derives that from
// the model, so the derivation here proposes filters from the fields and
// NetBox's table of filters (netbox_filters.json, extracted from the
// reference by netboxfilters_extract.py) disposes: a derived filter NetBox
// does not have is not served, and a parameter naming it is unknown, as it
// is to NetBox (the unknown-filter guard then ignores it beside a known
// filter, or refuses it alone). A filter the schema declares (api.Filter)
// is the schema author's word and is served even where NetBox has none:
// those are the documented departures (TestServedFiltersMatchReference
// holds the list). A model NetBox does not have, or serves without a
// filter set, keeps its derived filters.

//go:embed netbox_filters.json
var netboxFiltersJSON []byte

// netboxFilters maps a content type to NetBox's filters: name → lookups.
var netboxFilters = sync.OnceValue(func() map[string]map[string][]string {
	var doc struct {
		Filters map[string]map[string]string `json:"filters"`
	}
	if err := json.Unmarshal(netboxFiltersJSON, &doc); err != nil {
		panic("resource: netbox_filters.json: " + err.Error())
	}
	out := make(map[string]map[string][]string, len(doc.Filters))
	for ct, fs := range doc.Filters {
		m := make(map[string][]string, len(fs))
		for name, ls := range fs {
			m[name] = []string{}
			if ls != "" {
				m[name] = strings.Split(ls, ",")
			}
		}
		out[ct] = m
	}
	return out
})

// NetBoxFilters returns NetBox's filters of a content type (name → the
// lookup suffixes NetBox generates for it), and whether NetBox has the
// model at all.
func NetBoxFilters(contentType string) (map[string][]string, bool) {
	m, ok := netboxFilters()[contentType]
	return m, ok
}

// netboxOnly keeps of fs the filters NetBox has for the model, each with
// only the lookups NetBox generates for it (among those it implements),
// and the declared ones.
func (d *Descriptor) netboxOnly(fs []*filters.Filter, declared map[string]bool) []*filters.Filter {
	nb, ok := NetBoxFilters(d.ContentType())
	if !ok || len(nb) == 0 {
		// A model NetBox serves without a filter set (notifications,
		// notification groups, subscriptions: every parameter ignored,
		// the whole list returned) keeps its derived filters, a
		// documented departure: the unknown-filter guard could not
		// answer those lists as NetBox does anyway.
		return fs
	}
	kept := fs[:0]
	for _, f := range fs {
		lookups, listed := nb[f.Name]
		switch {
		case listed:
			own := []string{}
			for _, l := range lookups {
				if f.HasLookup(l) {
					own = append(own, l)
				}
			}
			f.Lookups = own
		case !declared[f.Name]:
			continue
		}
		kept = append(kept, f)
	}
	return kept
}
