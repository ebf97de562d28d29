package browse

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"html/template"
	"io"
	"mime"
	"net/http"
	"net/url"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// Wants reports whether r asks for the browsable API: ?format=api, or an
// Accept header that prefers text/html to JSON (a browser's). ?format=json
// and curl's */* get JSON, as in Django REST framework.
func Wants(r *http.Request) bool {
	switch r.URL.Query().Get("format") {
	case "api":
		return true
	case "json":
		return false
	}
	html, jsn := -1.0, -1.0
	for _, part := range strings.Split(r.Header.Get("Accept"), ",") {
		mt, params, err := mime.ParseMediaType(strings.TrimSpace(part))
		if err != nil {
			continue
		}
		q := 1.0
		if v, ok := params["q"]; ok {
			if f, err := strconv.ParseFloat(v, 64); err == nil {
				q = f
			}
		}
		switch mt {
		case "text/html":
			html = max(html, q)
		case "application/json":
			jsn = max(jsn, q)
		}
	}
	return html > 0 && html > jsn
}

// Page is one response to render.
type Page struct {
	Method, Path, Query string
	// Origin is the request's scheme and host: URLs under it become links.
	Origin string
	Status int
	Header http.Header
	Body   []byte
	// User is the authenticated username, "" for anonymous.
	User string
	// CSRF is the token of the browser's session ("" without one): with
	// it the page offers the logout button and the write form.
	CSRF string
	// Options is the OPTIONS answer of the same URL (DRF's metadata:
	// the form's methods and fields come from its actions), nil if none.
	Options []byte
	// Sent is what the write form sent to get this answer (its method
	// and JSON): the form shows it again, to be corrected or sent again.
	Sent *Sent
	// Filters are the query parameters of a list (from the OpenAPI
	// document): the filter form offers them.
	Filters []string
}

// Sent is a write form's request.
type Sent struct{ Method, Content string }

// FilterField and ValueField are the filter form's fields: a GET carrying
// them is turned by the server into the list's own query (name=value,
// beside the parameters already there) with a redirect.
const (
	FilterField = "_filter"
	ValueField  = "_value"
)

//go:embed page.html
var pageHTML string

//go:embed style.css
var styleCSS string

//go:embed login.html
var loginHTML string

var (
	page  = template.Must(template.New("page").Parse(pageHTML))
	login = template.Must(template.New("login").Parse(loginHTML))
)

// Login is the login page (or, with Logout, the logout button's page).
type Login struct {
	// Next is the local path a login goes on to.
	Next, Username string
	// Error is the message above the form.
	Error string
	// CSRF is the form's token.
	CSRF   string
	Logout bool
	// User is who is signed in, if anyone.
	User string
}

// RenderLogin writes the login or logout page.
func RenderLogin(w io.Writer, l Login) error {
	return login.Execute(w, map[string]any{"L": l, "Style": template.CSS(styleCSS)})
}

type header struct{ Name, Value string }

type crumb struct{ Name, URL string }

// Render writes the HTML page of p.
func Render(w io.Writer, p Page) error {
	var hs []header
	for name, vals := range p.Header {
		for _, v := range vals {
			hs = append(hs, header{name, v})
		}
	}
	sort.Slice(hs, func(i, j int) bool { return hs[i].Name < hs[j].Name })
	request := p.Path
	if p.Query != "" {
		request += "?" + p.Query
	}
	v, _ := parse(p.Body)
	opts, _ := parse(p.Options)
	data := map[string]any{
		"Title":   title(p.Path),
		"Crumbs":  crumbs(p.Path),
		"Method":  p.Method,
		"Request": request,
		"Status":  strconv.Itoa(p.Status) + " " + http.StatusText(p.Status),
		"Headers": hs,
		"Body":    body(p.Body, p.Origin),
		"User":    p.User,
		"CSRF":    p.CSRF,
		"Login":   "/login/?next=" + url.QueryEscape(request),
		"Links":   links(v, p.Origin),
		"Pages":   pagination(v, p.Origin),
		"Style":   template.CSS(styleCSS),
	}
	if p.Options != nil {
		data["Options"] = body(p.Options, p.Origin)
	}
	if p.CSRF != "" {
		if f := writeForm(request, p.Header.Get("Allow"), v, opts); f != nil {
			if p.Sent != nil {
				f.Content, f.Selected = p.Sent.Content, p.Sent.Method
			}
			data["Form"] = f
		}
	}
	if len(p.Filters) > 0 && data["Pages"] != nil {
		q, _ := url.ParseQuery(p.Query)
		var keep []header
		for k, vs := range q {
			for _, v := range vs {
				keep = append(keep, header{k, v})
			}
		}
		sort.Slice(keep, func(i, j int) bool { return keep[i].Name < keep[j].Name })
		data["Filter"] = map[string]any{"Names": p.Filters, "Keep": keep, "Path": p.Path,
			"FilterField": FilterField, "ValueField": ValueField}
	}
	json := p.Path + "?format=json"
	if p.Query != "" {
		json += "&" + p.Query
	}
	data["JSONURL"] = json
	return page.Execute(w, data)
}

