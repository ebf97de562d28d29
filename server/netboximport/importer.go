package netboximport

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"sort"
	"strings"
	"sync"
	"time"

	"entgo.io/ent/dialect"

	"github.com/inventory/inventory/ent"
	"github.com/inventory/inventory/ent/db"
	"github.com/inventory/inventory/ent/logic/dcim"
	"github.com/inventory/inventory/ent/media"
	"github.com/inventory/inventory/ent/resource"
	"github.com/inventory/inventory/ent/schema/api"
	"github.com/inventory/inventory/webhooks"
)

// Options are what an import reads, writes and how.
type Options struct {
	Source Source
	// From names the source in the summary and the change log (its URL or
	// directory), never with credentials.
	From string
	DB   *db.DB
	// Handler is this service's API in process, for Verify (nil: no
	// verification).
	Handler http.Handler
	// Settings are the target's model settings (ENFORCE_GLOBAL_UNIQUE).
	Settings api.Settings
	// Media is where image attachments' files go (MEDIA_ROOT); nil
	// refuses them.
	Media    *media.Store
	Progress Progress

	Verify      bool
	Force       bool // accept a source version other than 4.6.x
	SkipInvalid bool // skip refused objects (and what depends on them) instead of stopping
	Changelog   bool // import core/object-changes too
	// Resume continues an interrupted import of the same source (From):
	// the target holds what it wrote, and its job did not complete.
	Resume bool
	// Batch is how many objects one transaction writes (1000 when zero).
	Batch int
	// Concurrency is how many endpoints are read from the source at once
	// (4 when zero).
	Concurrency int
}

// Problem is an object the import refused or could not write.
type Problem struct {
	Endpoint string
	ID       int
	Reason   string
}

// EndpointResult is what the import did with one endpoint.
type EndpointResult struct {
	Endpoint  string
	Read      int
	Written   int
	Refused   int
	Identical int // objects verified identical
	Differing int // objects verified with differences
	Missing   int // objects not found in the copy
	Departed  int // objects whose only differences are named departures
}

// Report is an import's outcome.
type Report struct {
	From, Version string
	Endpoints     []*EndpointResult
	Refused       []Problem
	// Unknown are fields of the source this service's models lack, per
	// endpoint: their values are not imported.
	Unknown map[string][]string
	// UnknownEndpoints are endpoints of the source (with objects) this
	// service has no model for: not imported (a plugin's models).
	UnknownEndpoints []string
	Differences      []Difference
	Departures       map[string]int // departure name → differences it covers
	Read             int
	Written          int
	Users            int // users created without a usable password
	Elapsed          time.Duration
	Verified         bool
	Deferred         int // references written in the second pass
	Resumed          int // objects an interrupted run had written (Resume)
}

func (r *Report) byEndpoint(ep string) *EndpointResult {
	for _, e := range r.Endpoints {
		if e.Endpoint == ep {
			return e
		}
	}
	return nil
}

// OK says whether everything was imported and, if verified, is identical.
func (r *Report) OK() bool { return len(r.Refused) == 0 && len(r.Differences) == 0 }

// ErrNotEmpty refuses a target that already holds data.
var ErrNotEmpty = errors.New("the target database already holds data")

type noProgress struct{}

func (noProgress) Start(string, int)  {}
func (noProgress) Read(string, int)   {}
func (noProgress) Wrote(string, int)  {}
func (noProgress) Done(string, error) {}

// known is the set of objects written so far, per content type, as bits
// by id: what references may name without a query (resource.WithImported).
type known struct {
	mu   sync.RWMutex
	bits map[string][]uint64
}

func (k *known) has(ct string, id int) bool {
	k.mu.RLock()
	defer k.mu.RUnlock()
	b := k.bits[ct]
	return id >= 0 && id/64 < len(b) && b[id/64]&(1<<(id%64)) != 0
}

