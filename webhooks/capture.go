package webhooks

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/inventory/inventory/ent"
	"github.com/inventory/inventory/ent/db"
	"github.com/inventory/inventory/ent/eventrule"
	"github.com/inventory/inventory/ent/logic/rawsql"
	"github.com/inventory/inventory/ent/resource"
	"github.com/inventory/inventory/ent/schema"
	"github.com/inventory/inventory/ent/schema/api"
)

// ErrOutsideTransaction refuses a write of a change-logged model that is
// not part of a tracked transaction (it would escape the change log).
var ErrOutsideTransaction = errors.New("mutation outside a transaction")

// Actor is who made the changes of a transaction, and in which request.
type Actor struct {
	RequestID string // the request's X-Request-ID (a UUID)
	UserID    *int
	Username  string
	Method    string // HTTP method, "" for CLI jobs
	Path      string
}

// The event names of the outbox (core_outboxevent.event).
const (
	EventCreated = "created"
	EventUpdated = "updated"
	EventDeleted = "deleted"
)

type objKey struct {
	ct string
	id int
}

// entry is what the changeset knows about one object.
type entry struct {
	d       *resource.Descriptor
	id      int
	created bool // created in this transaction
	// pre is the snapshot before the transaction touched the object
	// (first capture wins); nil for created objects.
	pre      json.RawMessage
	captured bool
	// last* are taken at the latest capture: for a deleted object they are
	// its state when it went.
	lastSnap json.RawMessage
	lastData json.RawMessage
	lastRepr string
	lastRow  *resource.Row // the row lastSnap was made of
	message  string
	// implicit objects were captured because a delete may cascade to them
	// or clear their key; unchanged, they produce nothing.
	implicit bool
	// touched objects changed in what they show, not in their columns
	// (api.Touching): an update record even when the snapshot is the same.
	touched bool
}

// changeset collects the changes of one transaction.
type changeset struct {
	mu      sync.Mutex
	actor   Actor
	dialect string
	order   []objKey
	objs    map[objKey]*entry
	// places are the marks of api.Mark, in the order taken: the rows
	// first named at one go before order[at] (after the records named
	// before the mark).
	places  []*place
	done    bool
	written int64 // change records flushed, counted once committed
}

// place is a mark of api.Mark: the rows first named at it, in order.
type place struct {
	cs   *changeset
	at   int
	keys []objKey
}

type changesetKey struct{}

// changesWritten counts the change records this process committed (the
// metrics' inventory_changelog_records_written_total).
var changesWritten atomic.Int64

// ChangesWritten is the number of change records this process committed.
func ChangesWritten() int64 { return changesWritten.Load() }

func changesetFrom(ctx context.Context) *changeset {
	cs, _ := ctx.Value(changesetKey{}).(*changeset)
	return cs
}

// Track attaches a changeset for tx to ctx: every change of a change-logged
// model made with the returned context is recorded, and right before tx
// commits (inside it) the change records and outbox events are written.
// A rollback discards everything.
func Track(ctx context.Context, tx *ent.Tx, actor Actor) context.Context {
	cs := &changeset{actor: actor, dialect: tx.DriverDialect(), objs: map[objKey]*entry{}}
	tx.OnCommit(func(next ent.Committer) ent.Committer {
		return ent.CommitFunc(func(ctx context.Context, tx *ent.Tx) error {
			if err := cs.flush(ctx, tx); err != nil {
				return fmt.Errorf("change log: %w", err)
			}
			if err := next.Commit(ctx, tx); err != nil {
				return err
			}
			changesWritten.Add(cs.written)
			return nil
		})
	})
	tx.OnRollback(func(next ent.Rollbacker) ent.Rollbacker {
		return ent.RollbackFunc(func(ctx context.Context, tx *ent.Tx) error {
			cs.mu.Lock()
			cs.done, cs.order, cs.objs, cs.places = true, nil, nil, nil
			cs.mu.Unlock()
			return next.Rollback(ctx, tx)
		})
	})
	ctx = context.WithValue(ctx, changesetKey{}, cs)
	ctx = api.WithSaver(ctx, cs.saving)
	ctx = api.WithRemover(ctx, cs.removing)
	ctx = api.WithCreator(ctx, cs.creating)
	ctx = api.WithPlaces(ctx, api.Places{Mark: cs.mark, Place: cs.placing})
	return api.WithToucher(ctx, cs.touching)
}

