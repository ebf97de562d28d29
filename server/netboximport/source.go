package netboximport

import (
	"context"
	"encoding/json"

	"github.com/inventory/inventory/server/netboximport/recorded"
)

// Source is a NetBox to import from.
type Source interface {
	// Status is NetBox's GET /api/status/ ("netbox-version" and so on).
	Status(ctx context.Context) (map[string]any, error)
	// Count is how many objects the endpoint holds (a list's "count").
	Count(ctx context.Context, endpoint string) (int, error)
	// Pages calls fn with the objects of one list endpoint ("dcim/devices"),
	// page by page in id order, as NetBox's list GET renders them. An
	// endpoint the source does not have is not an error: it has no pages.
	Pages(ctx context.Context, endpoint string, fn func(objs []json.RawMessage) error) error
}

// DirSource reads recorded answers from a directory laid out as
// testdata/netbox-demo (package recorded): the --from-dir source, a
// FileSource and an EndpointLister.
type DirSource = recorded.Dir

// Progress is told what an import does as it goes; the command shows it
// (bars per model and totals), tests may count it. Calls come from
// several goroutines.
type Progress interface {
	Start(endpoint string, total int) // before the endpoint's first object is read
	Read(endpoint string, n int)      // n more objects read from the source
	Wrote(endpoint string, n int)     // n more objects written to the target
	Done(endpoint string, err error)  // the endpoint is written (or failed)
}