// parse decodes a JSON body keeping key order; nil if it is none.
func parse(raw []byte) (any, error) {
	if len(raw) == 0 {
		return nil, nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	return decode(dec)
}

// link is a named URL of this service.
type link struct{ Name, URL string }

// local reports whether x is a URL under origin (only those become links).
func local(x any, origin string) (string, bool) {
	s, ok := x.(string)
	return s, ok && origin != "" && (s == origin || strings.HasPrefix(s, origin+"/"))
}

// links lists an object whose every value is a URL of this service (the
// API root, an app root) as named links.
func links(v any, origin string) []link {
	o, ok := v.(*object)
	if !ok || len(o.keys) == 0 {
		return nil
	}
	var out []link
	for i, k := range o.keys {
		u, ok := local(o.vals[i], origin)
		if !ok {
			return nil
		}
		out = append(out, link{k, u})
	}
	return out
}

// pages is a list's position and its previous and next pages.
type pages struct {
	Count      string
	Prev, Next string
}

// pagination reads a page of results (count, next, previous, results).
func pagination(v any, origin string) *pages {
	o, ok := v.(*object)
	if !ok {
		return nil
	}
	var p pages
	seen := 0
	for i, k := range o.keys {
		switch k {
		case "count":
			if n, ok := o.vals[i].(json.Number); ok {
				p.Count, seen = n.String(), seen+1
			}
		case "next":
			p.Next, _ = local(o.vals[i], origin)
			seen++
		case "previous":
			p.Prev, _ = local(o.vals[i], origin)
			seen++
		case "results":
			seen++
		}
	}
	if seen < 4 {
		return nil
	}
	return &p
}

// form is the write form: the methods the caller may use here and the
// JSON the textarea starts with.
type form struct {
	Action   string
	Methods  []string
	Content  string
	Selected string // the method chosen at first ("" for the first)
}

// writeForm offers the unsafe methods the URL serves (Allow) that the
// OPTIONS actions show the caller may use: POST where it may add, PUT,
// PATCH and DELETE where it may change (on a list: the bulk forms; DRF's
// metadata has no DELETE, the server's answer to a DELETE decides). Nil when none. For an
// object, the textarea holds its writable fields (related objects by id),
// ready to edit.
func writeForm(action, allow string, v, opts any) *form {
	allowed := map[string]bool{}
	for _, m := range strings.Split(allow, ",") {
		allowed[strings.TrimSpace(m)] = true
	}
	actions := map[string]*object{}
	if o, ok := opts.(*object); ok {
		for i, k := range o.keys {
			if k == "actions" {
				if a, ok := o.vals[i].(*object); ok {
					for j, m := range a.keys {
						actions[m], _ = a.vals[j].(*object)
					}
				}
			}
		}
	}
	f := &form{Action: action, Content: "{}"}
	o, _ := v.(*object)
	list := o != nil && slices.Contains(o.keys, "results")
	switch post := actions["POST"]; {
	case post != nil && allowed["POST"]:
		f.Methods = append(f.Methods, "POST")
		if list {
			f.Content = skeleton(post) // a list's form starts from a new object's fields
		}
	case len(actions) == 0 && allowed["POST"]:
		// An endpoint without a serializer form (the allocation
		// endpoints, token provisioning): POST what its documentation
		// describes, {} taking every default.
		f.Methods = append(f.Methods, "POST")
	}
	if put := actions["PUT"]; put != nil {
		for _, m := range []string{"PUT", "PATCH", "DELETE"} {
			if allowed[m] {
				f.Methods = append(f.Methods, m)
			}
		}
		if o != nil && !list {
			f.Content = writable(o, put)
		}
	}
	if len(f.Methods) == 0 {
		return nil
	}
	return f
}

// skeleton is the JSON of a new object's writable fields as fields (an
// OPTIONS action) describes them, each with its default or an empty value
// of its type, required ones first: the list's form starts from it.
func skeleton(fields *object) string {
	var req, opt *object = &object{}, &object{}
	for i, k := range fields.keys {
		meta, ok := fields.vals[i].(*object)
		if !ok {
			continue
		}
		m := map[string]any{}
		for j, mk := range meta.keys {
			m[mk] = meta.vals[j]
		}
		if m["read_only"] == true {
			continue
		}
		var v any
		if d, ok := m["default"]; ok {
			v = d
		} else {
			switch m["type"] {
			case "string", "slug", "email", "url", "choice", "password":
				v = ""
			case "boolean":
				v = false
			case "list", "multiple choice":
				v = []any{}
			case "json":
				v = &object{}
			}
		}
		into := opt
		if m["required"] == true {
			into = req
		}
		into.keys, into.vals = append(into.keys, k), append(into.vals, v)
	}
	req.keys, req.vals = append(req.keys, opt.keys...), append(req.vals, opt.vals...)
	var b strings.Builder
	writePlain(&b, req, 0)
	return b.String()
}

// writable is the JSON of o's fields that fields (an OPTIONS action)
// does not mark read-only; nested objects become their ids.
func writable(o, fields *object) string {
	ro := map[string]bool{}
	for i, k := range fields.keys {
		if meta, ok := fields.vals[i].(*object); ok {
			for j, mk := range meta.keys {
				if mk == "read_only" && meta.vals[j] == true {
					ro[k] = true
				}
			}
		}
	}
	has := map[string]bool{}
	for _, k := range fields.keys {
		has[k] = true
	}
	out := &object{}
	for i, k := range o.keys {
		if has[k] && !ro[k] {
			out.keys, out.vals = append(out.keys, k), append(out.vals, byID(o.vals[i]))
		}
	}
	var b strings.Builder
	writePlain(&b, out, 0)
	return b.String()
}

// byID replaces a nested object by its id (the write form of a related
// object) and a choice ({value, label}) by its value, in lists too.
func byID(v any) any {
	switch x := v.(type) {
	case *object:
		for i, k := range x.keys {
			if k == "id" {
				return x.vals[i]
			}
		}
		if len(x.keys) == 2 && x.keys[0] == "value" && x.keys[1] == "label" {
			return x.vals[0]
		}
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = byID(e)
		}
		return out
	}
	return v
}