func (k *known) add(ct string, id int) {
	k.mu.Lock()
	defer k.mu.Unlock()
	b := k.bits[ct]
	for id/64 >= len(b) {
		b = append(b, make([]uint64, len(b)+1)...)
	}
	b[id/64] |= 1 << (id % 64)
	k.bits[ct] = b
}

// second is a reference written in the second pass.
type second struct {
	d  *resource.Descriptor
	id int
	in resource.Input
}

// importer is one run.
type importer struct {
	o      Options
	rep    *Report
	known  *known
	later  []second
	byEP   map[string]*EndpointResult
	plan   *plan
	refuse map[key]bool // objects refused (skipped with SkipInvalid)
	job    *ent.Job     // the import's record (record.go)
	// existing are the objects an interrupted run wrote (Resume).
	existing *known
}

// Import copies o.Source into o.DB.
func Import(ctx context.Context, o Options) (*Report, error) {
	start := time.Now()
	if o.Batch <= 0 {
		o.Batch = 1000
	}
	if o.Concurrency <= 0 {
		o.Concurrency = 4
	}
	if o.Progress == nil {
		o.Progress = noProgress{}
	}
	im := &importer{o: o, rep: &Report{From: o.From, Unknown: map[string][]string{}, Departures: map[string]int{}},
		known: &known{bits: map[string][]uint64{}}, byEP: map[string]*EndpointResult{}, refuse: map[key]bool{}}
	st, err := o.Source.Status(ctx)
	if err != nil {
		return nil, fmt.Errorf("source status: %w", err)
	}
	v, _ := st["netbox-version"].(string)
	im.rep.Version = v
	if !strings.HasPrefix(v, "4.6.") && v != "4.6" && !o.Force {
		return nil, fmt.Errorf("the source is NetBox %q: this import reads NetBox 4.6.x (--force to try anyway)", v)
	}
	ds := importable()
	checked := ds
	if o.Changelog {
		checked = append(checked[:len(checked):len(checked)], resource.ByContentType("core.objectchange"))
	}
	if o.Resume {
		if err := im.resume(ctx, checked); err != nil {
			return nil, err
		}
	} else if err := im.checkEmpty(ctx, checked); err != nil {
		return nil, err
	}
	p, err := makePlan(ds)
	if err != nil {
		return nil, err
	}
	im.plan = p
	if err := im.unknownEndpoints(ctx); err != nil {
		return nil, err
	}
	for _, d := range p.order {
		r := &EndpointResult{Endpoint: endpointOf(d)}
		im.rep.Endpoints = append(im.rep.Endpoints, r)
		im.byEP[r.Endpoint] = r
	}
	if im.job == nil {
		if err := im.startJob(ctx); err != nil {
			return nil, err
		}
	}
	err = im.copy(ctx)
	if err == nil {
		err = im.secondPass(ctx)
	}
	if err == nil && o.Changelog {
		err = im.importChanges(ctx)
	}
	if err == nil {
		err = im.finish(ctx)
	}
	im.rep.Elapsed = time.Since(start)
	// The record is written even when ctx ended (an interrupted import
	// is marked errored).
	if jerr := im.endJob(context.WithoutCancel(ctx), err); jerr != nil && err == nil {
		err = jerr
	}
	if err != nil {
		return im.rep, err
	}
	if o.Verify && o.Handler != nil {
		if err := im.verify(ctx); err != nil {
			return im.rep, fmt.Errorf("verify: %w", err)
		}
	}
	return im.rep, nil
}

// checkEmpty refuses a target holding objects of any model the import
// writes.
func (im *importer) checkEmpty(ctx context.Context, ds []*resource.Descriptor) error {
	for _, d := range ds {
		rows, err := im.o.DB.Write.QueryContext(ctx, `SELECT 1 FROM `+quoteIdent(d.Table)+` LIMIT 1`)
		if err != nil {
			return err
		}
		found := rows.Next()
		err = rows.Err()
		rows.Close()
		if err != nil {
			return err
		}
		if found {
			return fmt.Errorf("%w (%s has objects): import into a new, empty database, or give --resume to continue an interrupted import of the same source", ErrNotEmpty, endpointOf(d))
		}
	}
	return nil
}

