package browse

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"html/template"
	"io"
	"mime"
	"net/http"
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
}

//go:embed page.html
var pageHTML string

//go:embed style.css
var styleCSS string

var page = template.Must(template.New("page").Parse(pageHTML))

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
	return page.Execute(w, map[string]any{
		"Title":   title(p.Path),
		"Crumbs":  crumbs(p.Path),
		"Method":  p.Method,
		"Request": request,
		"Status":  strconv.Itoa(p.Status) + " " + http.StatusText(p.Status),
		"Headers": hs,
		"Body":    body(p.Body, p.Origin),
		"User":    p.User,
		"Style":   template.CSS(styleCSS),
	})
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
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	v, err := decode(dec)
	if len(raw) == 0 || err != nil {
		return template.HTML(template.HTMLEscapeString(string(raw)))
	}
	var b strings.Builder
	writeValue(&b, v, origin, 0)
	return template.HTML(b.String())
}

func writeValue(b *strings.Builder, v any, origin string, depth int) {
	indent := strings.Repeat("    ", depth)
	switch x := v.(type) {
	case *object:
		if len(x.keys) == 0 {
			b.WriteString("{}")
			return
		}
		b.WriteString("{\n")
		for i, k := range x.keys {
			b.WriteString(indent + "    ")
			b.WriteString(`<span class="key">` + template.HTMLEscapeString(strconv.Quote(k)) + `</span>: `)
			writeValue(b, x.vals[i], origin, depth+1)
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
			writeValue(b, e, origin, depth+1)
			if i < len(x)-1 {
				b.WriteString(",")
			}
			b.WriteString("\n")
		}
		b.WriteString(indent + "]")
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