// writePlain writes v as indented JSON (no markup: the textarea's text,
// which the template escapes).
func writePlain(b *strings.Builder, v any, depth int) {
	writeIndented(b, v, depth, func(k string) string {
		kb, _ := json.Marshal(k)
		return string(kb)
	}, func(b *strings.Builder, v any) {
		if n, ok := v.(json.Number); ok {
			b.WriteString(n.String())
			return
		}
		raw, _ := json.Marshal(v)
		b.Write(raw)
	})
}

// writeIndented writes the objects and arrays of v indented four spaces
// a level, as Django REST framework's browsable API shows a body, with
// key rendering an object's keys and leaf writing every other value: the
// one layout of the page's body and of its form's text.
func writeIndented(b *strings.Builder, v any, depth int, key func(string) string, leaf func(*strings.Builder, any)) {
	indent := strings.Repeat("    ", depth)
	switch x := v.(type) {
	case *object:
		if len(x.keys) == 0 {
			b.WriteString("{}")
			return
		}
		b.WriteString("{\n")
		for i, k := range x.keys {
			b.WriteString(indent + "    " + key(k) + ": ")
			writeIndented(b, x.vals[i], depth+1, key, leaf)
			if i < len(x.keys)-1 {
				b.WriteString(",")
			}
			b.WriteString("\n")
		}
		b.WriteString(indent + "}")
	case []any:
		if len(x) == 0 {
			b.WriteString("[]")
			return
		}
		b.WriteString("[\n")
		for i, e := range x {
			b.WriteString(indent + "    ")
			writeIndented(b, e, depth+1, key, leaf)
			if i < len(x)-1 {
				b.WriteString(",")
			}
			b.WriteString("\n")
		}
		b.WriteString(indent + "]")
	default:
		leaf(b, x)
	}
}

