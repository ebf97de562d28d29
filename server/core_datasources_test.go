package server_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/inventory/inventory/server"
	"github.com/inventory/inventory/server/datasources"
	"github.com/inventory/inventory/server/servertest"
	"github.com/inventory/inventory/server/session"
	"github.com/inventory/inventory/webhooks"
)

// Core jobs, data sources and data files: the recorded runs of the
// housekeeping jobs, syncs of local directories and git repositories
// (on local disk), their limits and failures, all or none.

const (
	sourcesPath = "/api/core/data-sources/"
	filesPath   = "/api/core/data-files/"
	jobsPath    = "/api/core/jobs/"
)

// writeFiles writes name → content below dir ("" deletes the file).
func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if content == "" {
			if err := os.Remove(p); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// commitAll commits the work tree of the repository at dir (created on
// first use) and returns nothing: the repository's HEAD moves.
func commitAll(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	repo, err := git.PlainOpen(dir)
	if err != nil {
		if repo, err = git.PlainInit(dir, false); err != nil {
			t.Fatal(err)
		}
	}
	writeFiles(t, dir, files)
	wt, err := repo.Worktree()
	if err != nil {
		t.Fatal(err)
	}
	if err := wt.AddWithOptions(&git.AddOptions{All: true}); err != nil {
		t.Fatal(err)
	}
	sig := &object.Signature{Name: "test", Email: "test@example.com", When: time.Now()}
	if _, err := wt.Commit("change", &git.CommitOptions{Author: sig, AllowEmptyCommits: true}); err != nil {
		t.Fatal(err)
	}
}

func sha(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}

func newSource(t *testing.T, e *servertest.Env, body map[string]any) int {
	t.Helper()
	return int(e.Must(http.StatusCreated, "POST", sourcesPath, body).Object()["id"].(float64))
}

// syncSource queues a sync through the API and runs the queue.
func syncSource(t *testing.T, e *servertest.Env, id int) map[string]any {
	t.Helper()
	r := e.Must(http.StatusOK, "POST", fmt.Sprintf("%s%d/sync/", sourcesPath, id), nil).Object()
	if st := r["status"].(map[string]any)["value"]; st != "queued" {
		t.Errorf("sync answered status %v, want queued", st)
	}
	if err := e.Server.DataSources().RunOnce(context.Background()); err != nil {
		t.Fatal(err)
	}
	return e.Must(http.StatusOK, "GET", fmt.Sprintf("%s%d/", sourcesPath, id), nil).Object()
}

// sourceFiles is path → hash of a source's data files.
func sourceFiles(t *testing.T, e *servertest.Env, id int) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, f := range e.Must(http.StatusOK, "GET", fmt.Sprintf("%s?source_id=%d&limit=0", filesPath, id), nil).Results() {
		out[f["path"].(string)] = f["hash"].(string)
	}
	return out
}

// lastJob is the newest job of the data source.
func lastJob(t *testing.T, e *servertest.Env, id int) map[string]any {
	t.Helper()
	r := e.Must(http.StatusOK, "GET", fmt.Sprintf("%s?object_type=core.datasource&object_id=%d", jobsPath, id), nil).Results()
	if len(r) == 0 {
		t.Fatalf("no job of data source %d", id)
	}
	return r[0]
}

