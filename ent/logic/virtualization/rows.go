package virtualization

import (
	"context"

	"github.com/inventory/inventory/ent/logic/rawsql"
)

// Tables the hooks read and write.
const (
	tableCluster   = "virtualization_cluster"
	tableVM        = "virtualization_virtualmachine"
	tableInterface = "virtualization_vminterface"
	tableDisk      = "virtualization_virtualdisk"
	tableDevice    = "dcim_device"
	tableSite      = "dcim_site"
	tableLocation  = "dcim_location"
)

// name is the name column of row id of table, for messages.
func name(ctx context.Context, m rawsql.Mutation, table string, id int) string {
	r, err := rawsql.Lookup(ctx, m, table, id, "name")
	if err != nil || r == nil {
		return ""
	}
	return rawsql.StringOf(r["name"])
}

// args are fresh statement arguments for m's database.
func args(m rawsql.Mutation) *rawsql.Args { return &rawsql.Args{PG: rawsql.Postgres(m)} }