// logged is the descriptor of a change-logged model contentType and the
// store of m's transaction, for the signals hooks send about rows they
// write with SQL; false for a model the change log does not record, and
// within an import.
func logged(ctx context.Context, m ent.Mutation, contentType string) (*resource.Descriptor, resource.Store, bool) {
	if api.Importing(ctx) {
		return nil, resource.Store{}, false // nothing of an import is recorded (see hook)
	}
	d := resource.ByContentType(contentType)
	mc, ok := m.(mutationClient)
	if d == nil || !d.Logged || !ok {
		return nil, resource.Store{}, false
	}
	return d, resource.Store{Dialect: mc.DriverDialect(), Q: mc.Client()}, true
}

// touching records rows whose representation changed without their
// columns (api.Touching): each gets an update record and event.
func (cs *changeset) touching(ctx context.Context, m ent.Mutation, contentType string, ids []int) error {
	d, st, ok := logged(ctx, m, contentType)
	if !ok {
		return nil
	}
	if err := cs.snapshot(ctx, st, d, ids); err != nil {
		return err
	}
	cs.mu.Lock()
	defer cs.mu.Unlock()
	for _, id := range ids {
		if e := cs.objs[objKey{d.ContentType(), id}]; e != nil {
			e.touched, e.implicit = true, false
		}
	}
	return nil
}

// creating records rows a hook inserted with SQL as created (api.Created).
func (cs *changeset) creating(ctx context.Context, m ent.Mutation, contentType string, ids []int) error {
	d, _, ok := logged(ctx, m, contentType)
	if !ok {
		return nil
	}
	p := cs.placeOf(ctx)
	for _, id := range ids {
		cs.createdAt(d, id, "", p)
	}
	return nil
}

// mark takes a place after the records named so far (api.Mark).
func (cs *changeset) mark(context.Context) any {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	p := &place{cs: cs, at: len(cs.order)}
	cs.places = append(cs.places, p)
	return p
}

// placeOf is ctx's place (api.At) when it is one of cs's, else nil.
func (cs *changeset) placeOf(ctx context.Context) *place {
	if p, ok := api.MarkOf(ctx).(*place); ok && p.cs == cs {
		return p
	}
	return nil
}

// placing names rows at ctx's place before their snapshot
// (api.Placing): uncaptured entries that the snapshot fills.
func (cs *changeset) placing(ctx context.Context, m ent.Mutation, contentType string, ids []int) error {
	d, _, ok := logged(ctx, m, contentType)
	if !ok {
		return nil
	}
	p := cs.placeOf(ctx)
	cs.mu.Lock()
	defer cs.mu.Unlock()
	for _, id := range ids {
		cs.getAt(d, id, p)
	}
	return nil
}

// ordered is the order of the records: order with the places' rows
// inserted at their marks.
func (cs *changeset) ordered() []objKey {
	if len(cs.places) == 0 {
		return cs.order
	}
	n := len(cs.order)
	for _, p := range cs.places {
		n += len(p.keys)
	}
	out := make([]objKey, 0, n)
	j := 0
	for i := 0; i <= len(cs.order); i++ {
		for ; j < len(cs.places) && cs.places[j].at == i; j++ {
			out = append(out, cs.places[j].keys...)
		}
		if i < len(cs.order) {
			out = append(out, cs.order[i])
		}
	}
	return out
}

// saving snapshots rows a hook rewrites as NetBox's save() would
// (api.Saving): those that changed get an update record at commit.
func (cs *changeset) saving(ctx context.Context, m ent.Mutation, contentType string, ids []int) error {
	d, st, ok := logged(ctx, m, contentType)
	if !ok {
		return nil
	}
	return cs.snapshot(ctx, st, d, ids)
}

// removing captures rows a hook deletes with SQL (api.Removing): their
// last state and representation make their delete record and event.
func (cs *changeset) removing(ctx context.Context, m ent.Mutation, contentType string, ids []int) error {
	d, st, ok := logged(ctx, m, contentType)
	if !ok {
		return nil
	}
	return cs.capture(ctx, st, d, ids, "", true)
}

