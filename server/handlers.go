package server

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"mime"
	"net/http"
	"net/url"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"entgo.io/ent/dialect"
	"entgo.io/ent/dialect/sql"
	"github.com/gin-gonic/gin"

	"github.com/inventory/inventory/ent/logic/jsonlimit"
	"github.com/inventory/inventory/ent/logic/pyrepr"
	"github.com/inventory/inventory/ent/media"
	"github.com/inventory/inventory/ent/resource"
	"github.com/inventory/inventory/ent/schema/api"
	"github.com/inventory/inventory/filters"
	"github.com/inventory/inventory/webhooks"
)

// view reads the representation parameters of a GET (SPEC.md §4.6).
func view(c *gin.Context) resource.View {
	q := c.Request.URL.Query()
	v := resource.View{Base: baseURL(c.Request)}
	if c.Request.Method == http.MethodGet || c.Request.Method == http.MethodHead {
		// NetBox: any non-empty value switches to brief (even "false").
		v.Brief = q.Get("brief") != ""
	}
	if f := q.Get("fields"); f != "" {
		v.Fields = strings.Split(f, ",")
	}
	if o := q.Get("omit"); o != "" {
		v.Omit = strings.Split(o, ",")
	}
	// ?exclude=config_context (NetBox's older spelling of omit for it).
	for _, e := range q["exclude"] {
		v.Exclude = append(v.Exclude, strings.Split(e, ",")...)
	}
	return v
}

// filterPreds turns the query string into predicates; detail routes apply
// filters too, as NetBox does. Ignored parameters are named in the
// X-Ignored-Filters header and logged. On a detail route an unknown
// parameter cannot widen the answer beyond one object, so guard ignores
// them there.
func (s *Server) filterPreds(c *gin.Context, d *resource.Descriptor, detail bool) ([]func(*sql.Selector), error) {
	preds, ignored, err := s.resolveFilters(c, d, detail)
	if err != nil {
		return nil, err
	}
	noteIgnored(c, ignored)
	return preds, nil
}

// resolveFilters is filterPreds without the note of ignored parameters
// (a coalesced list build notes them for each request it answers).
func (s *Server) resolveFilters(c *gin.Context, d *resource.Descriptor, detail bool) ([]func(*sql.Selector), []string, error) {
	ctx := c.Request.Context()
	st := s.db.Store()
	ctx = resource.WithStore(ctx, st)
	mode := s.cfg.FilterUnknown
	if detail && mode != filters.Strict {
		mode = filters.Ignore
	}
	res, err := d.Filters().Resolve(ctx, c.Request.URL.Query(), filters.Options{
		Unknown: mode, Reserved: filters.Reserved, Dialect: s.db.Dialect, Exec: st.Q, Cached: st.CacheIn(ctx).Load,
	})
	if err != nil {
		return nil, nil, err
	}
	return res.Preds, res.Ignored, nil
}

// noteIgnored names ignored filter parameters in the response header and
// the log.
func noteIgnored(c *gin.Context, ignored []string) {
	if len(ignored) == 0 {
		return
	}
	c.Header("X-Ignored-Filters", ignoredHeader(ignored))
	slog.InfoContext(c.Request.Context(), "ignored filter parameters", "method", c.Request.Method, "path", c.Request.URL.Path,
		"request_id", c.GetString(ctxRequestID), "ignored", ignored)
}

// plainFilters applies FILTER_UNKNOWN to a list served by hand-written
// code (not a model's filter set) whose filters are known.
func (s *Server) plainFilters(c *gin.Context, known ...string) error {
	q := c.Request.URL.Query()
	var unknown []string
	filtered := false
	for k, v := range q {
		switch {
		case slices.Contains(filters.Reserved, k):
		case slices.Contains(known, k):
			filtered = filtered || slices.ContainsFunc(v, func(x string) bool { return x != "" })
		default:
			unknown = append(unknown, k)
		}
	}
	sort.Strings(unknown)
	mode := s.cfg.FilterUnknown
	if len(unknown) > 0 && (mode == filters.Strict || (mode != filters.Ignore && !filtered)) {
		errs := filters.Errors{}
		for _, k := range unknown {
			errs[k] = []string{"Unknown filter parameter."}
		}
		return errs
	}
	noteIgnored(c, unknown)
	return nil
}