func TestJobsRecordHousekeeping(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		ctx := context.Background()
		if err := session.RunHousekeeping(ctx, e.DB.Client); err != nil {
			t.Fatal(err)
		}
		if err := webhooks.RunRetention(ctx, e.DB.Client, 30); err != nil {
			t.Fatal(err)
		}
		if err := e.Server.Webhooks().RunCleanup(ctx); err != nil {
			t.Fatal(err)
		}
		jobs := e.Must(http.StatusOK, "GET", jobsPath, nil).Results()
		names := []string{}
		for _, j := range jobs {
			names = append(names, j["name"].(string))
			if st := j["status"].(map[string]any)["value"]; st != "completed" {
				t.Errorf("%s: status %v", j["name"], st)
			}
			for _, k := range []string{"created", "started", "completed", "job_id", "interval"} {
				if j[k] == nil {
					t.Errorf("%s: %s is null", j["name"], k)
				}
			}
			if j["object_type"] != nil || j["user"] != nil {
				t.Errorf("%s: object_type %v, user %v: want null", j["name"], j["object_type"], j["user"])
			}
		}
		sort.Strings(names)
		if want := "Change log retention,Housekeeping,Webhook cleanup"; strings.Join(names, ",") != want {
			t.Errorf("jobs %v, want %s", names, want)
		}
		hk := e.Must(http.StatusOK, "GET", jobsPath+"?name=Housekeeping", nil).Results()
		if len(hk) != 1 || hk[0]["interval"] != float64(60) || len(hk[0]["log_entries"].([]any)) != 1 {
			t.Errorf("housekeeping job: %v", hk)
		}
		brief := e.Must(http.StatusOK, "GET", jobsPath+"?brief=1&status=completed", nil).Results()
		if len(brief) != 3 || len(brief[0]) != 5 {
			t.Errorf("brief jobs: %v", brief)
		}
		e.Must(http.StatusMethodNotAllowed, "POST", jobsPath, map[string]any{"name": "x"})
	})
}

func TestDataSourceLocalSync(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		dir := filepath.Join(e.Config.DataSources.Root, "configs")
		writeFiles(t, dir, map[string]string{"a.txt": "alpha", "sub/b.yaml": "b: 1", ".hidden": "x",
			"old.bak": "ignored", ".git/config": "ignored dir", "sub/.dot/c.txt": "kept: only top-level dot dirs are skipped"})
		id := newSource(t, e, map[string]any{"name": "configs", "type": "local", "source_url": "configs", "ignore_rules": "*.bak"})
		ds := syncSource(t, e, id)
		if ds["status"].(map[string]any)["value"] != "completed" || ds["last_synced"] == nil || ds["file_count"] != float64(3) {
			t.Fatalf("after the first sync: %v", ds)
		}
		want := map[string]string{"a.txt": sha("alpha"), "sub/b.yaml": sha("b: 1"),
			"sub/.dot/c.txt": sha("kept: only top-level dot dirs are skipped")}
		if got := sourceFiles(t, e, id); fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("files %v, want %v", got, want)
		}
		j := lastJob(t, e, id)
		if j["name"] != datasources.SyncJob || j["status"].(map[string]any)["value"] != "completed" ||
			j["user"].(map[string]any)["username"] != "admin" || j["object"].(map[string]any)["name"] != "configs" {
			t.Errorf("sync job: %v", j)
		}
		// The sync is a change of the data source, recorded under the
		// job's id.
		ch := e.Must(http.StatusOK, "GET", fmt.Sprintf("/api/core/object-changes/?changed_object_type=core.datasource&changed_object_id=%d&action=update", id), nil).Results()
		if len(ch) != 1 || ch[0]["request_id"] != j["job_id"] || ch[0]["user_name"] != "admin" {
			t.Errorf("change records of the sync: %v", ch)
		}

		// A changed, a deleted and a new file.
		writeFiles(t, dir, map[string]string{"a.txt": "alpha 2", "sub/b.yaml": "", "d.json": "{}"})
		syncSource(t, e, id)
		want = map[string]string{"a.txt": sha("alpha 2"), "d.json": sha("{}"),
			"sub/.dot/c.txt": sha("kept: only top-level dot dirs are skipped")}
		if got := sourceFiles(t, e, id); fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("files after the change %v, want %v", got, want)
		}
		if data := lastJob(t, e, id)["data"]; fmt.Sprint(data) != "map[created:1 deleted:1 followed:0 updated:1]" {
			t.Errorf("job data %v", data)
		}
		f := e.Must(http.StatusOK, "GET", filesPath+"?path=a.txt", nil).Results()
		if len(f) != 1 || f[0]["size"] != float64(7) || f[0]["source"].(map[string]any)["id"] != float64(id) || f[0]["data"] != nil {
			t.Errorf("data file a.txt: %v", f)
		}
		e.Must(http.StatusMethodNotAllowed, "POST", filesPath, map[string]any{"path": "x"})

		// Deleting the source deletes its files and jobs.
		e.Must(http.StatusNoContent, "DELETE", fmt.Sprintf("%s%d/", sourcesPath, id), nil)
		if n := len(e.Must(http.StatusOK, "GET", filesPath, nil).Results()); n != 0 {
			t.Errorf("%d data files left", n)
		}
		if n := len(e.Must(http.StatusOK, "GET", jobsPath+"?object_type=core.datasource", nil).Results()); n != 0 {
			t.Errorf("%d sync jobs left", n)
		}
	})
}

