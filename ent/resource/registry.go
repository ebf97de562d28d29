package resource

import (
	"fmt"
	"sort"
	"sync"

	"github.com/inventory/inventory/ent/migrate"

	// Schema hooks move ent's defaults, validators and hooks into the
	// runtime package; every client is used through this package.
	_ "github.com/inventory/inventory/ent/runtime"
)

var (
	all      []*Descriptor
	byType   = map[string]*Descriptor{} // content type "dcim.site"
	byPath   = map[string]*Descriptor{} // "dcim/sites"
	initOnce sync.Once
)

// register is called by the generated descriptors' init functions.
func register(d *Descriptor) {
	all = append(all, d)
}

// All returns every registered descriptor, ordered by app then path.
func All() []*Descriptor {
	initOnce.Do(resolve)
	return all
}

// ByContentType finds a descriptor by "app.model".
func ByContentType(ct string) *Descriptor {
	initOnce.Do(resolve)
	return byType[ct]
}

// ByPath finds a descriptor by "app/path".
func ByPath(app, path string) *Descriptor {
	initOnce.Do(resolve)
	return byPath[app+"/"+path]
}

// resolve indexes the descriptors and links fields to their targets once all
// generated init functions have run.
func resolve() {
	sort.Slice(all, func(i, j int) bool {
		if all[i].App != all[j].App {
			return all[i].App < all[j].App
		}
		return all[i].Path < all[j].Path
	})
	notNull := map[string]map[string]bool{}
	width := map[string]int{}
	for _, t := range migrate.Tables {
		width[t.Name] = len(t.Columns)
		cols := map[string]bool{}
		for _, c := range t.Columns {
			if !c.Nullable {
				cols[c.Name] = true
			}
		}
		notNull[t.Name] = cols
	}
	for _, d := range all {
		d.notNull, d.tableCols = notNull[d.Table], width[d.Table]
		byType[d.ContentType()] = d
		byPath[d.App+"/"+d.Path] = d
	}
	openGenericTypes()
	// Index every model before building filters, which look into the
	// fields of related models.
	for _, d := range all {
		if err := d.prepare(); err != nil {
			panic(fmt.Sprintf("resource %s: %v", d.ContentType(), err))
		}
	}
	for _, d := range all {
		if err := d.prepareForms(); err != nil {
			panic(fmt.Sprintf("resource %s: %v", d.ContentType(), err))
		}
	}
	for _, d := range all {
		if err := d.buildFilters(); err != nil {
			panic(fmt.Sprintf("resource %s: filters: %v", d.ContentType(), err))
		}
	}
}
