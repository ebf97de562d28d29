package netboxtest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sort"
	"sync"

	"github.com/inventory/inventory/server/netboximport/recorded"
)

// Source is a NetBox to read from: netboximport.Source's method set.
type Source interface {
	// Status is NetBox's GET /api/status/.
	Status(ctx context.Context) (map[string]any, error)
	// Count is how many objects the endpoint ("dcim/devices") holds.
	Count(ctx context.Context, endpoint string) (int, error)
	// Pages calls fn with the endpoint's objects page by page in id order.
	// An endpoint the source does not have has no pages.
	Pages(ctx context.Context, endpoint string, fn func(objs []json.RawMessage) error) error
}

// Lister is a Source that knows its endpoints (the fake NetBox lists them
// under /api/<app>/, as NetBox lists every endpoint, empty ones included).
type Lister interface {
	Endpoints(ctx context.Context) ([]string, error)
}

// Seeker is a Source that can start reading after an id without reading
// what precedes it (the fake NetBox's id__gt on a large source).
type Seeker interface {
	PagesAfter(ctx context.Context, endpoint string, after int, fn func(objs []json.RawMessage) error) error
}

// errStop ends a Pages walk early; it never leaves this package.
var errStop = errors.New("netboxtest: stop")

// ObjectID is the "id" of one object of a list answer.
func ObjectID(obj json.RawMessage) (int, error) { return recorded.ObjectID(obj) }

// pagesAfter reads src's endpoint after an id: seeking when src can,
// skipping otherwise.
func pagesAfter(ctx context.Context, src Source, endpoint string, after int, fn func([]json.RawMessage) error) error {
	if s, ok := src.(Seeker); ok {
		return s.PagesAfter(ctx, endpoint, after, fn)
	}
	return src.Pages(ctx, endpoint, func(objs []json.RawMessage) error {
		if after <= 0 {
			return fn(objs)
		}
		for i, o := range objs {
			id, err := ObjectID(o)
			if err != nil {
				return err
			}
			if id > after {
				return fn(objs[i:])
			}
		}
		return nil
	})
}

// ReadAll is every object of the endpoint (for tests of small sources).
func ReadAll(ctx context.Context, src Source, endpoint string) ([]json.RawMessage, error) {
	var all []json.RawMessage
	err := src.Pages(ctx, endpoint, func(objs []json.RawMessage) error {
		all = append(all, objs...)
		return nil
	})
	return all, err
}

// Dir reads recorded answers from a directory (package recorded).
type Dir = recorded.Dir

// Memory is a Source held in memory that tests change while it is read
// (objects added and removed between pages). Safe for concurrent use;
// each page is cut under the lock from what the endpoint holds then.
type Memory struct {
	PageSize int // 1000 when zero

	mu     sync.Mutex
	status map[string]any
	data   map[string][]entry // in id order
}

type entry struct {
	id  int
	obj json.RawMessage
}

// NewMemory is an empty Memory answering status for /api/status/.
func NewMemory(status map[string]any) *Memory {
	return &Memory{status: status, data: map[string][]entry{}}
}

// Load copies every endpoint of src (a Lister) into a new Memory.
func Load(ctx context.Context, src Source) (*Memory, error) {
	st, err := src.Status(ctx)
	if err != nil {
		return nil, err
	}
	m := NewMemory(st)
	l, ok := src.(Lister)
	if !ok {
		return nil, fmt.Errorf("netboxtest.Load: %T does not list its endpoints", src)
	}
	eps, err := l.Endpoints(ctx)
	if err != nil {
		return nil, err
	}
	for _, e := range eps {
		m.data[e] = nil
		err := src.Pages(ctx, e, func(objs []json.RawMessage) error { return m.Put(e, objs...) })
		if err != nil {
			return nil, err
		}
	}
	return m, nil
}

// Put adds objects to the endpoint, replacing those of the same id.
func (m *Memory) Put(endpoint string, objs ...json.RawMessage) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	es := m.data[endpoint]
	for _, o := range objs {
		id, err := ObjectID(o)
		if err != nil {
			return err
		}
		i, found := slices.BinarySearchFunc(es, id, func(e entry, id int) int { return e.id - id })
		if found {
			es[i].obj = o
		} else {
			es = slices.Insert(es, i, entry{id, o})
		}
	}
	m.data[endpoint] = es
	return nil
}

// Delete removes the endpoint's objects of these ids.
func (m *Memory) Delete(endpoint string, ids ...int) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.data[endpoint] = slices.DeleteFunc(m.data[endpoint], func(e entry) bool { return slices.Contains(ids, e.id) })
}

// Status is the status given to NewMemory.
func (m *Memory) Status(ctx context.Context) (map[string]any, error) {
	return m.status, nil
}

// Count is how many objects the endpoint holds now.
func (m *Memory) Count(ctx context.Context, endpoint string) (int, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.data[endpoint]), nil
}

// Endpoints are those loaded or put.
func (m *Memory) Endpoints(ctx context.Context) ([]string, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	set := map[string]bool{}
	for e := range m.data {
		set[e] = true
	}
	return sortedKeys(set), nil
}

// Pages reads the endpoint from the start.
func (m *Memory) Pages(ctx context.Context, endpoint string, fn func([]json.RawMessage) error) error {
	return m.PagesAfter(ctx, endpoint, 0, fn)
}

// PagesAfter reads the objects of ids above after, each page cut from what
// the endpoint holds when it is cut.
func (m *Memory) PagesAfter(ctx context.Context, endpoint string, after int, fn func([]json.RawMessage) error) error {
	size := m.PageSize
	if size <= 0 {
		size = 1000
	}
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		m.mu.Lock()
		es := m.data[endpoint]
		i, _ := slices.BinarySearchFunc(es, after+1, func(e entry, id int) int { return e.id - id })
		page := make([]json.RawMessage, 0, min(size, len(es)-i))
		for _, e := range es[i:min(i+size, len(es))] {
			page = append(page, e.obj)
		}
		m.mu.Unlock()
		if len(page) == 0 {
			return nil
		}
		if err := fn(page); err != nil {
			return err
		}
		if after, _ = ObjectID(page[len(page)-1]); len(page) < size {
			return nil
		}
	}
}

func sortedKeys(set map[string]bool) []string {
	keys := make([]string, 0, len(set))
	for k := range set {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
