package servertest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"testing"
)

// UpdateEnv names the environment variable that makes tests rewrite their
// golden files and stored baselines instead of comparing against them
// (`make test-update` sets it). An environment variable rather than an
// -update flag: `go test ./... -update` fails in every package that does
// not define the flag.
const UpdateEnv = "INVENTORY_UPDATE_GOLDEN"

// Updating reports whether golden files and baselines are being rewritten.
func Updating() bool { return os.Getenv(UpdateEnv) != "" }

// seen holds each golden's content as the first database produced it in
// this process, so that the other database must produce the same bytes,
// also while updating (one golden serves SQLite and PostgreSQL: a
// difference is a bug).
var seen sync.Map // path -> string

// Golden compares got (already normalised) with the file at path, or
// rewrites it when Updating. A missing file fails with the command that
// creates it.
func Golden(t testing.TB, path string, got []byte) {
	t.Helper()
	if prev, loaded := seen.LoadOrStore(path, string(got)); loaded && prev.(string) != string(got) {
		t.Errorf("%s: this database's response differs from the other database's:\n%s", path, diff(prev.(string), string(got)))
		return
	}
	if Updating() {
		if old, err := os.ReadFile(path); err == nil && bytes.Equal(old, got) {
			return
		}
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		// Write and rename: the databases run in parallel and may both
		// write the same golden.
		tmp, err := os.CreateTemp(filepath.Dir(path), ".golden-*")
		if err != nil {
			t.Fatal(err)
		}
		if _, err := tmp.Write(got); err != nil {
			t.Fatal(err)
		}
		tmp.Close()
		if err := os.Rename(tmp.Name(), path); err != nil {
			t.Fatal(err)
		}
		t.Logf("updated %s", path)
		return
	}
	want, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		t.Errorf("golden file %s is missing: run `make test-update` to create it, review and commit it", path)
		return
	}
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(want, got) {
		t.Errorf("response differs from %s (if the change is intended, run `make test-update` and review the diff):\n%s", path, diff(string(want), string(got)))
	}
}

// diff lists the lines of want and got that differ, position by position
// (goldens are indented JSON, so a changed value is one line).
func diff(want, got string) string {
	a, b := strings.Split(want, "\n"), strings.Split(got, "\n")
	var out []string
	for i := 0; i < len(a) || i < len(b); i++ {
		var x, y string
		if i < len(a) {
			x = a[i]
		}
		if i < len(b) {
			y = b[i]
		}
		if x != y {
			out = append(out, fmt.Sprintf("line %d:\n  - %s\n  + %s", i+1, x, y))
		}
		if len(out) == 20 {
			out = append(out, "...")
			break
		}
	}
	return strings.Join(out, "\n")
}

var (
	// minuteRE: a display that starts with a time to the minute (a
	// journal entry's "2026-11-25 06:58 (Info)").
	minuteRE = regexp.MustCompile(`^\d{4}-\d\d-\d\d \d\d:\d\d( |$)`)
	timeRE   = regexp.MustCompile(`^\d{4}-\d\d-\d\d[T ]\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)?$`)
	// urlRE matches absolute URLs; their host and numeric path segments
	// (ids) vary between runs.
	urlRE  = regexp.MustCompile(`^https?://[^/]+(/.*)?$`)
	pathID = regexp.MustCompile(`/\d+(/|$)`)
	// secretKeys hold tokens and keys, random on every run.
	secretKeys = map[string]bool{"token": true, "key": true, "secret": true, "plaintext": true}
)

// Normalize renders a JSON body as indented JSON with sorted keys (for
// nested objects; a golden's purpose is the values) and the volatile
// values replaced: ids (the key "id", keys ending in "_id" and id lists),
// timestamps, the host and ids of URLs, tokens and keys (and any value of
// the same object equal to one, such as a token's display).
func Normalize(t testing.TB, body []byte) []byte {
	t.Helper()
	var v any
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		t.Fatalf("golden: not JSON: %v: %.300s", err, body)
	}
	v = normalize("", v)
	var out bytes.Buffer
	enc := json.NewEncoder(&out)
	enc.SetEscapeHTML(false) // "<id>", not "\u003cid\u003e"
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}

func isIDKey(k string) bool {
	return k == "id" || strings.HasSuffix(k, "_id") || strings.HasSuffix(k, "_ids")
}

func normalize(key string, v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, v := range x {
			out[k] = normalize(k, v)
		}
		// A display that names the object's own id (a module's
		// "Bay: Type (7)", NetBox's Module.__str__; a tunnel
		// termination's "Tunnel: Termination 7") names it as <id>.
		if s, ok := x["display"].(string); ok {
			if id, ok := x["id"].(json.Number); ok && strings.HasSuffix(s, " ("+id.String()+")") {
				out["display"] = strings.TrimSuffix(s, id.String()+")") + "<id>)"
			} else if ok && strings.HasSuffix(s, ": Termination "+id.String()) {
				out["display"] = strings.TrimSuffix(s, id.String()) + "<id>"
			}
		}
		// A token's display is its random key.
		for k, v := range x {
			if s, ok := v.(string); ok && secretKeys[k] && s != "" {
				for k2, v2 := range x {
					if v2 == s {
						out[k2] = "<secret>"
					}
				}
			}
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, v := range x {
			out[i] = normalize(key, v)
		}
		if isIDKey(key) {
			sort.Slice(out, func(i, j int) bool { return fmt.Sprint(out[i]) < fmt.Sprint(out[j]) })
		}
		return out
	case json.Number:
		if isIDKey(key) {
			return "<id>"
		}
		return x
	case string:
		switch {
		case secretKeys[key] && x != "":
			return "<secret>"
		case timeRE.MatchString(x):
			return "<time>"
		case minuteRE.MatchString(x):
			return minuteRE.ReplaceAllString(x, "<time>$1")
		case urlRE.MatchString(x):
			m := urlRE.FindStringSubmatch(x)
			return "<host>" + pathID.ReplaceAllString(m[1], "/<id>$1")
		}
		return x
	}
	return v
}