func quoteIdent(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }

// ctx is the context of the import's writes.
func (im *importer) writeCtx(ctx context.Context) context.Context {
	ctx = api.WithSettings(ctx, im.o.Settings)
	ctx = api.WithModels(ctx, resource.ModelInfo)
	ctx = resource.WithImported(ctx, im.known.has)
	return api.WithImport(ctx)
}

var actor = webhooks.Actor{Username: "import"}

// write runs fn in one write transaction of the import; the image files
// it stores go again if it rolls back (package media).
func (im *importer) write(ctx context.Context, fn func(ctx context.Context, tx *resource.Tx) error) error {
	ctx, batch := media.Begin(im.writeCtx(ctx), im.o.Media)
	err := webhooks.Write(ctx, im.o.DB, actor, fn)
	if ferr := batch.Finish(err == nil); ferr != nil && err == nil {
		err = ferr
	}
	return err
}

// pages is what a reader hands the writer: one page of an endpoint, or
// the endpoint's end (err set when reading failed).
// The reader converts the page too, so that decoding NetBox's JSON
// overlaps the writer's transactions.
type page struct {
	n    int       // objects read
	objs []*object // converted
	bad  []Problem // not convertible
	err  error
}

// copy reads every endpoint (up to Concurrency at once, ahead of the
// writer) and writes them in the plan's order.
func (im *importer) copy(ctx context.Context) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	order := im.plan.order
	chans := make([]chan page, len(order))
	for i := range chans {
		chans[i] = make(chan page, 2)
	}
	convs := make([]*converter, len(order))
	files, _ := im.o.Source.(FileSource)
	for i, d := range order {
		convs[i] = newConverter(d)
		convs[i].files, convs[i].ctx = files, ctx
	}
	sem := make(chan struct{}, im.o.Concurrency)
	go func() {
		for i, d := range order {
			select {
			case sem <- struct{}{}:
			case <-ctx.Done():
				return
			}
			go func(i int, ep string) {
				defer func() { <-sem }()
				defer close(chans[i])
				if n, err := im.o.Source.Count(ctx, ep); err == nil {
					im.o.Progress.Start(ep, n)
				}
				err := im.o.Source.Pages(ctx, ep, func(raws []json.RawMessage) error {
					im.o.Progress.Read(ep, len(raws))
					pg := page{n: len(raws), objs: make([]*object, 0, len(raws))}
					for _, raw := range raws {
						o, err := convs[i].convert(raw)
						if err != nil {
							id, _ := idOf(rawField(raw, "id"))
							pg.bad = append(pg.bad, Problem{ep, id, err.Error()})
							continue
						}
						pg.objs = append(pg.objs, o)
					}
					select {
					case chans[i] <- pg:
						return nil
					case <-ctx.Done():
						return ctx.Err()
					}
				})
				if err != nil {
					select {
					case chans[i] <- page{err: err}:
					case <-ctx.Done():
					}
				}
			}(i, endpointOf(d))
		}
	}()
	for i, d := range order {
		ep := endpointOf(d)
		conv := convs[i]
		var err error
		for pg := range chans[i] {
			if pg.err != nil {
				err = fmt.Errorf("%s: reading: %w", ep, pg.err)
				break
			}
			if err = im.writePage(ctx, d, pg); err != nil {
				break
			}
		}
		// The reader is done with conv once it closed the channel, or
		// once the cancelled ctx ends it.
		cancelled := err != nil
		if cancelled {
			cancel()
			for range chans[i] {
			}
		}
		if len(conv.unknown) > 0 {
			for f := range conv.unknown {
				im.rep.Unknown[ep] = append(im.rep.Unknown[ep], f)
			}
			sort.Strings(im.rep.Unknown[ep])
		}
		im.o.Progress.Done(ep, err)
		if err != nil {
			return err
		}
	}
	return nil
}