var (
	loggedOnce  sync.Once
	loggedTypes map[string]*resource.Descriptor // ent type name → descriptor
)

func loggedType(typ string) *resource.Descriptor {
	loggedOnce.Do(func() {
		loggedTypes = map[string]*resource.Descriptor{}
		for _, d := range resource.All() {
			if d.Logged {
				loggedTypes[d.Type] = d
			}
		}
	})
	return loggedTypes[typ]
}

var installed sync.Map // *ent.Client → struct{}

// Install registers the change-capture hook on the client (and so on every
// transaction opened from it). Installing twice on one client is a no-op.
func Install(c *ent.Client) {
	if _, dup := installed.LoadOrStore(c, struct{}{}); dup {
		return
	}
	c.Use(hook)
}

type mutationClient interface {
	Client() *ent.Client
	DriverDialect() string
}

func hook(next ent.Mutator) ent.Mutator {
	return ent.MutateFunc(func(ctx context.Context, m ent.Mutation) (ent.Value, error) {
		d := loggedType(m.Type())
		if d == nil {
			return next.Mutate(ctx, m)
		}
		cs := changesetFrom(ctx)
		if cs == nil || cs.isDone() {
			return nil, fmt.Errorf("%s: %w", d.Type, ErrOutsideTransaction)
		}
		if api.Importing(ctx) {
			// An import copies another system's objects: it is not a
			// change of this service, and makes no change records and no
			// events (one record of the whole import is the importer's).
			return next.Mutate(ctx, m)
		}
		msg := resource.MessageFrom(ctx)
		if m.Op().Is(ent.OpCreate) {
			v, err := next.Mutate(ctx, m)
			if err != nil {
				return v, err
			}
			idm, ok := m.(interface{ ID() (int, bool) })
			if !ok {
				return v, fmt.Errorf("%s: created object has no id", d.Type)
			}
			id, ok := idm.ID()
			if !ok {
				return v, fmt.Errorf("%s: created object has no id", d.Type)
			}
			cs.created(d, id, msg)
			return v, nil
		}
		// A create reads nothing (the row is read once, at commit, with
		// the other rows of its model); the client (a fresh one per call)
		// is made only for the reads of an update or delete.
		mc, ok := m.(mutationClient)
		if !ok {
			return nil, fmt.Errorf("%s: mutation has no client", d.Type)
		}
		st := resource.Store{Dialect: mc.DriverDialect(), Q: mc.Client()}
		idm, ok := m.(interface {
			IDs(context.Context) ([]int, error)
		})
		if !ok {
			return nil, fmt.Errorf("%s: mutation cannot list its rows", d.Type)
		}
		ids, err := idm.IDs(ctx)
		if err != nil {
			return nil, err
		}
		del := m.Op().Is(ent.OpDelete | ent.OpDeleteOne)
		if err := cs.capture(ctx, st, d, ids, msg, false); err != nil {
			return nil, err
		}
		if del && len(ids) > 0 {
			if err := cs.captureDependants(ctx, st, d, ids, map[*resource.Descriptor]map[int]bool{}); err != nil {
				return nil, err
			}
		}
		return next.Mutate(ctx, m)
	})
}

func (cs *changeset) isDone() bool {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	return cs.done
}

func (cs *changeset) get(d *resource.Descriptor, id int) *entry { return cs.getAt(d, id, nil) }

// getAt is get placing a row first named here at p (nil: at the end).
func (cs *changeset) getAt(d *resource.Descriptor, id int, p *place) *entry {
	k := objKey{d.ContentType(), id}
	e := cs.objs[k]
	if e == nil {
		e = &entry{d: d, id: id}
		cs.objs[k] = e
		if p != nil {
			p.keys = append(p.keys, k)
		} else {
			cs.order = append(cs.order, k)
		}
	}
	return e
}

func (cs *changeset) created(d *resource.Descriptor, id int, msg string) {
	cs.createdAt(d, id, msg, nil)
}

func (cs *changeset) createdAt(d *resource.Descriptor, id int, msg string, p *place) {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	e := cs.getAt(d, id, p)
	e.created, e.captured, e.implicit = true, true, false
	if msg != "" {
		e.message = msg
	}
}