func TestDataSourceGitSync(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		repo := filepath.Join(e.Config.DataSources.Root, "repos", "templates")
		commitAll(t, repo, map[string]string{"junos.j2": "hostname {{ name }}", "docs/README.md": "doc", "skip.tmp": "x"})
		for _, url := range []string{"file://" + repo, "repos/templates"} {
			id := newSource(t, e, map[string]any{"name": "git " + url, "type": "git", "source_url": url, "ignore_rules": "*.tmp"})
			ds := syncSource(t, e, id)
			if ds["status"].(map[string]any)["value"] != "completed" {
				t.Fatalf("%s: %v; job %v", url, ds["status"], lastJob(t, e, id)["error"])
			}
			want := map[string]string{"junos.j2": sha("hostname {{ name }}"), "docs/README.md": sha("doc")}
			if got := sourceFiles(t, e, id); fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("%s: files %v, want %v", url, got, want)
			}
		}
		// A new commit: the next sync follows it; files of the work tree
		// that are not committed are not read.
		commitAll(t, repo, map[string]string{"junos.j2": "hostname {{ name | upper }}"})
		writeFiles(t, repo, map[string]string{"uncommitted.txt": "x"})
		id := newSource(t, e, map[string]any{"name": "git again", "type": "git", "source_url": repo})
		syncSource(t, e, id)
		got := sourceFiles(t, e, id)
		if got["junos.j2"] != sha("hostname {{ name | upper }}") || got["uncommitted.txt"] != "" {
			t.Errorf("after a commit: %v", got)
		}
		// The branch parameter names the branch read.
		bad := newSource(t, e, map[string]any{"name": "git branch", "type": "git", "source_url": repo,
			"parameters": map[string]any{"branch": "nope"}})
		if st := syncSource(t, e, bad)["status"].(map[string]any)["value"]; st != "failed" {
			t.Errorf("a missing branch: status %v", st)
		}
	})
}

