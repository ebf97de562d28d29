package servertest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/legacy"
)

// CheckOpenAPI checks every request made through e from now on (and
// through the Envs Anonymous, WithToken, NewUser... make from it) against
// the server's own /api/schema/, with kin-openapi's openapi3filter, and
// fails the test on any finding (issue 16: the document describes every
// operation exactly as served). A finding is:
//
//   - a response whose status the operation does not declare, or whose
//     body does not match the declared schema (formats included);
//   - a request that violates the document but was answered 2xx (the
//     document promises clients that such a request is refused);
//   - a 405 whose Allow header differs from the methods the document
//     declares for the path, or a method the document declares that was
//     answered 405;
//   - a 2xx from a path or method the document does not describe.
//
// A request that matches the document but is refused with a 4xx is not a
// finding: uniqueness, references to missing objects and the models'
// clean() rules are beyond what a schema can say, and those answers are
// declared (400, 404, 409) and checked like any other.
func (e *Env) CheckOpenAPI() {
	e.T.Helper()
	c, err := openAPIChecker(e.Handler, e.Config.Version)
	if err != nil {
		e.T.Fatalf("openapi: %v", err)
	}
	e.Handler = c.wrap(e.T, e.Handler)
}

// checker is the loaded document and its router, shared by every Env of
// a process (the document depends only on the build and its version).
type checker struct {
	doc    *openapi3.T
	router routers.Router
	opts   *openapi3filter.Options
}

var checkers struct {
	sync.Mutex
	byVersion map[string]*checker
}

func openAPIChecker(h http.Handler, version string) (*checker, error) {
	checkers.Lock()
	defer checkers.Unlock()
	if c := checkers.byVersion[version]; c != nil {
		return c, nil
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "http://inventory.test/api/schema/?format=json", nil))
	if rec.Code != http.StatusOK {
		return nil, fmt.Errorf("GET /api/schema/: %d", rec.Code)
	}
	doc, err := openapi3.NewLoader().LoadFromData(rec.Body.Bytes())
	if err != nil {
		return nil, err
	}
	router, err := legacy.NewRouter(doc)
	if err != nil {
		return nil, err
	}
	c := &checker{doc: doc, router: router, opts: &openapi3filter.Options{
		MultiError:            true,
		IncludeResponseStatus: true,
		SkipSettingDefaults:   true,
		AuthenticationFunc:    openapi3filter.NoopAuthenticationFunc,
		SchemaValidationOptions: []openapi3.SchemaValidationOption{
			openapi3.EnableFormatValidation(),
			openapi3.WithStringFormatValidators(formats),
		},
	}}
	if checkers.byVersion == nil {
		checkers.byVersion = map[string]*checker{}
	}
	checkers.byVersion[version] = c
	return c, nil
}

// formats check the string formats the document uses beyond kin-openapi's
// defaults (date, date-time), as strictly as a JSON Schema validator
// with format checking (schemathesis's) does.
var formats = map[string]openapi3.StringFormatValidator{
	"email": openapi3.NewRegexpFormatValidator(openapi3.FormatOfStringForEmail),
	"uuid":  openapi3.NewRegexpFormatValidator(openapi3.FormatOfStringForUUIDOfRFC9562),
	"uri": openapi3.NewCallbackValidator(func(s string) error {
		u, err := url.Parse(s)
		if err != nil || u.Scheme == "" || u.Host == "" {
			return errors.New("not an absolute URI")
		}
		return nil
	}),
}

// fullRecorder keeps the whole response.
type fullRecorder struct {
	http.ResponseWriter
	status int
	body   bytes.Buffer
}

func (r *fullRecorder) WriteHeader(code int) {
	if r.status == 0 {
		r.status = code
	}
	r.ResponseWriter.WriteHeader(code)
}

func (r *fullRecorder) Write(b []byte) (int, error) {
	if r.status == 0 {
		r.status = http.StatusOK
	}
	r.body.Write(b)
	return r.ResponseWriter.Write(b)
}

func (r *fullRecorder) Flush() {
	if f, ok := r.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

func (r *fullRecorder) Unwrap() http.ResponseWriter { return r.ResponseWriter }

func (c *checker) wrap(t interface {
	Errorf(string, ...any)
}, h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var sent []byte
		if r.Body != nil {
			sent, _ = io.ReadAll(r.Body)
			r.Body = io.NopCloser(bytes.NewReader(sent))
		}
		// The request as sent, for the validator (the handler may change r).
		req := r.Clone(context.Background())
		rec := &fullRecorder{ResponseWriter: w}
		h.ServeHTTP(rec, r)
		if rec.status == 0 {
			rec.status = http.StatusOK
		}
		for _, f := range c.check(req, sent, rec.status, w.Header(), rec.body.Bytes()) {
			t.Errorf("openapi: %s %s → %d: %s", req.Method, req.URL.RequestURI(), rec.status, f)
		}
	})
}

