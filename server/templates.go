package server

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/inventory/inventory/ent/logic/extras"
	"github.com/inventory/inventory/ent/logic/jinja"
	"github.com/inventory/inventory/ent/resource"
	"github.com/inventory/inventory/ent/schema/api"
	"github.com/inventory/inventory/filters"
)

// What the server does for templates: the content negotiation of
// NetBox's render endpoints (JSON or text/plain), and ?export=<name> on
// every list (NetBox's ExportTemplatesMixin): the filtered list rendered
// by an export template instead of a page of JSON.

// negotiate answers a handler's two forms as DRF's content negotiation
// picks between JSONRenderer and TextRenderer: ?format=json (or api, the
// browsable API's) or txt (any other format is DRF's 404), else the Accept header's media ranges from
// the most specific down (quality values do not count, as in DRF), JSON
// first among equals; no Accept header is JSON; nothing acceptable is 406.
func negotiate(c *gin.Context, status int, n api.Negotiated) error {
	text, err := prefersText(c)
	if err != nil {
		return err
	}
	c.Header("Vary", "Accept")
	if text {
		c.Data(status, "text/plain; charset=utf-8", []byte(n.Text))
		return nil
	}
	writeJSON(c, status, n.JSON)
	return nil
}

func prefersText(c *gin.Context) (bool, error) {
	switch f := c.Query("format"); f {
	case "":
	case "json", "api": // api: the browsable API renders the JSON answer
		return false, nil
	case "txt":
		return true, nil
	default:
		return false, errNotFound
	}
	accept := strings.TrimSpace(c.GetHeader("Accept"))
	if accept == "" {
		return false, nil
	}
	var buckets [4][]string // by DRF's precedence: */*, type/*, type/sub, with parameters
	for _, part := range strings.Split(accept, ",") {
		mt, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		mt = strings.ToLower(strings.TrimSpace(mt))
		if mt == "" {
			continue
		}
		p := 2
		switch {
		case mt == "*/*" || mt == "*":
			p = 0
		case strings.HasSuffix(mt, "/*"):
			p = 1
		default:
			for _, kv := range strings.Split(params, ";") {
				if k, _, _ := strings.Cut(kv, "="); strings.TrimSpace(k) != "" && strings.TrimSpace(k) != "q" {
					p = 3
				}
			}
		}
		buckets[p] = append(buckets[p], mt)
	}
	matches := func(renderer, mt string) bool {
		main, _, _ := strings.Cut(renderer, "/")
		return mt == "*/*" || mt == "*" || mt == main+"/*" || mt == renderer
	}
	for p := 3; p >= 0; p-- {
		for _, renderer := range []string{"application/json", "text/plain"} {
			for _, mt := range buckets[p] {
				if matches(renderer, mt) {
					return renderer == "text/plain", nil
				}
			}
		}
	}
	return false, detailErr(http.StatusNotAcceptable, "Could not satisfy the request Accept header.")
}

// maxExportRows bounds one export: every matching object is loaded and
// handed to the template at once.
const maxExportRows = 10000

// export serves GET <list>?export=<name>: the caller's view-permitted
// export template of that name for the list's model (the first by id),
// rendered with the filtered and ordered list (no pagination) as
// "queryset", each object in its full representation (plain data, never
// live objects). An unknown or hidden template is 404, as NetBox answers.
func (s *Server) export(c *gin.Context, d *resource.Descriptor, name string) error {
	ctx := c.Request.Context()
	et := resource.ByContentType("extras.exporttemplate")
	if et == nil {
		return errNotFound
	}
	cond, err := s.permits(ctx, PrincipalFrom(ctx), et, actionView)
	if errors.Is(err, errForbidden) {
		return errNotFound
	}
	if err != nil {
		return err
	}
	st := s.db.Store()
	res, err := et.Filters().Resolve(resource.WithStore(ctx, st), url.Values{"object_type": {d.ContentType()}},
		filters.Options{Unknown: filters.Strict, Dialect: s.db.Dialect, Exec: st.Q})
	if err != nil {
		return err
	}
	byName, err := filters.Lookup("name", "", name) // exactly, as NetBox's name=...
	if err != nil {
		return errNotFound
	}
	tmpl, _, err := et.List(ctx, st, resource.ListParams{Preds: append(append(res.Preds, byName.Where()), preds(cond)...),
		Order: et.Filters().Order("id"), Limit: 1})
	if err != nil {
		return err
	}
	if len(tmpl) == 0 {
		return errNotFound
	}
	t := tmpl[0]

	q := c.Request.URL.Query()
	ps, err := s.filterPreds(c, d, false)
	if err != nil {
		return err
	}
	ps = append(ps, s.restriction(c)...)
	rows, _, err := d.List(ctx, st, resource.ListParams{Preds: ps, Order: d.Filters().Order(q.Get("ordering")),
		Limit: maxExportRows + 1})
	if err != nil {
		return err
	}
	if len(rows) > maxExportRows {
		return detailErr(http.StatusBadRequest, fmt.Sprintf(
			"An export holds at most %d objects; narrow the list with filters.", maxExportRows))
	}
	page, err := d.Load(ctx, st, rows, resource.View{Base: baseURL(c.Request)})
	if err != nil {
		return err
	}
	objects := make([]any, 0, len(rows))
	for _, r := range rows {
		v, err := jinja.Plain(page.JSON(r))
		if err != nil {
			return err
		}
		objects = append(objects, v)
	}
	str := func(f string) string { s, _ := et.Value(t, f).(string); return s }
	out, err := extras.RenderStored(str("template_code"), et.Value(t, "environment_params"), false,
		map[string]any{"queryset": objects}, extras.ExportLimits)
	if err != nil {
		return err
	}
	mimeType := jinja.HeaderSafe(str("mime_type"))
	if mimeType == "" {
		mimeType = extras.DefaultMIMEType
	}
	if b, _ := et.Value(t, "as_attachment").(bool); b {
		filename := str("file_name")
		if filename == "" {
			filename = "netbox_" + strings.ReplaceAll(d.Path, "-", "_")
		}
		if ext := str("file_extension"); ext != "" {
			filename += "." + ext
		}
		c.Header("Content-Disposition", attachment(filename))
	}
	c.Data(http.StatusOK, mimeType, []byte(out))
	return nil
}

var quotable = regexp.MustCompile(`^[\t \x21-\x7e]*$`)

// attachment is Django's content_disposition_header(True, filename).
func attachment(filename string) string {
	if quotable.MatchString(filename) {
		return `attachment; filename="` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(filename) + `"`
	}
	var b strings.Builder
	for _, c := range []byte(filename) {
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("_.-~/", c) >= 0 {
			b.WriteByte(c)
		} else {
			fmt.Fprintf(&b, "%%%02X", c)
		}
	}
	return "attachment; filename*=utf-8''" + b.String()
}
