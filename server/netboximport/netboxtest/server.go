package netboxtest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// MaxPageSize is NetBox's default MAX_PAGE_SIZE: the most objects a page
// holds, and what limit=0 asks for.
const MaxPageSize = 1000

// defaultLimit is NetBox's default PAGINATE_COUNT.
const defaultLimit = 50

// Server is a fake NetBox 4.6 serving a Source over HTTP. Create it with
// NewServer; Close it when done (stalled requests are released).
type Server struct {
	*httptest.Server
	src   Source
	token string

	// IgnoreIDFilter answers like a NetBox whose filter set has no id__gt:
	// the parameter is ignored (NetBox ignores unknown filters) and the
	// whole list is paged by offset.
	IgnoreIDFilter bool
	// NoCursor answers like a NetBox before 4.6: ?start (cursor paging)
	// is an unknown parameter, ignored.
	NoCursor bool

	mu       sync.Mutex
	faults   map[string][]*fault
	hooks    map[string]func(page int)
	requests map[string]int
	pages    map[string]int
	files    map[string][]byte
	closing  chan struct{}
	once     sync.Once
}

type fault struct {
	times  int // requests left to spoil; negative: every one
	status int
	body   string
	stall  bool
}

// NewServer starts a fake NetBox over src. When token is not empty every
// request must carry it (`Authorization: Token <t>`, or `Bearer <t>` for a
// v2 token), as a NetBox requiring login does.
func NewServer(src Source, token string) *Server {
	s := &Server{
		src: src, token: token,
		faults: map[string][]*fault{}, hooks: map[string]func(int){},
		requests: map[string]int{}, pages: map[string]int{}, files: map[string][]byte{},
		closing: make(chan struct{}),
	}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	return s
}

// Close releases stalled requests and shuts the server down.
func (s *Server) Close() {
	s.once.Do(func() { close(s.closing) })
	s.Server.Close()
}

// Fail makes the next times requests of the endpoint ("dcim/devices", or
// "status" for /api/status/) answer status with body (every request when
// times is negative), typed as JSON, HTML or text by its first character. Faults queue: the next one applies once this one is
// spent.
func (s *Server) Fail(endpoint string, times, status int, body string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.faults[endpoint] = append(s.faults[endpoint], &fault{times: times, status: status, body: body})
}

// Stall makes the next times requests of the endpoint hang until the client
// gives up (a timeout) or the server closes.
func (s *Server) Stall(endpoint string, times int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.faults[endpoint] = append(s.faults[endpoint], &fault{times: times, stall: true})
}

// OnPage calls fn(n) when the n-th page (from 1) of the endpoint has been
// cut and before it is sent: a test changes the source there to have a
// list change while it is read.
func (s *Server) OnPage(endpoint string, fn func(page int)) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.hooks[endpoint] = fn
}

// PutFile serves data at path (an image attachment under /media/);
// Fail and Stall take the path as the endpoint.
func (s *Server) PutFile(path string, data []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.files[path] = data
}

// Requests is how many requests reached the endpoint, failed ones included.
func (s *Server) Requests(endpoint string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.requests[endpoint]
}

// takeFault counts the request and spends the endpoint's next fault.
func (s *Server) takeFault(endpoint string) *fault {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.requests[endpoint]++
	for len(s.faults[endpoint]) > 0 {
		f := s.faults[endpoint][0]
		if f.times == 0 {
			s.faults[endpoint] = s.faults[endpoint][1:]
			continue
		}
		if f.times > 0 {
			f.times--
		}
		return f
	}
	return nil
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		status, b = http.StatusInternalServerError, []byte(`{"detail":"fake NetBox: `+err.Error()+`"}`)
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	w.Write(b)
}

// writePage writes a list page, its objects as they are (json.Marshal
// would check and compact each again: most of a large page's cost).
func writePage(w http.ResponseWriter, p listPage) {
	head := struct {
		Count    *int    `json:"count"`
		Next     *string `json:"next"`
		Previous *string `json:"previous"`
	}{p.Count, p.Next, p.Previous}
	b, _ := json.Marshal(head)
	n := len(b) + 13
	for _, o := range p.Results {
		n += len(o) + 1
	}
	out := make([]byte, 0, n)
	out = append(out, b[:len(b)-1]...)
	out = append(out, `,"results":[`...)
	for i, o := range p.Results {
		if i > 0 {
			out = append(out, ',')
		}
		out = append(out, o...)
	}
	out = append(out, "]}"...)
	w.Header().Set("Content-Type", "application/json")
	w.Write(out)
}

