package netboximport

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"entgo.io/ent/dialect"

	"github.com/inventory/inventory/ent/media"
	"github.com/inventory/inventory/ent/resource"
	"github.com/inventory/inventory/server/servertest"
)

// exportSource makes a source of this service's own API: objects of every
// model, created from the conformance fixtures (testdata/models), listed
// through the API as NetBox lists them. This service answers as NetBox
// 4.6 does, so importing it exercises every model the import writes, not
// only those the demo data set holds.
func exportSource(t *testing.T, e *servertest.Env) string {
	t.Helper()
	admin := e.Admin()
	type fixture struct {
		Create []map[string]any `json:"create"`
	}
	fixtures := map[string]*fixture{}
	files, _ := filepath.Glob("../../testdata/models/*.json")
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var fx fixture
		if err := json.Unmarshal(b, &fx); err != nil {
			t.Fatal(f, err)
		}
		fixtures[strings.TrimSuffix(filepath.Base(f), ".json")] = &fx
	}
	made := map[string]map[string]any{} // "ct#n" → created object
	ref := regexp.MustCompile(`^@([a-z]+\.[a-z]+)#(\d+)(?::([a-z_]+))?$`)
	var create func(ct string, n int, depth int) (map[string]any, error)
	var resolve func(v any, depth int) (any, error)
	resolve = func(v any, depth int) (any, error) {
		switch x := v.(type) {
		case string:
			m := ref.FindStringSubmatch(x)
			if m == nil {
				return x, nil
			}
			n, _ := strconv.Atoi(m[2])
			o, err := create(m[1], n, depth+1)
			if err != nil {
				return nil, err
			}
			if m[3] != "" {
				return o[m[3]], nil
			}
			return o["id"], nil
		case map[string]any:
			out := map[string]any{}
			for k, v := range x {
				r, err := resolve(v, depth)
				if err != nil {
					return nil, err
				}
				out[k] = r
			}
			return out, nil
		case []any:
			out := make([]any, len(x))
			for i, v := range x {
				r, err := resolve(v, depth)
				if err != nil {
					return nil, err
				}
				out[i] = r
			}
			return out, nil
		}
		return v, nil
	}
	create = func(ct string, n int, depth int) (map[string]any, error) {
		k := fmt.Sprintf("%s#%d", ct, n)
		if o, ok := made[k]; ok {
			if o == nil {
				return nil, fmt.Errorf("%s failed", k)
			}
			return o, nil
		}
		made[k] = nil
		fx := fixtures[ct]
		d := resource.ByContentType(ct)
		if fx == nil || n >= len(fx.Create) || d == nil || depth > 20 {
			return nil, fmt.Errorf("no fixture object %s", k)
		}
		body, err := resolve(fx.Create[n], depth)
		if err != nil {
			return nil, err
		}
		r := admin.Do("POST", "/api/"+endpointOf(d)+"/", body)
		if r.Status != 201 {
			return nil, fmt.Errorf("POST %s: %d %s", k, r.Status, r.Body)
		}
		o := r.Object()
		made[k] = o
		return o, nil
	}
	for ct := range fixtures {
		for n := range 3 {
			_, _ = create(ct, n, 0)
		}
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "_status.json"), []byte(`{"netbox-version": "4.6.8"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, d := range importable() {
		ep := endpointOf(d)
		r := admin.Do("GET", "/api/"+ep+"/?limit=1000&ordering=id", nil)
		if r.Status != 200 {
			t.Fatalf("GET %s: %d", ep, r.Status)
		}
		var body struct {
			Results []json.RawMessage `json:"results"`
		}
		if err := json.Unmarshal(r.Body, &body); err != nil {
			t.Fatal(err)
		}
		if len(body.Results) == 0 {
			continue
		}
		var buf bytes.Buffer
		zw := gzip.NewWriter(&buf)
		_ = json.NewEncoder(zw).Encode(body.Results)
		zw.Close()
		if err := os.WriteFile(filepath.Join(dir, strings.Replace(ep, "/", ".", 1)+".json.gz"), buf.Bytes(), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	// NetBox's MEDIA_ROOT beside its answers: the image attachments' files.
	err := filepath.WalkDir(e.Config.MediaRoot, func(p string, de os.DirEntry, err error) error {
		if err != nil || de.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(e.Config.MediaRoot, p)
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, "media", rel)), 0o700); err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dir, "media", rel), b, 0o600)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// Every model the import writes round-trips: objects of each (from the
// conformance fixtures) listed through this service's API import into a
// fresh database and verify identical.
func TestImportEveryModel(t *testing.T) {
	servertest.Each(t, func(t *testing.T, src *servertest.Env) {
		dir := exportSource(t, src)
		kind := "sqlite"
		if src.DB.Dialect == dialect.Postgres {
			kind = "postgres"
		}
		e := servertest.New(t, kind)
		emptyTarget(t, e)
		rep, err := Import(context.Background(), Options{Source: DirSource{Path: dir}, From: dir, DB: e.DB, Handler: e.Handler, Verify: true,
			Media: &media.Store{Root: e.Config.MediaRoot}})
		if err != nil {
			t.Fatal(err)
		}
		var sb strings.Builder
		WriteSummary(&sb, rep)
		t.Log("\n" + sb.String())
		if !rep.OK() {
			t.Errorf("%d refused, %d differences", len(rep.Refused), len(rep.Differences))
		}
	})
}