// ignoredHeader lists parameter names for a header: quoted when they hold
// anything but printable ASCII, and cut at a size every proxy passes.
func ignoredHeader(names []string) string {
	const max = 1024
	var b strings.Builder
	for i, n := range names {
		if strings.ContainsFunc(n, func(r rune) bool { return r < 0x21 || r > 0x7e || r == ',' || r == '"' }) {
			n = strconv.QuoteToASCII(n)
		}
		if i > 0 {
			b.WriteString(", ")
		}
		if b.Len()+len(n) > max {
			b.WriteString("...")
			break
		}
		b.WriteString(n)
	}
	return b.String()
}

// list serves GET on a list route: filters, ordering, offset or cursor
// pagination, and a page rendered with a fixed number of queries.
func (s *Server) list(c *gin.Context, d *resource.Descriptor) error {
	if err := s.authorize(c, d, actionView); err != nil {
		return err
	}
	q := c.Request.URL.Query()
	if name, ok := q["export"]; ok {
		return s.export(c, d, name[len(name)-1])
	}
	pg, err := s.pagination(q)
	if err != nil {
		return err
	}
	build := func() listPage { return s.buildList(c, d, q, pg) }
	var page listPage
	var release func()
	gen := s.db.Cache.Gen()
	if key, ok := s.flightKey(c, gen); ok {
		page, release = s.flights.do(c.Request.Context(), key, gen, build)
	} else {
		page = build()
		release = func() {
			if page.buf != nil {
				putListBuffer(page.buf)
			}
		}
	}
	defer release()
	noteIgnored(c, page.ignored)
	if page.err != nil {
		return page.err
	}
	c.Header("Vary", "Accept")
	writeJSON(c, http.StatusOK, page.body) // every writer copies what it is given
	return nil
}

// buildList builds one list page: its rows within Config.ListRowsInFlight,
// encoded into a pooled buffer that the page hands on (listPage.buf).
func (s *Server) buildList(c *gin.Context, d *resource.Descriptor, q url.Values, pg *paging) listPage {
	ctx := c.Request.Context()
	release, err := s.reserveRows(ctx, pg.limit)
	if err != nil {
		return listPage{err: err}
	}
	defer release()
	preds, ignored, err := s.resolveFilters(c, d, false)
	if err != nil {
		return listPage{err: err}
	}
	preds = append(preds, s.restriction(c)...)
	params := resource.ListParams{Preds: preds, Limit: pg.limit, Offset: pg.offset, Start: pg.start, Count: pg.start == nil}
	if pg.start == nil {
		params.Order = d.Filters().Order(q.Get("ordering"))
	}
	rows, count, err := d.List(ctx, s.db.Store(), params)
	if err != nil {
		return listPage{ignored: ignored, err: err}
	}
	page, err := d.Load(ctx, s.db.Store(), rows, view(c))
	if err != nil {
		return listPage{ignored: ignored, err: err}
	}
	buf := listBuffers.Get().(*[]byte)
	b := append((*buf)[:0], `{"count":`...)
	if pg.start != nil {
		b = append(b, "null"...)
	} else {
		b = strconv.AppendInt(b, int64(count), 10)
	}
	next, prev := pg.links(c.Request, count, rows)
	b = append(b, `,"next":`...)
	b = appendURL(b, next)
	b = append(b, `,"previous":`...)
	b = appendURL(b, prev)
	b = append(b, `,"results":[`...)
	for i, r := range rows {
		if i > 0 {
			b = append(b, ',')
		}
		b = page.Encode(b, r)
	}
	b = append(b, "]}"...)
	*buf = b
	return listPage{body: b, buf: buf, ignored: ignored}
}

// reserveRows waits until a page of limit rows fits in
// Config.ListRowsInFlight (a page larger than the whole bound, or an
// unlimited one, takes all of it) and returns its release. Waiting ends
// with the request: a client that goes away leaves the queue.
func (s *Server) reserveRows(ctx context.Context, limit int) (release func(), err error) {
	if s.listRows == nil {
		return func() {}, nil
	}
	n := int64(s.cfg.ListRowsInFlight)
	if limit > 0 && int64(limit) < n {
		n = int64(limit)
	}
	if err := s.listRows.Acquire(ctx, n); err != nil {
		return nil, err
	}
	return func() { s.listRows.Release(n) }, nil
}