// TestDataSourceURLs: what a data source may point at (400 on
// source_url, nothing written).
func TestDataSourceURLs(t *testing.T) {
	cases := []struct {
		name, typ, url string
		ok             bool
		field          string
	}{
		{"relative path", "local", "a/b", true, ""},
		{"file URL below the root", "local", "file://@root/x", true, ""},
		{"absolute path outside", "local", "/etc", false, "source_url"},
		{"climbing out", "local", "a/../../x", false, "source_url"},
		{"file URL outside", "local", "file:///etc", false, "source_url"},
		{"file URL with a host", "local", "file://other/x", false, "source_url"},
		{"http for local", "local", "http://example.com/x", false, "source_url"},
		{"git over https", "git", "https://example.com/repo.git", true, ""},
		{"git on loopback", "git", "http://127.0.0.1/repo.git", false, "source_url"},
		{"git on a private address", "git", "https://10.1.2.3/repo.git", false, "source_url"},
		{"git with credentials in the URL", "git", "https://u:p@example.com/r.git", false, "source_url"},
		{"git over ssh", "git", "ssh://git@example.com/r.git", false, "source_url"},
		{"git path outside", "git", "/srv/repo", false, "source_url"},
		{"the S3 backend", "amazon-s3", "s3://bucket", false, "type"},
		{"unknown type", "ftp", "ftp://x", false, "type"},
	}
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		for i, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				body := map[string]any{"name": fmt.Sprint("src", i), "type": c.typ,
					"source_url": strings.ReplaceAll(c.url, "@root", e.Config.DataSources.Root)}
				if c.ok {
					newSource(t, e, body)
					return
				}
				r := e.Must(http.StatusBadRequest, "POST", sourcesPath, body)
				if _, ok := r.Object()[c.field]; !ok {
					t.Errorf("%s: %s, want an error on %s", c.name, r.Body, c.field)
				}
			})
		}
		// sync_interval takes NetBox's JobIntervalChoices only.
		r := e.Must(http.StatusBadRequest, "POST", sourcesPath, map[string]any{"name": "odd", "type": "local", "source_url": "x", "sync_interval": 7})
		if msg := fmt.Sprint(r.Object()["sync_interval"]); msg != "[Value 7 is not a valid choice.]" {
			t.Errorf("sync_interval 7: %s", r.Body)
		}
		// A PATCH of the type alone is checked against the stored URL.
		id := newSource(t, e, map[string]any{"name": "web", "type": "git", "source_url": "https://example.com/r.git"})
		e.Must(http.StatusBadRequest, "PATCH", fmt.Sprintf("%s%d/", sourcesPath, id), map[string]any{"type": "local"})
	})
}

// TestDataSourceSyncFailures: a source that cannot be read, or is beyond
// a limit, fails its sync (status failed, the job's error) and keeps the
// files of the last good sync.
func TestDataSourceSyncFailures(t *testing.T) {
	limits := func(c *server.Config) {
		c.DataSources.MaxFileSize = 100
		c.DataSources.MaxFiles = 3
		c.DataSources.MaxTotalSize = 200
	}
	cases := []struct {
		name  string
		files map[string]string
		error string
	}{
		{"a file too large", map[string]string{"big.txt": strings.Repeat("x", 101)}, "more than the 100 bytes"},
		{"too many files", map[string]string{"2": "2", "3": "3", "4": "4"}, "more than 3 files"},
		{"too much together", map[string]string{"2": strings.Repeat("x", 100), "3": strings.Repeat("x", 100)}, "exceed 200 bytes"},
		{"the directory is gone", nil, "cannot read"},
	}
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		for i, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				dir := filepath.Join(e.Config.DataSources.Root, fmt.Sprint("d", i))
				writeFiles(t, dir, map[string]string{"1": "one"})
				id := newSource(t, e, map[string]any{"name": c.name, "type": "local", "source_url": dir})
				syncSource(t, e, id)
				if c.files == nil {
					if err := os.RemoveAll(dir); err != nil {
						t.Fatal(err)
					}
				} else {
					writeFiles(t, dir, c.files)
				}
				ds := syncSource(t, e, id)
				j := lastJob(t, e, id)
				if ds["status"].(map[string]any)["value"] != "failed" || j["status"].(map[string]any)["value"] != "failed" ||
					!strings.Contains(j["error"].(string), c.error) {
					t.Errorf("%s: source %v, job %v %q", c.name, ds["status"], j["status"], j["error"])
				}
				if strings.Contains(j["error"].(string), e.Config.DataSources.Root) {
					t.Errorf("%s: the job's error tells the server's layout: %q", c.name, j["error"])
				}
				if got := sourceFiles(t, e, id); fmt.Sprint(got) != fmt.Sprint(map[string]string{"1": sha("one")}) {
					t.Errorf("%s: files %v: the failed sync changed them", c.name, got)
				}
			})
		}
		// A symbolic link out of the root is not followed.
		out := t.TempDir()
		writeFiles(t, out, map[string]string{"secret": "s"})
		link := filepath.Join(e.Config.DataSources.Root, "escape")
		if err := os.Symlink(out, link); err != nil {
			t.Fatal(err)
		}
		id := newSource(t, e, map[string]any{"name": "escape", "type": "local", "source_url": "escape"})
		if st := syncSource(t, e, id)["status"].(map[string]any)["value"]; st != "failed" {
			t.Errorf("a link out of the root: status %v", st)
		}
		// A remote whose name resolves to an internal address is refused
		// on the socket (the webhooks' guard), not fetched.
		id = newSource(t, e, map[string]any{"name": "ssrf", "type": "git", "source_url": "http://localhost:9/repo.git"})
		if st := syncSource(t, e, id)["status"].(map[string]any)["value"]; st != "failed" {
			t.Errorf("a remote on loopback: status %v", st)
		}
		if j := lastJob(t, e, id); !strings.Contains(j["error"].(string), "internal address") {
			t.Errorf("a remote on loopback: job error %q", j["error"])
		}
		// A git source that is no repository.
		writeFiles(t, filepath.Join(e.Config.DataSources.Root, "plain"), map[string]string{"f": "f"})
		id = newSource(t, e, map[string]any{"name": "not git", "type": "git", "source_url": "plain"})
		if st := syncSource(t, e, id)["status"].(map[string]any)["value"]; st != "failed" {
			t.Errorf("not a repository: status %v", st)
		}
	}, limits)
}

