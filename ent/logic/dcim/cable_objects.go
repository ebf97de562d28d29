package dcim

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/inventory/inventory/ent/logic/rawsql"
)

// The objects a cable terminates on, as the cable hooks read and write
// them: one query per type for a whole end, whatever its size.

// cabledTable is the table of each cabled type.
var cabledTable = map[string]string{
	"circuits.circuittermination": "circuits_circuittermination",
	"dcim.consoleport":            "dcim_consoleport",
	"dcim.consoleserverport":      "dcim_consoleserverport",
	"dcim.frontport":              "dcim_frontport",
	"dcim.interface":              "dcim_interface",
	"dcim.powerfeed":              "dcim_powerfeed",
	"dcim.poweroutlet":            "dcim_poweroutlet",
	"dcim.powerport":              "dcim_powerport",
	"dcim.rearport":               "dcim_rearport",
}

// CabledTable is the table of a cabled type ("" for any other type).
func CabledTable(ct string) string { return cabledTable[ct] }

// ref is one object of a cable end.
type ref struct {
	ct string
	id int
}

// cabled is what the rules need of a terminated object.
type cabled struct {
	ref
	exists        bool
	name          string // NetBox's str() of the object
	parent        int    // device, power panel or circuit
	parentName    string
	markConnected bool
	cable         int // 0: none
	ifaceType     string
	providerNet   bool
	// The cached scope for the termination row (NetBox's
	// cache_related_objects()).
	device, rack, location, site *int
}

// model is the model name of a content type.
func model(ct string) string {
	_, m, _ := strings.Cut(ct, ".")
	return m
}

// loadCabled reads the objects of refs, one query per type.
func loadCabled(ctx context.Context, m rawsql.Mutation, refs []ref) (map[ref]*cabled, error) {
	byType := map[string][]int{}
	var types []string
	for _, r := range refs {
		if byType[r.ct] == nil {
			types = append(types, r.ct)
		}
		byType[r.ct] = append(byType[r.ct], r.id)
	}
	out := map[ref]*cabled{}
	for _, ct := range types {
		table := cabledTable[ct]
		if table == "" {
			continue
		}
		var cols []string
		var from string
		switch ct {
		case "dcim.powerfeed":
			cols = []string{"o.id", "o.name", "''", "o.power_panel_id", "p.name", "o.mark_connected", "o.cable_id", "''", "0",
				"NULL", "o.rack_id", "r.location_id", "r.site_id"}
			from = `dcim_powerfeed o JOIN dcim_powerpanel p ON p.id = o.power_panel_id LEFT JOIN dcim_rack r ON r.id = o.rack_id`
		case "circuits.circuittermination":
			cols = []string{"o.id", "o.term_side", "''", "o.circuit_id", "c.cid", "o.mark_connected", "o.cable_id", "''",
				"CASE WHEN o._provider_network_id IS NULL THEN 0 ELSE 1 END", "NULL", "NULL", "o._location_id", "o._site_id"}
			from = `circuits_circuittermination o JOIN circuits_circuit c ON c.id = o.circuit_id`
		default:
			typ := "''"
			if ct == "dcim.interface" {
				typ = "o.type"
			}
			cols = []string{"o.id", "o.name", "o.label", "o.device_id", "COALESCE(d.name, '')", "o.mark_connected",
				"o.cable_id", typ, "0", "o.device_id", "d.rack_id", "d.location_id", "d.site_id"}
			from = table + ` o JOIN dcim_device d ON d.id = o.device_id`
		}
		for i := range cols {
			cols[i] += " AS c" + strconv.Itoa(i)
		}
		q := `SELECT ` + strings.Join(cols, ", ") + ` FROM ` + from
		err := rawsql.Chunks(dedupeInts(byType[ct]), func(ids []int) error {
			a := &rawsql.Args{PG: rawsql.Postgres(m)}
			rows, err := rawsql.Rows(ctx, m, q+` WHERE o.id IN (`+rawsql.In(a, ids)+`)`, a)
			if err != nil {
				return err
			}
			for _, row := range rows {
				c := rowCabled(ct, row)
				out[c.ref] = c
			}
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("cable terminations: %w", err)
		}
	}
	for _, r := range refs {
		if out[r] == nil {
			out[r] = &cabled{ref: r}
		}
	}
	return out, nil
}

// rowCabled reads a row of loadCabled's query (columns by position, as
// rawsql.Rows names them after the select list's expressions).
func rowCabled(ct string, row map[string]any) *cabled {
	vals := orderedVals(row)
	c := &cabled{exists: true}
	c.ct = ct
	c.id, _ = rawsql.IntOf(vals[0])
	c.name = rawsql.StringOf(vals[1])
	label := rawsql.StringOf(vals[2])
	c.parent, _ = rawsql.IntOf(vals[3])
	c.parentName = rawsql.StringOf(vals[4])
	c.markConnected = asBool(vals[5])
	c.cable, _ = rawsql.IntOf(vals[6])
	c.ifaceType = rawsql.StringOf(vals[7])
	pn, _ := rawsql.IntOf(vals[8])
	c.providerNet = pn != 0
	c.device, c.rack, c.location, c.site = intPtr(vals[9]), intPtr(vals[10]), intPtr(vals[11]), intPtr(vals[12])
	switch ct {
	case "circuits.circuittermination":
		c.name = c.parentName + ": Termination " + c.name
	case "dcim.powerfeed":
	default:
		if label != "" {
			c.name += " (" + label + ")"
		}
	}
	return c
}

// orderedVals are a row's values in select-list order (loadCabled's
// query names them c0..c12).
func orderedVals(row map[string]any) []any {
	out := make([]any, 13)
	for i := range out {
		out[i] = row["c"+strconv.Itoa(i)]
	}
	return out
}

func intPtr(v any) *int {
	if n, ok := rawsql.IntOf(v); ok {
		return &n
	}
	return nil
}

func dedupeInts(ids []int) []int {
	seen := map[int]bool{}
	out := ids[:0:0]
	for _, id := range ids {
		if !seen[id] {
			seen[id] = true
			out = append(out, id)
		}
	}
	return out
}