// capture takes the snapshot and representation of rows about to change.
func (cs *changeset) capture(ctx context.Context, st resource.Store, d *resource.Descriptor, ids []int, msg string, implicit bool) error {
	if len(ids) == 0 {
		return nil
	}
	rows, snaps, page, err := state(ctx, st, d, ids, true)
	if err != nil {
		return err
	}
	cs.mu.Lock()
	defer cs.mu.Unlock()
	for _, r := range rows {
		e := cs.get(d, r.ID)
		if !e.captured {
			e.pre, e.captured, e.implicit = snaps[r.ID], true, implicit
		} else if !implicit {
			e.implicit = false
		}
		e.lastSnap, e.lastData, e.lastRepr, e.lastRow = snaps[r.ID], page.JSON(r), d.DisplayOf(r), r
		if msg != "" && !implicit {
			e.message = msg
		}
	}
	return nil
}

// snapshot takes the pre-change snapshot of rows a hook is about to
// rewrite (api.Saving, api.Touching) and that the transaction has not
// captured yet: only the columns and many-to-many lists an update record
// compares, not the full representation a delete event carries (an
// object deleted later in the transaction is captured in full by its
// delete). A row seen before keeps its first snapshot, so a bulk write
// that touches each row twice (a cable's end, then its path) reads it
// once.
func (cs *changeset) snapshot(ctx context.Context, st resource.Store, d *resource.Descriptor, ids []int) error {
	cs.mu.Lock()
	var fresh []int
	for _, id := range ids {
		if e := cs.objs[objKey{d.ContentType(), id}]; e == nil || !e.captured {
			fresh = append(fresh, id)
		}
	}
	cs.mu.Unlock()
	if len(fresh) == 0 {
		return nil
	}
	rows, err := d.GetMany(ctx, st, fresh)
	if err != nil {
		return err
	}
	snaps, err := d.SnapshotsOf(ctx, st, rows)
	if err != nil {
		return err
	}
	cs.mu.Lock()
	defer cs.mu.Unlock()
	for _, r := range rows {
		e := cs.get(d, r.ID)
		if !e.captured {
			e.pre, e.captured, e.implicit = snaps[r.ID], true, true
			e.lastSnap, e.lastRepr, e.lastRow = snaps[r.ID], d.DisplayOf(r), r
		}
	}
	return nil
}

// captureDependants captures the rows a delete of ids cascades to or
// clears, following cascades.
func (cs *changeset) captureDependants(ctx context.Context, st resource.Store, d *resource.Descriptor, ids []int, seen map[*resource.Descriptor]map[int]bool) error {
	deps, err := d.Dependants(ctx, st, ids)
	if err != nil {
		return err
	}
	for _, dep := range deps {
		if seen[dep.D] == nil {
			seen[dep.D] = map[int]bool{}
		}
		var fresh []int
		for _, id := range dep.IDs {
			// A row going in the same delete is recorded as deleted only
			// (NetBox #22270: no update record beside its delete).
			if !dep.Cascade && api.Deleting(ctx, dep.D.ContentType(), id) {
				continue
			}
			if !seen[dep.D][id] {
				seen[dep.D][id] = true
				fresh = append(fresh, id)
			}
		}
		if len(fresh) == 0 {
			continue
		}
		if err := cs.capture(ctx, st, dep.D, fresh, "", true); err != nil {
			return err
		}
		if dep.Cascade {
			if err := cs.captureDependants(ctx, st, dep.D, fresh, seen); err != nil {
				return err
			}
		}
	}
	return nil
}

// record is one change record or event to write.
type record struct {
	e                 *entry
	action            string // create update delete
	event             string
	pre, post, data   json.RawMessage
	repr              string
	row               *resource.Row // the row of the record's snapshot (post, else pre)
	writeChange       bool
	extraUpdateBefore bool // an update record precedes the delete record
}

// flush writes the change records and outbox events, inside tx.
func (cs *changeset) flush(ctx context.Context, tx *ent.Tx) error {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	if cs.done {
		return nil
	}
	cs.done = true
	order := cs.ordered()
	if len(order) == 0 {
		return nil
	}
	client := tx.Client()
	listens, err := listeners(ctx, client)
	if err != nil {
		return err
	}
	// One time for every record of the transaction, as before chunking.
	t := schema.Now()
	for lo := 0; lo < len(order); lo += flushChunk {
		if err := cs.flushKeys(ctx, client, order[lo:min(lo+flushChunk, len(order))], listens, t); err != nil {
			return err
		}
	}
	return nil
}