// writePage writes one converted page in transactions of Batch objects.
func (im *importer) writePage(ctx context.Context, d *resource.Descriptor, pg page) error {
	ep := endpointOf(d)
	r := im.byEP[ep]
	r.Read += pg.n
	im.rep.Read += pg.n
	for _, p := range pg.bad {
		if err := im.refused(ep, p.ID, p.Reason); err != nil {
			return err
		}
		im.refuse[key{d.ContentType(), p.ID}] = true
	}
	objs := pg.objs
	for lo := 0; lo < len(objs); lo += im.o.Batch {
		if err := im.writeBatch(ctx, d, objs[lo:min(lo+im.o.Batch, len(objs))]); err != nil {
			return err
		}
	}
	return nil
}

func rawField(raw json.RawMessage, name string) json.RawMessage {
	var m map[string]json.RawMessage
	_ = json.Unmarshal(raw, &m)
	return m[name]
}

// refused records a refused object; without SkipInvalid it ends the import.
func (im *importer) refused(ep string, id int, reason string) error {
	im.rep.Refused = append(im.rep.Refused, Problem{ep, id, reason})
	if r := im.byEP[ep]; r != nil {
		r.Refused++
	}
	if !im.o.SkipInvalid {
		return fmt.Errorf("%s %d refused: %s", ep, id, reason)
	}
	return nil
}

// dependsOnRefused names the refused object o refers to, if any: o is
// then skipped too (with SkipInvalid), rather than written without it.
func (im *importer) dependsOnRefused(o *object) (key, bool) {
	if len(im.refuse) == 0 {
		return key{}, false
	}
	for _, s := range o.slots {
		for _, k := range s.refs {
			if im.refuse[k] {
				return k, true
			}
		}
	}
	return key{}, false
}

// split takes the references of o that cannot be written with it (to
// objects not written yet, or deferred by the plan) out of its input,
// into the input of its second pass.
func (im *importer) split(d *resource.Descriptor, o *object) (first resource.Input, later resource.Input) {
	ct := d.ContentType()
	return im.splitBy(d, o, func(k key) bool { return im.known.has(k.ct, k.id) || k.ct == ct && k.id == o.id })
}

// resumed is split for an object an interrupted run of the import wrote:
// its second pass is what that run's split deferred (the references the
// plan defers, and those to objects written after it: the same model's
// higher ids, or what is not written yet), and was lost with the run.
// Writing a reference again is harmless.
func (im *importer) resumed(d *resource.Descriptor, o *object) resource.Input {
	ct := d.ContentType()
	_, later := im.splitBy(d, o, func(k key) bool {
		return im.known.has(k.ct, k.id) && !(k.ct == ct && k.id > o.id)
	})
	return later
}

func (im *importer) splitBy(d *resource.Descriptor, o *object, available func(key) bool) (first resource.Input, later resource.Input) {
	first = o.in
	deferred := im.plan.deferred[d]
	for _, s := range o.slots {
		if !s.deferrable {
			continue
		}
		wait := false
		for _, f := range s.fields {
			for _, df := range deferred {
				if f == df || strings.HasPrefix(f, df+"_") {
					wait = true
				}
			}
		}
		for _, k := range s.refs {
			if !available(k) {
				wait = true
			}
		}
		if !wait {
			continue
		}
		if later == nil {
			later = resource.Input{}
			if lu, ok := o.in["last_updated"]; ok {
				later["last_updated"] = lu
			}
			first = make(resource.Input, len(o.in))
			for k, v := range o.in {
				first[k] = v
			}
		}
		for _, f := range s.fields {
			later[f] = o.in[f]
			delete(first, f)
		}
	}
	return first, later
}