// title names the page after its last path segments ("dcim / sites").
func title(path string) string {
	parts := strings.Split(strings.Trim(path, "/"), "/")
	if len(parts) > 0 && parts[0] == "api" {
		parts = parts[1:]
	}
	if len(parts) == 0 {
		return "API root"
	}
	return strings.Join(parts, " / ")
}

// crumbs are the links to every ancestor of path under /api/.
func crumbs(path string) []crumb {
	parts := strings.Split(strings.Trim(path, "/"), "/")
	var out []crumb
	url := "/"
	for i, p := range parts {
		url += p + "/"
		name := p
		if i == 0 && p == "api" {
			name = "API root"
		}
		out = append(out, crumb{Name: name, URL: url})
	}
	return out
}

// body pretty-prints a JSON body with the service's URLs as links; any
// other body is shown as text.
func body(raw []byte, origin string) template.HTML {
	v, err := parse(raw)
	if len(raw) == 0 || err != nil {
		return template.HTML(template.HTMLEscapeString(string(raw)))
	}
	var b strings.Builder
	writeValue(&b, v, origin, 0)
	return template.HTML(b.String())
}

// writeValue writes v as the page shows a body: indented JSON with its
// keys and values marked for the stylesheet, and URLs of this service as
// links.
func writeValue(b *strings.Builder, v any, origin string, depth int) {
	writeIndented(b, v, depth, func(k string) string {
		return `<span class="key">` + template.HTMLEscapeString(strconv.Quote(k)) + `</span>`
	}, func(b *strings.Builder, v any) {
		switch x := v.(type) {
		case string:
			quoted := template.HTMLEscapeString(strconv.Quote(x))
			if origin != "" && (x == origin || strings.HasPrefix(x, origin+"/")) {
				b.WriteString(`<a href="` + template.HTMLEscapeString(x) + `">` + quoted + `</a>`)
				return
			}
			b.WriteString(`<span class="str">` + quoted + `</span>`)
		case json.Number:
			b.WriteString(`<span class="num">` + template.HTMLEscapeString(x.String()) + `</span>`)
		case bool:
			b.WriteString(`<span class="lit">` + strconv.FormatBool(x) + `</span>`)
		case nil:
			b.WriteString(`<span class="lit">null</span>`)
		}
	})
}

// object is a JSON object with its keys in the answer's order (the
// serializer's field order, which a map would lose).
type object struct {
	keys []string
	vals []any
}

// decode reads one JSON value, objects as *object.
func decode(dec *json.Decoder) (any, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch t := tok.(type) {
	case json.Delim:
		switch t {
		case '{':
			o := &object{}
			for dec.More() {
				k, err := dec.Token()
				if err != nil {
					return nil, err
				}
				v, err := decode(dec)
				if err != nil {
					return nil, err
				}
				o.keys, o.vals = append(o.keys, k.(string)), append(o.vals, v)
			}
			_, err := dec.Token() // }
			return o, err
		case '[':
			list := []any{}
			for dec.More() {
				v, err := decode(dec)
				if err != nil {
					return nil, err
				}
				list = append(list, v)
			}
			_, err := dec.Token() // ]
			return list, err
		}
	}
	return tok, nil
}