// flushChunk is how many touched objects flush reads and writes the
// records of at once: the rows, snapshots and records of a chunk are
// dropped before the next is read, so a transaction's memory does not
// grow with its objects (a bulk create of 2,000 devices with their
// components touches 100,000 and more: held at once, several hundred MB).
const flushChunk = 8192

// flushKeys writes the change records and outbox events of the objects
// keys (in the transaction's order).
func (cs *changeset) flushKeys(ctx context.Context, client *ent.Client, keys []objKey, listens func(ct, event string) bool, t time.Time) error {
	st := resource.Store{Dialect: cs.dialect, Q: client}
	// Read the final state of every touched object, batched per model.
	byD := map[*resource.Descriptor][]int{}
	var ds []*resource.Descriptor
	for _, k := range keys {
		e := cs.objs[k]
		if !e.captured {
			continue // placed (api.Placing), never snapshotted: nothing to record
		}
		if byD[e.d] == nil {
			ds = append(ds, e.d)
		}
		byD[e.d] = append(byD[e.d], e.id)
	}
	type final struct {
		snap json.RawMessage
		repr string
		row  *resource.Row
		page *resource.Page
	}
	// data is an object's API representation, the outbox event's payload:
	// made only for an event some rule listens for (listeners).
	data := func(f *final, ct, event string) json.RawMessage {
		if !listens(ct, event) {
			return nil
		}
		return f.page.JSON(f.row)
	}
	now := map[objKey]*final{}
	for _, d := range ds {
		// The API representation (Load: every related object, count and
		// path of the rows) is only an event's payload: without a rule
		// listening for this model's creations or updates, the rows and
		// their snapshots (which read only the many-to-many lists) make
		// the same records. A device of a 10 000-interface type read
		// each interface's representation for nothing, a tenth of its
		// request.
		ct := d.ContentType()
		rows, snaps, page, err := state(ctx, st, d, byD[d], listens(ct, EventCreated) || listens(ct, EventUpdated))
		if err != nil {
			return err
		}
		for _, r := range rows {
			now[objKey{d.ContentType(), r.ID}] = &final{snap: snaps[r.ID], repr: d.DisplayOf(r), row: r, page: page}
		}
	}
	var recs []record
	for _, k := range keys {
		e := cs.objs[k]
		if !e.captured {
			continue
		}
		f := now[k]
		ct := e.d.ContentType()
		switch {
		case e.created && f != nil:
			recs = append(recs, record{e: e, action: "create", event: EventCreated, post: f.snap, data: data(f, ct, EventCreated), repr: f.repr, row: f.row, writeChange: true})
		case e.created: // created and deleted in one transaction
			recs = append(recs, record{e: e, action: "create", post: e.lastSnap, repr: e.lastRepr, row: e.lastRow, writeChange: true})
			recs = append(recs, record{e: e, action: "delete", event: EventDeleted, pre: e.lastSnap, data: e.lastData, repr: e.lastRepr, row: e.lastRow, writeChange: true})
		case f != nil:
			same := bytes.Equal(e.pre, f.snap)
			if same && e.implicit {
				continue
			}
			recs = append(recs, record{e: e, action: "update", event: EventUpdated, pre: e.pre, post: f.snap, data: data(f, ct, EventUpdated), repr: f.repr, row: f.row, writeChange: !same || e.touched})
		default:
			if !bytes.Equal(e.pre, e.lastSnap) {
				// Updated, then deleted: NetBox keeps both records.
				recs = append(recs, record{e: e, action: "update", pre: e.pre, post: e.lastSnap, repr: e.lastRepr, row: e.lastRow, writeChange: true})
			}
			r := record{e: e, action: "delete", event: EventDeleted, pre: e.lastSnap, data: e.lastData, repr: e.lastRepr, row: e.lastRow, writeChange: true}
			recs = append(recs, r)
		}
	}
	if err := notifySubscribers(ctx, client, cs.dialect, recs); err != nil {
		return err
	}
	return cs.write(ctx, client, recs, listens, t)
}