// writeBatch writes objs in one transaction. A refused object fails the
// transaction; with SkipInvalid the batch is written again without it.
func (im *importer) writeBatch(ctx context.Context, d *resource.Descriptor, objs []*object) error {
	ep := endpointOf(d)
	ct := d.ContentType()
	kept := objs[:0:0]
	for _, o := range objs {
		if k, ok := im.dependsOnRefused(o); ok {
			if err := im.refused(ep, o.id, fmt.Sprintf("depends on %s %d, which was refused", k.ct, k.id)); err != nil {
				return err
			}
			im.refuse[key{ct, o.id}] = true
			continue
		}
		kept = append(kept, o)
	}
	objs = kept
	if im.existing != nil {
		// Resuming: what the interrupted run wrote is not written again,
		// but its second pass is.
		kept, already := objs[:0:0], 0
		for _, o := range objs {
			if !im.existing.has(ct, o.id) {
				kept = append(kept, o)
				continue
			}
			already++
			if later := im.resumed(d, o); later != nil {
				im.later = append(im.later, second{d, o.id, later})
			}
		}
		objs = kept
		im.byEP[ep].Written += already
		im.rep.Written += already
		im.rep.Resumed += already
		if d.ContentType() == "users.user" {
			im.rep.Users += already
		}
		im.o.Progress.Wrote(ep, already)
	}
	for len(objs) > 0 {
		var wrote []int
		var laters []second
		var bad *object
		var badErr error
		err := im.write(ctx, func(ctx context.Context, tx *resource.Tx) error {
			wrote, laters = wrote[:0], laters[:0]
			for _, o := range objs {
				first, later := im.split(d, o)
				if _, err := d.Create(ctx, tx, first); err != nil {
					bad, badErr = o, err
					return err
				}
				// Later objects of this batch may name it.
				im.known.add(ct, o.id)
				wrote = append(wrote, o.id)
				if later != nil {
					laters = append(laters, second{d, o.id, later})
				}
			}
			return nil
		})
		if err == nil {
			r := im.byEP[ep]
			r.Written += len(wrote)
			im.rep.Written += len(wrote)
			im.later = append(im.later, laters...)
			if d.ContentType() == "users.user" {
				im.rep.Users += len(wrote)
			}
			im.o.Progress.Wrote(ep, len(wrote))
			return nil
		}
		// Nothing of the batch was written.
		im.forget(ct, wrote)
		if bad == nil {
			return fmt.Errorf("%s: %w", ep, err)
		}
		if !isRefusal(badErr) {
			return fmt.Errorf("%s %d: %w", ep, bad.id, badErr)
		}
		if err := im.refused(ep, bad.id, reason(badErr)); err != nil {
			return err
		}
		im.refuse[key{ct, bad.id}] = true
		rest := make([]*object, 0, len(objs)-1)
		for _, o := range objs {
			if o != bad {
				rest = append(rest, o)
			}
		}
		objs = rest
	}
	return nil
}

func (im *importer) forget(ct string, ids []int) {
	im.known.mu.Lock()
	defer im.known.mu.Unlock()
	b := im.known.bits[ct]
	for _, id := range ids {
		b[id/64] &^= 1 << (id % 64)
	}
}

// isRefusal says whether err is this service refusing a value (a 4xx),
// not a fault of the database or the import.
func isRefusal(err error) bool {
	var ve *resource.ValidationError
	var de *resource.DetailError
	return errors.As(err, &ve) || errors.As(err, &de)
}

// reason is a refusal in one line, as NetBox's error body.
func reason(err error) string {
	var ve *resource.ValidationError
	if errors.As(err, &ve) {
		if b, e := json.Marshal(ve); e == nil {
			return string(b)
		}
	}
	return err.Error()
}