// listBuffers keep the bytes of list responses from one request to the
// next: a page of 1000 is a megabyte or more, and growing a fresh buffer
// to that size for each request, then collecting it, cost a good part of
// what encoding into it does.
var listBuffers = sync.Pool{New: func() any { return new([]byte) }}

// putListBuffer returns buf to the pool unless it grew beyond what a
// large page needs (an unlimited export-sized list), so that one huge
// response does not stay in memory.
func putListBuffer(buf *[]byte) {
	if cap(*buf) <= 8<<20 {
		listBuffers.Put(buf)
	}
}

func appendURL(b []byte, u string) []byte {
	if u == "" {
		return append(b, "null"...)
	}
	raw, _ := marshal(u)
	return append(b, raw...)
}

// objectID parses the detail route's id; anything else is NetBox's 404.
func objectID(c *gin.Context) (int, error) {
	id, err := strconv.Atoi(c.Param("id"))
	if err != nil || id < 0 {
		return 0, errNotFound
	}
	return id, nil
}

func notFound(d *resource.Descriptor) error {
	return detailErr(http.StatusNotFound, "No "+d.ClassName()+" matches the given query.")
}

// fetch loads one object through the detail route's filters.
func (s *Server) fetch(c *gin.Context, d *resource.Descriptor) (*resource.Row, error) {
	id, err := objectID(c)
	if err != nil {
		return nil, err
	}
	ctx := c.Request.Context()
	preds, err := s.filterPreds(c, d, true)
	if err != nil {
		return nil, err
	}
	preds = append(preds, s.restriction(c)...)
	r, err := d.Get(ctx, s.db.Store(), id, preds...)
	if err != nil {
		return nil, err
	}
	if r == nil {
		return nil, notFound(d)
	}
	return r, nil
}

// etag is the object's weak ETag (SPEC.md §4.5), "" for models without
// timestamps.
func etag(d *resource.Descriptor, r *resource.Row) string {
	for _, name := range []string{"last_updated", "created"} {
		if t, ok := d.Value(r, name).(time.Time); ok {
			return resource.ETag(t)
		}
	}
	return ""
}

// respond renders one object, with its ETag.
func (s *Server) respond(c *gin.Context, d *resource.Descriptor, r *resource.Row, status int) error {
	return s.respondView(c, d, r, status, view(c))
}

func (s *Server) respondView(c *gin.Context, d *resource.Descriptor, r *resource.Row, status int, v resource.View) error {
	page, err := d.Load(c.Request.Context(), s.db.Store(), []*resource.Row{r}, v)
	if err != nil {
		return err
	}
	if e := etag(d, r); e != "" {
		c.Header("ETag", e)
	}
	writeJSON(c, status, page.Encode(nil, r))
	return nil
}

func (s *Server) retrieve(c *gin.Context, d *resource.Descriptor) error {
	if err := s.authorize(c, d, actionView); err != nil {
		return err
	}
	r, err := s.fetch(c, d)
	if err != nil {
		return err
	}
	return s.respond(c, d, r, http.StatusOK)
}

// body reads a JSON request body: nil for an empty one.
func body(c *gin.Context) (json.RawMessage, error) {
	if ct := c.GetHeader("Content-Type"); ct != "" {
		mt, _, _ := mime.ParseMediaType(ct)
		if mt == "multipart/form-data" {
			return multipartBody(c)
		}
		if mt != "application/json" {
			raw, _ := io.ReadAll(io.LimitReader(c.Request.Body, 1))
			if len(raw) > 0 {
				return nil, detailErr(http.StatusUnsupportedMediaType, fmt.Sprintf("Unsupported media type %q in request.", mt))
			}
			return nil, nil
		}
	}
	raw, err := io.ReadAll(c.Request.Body)
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return nil, detailErr(http.StatusRequestEntityTooLarge, fmt.Sprintf("Request body too large: the limit is %d bytes (DATA_UPLOAD_MAX_MEMORY_SIZE).", mbe.Limit))
		}
		return nil, detailErr(http.StatusBadRequest, "Could not read the request body.")
	}
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return nil, nil
	}
	if msg := resource.CheckJSONText(raw); msg != "" {
		return nil, detailErr(http.StatusBadRequest, "JSON parse error - "+msg)
	}
	// Before json.Valid, which gives up at 10,000 levels with a message
	// that names no field.
	if err := tooDeep(raw); err != nil {
		return nil, err
	}
	if !json.Valid(raw) {
		var v any
		err := json.Unmarshal(raw, &v)
		return nil, detailErr(http.StatusBadRequest, "JSON parse error - "+err.Error())
	}
	return raw, nil
}