// listeners reads, in the write's transaction, which events some enabled
// event rule listens for: listens(object type, event) is false when no
// rule could match such an event. NetBox queues every event in memory and
// matches the rules as the request ends, keeping nothing no rule wants;
// here the outbox row is that queue, so an event no enabled rule lists
// (object type and event type) is not written: its row, and the object's
// API representation it carries, would be claimed by the dispatcher only
// to be marked dispatched. A device of a 10 000-interface type wrote 10 001
// events of several kilobytes each with no rule in sight. The dispatcher
// still matches each written event in full (conditions, a rule created or
// disabled since), as before.
func listeners(ctx context.Context, client *ent.Client) (func(ct, event string) bool, error) {
	rules, err := client.EventRule.Query().Where(eventrule.Enabled(true)).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("read event rules: %w", err)
	}
	set := map[[2]string]bool{}
	for _, r := range rules {
		for _, ct := range r.ObjectTypes {
			for _, et := range r.EventTypes {
				set[[2]string{ct, et}] = true
			}
		}
	}
	return func(ct, event string) bool { return set[[2]string{ct, eventType(event)}] }, nil
}

// The columns write inserts, in the order of each row's values.
var (
	changeColumns = []string{"time", "user_id", "user_name", "request_id", "action", "changed_object_type",
		"changed_object_id", "related_object_type", "related_object_id", "object_repr", "message",
		"prechange_data", "postchange_data"}
	eventColumns = []string{"created", "event", "object_type", "object_id", "request_id", "request_method",
		"request_path", "user_id", "username", "data", "prechange", "postchange"}
)

// write inserts the change records and outbox events with multi-row
// INSERTs cut by the database's parameter limit (rawsql.InsertRows): a
// device of a type with 10 000 interface templates writes 10 001 of
// each. They go as plain SQL, not through ent's bulk create: ent
// re-encodes every JSON value (json.Marshal validates and compacts each
// snapshot and representation again, a sixth of that request), and
// neither model has hooks. The values are those ent would store (see
// storedJSON).
func (cs *changeset) write(ctx context.Context, client *ent.Client, recs []record, listens func(ct, event string) bool, t time.Time) error {
	a := cs.actor
	var uid any
	if a.UserID != nil {
		uid = *a.UserID
	}
	user := truncateRunes(a.Username, 150)
	var changes, events [][]any
	for _, r := range recs {
		ct := r.e.d.ContentType()
		if r.writeChange {
			c := Change{Action: r.action, ObjectType: ct, ObjectID: r.e.id, Repr: r.repr, Message: r.e.message, Pre: r.pre, Post: r.post}
			c.RelatedType, c.RelatedID, c.Related = r.e.d.RelatedObject(r.row)
			changes = append(changes, changeRow(t, uid, user, a.RequestID, c))
		}
		if r.event != "" && listens(ct, r.event) {
			var post json.RawMessage
			if r.event != EventDeleted {
				post = r.post
			}
			events = append(events, []any{t, r.event, ct, r.e.id, a.RequestID, a.Method, a.Path, uid, a.Username,
				storedJSON(r.data), storedJSON(r.e.pre), storedJSON(post)})
		}
	}
	cs.written += int64(len(changes))
	if err := rawsql.InsertRows(ctx, client, cs.dialect, "core_objectchange", changeColumns, changes); err != nil {
		return fmt.Errorf("write change records: %w", err)
	}
	if err := rawsql.InsertRows(ctx, client, cs.dialect, "core_outboxevent", eventColumns, events); err != nil {
		return fmt.Errorf("write outbox events: %w", err)
	}
	return nil
}

// Change is one change record as a tracked transaction writes it.
type Change struct {
	Action      string // "create", "update" or "delete"
	ObjectType  string // the changed object's content type
	ObjectID    int
	Related     bool // RelatedType and RelatedID are set (Descriptor.RelatedObject)
	RelatedType string
	RelatedID   int
	Repr        string // Descriptor.DisplayOf of the object
	Message     string
	Pre, Post   json.RawMessage // Descriptor.Snapshots forms; nil for none
}