// secondPass writes the deferred references, in plan order, in batches.
func (im *importer) secondPass(ctx context.Context) error {
	im.rep.Deferred = len(im.later)
	rank := map[*resource.Descriptor]int{}
	for i, d := range im.plan.order {
		rank[d] = i
	}
	sort.SliceStable(im.later, func(i, j int) bool { return rank[im.later[i].d] < rank[im.later[j].d] })
	todo := im.later
	for len(todo) > 0 {
		n := min(im.o.Batch, len(todo))
		batch := todo[:n]
		var bad *second
		var badErr error
		err := im.write(ctx, func(ctx context.Context, tx *resource.Tx) error {
			for i := range batch {
				s := &batch[i]
				row, err := s.d.Get(ctx, tx.Store(), s.id)
				if err != nil {
					return err
				}
				if row == nil {
					continue
				}
				if err := s.d.Update(ctx, tx, row, s.in, true); err != nil {
					bad, badErr = s, err
					return err
				}
			}
			return nil
		})
		if err == nil {
			todo = todo[n:]
			continue
		}
		if bad == nil || !isRefusal(badErr) {
			return fmt.Errorf("second pass: %w", err)
		}
		if err := im.refused(endpointOf(bad.d), bad.id, reason(badErr)); err != nil {
			return err
		}
		rest := make([]second, 0, len(todo)-1)
		for i := range todo {
			if &todo[i] != bad {
				rest = append(rest, todo[i])
			}
		}
		todo = rest
	}
	im.later = nil
	return nil
}

// finish traces every cable path once, advances PostgreSQL's id sequences
// past the imported ids, and records the import in the change log.
func (im *importer) finish(ctx context.Context) error {
	err := webhooks.Write(im.writeCtx(ctx), im.o.DB, actor, func(ctx context.Context, tx *resource.Tx) error {
		return dcim.RetraceAll(ctx, tx.Client, tx.Dialect == dialect.Postgres)
	})
	if err != nil {
		return fmt.Errorf("tracing cable paths: %w", err)
	}
	if im.o.DB.Dialect == dialect.Postgres {
		if err := advanceSequences(ctx, im.o.DB); err != nil {
			return fmt.Errorf("id sequences: %w", err)
		}
	}
	return nil
}

// advanceSequences sets every table's id sequence past its largest id:
// the import chose the ids, the sequences did not move.
func advanceSequences(ctx context.Context, d *db.DB) error {
	// Only columns with a sequence: pg_get_serial_sequence fails on a
	// table without an id column, so it is not called in the WHERE.
	rows, err := d.Write.QueryContext(ctx, `SELECT table_name FROM information_schema.columns
		WHERE table_schema = current_schema() AND column_name = 'id'
		AND (is_identity = 'YES' OR column_default LIKE 'nextval(%')`)
	if err != nil {
		return err
	}
	var tables []string
	for rows.Next() {
		var t string
		if err := rows.Scan(&t); err != nil {
			rows.Close()
			return err
		}
		tables = append(tables, t)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	for _, t := range tables {
		q := quoteIdent(t)
		if _, err := d.Write.ExecContext(ctx, `SELECT setval(pg_get_serial_sequence($1, 'id'), m, true) FROM (SELECT MAX(id) AS m FROM `+q+`) s WHERE m IS NOT NULL`, q); err != nil {
			return fmt.Errorf("%s: %w", t, err)
		}
	}
	return nil
}

// unusablePassword is a password nobody knows.
func unusablePassword() string {
	b := make([]byte, 32)
	_, _ = rand.Read(b)
	return "!" + hex.EncodeToString(b)
}

// unknownEndpoints notes the source's endpoints that hold objects and that
// this service does not serve, when the source can list them.
func (im *importer) unknownEndpoints(ctx context.Context) error {
	l, ok := im.o.Source.(EndpointLister)
	if !ok {
		return nil
	}
	eps, err := l.Endpoints(ctx)
	if err != nil {
		return fmt.Errorf("listing the source's endpoints: %w", err)
	}
	for _, ep := range eps {
		app, path, _ := strings.Cut(ep, "/")
		if resource.ByPath(app, path) != nil || notWritten[ep] != "" {
			continue
		}
		if n, err := im.o.Source.Count(ctx, ep); err == nil && n > 0 {
			im.rep.UnknownEndpoints = append(im.rep.UnknownEndpoints, fmt.Sprintf("%s (%d objects)", ep, n))
		}
	}
	sort.Strings(im.rep.UnknownEndpoints)
	return nil
}