func detail(w http.ResponseWriter, status int, msg string) {
	writeJSON(w, status, map[string]string{"detail": msg})
}

func (s *Server) authorized(r *http.Request) (bool, string) {
	if s.token == "" {
		return true, ""
	}
	h := r.Header.Get("Authorization")
	if h == "" {
		return false, "Authentication credentials were not provided."
	}
	scheme, tok, _ := strings.Cut(h, " ")
	want := "Token"
	if strings.HasPrefix(s.token, "nbt_") {
		want = "Bearer"
	}
	if scheme != want || tok != s.token {
		return false, "Invalid token"
	}
	return true, ""
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	if ok, msg := s.authorized(r); !ok {
		detail(w, http.StatusForbidden, msg)
		return
	}
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		detail(w, http.StatusMethodNotAllowed, fmt.Sprintf("Method %q not allowed.", r.Method))
		return
	}
	p := strings.Trim(strings.TrimPrefix(r.URL.Path, "/api"), "/")
	if !strings.HasPrefix(r.URL.Path, "/api/") && r.URL.Path != "/api" {
		s.file(w, r)
		return
	}
	ctx := r.Context()
	var eps []string
	if l, ok := s.src.(Lister); ok {
		var err error
		if eps, err = l.Endpoints(ctx); err != nil {
			detail(w, http.StatusInternalServerError, err.Error())
			return
		}
	}
	known := func(e string) bool { return eps == nil && strings.Count(e, "/") == 1 || slices.Contains(eps, e) }
	key := p
	if p == "status" {
		key = "status"
	} else if i := strings.LastIndex(p, "/"); i > 0 && !known(p) && known(p[:i]) {
		key = p[:i]
	}
	if s.fault(w, r, key) {
		return
	}
	base := "http://" + r.Host + "/api/"
	switch {
	case p == "status":
		st, err := s.src.Status(ctx)
		if err != nil {
			detail(w, http.StatusInternalServerError, err.Error())
			return
		}
		writeJSON(w, http.StatusOK, st)
	case known(p):
		s.list(w, r, p)
	case key != p:
		s.detail(w, r, key, strings.TrimPrefix(p, key+"/"))
	default:
		// An index: /api/ lists the apps, /api/<app>/ its endpoints.
		idx := map[string]string{}
		prefix := p + "/"
		if p == "" {
			prefix = ""
			idx["status"] = base + "status/"
			idx["plugins"] = base + "plugins/"
		}
		for _, e := range eps {
			if rest, ok := strings.CutPrefix(e, prefix); ok {
				name, _, _ := strings.Cut(rest, "/")
				idx[name] = base + prefix + name + "/"
			}
		}
		if len(idx) == 0 && p != "plugins" {
			detail(w, http.StatusNotFound, "Not found.")
			return
		}
		writeJSON(w, http.StatusOK, idx)
	}
}

// file serves what PutFile put, after the path's faults.
func (s *Server) file(w http.ResponseWriter, r *http.Request) {
	if s.fault(w, r, r.URL.Path) {
		return
	}
	s.mu.Lock()
	data, ok := s.files[r.URL.Path]
	s.mu.Unlock()
	if !ok {
		detail(w, http.StatusNotFound, "Not found.")
		return
	}
	w.Header().Set("Content-Type", "application/octet-stream")
	w.Write(data)
}

// fault answers the request with the key's next fault, if it has one.
func (s *Server) fault(w http.ResponseWriter, r *http.Request, key string) bool {
	f := s.takeFault(key)
	if f == nil {
		return false
	}
	if f.stall {
		select {
		case <-r.Context().Done():
		case <-s.closing:
		}
		return true
	}
	ct := "text/plain; charset=utf-8"
	switch b := strings.TrimSpace(f.body); {
	case strings.HasPrefix(b, "{") || strings.HasPrefix(b, "["):
		ct = "application/json"
	case strings.HasPrefix(b, "<"):
		ct = "text/html; charset=utf-8"
	}
	w.Header().Set("Content-Type", ct)
	w.WriteHeader(f.status)
	w.Write([]byte(f.body))
	return true
}