// changeRow is the values of a change record in changeColumns' order.
func changeRow(t time.Time, uid any, user, requestID string, c Change) []any {
	var rct, rid any
	if c.Related {
		rct, rid = c.RelatedType, c.RelatedID
	}
	return []any{t, uid, user, requestID, c.Action, c.ObjectType, c.ObjectID, rct, rid,
		truncateRunes(c.Repr, 200), truncateRunes(c.Message, 200), storedJSON(c.Pre), storedJSON(c.Post)}
}

// WriteChanges inserts change records made by actor at time t with ex (a
// transaction's client), as a tracked transaction writes its own: the
// same row values and multi-row INSERTs (rawsql.InsertRows). Nothing else
// is written (no outbox events): it is how `inventory bench` fills the
// change log in bulk with the records its updates would have made,
// without making each update.
func WriteChanges(ctx context.Context, ex rawsql.Execer, dialect string, actor Actor, t time.Time, changes []Change) error {
	var uid any
	if actor.UserID != nil {
		uid = *actor.UserID
	}
	user := truncateRunes(actor.Username, 150)
	rows := make([][]any, len(changes))
	for i, c := range changes {
		rows[i] = changeRow(t, uid, user, actor.RequestID, c)
	}
	if err := rawsql.InsertRows(ctx, ex, dialect, "core_objectchange", changeColumns, rows); err != nil {
		return fmt.Errorf("write change records: %w", err)
	}
	return nil
}

// storedJSON is a JSON value as ent stores a json.RawMessage field (nil
// for none: SQL NULL): json.Marshal's output, which escapes <, >, & and
// U+2028/U+2029 in strings for HTML. The values come from the resource
// layer's encoders, already compact and valid, so only the escaping is
// left to do, and only where one of those characters occurs.
func storedJSON(raw json.RawMessage) any {
	if raw == nil {
		return nil
	}
	// IndexByte is vectorised; IndexAny over a set is not.
	if bytes.IndexByte(raw, '<') < 0 && bytes.IndexByte(raw, '>') < 0 && bytes.IndexByte(raw, '&') < 0 &&
		!bytes.Contains(raw, lineSep) && !bytes.Contains(raw, paraSep) {
		return raw
	}
	var b bytes.Buffer
	json.HTMLEscape(&b, raw)
	return json.RawMessage(b.Bytes())
}

var lineSep, paraSep = []byte("\u2028"), []byte("\u2029")

func truncateRunes(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n])
}

// Write runs fn in one transaction of d whose changes are captured (change
// records and outbox events) under actor: the one way to write
// change-logged models, for the API, the CLI and the benchmarks alike.
func Write(ctx context.Context, d *db.DB, actor Actor, fn func(ctx context.Context, tx *resource.Tx) error) error {
	return d.InTx(ctx, func(ctx context.Context, etx *ent.Tx) error {
		// Custom field definitions are read once per transaction, not per
		// object written (resource.WithTransactionDefs); hooks may leave
		// work for the end of the write (api.Postpone: paths traced once
		// for a bulk request's cables).
		ctx = api.WithPostponed(resource.WithTransactionDefs(Track(ctx, etx, actor)))
		if err := fn(ctx, &resource.Tx{Client: etx.Client(), Dialect: d.Dialect}); err != nil {
			return err
		}
		return api.RunPostponed(ctx)
	})
}

// state reads objects as the change log records them: their rows, their
// snapshots and, with withPage, their API representation with relative
// URLs (nil without: only an event's payload needs it).
func state(ctx context.Context, st resource.Store, d *resource.Descriptor, ids []int, withPage bool) ([]*resource.Row, map[int]json.RawMessage, *resource.Page, error) {
	rows, err := d.GetMany(ctx, st, ids)
	if err != nil {
		return nil, nil, nil, err
	}
	if !withPage {
		snaps, err := d.SnapshotsOf(ctx, st, rows)
		return rows, snaps, nil, err
	}
	// Without config_context: NetBox's event data comes from the plain
	// serializer, which has none (BEHAVIOUR.md §12.7).
	page, err := d.Load(ctx, st, rows, resource.View{Exclude: []string{resource.Excludable}})
	if err != nil {
		return nil, nil, nil, err
	}
	snaps, err := d.Snapshots(ctx, st, rows, page)
	return rows, snaps, page, err
}