// TestDataSourceScheduleAndPermissions: disabled sources are not synced,
// due sync_intervals queue a sync without a user, and the sync action
// needs its grant.
func TestDataSourceScheduleAndPermissions(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		ctx := context.Background()
		writeFiles(t, filepath.Join(e.Config.DataSources.Root, "s"), map[string]string{"f": "f"})
		off := newSource(t, e, map[string]any{"name": "off", "type": "local", "source_url": "s", "enabled": false, "sync_interval": 1})
		r := e.Must(http.StatusBadRequest, "POST", fmt.Sprintf("%s%d/sync/", sourcesPath, off), nil)
		if !strings.Contains(string(r.Body), "disabled") {
			t.Errorf("sync of a disabled source: %s", r.Body)
		}
		hourly := newSource(t, e, map[string]any{"name": "hourly", "type": "local", "source_url": "s", "sync_interval": 60})
		if err := e.Server.DataSources().RunOnce(ctx); err != nil {
			t.Fatal(err)
		}
		if n := len(e.Must(http.StatusOK, "GET", jobsPath+"?object_type=core.datasource", nil).Results()); n != 0 {
			t.Errorf("%d syncs before any interval passed", n)
		}
		// An hour later (the creation time moved back).
		if _, err := e.DB.Write.ExecContext(ctx, rebind(e, "UPDATE core_datasource SET created = ? WHERE id IN (?, ?)"),
			time.Now().UTC().Add(-61*time.Minute), hourly, off); err != nil {
			t.Fatal(err)
		}
		if err := e.Server.DataSources().RunOnce(ctx); err != nil {
			t.Fatal(err)
		}
		jobs := e.Must(http.StatusOK, "GET", jobsPath+"?object_type=core.datasource", nil).Results()
		if len(jobs) != 1 || jobs[0]["object_id"] != float64(hourly) || jobs[0]["user"] != nil || jobs[0]["interval"] != float64(60) ||
			jobs[0]["status"].(map[string]any)["value"] != "completed" {
			t.Errorf("scheduled syncs: %v", jobs)
		}
		// Permissions: view alone is not enough to sync.
		user, uid := e.NewUser("syncer")
		e.Grant(uid, []string{"core.datasource"}, []string{"view"}, nil)
		user.Must(http.StatusForbidden, "POST", fmt.Sprintf("%s%d/sync/", sourcesPath, hourly), nil)
		e.Grant(uid, []string{"core.datasource"}, []string{"sync"}, nil)
		user.Must(http.StatusOK, "POST", fmt.Sprintf("%s%d/sync/", sourcesPath, hourly), nil)
		user.Must(http.StatusNotFound, "POST", fmt.Sprintf("%s%d/sync/", sourcesPath, hourly+100), nil)
	})
}