// check returns the findings of one exchange.
func (c *checker) check(req *http.Request, sent []byte, status int, header http.Header, body []byte) []string {
	if req.Method == http.MethodOptions || req.Method == http.MethodHead || !strings.HasPrefix(req.URL.Path, "/api/") ||
		strings.HasPrefix(req.URL.Path, "/api/schema/") {
		// OPTIONS (DRF's metadata) and HEAD are served on every path and
		// not operations of the document, as in drf-spectacular's; the
		// document does not describe itself.
		return nil
	}
	// Browsers get the HTML page for the same URL; the document is JSON.
	if strings.HasPrefix(header.Get("Content-Type"), "text/html") {
		return nil
	}
	route, params, err := c.router.FindRoute(req)
	if err == nil && !pathTemplate(route.Path).MatchString(req.URL.Path) {
		// The router forgives a missing trailing slash; the server
		// redirects to the canonical URL, which is no operation.
		err = &routers.RouteError{Reason: routers.ErrPathNotFound.Error()}
	}
	if err != nil {
		var re *routers.RouteError
		if !errors.As(err, &re) {
			return []string{err.Error()}
		}
		switch {
		case status == http.StatusMethodNotAllowed:
			return c.checkAllow(req, header)
		case status < 300:
			return []string{"served, but the document has no such operation (" + re.Reason + ")"}
		}
		return nil
	}
	var out []string
	if status == http.StatusMethodNotAllowed {
		out = append(out, "the document declares "+req.Method+" here")
	}
	in := &openapi3filter.RequestValidationInput{Request: req, PathParams: params, Route: route, Options: c.opts}
	req.Body = io.NopCloser(bytes.NewReader(sent))
	if err := openapi3filter.ValidateRequest(context.Background(), in); err != nil && status < 300 {
		out = append(out, "accepted a request the document refuses: "+oneLine(err))
	}
	resp := &openapi3filter.ResponseValidationInput{RequestValidationInput: in, Status: status, Header: header,
		Body: io.NopCloser(bytes.NewReader(body)), Options: c.opts}
	if err := openapi3filter.ValidateResponse(context.Background(), resp); err != nil {
		out = append(out, "response does not match: "+oneLine(err))
	}
	return out
}

// checkAllow compares a 405's Allow header with the methods the document
// declares for the path.
func (c *checker) checkAllow(req *http.Request, header http.Header) []string {
	item := c.pathItem(req.URL.Path)
	if item == nil {
		return nil
	}
	var want []string
	for m := range item.Operations() {
		want = append(want, strings.ToUpper(m))
	}
	var got []string
	for _, m := range strings.Split(header.Get("Allow"), ",") {
		// TRACE: NetBox's viewsets with a trace action list it (DRF
		// reads the action as the method) but serve no such operation.
		if m = strings.TrimSpace(m); m != "" && m != http.MethodOptions && m != http.MethodHead && m != http.MethodTrace {
			got = append(got, m)
		}
	}
	slices.Sort(want)
	slices.Sort(got)
	if !slices.Equal(want, got) {
		return []string{fmt.Sprintf("Allow %q, the document declares %v", header.Get("Allow"), want)}
	}
	return nil
}

// pathItem finds the path item of a concrete path by trying each
// declared template.
func (c *checker) pathItem(p string) *openapi3.PathItem {
	for tmpl, item := range c.doc.Paths.Map() {
		if pathTemplate(tmpl).MatchString(p) {
			return item
		}
	}
	return nil
}

var templates sync.Map // template → *regexp.Regexp

func pathTemplate(tmpl string) *regexp.Regexp {
	if re, ok := templates.Load(tmpl); ok {
		return re.(*regexp.Regexp)
	}
	parts := strings.Split(tmpl, "/")
	for i, part := range parts {
		if strings.HasPrefix(part, "{") && strings.HasSuffix(part, "}") {
			parts[i] = "[^/]+"
		} else {
			parts[i] = regexp.QuoteMeta(part)
		}
	}
	re := regexp.MustCompile("^" + strings.Join(parts, "/") + "$")
	templates.Store(tmpl, re)
	return re
}

// oneLine shortens a validation error to its first lines.
func oneLine(err error) string {
	s := strings.Join(strings.Fields(err.Error()), " ")
	if len(s) > 600 {
		s = s[:600] + "…"
	}
	return s
}