// tooDeep refuses a body with a value nested deeper than
// jsonlimit.MaxDepth, before anything decodes or walks it (issue 32: the
// resource layer, the logic packages and the databases' JSON types
// recurse). The value of a field (an object's member, or a member of an
// object in a list, as bulk writes send) may nest MaxDepth levels, counted
// from the value itself; the error names the field, per item for a list,
// as DRF's field errors do. Any other shape is a JSON parse error. The
// scan tolerates text that is no JSON (the next check refuses it).
func tooDeep(raw json.RawMessage) error {
	base := 1
	if raw[0] == '[' {
		base = 2
	}
	path, over := jsonlimit.Scan(raw, jsonlimit.MaxDepth+base)
	if !over {
		return nil
	}
	msg := jsonlimit.Message()
	if field, ok := path[0].(string); ok && raw[0] == '{' {
		return resource.Invalid(field, msg)
	}
	if len(path) > 1 && raw[0] == '[' {
		index, _ := path[0].(int)
		if field, ok := path[1].(string); ok {
			errs := make(bulkError, topLevelItems(raw))
			for i := range errs {
				errs[i] = map[string]any{}
			}
			if index < len(errs) {
				errs[index] = resource.Invalid(field, msg)
			}
			return errs
		}
	}
	return detailErr(http.StatusBadRequest, "JSON parse error - "+msg)
}

// topLevelItems counts the items of a JSON array (valid JSON text),
// without decoding them.
func topLevelItems(raw json.RawMessage) int {
	n, depth, empty := 0, 0, true
	for i := 0; i < len(raw); i++ {
		switch raw[i] {
		case '"':
			for i++; i < len(raw) && raw[i] != '"'; i++ {
				if raw[i] == '\\' {
					i++
				}
			}
			empty = false
		case '[', '{':
			if depth++; depth > 1 {
				empty = false
			}
		case ']', '}':
			depth--
		case ',':
			if depth == 1 {
				n++
			}
		case ' ', '\t', '\r', '\n':
		default:
			empty = false
		}
	}
	if empty {
		return 0
	}
	return n + 1
}

// object decodes one object of a write; a non-object is DRF's error.
func object(raw json.RawMessage) (resource.Input, error) {
	if raw == nil {
		return resource.Input{}, nil
	}
	var in resource.Input
	if raw[0] != '{' || json.Unmarshal(raw, &in) != nil {
		return nil, resource.Invalid("non_field_errors", fmt.Sprintf("Invalid data. Expected a dictionary, but got %s.", pyrepr.TypeOfJSON(raw)))
	}
	if in == nil {
		in = resource.Input{}
	}
	return in, nil
}

// items splits the array body of a bulk request into its items, at most
// max of them (0: any number).
func items(raw json.RawMessage, max int) ([]json.RawMessage, error) {
	var list []json.RawMessage
	if raw != nil && raw[0] == '[' {
		// Items are split one at a time, so an oversized bulk is refused
		// after max+1 of them, before any becomes a model or a
		// transaction opens (raw is valid JSON: body checked it).
		dec := json.NewDecoder(bytes.NewReader(raw))
		if _, err := dec.Token(); err == nil {
			for dec.More() {
				if max > 0 && len(list) == max {
					return nil, resource.Invalid("non_field_errors", fmt.Sprintf("Ensure this list has at most %d items (MAX_BULK_ITEMS); split the request.", max))
				}
				var item json.RawMessage
				if err := dec.Decode(&item); err != nil {
					break
				}
				list = append(list, item)
			}
			return list, nil
		}
	}
	t := "dict"
	if raw != nil {
		t = pyrepr.TypeOfJSON(raw)
	}
	return nil, resource.Invalid("non_field_errors", fmt.Sprintf("Expected a list of items but got type %q.", t))
}