func (s *Server) detail(w http.ResponseWriter, r *http.Request, endpoint, idText string) {
	id, err := strconv.Atoi(idText)
	if err != nil {
		detail(w, http.StatusNotFound, "Not found.")
		return
	}
	var found json.RawMessage
	err = pagesAfter(r.Context(), s.src, endpoint, id-1, func(objs []json.RawMessage) error {
		if got, err := ObjectID(objs[0]); err == nil && got == id {
			found = objs[0]
		}
		return errStop
	})
	if err != nil && !errors.Is(err, errStop) {
		detail(w, http.StatusInternalServerError, err.Error())
		return
	}
	if found == nil {
		detail(w, http.StatusNotFound, "No "+endpoint+" matches the given query.")
		return
	}
	out, err := render(found, r.URL.Query())
	if err != nil {
		detail(w, http.StatusInternalServerError, err.Error())
		return
	}
	writeJSON(w, http.StatusOK, out)
}

// CountAfterer is a Source that counts the objects after an id without
// reading them (the fake NetBox's count under id__gt on a large source).
type CountAfterer interface {
	CountAfter(ctx context.Context, endpoint string, after int) (int, error)
}

type listPage struct {
	Count    *int              `json:"count"`
	Next     *string           `json:"next"`
	Previous *string           `json:"previous"`
	Results  []json.RawMessage `json:"results"`
}

// list answers a list GET as NetBox's LimitOffsetPagination does.
func (s *Server) list(w http.ResponseWriter, r *http.Request, endpoint string) {
	ctx := r.Context()
	q := r.URL.Query()
	limit := defaultLimit
	if n, err := strconv.Atoi(q.Get("limit")); err == nil && n >= 0 {
		limit = n
		if n == 0 || n > MaxPageSize {
			limit = MaxPageSize
		}
	}
	offset := 0
	if n, err := strconv.Atoi(q.Get("offset")); err == nil && n > 0 {
		offset = n
	}
	if v, ok := q["start"]; ok && !s.NoCursor {
		s.cursor(w, r, endpoint, v[0], limit)
		return
	}
	if o := q.Get("ordering"); o != "" && o != "id" {
		detail(w, http.StatusBadRequest, "this fake NetBox orders by id only, not "+o)
		return
	}
	after := 0
	if v, ok := q["id__gt"]; ok && !s.IgnoreIDFilter {
		n, err := strconv.Atoi(v[0])
		if err != nil {
			writeJSON(w, http.StatusBadRequest, map[string][]string{"id__gt": {"Enter a number."}})
			return
		}
		after = n
	}
	counter, fastCount := s.src.(CountAfterer)
	if after == 0 {
		fastCount = true
	}
	var results []json.RawMessage
	matched := 0
	err := pagesAfter(ctx, s.src, endpoint, after, func(objs []json.RawMessage) error {
		for _, o := range objs {
			if matched >= offset && len(results) < limit {
				out, err := render(o, q)
				if err != nil {
					return err
				}
				results = append(results, out)
			}
			matched++
			if len(results) == limit && fastCount {
				return errStop
			}
		}
		return nil
	})
	if err != nil && !errors.Is(err, errStop) {
		detail(w, http.StatusInternalServerError, err.Error())
		return
	}
	count := matched
	switch {
	case after == 0 && errors.Is(err, errStop):
		count, err = s.src.Count(ctx, endpoint)
	case fastCount && errors.Is(err, errStop):
		count, err = counter.CountAfter(ctx, endpoint, after)
	}
	if err != nil {
		detail(w, http.StatusInternalServerError, err.Error())
		return
	}
	s.mu.Lock()
	s.pages[endpoint]++
	n, hook := s.pages[endpoint], s.hooks[endpoint]
	s.mu.Unlock()
	if hook != nil {
		hook(n)
	}
	link := func(off int) *string {
		u := url.URL{Scheme: "http", Host: r.Host, Path: r.URL.Path}
		v := url.Values{}
		for k, vs := range q {
			v[k] = vs
		}
		v.Set("limit", strconv.Itoa(limit))
		if off > 0 {
			v.Set("offset", strconv.Itoa(off))
		} else {
			v.Del("offset")
		}
		u.RawQuery = v.Encode()
		s := u.String()
		return &s
	}
	page := listPage{Count: &count, Results: results}
	if page.Results == nil {
		page.Results = []json.RawMessage{}
	}
	if offset+limit < count {
		page.Next = link(offset + limit)
	}
	if offset > 0 {
		page.Previous = link(max(offset-limit, 0))
	}
	writePage(w, page)
}