// rebind writes ? placeholders as PostgreSQL's $n when e is on it.
func rebind(e *servertest.Env, q string) string {
	if e.DB.Dialect != "postgres" {
		return q
	}
	n := 0
	var b strings.Builder
	for _, r := range q {
		if r == '?' {
			n++
			fmt.Fprintf(&b, "$%d", n)
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// fileID is the id of a source's data file.
func fileID(t *testing.T, e *servertest.Env, source int, path string) int {
	t.Helper()
	r := e.Must(http.StatusOK, "GET", fmt.Sprintf("%s?source_id=%d&path=%s", filesPath, source, path), nil).Results()
	if len(r) != 1 {
		t.Fatalf("data file %s of source %d: %v", path, source, r)
	}
	return int(r[0]["id"].(float64))
}

// TestSyncedData: config templates, config contexts and export templates
// take a data file (a local directory's and a git repository's), and
// follow it on each sync of the source.
func TestSyncedData(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		root := e.Config.DataSources.Root
		dir := filepath.Join(root, "local")
		writeFiles(t, dir, map[string]string{"base.j2": "hostname {{ name }}", "ctx.yaml": "ntp:\n  - 10.0.0.1\n",
			"schema.yaml": "type: object\nrequired: [ntp]\n"})
		repo := filepath.Join(root, "repo")
		commitAll(t, repo, map[string]string{"motd.j2": "Welcome to {{ name }}"})
		local := newSource(t, e, map[string]any{"name": "local", "type": "local", "source_url": "local"})
		git := newSource(t, e, map[string]any{"name": "git", "type": "git", "source_url": "file://" + repo})
		syncSource(t, e, local)
		syncSource(t, e, git)

		tplPath := "/api/extras/config-templates/"
		tpl := func(name string, file int) int {
			r := e.Must(http.StatusCreated, "POST", tplPath, map[string]any{"name": name, "template_code": "placeholder",
				"data_file": file, "auto_sync_enabled": true}).Object()
			return int(r["id"].(float64))
		}
		base := tpl("base", fileID(t, e, local, "base.j2"))
		motd := tpl("motd", fileID(t, e, git, "motd.j2"))
		for id, want := range map[int]struct {
			code, path string
			source     int
		}{base: {"hostname {{ name }}", "base.j2", local}, motd: {"Welcome to {{ name }}", "motd.j2", git}} {
			r := e.Must(http.StatusOK, "GET", fmt.Sprintf("%s%d/", tplPath, id), nil).Object()
			if r["template_code"] != want.code || r["data_path"] != want.path || r["data_synced"] == nil ||
				r["data_source"].(map[string]any)["id"] != float64(want.source) || r["data_file"].(map[string]any)["path"] != want.path {
				t.Errorf("template %d as created: %v", id, r)
			}
		}
		ctxPath := "/api/extras/config-contexts/"
		cc := int(e.Must(http.StatusCreated, "POST", ctxPath, map[string]any{"name": "ntp", "data": map[string]any{},
			"data_file": fileID(t, e, local, "ctx.yaml")}).Object()["id"].(float64))
		if d := e.Must(http.StatusOK, "GET", fmt.Sprintf("%s%d/", ctxPath, cc), nil).Object()["data"]; fmt.Sprint(d) != "map[ntp:[10.0.0.1]]" {
			t.Errorf("config context data from YAML: %v", d)
		}

		prof := e.Must(http.StatusCreated, "POST", "/api/extras/config-context-profiles/", map[string]any{"name": "ntp",
			"data_file": fileID(t, e, local, "schema.yaml")}).Object()
		if fmt.Sprint(prof["schema"]) != "map[required:[ntp] type:object]" || prof["data_path"] != "schema.yaml" {
			t.Errorf("config context profile from YAML: %v", prof)
		}

		// The files change; each sync carries the change over.
		writeFiles(t, dir, map[string]string{"base.j2": "hostname {{ name | upper }}", "ctx.yaml": `{"ntp": ["10.0.0.2"]}`})
		commitAll(t, repo, map[string]string{"motd.j2": "Hello {{ name }}"})
		syncSource(t, e, local)
		syncSource(t, e, git)
		for id, want := range map[int]string{base: "hostname {{ name | upper }}", motd: "Hello {{ name }}"} {
			if code := e.Must(http.StatusOK, "GET", fmt.Sprintf("%s%d/", tplPath, id), nil).Object()["template_code"]; code != want {
				t.Errorf("template %d after the sync: %q, want %q", id, code, want)
			}
		}
		if d := e.Must(http.StatusOK, "GET", fmt.Sprintf("%s%d/", ctxPath, cc), nil).Object()["data"]; fmt.Sprint(d) != "map[ntp:[10.0.0.2]]" {
			t.Errorf("config context data after the sync: %v", d)
		}
		if n := lastJob(t, e, local)["data"].(map[string]any)["followed"]; n != float64(3) {
			t.Errorf("objects followed: %v", n)
		}
		ch := e.Must(http.StatusOK, "GET", fmt.Sprintf("/api/core/object-changes/?changed_object_type=extras.configtemplate&changed_object_id=%d", base), nil).Results()
		if len(ch) != 2 || ch[0]["postchange_data"].(map[string]any)["template_code"] != "hostname {{ name | upper }}" {
			t.Errorf("change records of the followed template: %v", ch)
		}

		// A template without auto sync keeps what it took.
		e.Must(http.StatusOK, "PATCH", fmt.Sprintf("%s%d/", tplPath, motd), map[string]any{"auto_sync_enabled": false})
		commitAll(t, repo, map[string]string{"motd.j2": "Bye {{ name }}"})
		syncSource(t, e, git)
		if code := e.Must(http.StatusOK, "GET", fmt.Sprintf("%s%d/", tplPath, motd), nil).Object()["template_code"]; code != "Hello {{ name }}" {
			t.Errorf("template without auto sync: %q", code)
		}

		// A file that no longer parses as a template fails the sync:
		// nothing changes, the job says why.
		writeFiles(t, dir, map[string]string{"base.j2": "{% for x in %}"})
		if st := syncSource(t, e, local)["status"].(map[string]any)["value"]; st != "failed" {
			t.Errorf("sync with a broken template: status %v", st)
		}
		if j := lastJob(t, e, local); !strings.Contains(j["error"].(string), "extras.configtemplate") {
			t.Errorf("job error: %v", j["error"])
		}
		if code := e.Must(http.StatusOK, "GET", fmt.Sprintf("%s%d/", tplPath, base), nil).Object()["template_code"]; code != "hostname {{ name | upper }}" {
			t.Errorf("template after the failed sync: %q", code)
		}

		// The source is protected while objects use it; clearing the file
		// clears the source and the sync state.
		e.Must(http.StatusConflict, "DELETE", fmt.Sprintf("%s%d/", sourcesPath, local), nil)
		r := e.Must(http.StatusOK, "PATCH", fmt.Sprintf("%s%d/", tplPath, base), map[string]any{"data_file": nil}).Object()
		if r["data_source"] != nil || r["data_path"] != "" || r["data_synced"] != nil || r["auto_sync_enabled"] != false {
			t.Errorf("template without its file: %v", r)
		}
		// An export template's data_file is read-only (NetBox's
		// serializer): a data source alone is cleared, as NetBox's clean().
		et := e.Must(http.StatusCreated, "POST", "/api/extras/export-templates/", map[string]any{"name": "csv",
			"object_types": []string{"dcim.site"}, "template_code": "x", "data_source": git,
			"data_file": fileID(t, e, git, "motd.j2")}).Object()
		if et["data_source"] != nil || et["data_file"] != nil || et["template_code"] != "x" {
			t.Errorf("export template: %v", et)
		}
	})
}