// writeTx runs fn in one transaction with the resource layer's view of it.
func (s *Server) writeTx(c *gin.Context, fn func(ctx context.Context, tx *resource.Tx) error) error {
	// Files written by the transaction go again if it rolls back; files
	// of rows it deletes or replaces go once it commits (package media).
	ctx, batch := media.Begin(c.Request.Context(), s.media)
	err := webhooks.Write(ctx, s.db, actor(c), func(tctx context.Context, tx *resource.Tx) error {
		p := PrincipalFrom(ctx)
		tx.Visible = s.visible(ctx, p)
		if p != nil && p.User != nil {
			tctx = resource.WithUser(tctx, p.User.ID)
		}
		return fn(tctx, tx)
	})
	if ferr := batch.Finish(err == nil); ferr != nil {
		slog.WarnContext(ctx, "media files not removed", "error", ferr)
	}
	return err
}

// actor is who a request's changes are recorded for.
func actor(c *gin.Context) webhooks.Actor {
	ctx := c.Request.Context()
	a := webhooks.Actor{RequestID: RequestID(ctx), Method: c.Request.Method, Path: c.Request.URL.Path}
	if p := PrincipalFrom(ctx); p != nil && p.User != nil {
		id := p.User.ID
		a.UserID, a.Username = &id, p.User.Username
	}
	return a
}

// create serves POST on a list route: one object, or an array (bulk),
// all or nothing.
func (s *Server) create(c *gin.Context, d *resource.Descriptor) error {
	if err := s.authorize(c, d, actionAdd); err != nil {
		return err
	}
	raw, err := body(c)
	if err != nil {
		return err
	}
	ctx, _ := resource.WithReveal(c.Request.Context())
	c.Request = c.Request.WithContext(ctx)
	if raw != nil && raw[0] == '[' {
		return s.bulkCreate(c, d, raw)
	}
	in, err := object(raw)
	if err != nil {
		return err
	}
	if err := s.checkGrant(c, d, in); err != nil {
		return err
	}
	return s.createOne(c, d, in, view(c))
}

// createOne creates one object in its own transaction, checks that the
// result is within the caller's reach, and answers 201 with it.
func (s *Server) createOne(c *gin.Context, d *resource.Descriptor, in resource.Input, v resource.View) error {
	var id int
	err := s.writeTx(c, func(ctx context.Context, tx *resource.Tx) error {
		var err error
		if id, err = d.Create(ctx, tx, in); err != nil {
			return err
		}
		return s.inReach(c, ctx, tx, d, id)
	})
	if err != nil {
		return err
	}
	r, err := d.Get(c.Request.Context(), s.db.Store(), id)
	if err != nil || r == nil {
		return fmt.Errorf("re-read created %s %d: %w", d.Type, id, err)
	}
	return s.respondView(c, d, r, http.StatusCreated, v)
}

func (s *Server) bulkCreate(c *gin.Context, d *resource.Descriptor, raw json.RawMessage) error {
	list, err := items(raw, s.cfg.MaxBulkItems)
	if err != nil {
		return err
	}
	ids := make([]int, 0, len(list))
	err = s.writeTx(c, func(ctx context.Context, tx *resource.Tx) error {
		// Hooks may read what every item needs at once (api.BulkItems).
		ctx = api.WithBulk(ctx, d.ContentType(), list)
		// The objects of a bulk create share their types' templates
		// (read once per kind and type, not once per object).
		ctx = resource.WithTemplateCache(ctx)
		// Every item starts valid ({}, as DRF reports an item without
		// errors), including those left unchecked once a failed statement
		// ended the transaction: never null.
		errs := make(bulkError, len(list))
		for i := range errs {
			errs[i] = map[string]any{}
		}
		failed := false
		for i, item := range list {
			in, err := object(item)
			if err == nil {
				if err = s.checkGrant(c, d, in); err != nil {
					return err
				}
				var id int
				if id, err = d.Create(ctx, tx, in); err == nil {
					ids = append(ids, id)
					continue
				}
			}
			var ve *resource.ValidationError
			if !errors.As(err, &ve) {
				return err
			}
			errs[i], failed = ve, true
			if tx.Err() != nil {
				break // a statement failed: the transaction runs no more (PostgreSQL)
			}
		}
		if failed {
			return errs
		}
		return s.inReach(c, ctx, tx, d, ids...)
	})
	if err != nil {
		return err
	}
	return s.respondMany(c, d, ids, http.StatusCreated)
}