// cursor answers a list GET in NetBox 4.6's cursor mode (?start=<id>):
// objects of ids from start up, no count, no previous, a next from the
// last id when the page is full.
func (s *Server) cursor(w http.ResponseWriter, r *http.Request, endpoint, startText string, limit int) {
	q := r.URL.Query()
	start, err := strconv.Atoi(startText)
	switch {
	case err != nil || start < 0:
		writeJSON(w, http.StatusBadRequest, []string{"Invalid 'start' parameter: must be a non-negative integer."})
		return
	case q.Has("offset"):
		writeJSON(w, http.StatusBadRequest, []string{"'start' and 'offset' are mutually exclusive."})
		return
	case q.Has("ordering"):
		writeJSON(w, http.StatusBadRequest, []string{"Ordering cannot be specified in conjunction with cursor-based pagination."})
		return
	}
	var results []json.RawMessage
	last := 0
	err = pagesAfter(r.Context(), s.src, endpoint, start-1, func(objs []json.RawMessage) error {
		for _, o := range objs {
			out, err := render(o, q)
			if err != nil {
				return err
			}
			results = append(results, out)
			if last, err = ObjectID(o); err != nil {
				return err
			}
			if len(results) == limit {
				return errStop
			}
		}
		return nil
	})
	if err != nil && !errors.Is(err, errStop) {
		detail(w, http.StatusInternalServerError, err.Error())
		return
	}
	s.mu.Lock()
	s.pages[endpoint]++
	n, hook := s.pages[endpoint], s.hooks[endpoint]
	s.mu.Unlock()
	if hook != nil {
		hook(n)
	}
	page := listPage{Results: results}
	if page.Results == nil {
		page.Results = []json.RawMessage{}
	}
	if len(results) == limit {
		v := url.Values{}
		for k, vs := range q {
			v[k] = vs
		}
		v.Set("limit", strconv.Itoa(limit))
		v.Set("start", strconv.Itoa(last+1))
		u := url.URL{Scheme: "http", Host: r.Host, Path: r.URL.Path, RawQuery: v.Encode()}
		next := u.String()
		page.Next = &next
	}
	writePage(w, page)
}

// briefFields are the fields a brief representation keeps: NetBox's brief
// serializers are per model; this is their union, enough for counting and
// for code that reads ids and names.
var briefFields = map[string]bool{
	"id": true, "url": true, "display": true, "name": true, "slug": true, "description": true,
	"model": true, "cid": true, "address": true, "prefix": true, "vid": true, "asn": true,
	"rd": true, "username": true, "label": true, "_depth": true, "family": true,
	"start_address": true, "end_address": true, "device": true, "virtual_machine": true,
	"circuit": true, "term_side": true, "cable": true,
}

// render applies ?brief and ?exclude to one object, keeping its bytes when
// neither changes it.
func render(obj json.RawMessage, q url.Values) (json.RawMessage, error) {
	brief := q.Get("brief")
	briefOn := brief == "1" || strings.EqualFold(brief, "true")
	var exclude []string
	for _, v := range q["exclude"] {
		exclude = append(exclude, strings.Split(v, ",")...)
	}
	if !briefOn && len(exclude) == 0 {
		return obj, nil
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(obj, &m); err != nil {
		return nil, err
	}
	changed := false
	for k := range m {
		if briefOn && !briefFields[k] || slices.Contains(exclude, k) {
			delete(m, k)
			changed = true
		}
	}
	if !changed {
		return obj, nil
	}
	return json.Marshal(m)
}