// respondMany renders objects by id (bulk responses carry no ETag).
func (s *Server) respondMany(c *gin.Context, d *resource.Descriptor, ids []int, status int) error {
	ctx := c.Request.Context()
	rows, err := d.GetMany(ctx, s.db.Store(), ids)
	if err != nil {
		return err
	}
	page, err := d.Load(ctx, s.db.Store(), rows, view(c))
	if err != nil {
		return err
	}
	b := []byte{'['}
	for i, r := range rows {
		if i > 0 {
			b = append(b, ',')
		}
		b = page.Encode(b, r)
	}
	writeJSON(c, status, append(b, ']'))
	return nil
}

// checkIfMatch applies If-Match (SPEC.md §4.5): 412 with the current ETag
// when no supplied value matches; "*" matches any existing object.
func checkIfMatch(c *gin.Context, d *resource.Descriptor, r *resource.Row) error {
	h := c.GetHeader("If-Match")
	if h == "" {
		return nil
	}
	cur := etag(d, r)
	if cur == "" || strings.TrimSpace(h) == "*" {
		return nil
	}
	for _, v := range strings.Split(h, ",") {
		if strings.TrimSpace(v) == cur {
			return nil
		}
	}
	c.Header("ETag", cur)
	return detailErr(http.StatusPreconditionFailed, "Precondition failed.")
}

// lockRow re-reads an object inside the write transaction, locked on
// PostgreSQL (SQLite's immediate transactions already serialise writers),
// so that If-Match cannot pass for two concurrent writers. The lock is
// FOR NO KEY UPDATE, what PostgreSQL's own UPDATE of non-key columns
// takes: two writers of the row still wait for each other, but a foreign
// key check on the row (another transaction pointing a row at it) does
// not. With FOR UPDATE, two nodes of a tree moved under each other at
// once deadlocked: each held its own row, one held the tree's lock
// (resource.lockTree) and its UPDATE's key check waited for the other's
// row, which waited for the tree's lock.
func (s *Server) lockRow(ctx context.Context, tx *resource.Tx, d *resource.Descriptor, id int) (*resource.Row, error) {
	var preds []func(*sql.Selector)
	if tx.Dialect == dialect.Postgres {
		preds = append(preds, func(s *sql.Selector) { s.For(sql.LockNoKeyUpdate) })
	}
	return d.Get(ctx, tx.Store(), id, preds...)
}

// detailWrite is the common start of a write on a detail route: the
// permission gate, the object (404 when out of reach), If-Match, and the
// body as one object.
func (s *Server) detailWrite(c *gin.Context, d *resource.Descriptor, action string) (*resource.Row, resource.Input, error) {
	if err := s.authorize(c, d, action); err != nil {
		return nil, nil, err
	}
	r, err := s.fetch(c, d)
	if err != nil {
		return nil, nil, err
	}
	if err := checkIfMatch(c, d, r); err != nil {
		return nil, nil, err
	}
	in, err := objectBody(c)
	return r, in, err
}

// objectBody reads a request body that must be one object.
func objectBody(c *gin.Context) (resource.Input, error) {
	raw, err := body(c)
	if err != nil {
		return nil, err
	}
	return object(raw)
}

// bulkWrite is the common start of a bulk update or delete: the permission
// gate, the body as a list of items, and their ids, every one existing
// and within the caller's reach.
func (s *Server) bulkWrite(c *gin.Context, d *resource.Descriptor, action string) ([]int, []resource.Input, error) {
	if err := s.authorize(c, d, action); err != nil {
		return nil, nil, err
	}
	raw, err := body(c)
	if err != nil {
		return nil, nil, err
	}
	list, err := items(raw, s.cfg.MaxBulkItems)
	if err != nil {
		return nil, nil, err
	}
	return s.bulkIDs(c.Request.Context(), d, list, s.restriction(c)...)
}

// update serves PUT and PATCH on a detail route.
func (s *Server) update(c *gin.Context, d *resource.Descriptor, partial bool) error {
	r, in, err := s.detailWrite(c, d, actionChange)
	if err != nil {
		return err
	}
	err = s.writeTx(c, func(ctx context.Context, tx *resource.Tx) error {
		cur, err := s.lockRow(ctx, tx, d, r.ID)
		if err != nil {
			return err
		}
		if cur == nil {
			return notFound(d)
		}
		if err := checkIfMatch(c, d, cur); err != nil {
			return err
		}
		if err := d.Update(ctx, tx, cur, in, partial); err != nil {
			return err
		}
		return s.inReach(c, ctx, tx, d, cur.ID)
	})
	if err != nil {
		return err
	}
	r, err = d.Get(c.Request.Context(), s.db.Store(), r.ID)
	if err != nil || r == nil {
		return fmt.Errorf("re-read %s: %w", d.Type, err)
	}
	return s.respond(c, d, r, http.StatusOK)
}

// destroy serves DELETE on a detail route (an optional body may carry a
// changelog_message).
func (s *Server) destroy(c *gin.Context, d *resource.Descriptor) error {
	r, in, err := s.detailWrite(c, d, actionDelete)
	if err != nil {
		return err
	}
	if _, err := in.Message(); err != nil {
		return err
	}
	err = s.writeTx(c, func(ctx context.Context, tx *resource.Tx) error {
		return d.Delete(ctx, tx, []int{r.ID}, in)
	})
	if err != nil {
		return err
	}
	c.Status(http.StatusNoContent)
	return nil
}

// bulkIDs validates the items of a bulk update or delete: each must carry
// an integer id of an existing object. Unlike NetBox, which skips missing
// ids silently, any missing id fails the whole request (DESIGN.md §7).
func (s *Server) bulkIDs(ctx context.Context, d *resource.Descriptor, list []json.RawMessage, restrict ...func(*sql.Selector)) ([]int, []resource.Input, error) {
	ids := make([]int, len(list))
	ins := make([]resource.Input, len(list))
	errs := make(bulkError, len(list))
	failed := false
	for i, item := range list {
		errs[i] = map[string]any{}
		in, err := object(item)
		if err != nil {
			var ve *resource.ValidationError
			errors.As(err, &ve)
			errs[i], failed = ve, true
			continue
		}
		var id int
		raw, ok := in["id"]
		if !ok {
			errs[i], failed = resource.Invalid("id", "This field is required."), true
			continue
		}
		if json.Unmarshal(raw, &id) != nil {
			errs[i], failed = resource.Invalid("id", "A valid integer is required."), true
			continue
		}
		ids[i], ins[i] = id, in
	}
	if failed {
		return nil, nil, errs
	}
	rows, err := d.GetMany(ctx, s.db.Store(), ids, restrict...)
	if err != nil {
		return nil, nil, err
	}
	found := map[int]bool{}
	for _, r := range rows {
		found[r.ID] = true
	}
	for i, id := range ids {
		if !found[id] {
			errs[i], failed = resource.Invalid("id", fmt.Sprintf("No %s matches the given query.", d.ClassName())), true
		}
	}
	if failed {
		return nil, nil, errs
	}
	return ids, ins, nil
}

// bulkUpdate serves PUT and PATCH on a list route, all or nothing.
func (s *Server) bulkUpdate(c *gin.Context, d *resource.Descriptor, partial bool) error {
	ids, ins, err := s.bulkWrite(c, d, actionChange)
	if err != nil {
		return err
	}
	err = s.writeTx(c, func(ctx context.Context, tx *resource.Tx) error {
		for i, id := range ids {
			cur, err := s.lockRow(ctx, tx, d, id)
			if err != nil {
				return err
			}
			if cur == nil {
				return notFound(d)
			}
			if err := d.Update(ctx, tx, cur, ins[i], partial); err != nil {
				return err // the first failing item's error, as NetBox
			}
		}
		return s.inReach(c, ctx, tx, d, ids...)
	})
	if err != nil {
		return err
	}
	uniq := append([]int(nil), ids...)
	sort.Ints(uniq)
	return s.respondMany(c, d, uniq, http.StatusOK)
}

// bulkDelete serves DELETE on a list route, all or nothing.
func (s *Server) bulkDelete(c *gin.Context, d *resource.Descriptor) error {
	ids, ins, err := s.bulkWrite(c, d, actionDelete)
	if err != nil {
		return err
	}
	for _, in := range ins {
		if _, err := in.Message(); err != nil {
			return err
		}
	}
	err = s.writeTx(c, func(ctx context.Context, tx *resource.Tx) error {
		return d.Delete(ctx, tx, ids, ins...)
	})
	if err != nil {
		return err
	}
	c.Status(http.StatusNoContent)
	return nil
}
