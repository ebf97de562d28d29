package server_test

import (
	"bytes"
	"fmt"
	"mime/multipart"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/inventory/inventory/server/servertest"
)

const (
	scriptsPath = "/api/extras/scripts/"
	uploadPath  = "/api/extras/scripts/upload/"
)

// branchModule is a script module with two scripts and a helper class.
const branchModule = `from extras.scripts import Script, StringVar, IntegerVar


class NewBranch(Script):
    class Meta:
        name = "New branch"
        description = "Provision a new branch site"

    site_name = StringVar()
    switch_count = IntegerVar()


class Audit(Script):
    pass


class Helper:
    pass
`

// moduleForm builds a multipart body with the file part "file" (none when
// content is nil) and returns it with its Content-Type header.
func moduleForm(t *testing.T, filename string, content []byte) ([]byte, string) {
	t.Helper()
	var buf bytes.Buffer
	w := multipart.NewWriter(&buf)
	if content != nil {
		fw, err := w.CreateFormFile("file", filename)
		if err != nil {
			t.Fatal(err)
		}
		fw.Write(content)
	} else {
		w.WriteField("description", "no file")
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes(), "Content-Type: " + w.FormDataContentType()
}

// TestScriptModuleUpload: a module uploaded as multipart form data is
// stored in the scripts directory under its base name, its Script classes
// are listed and retrieved as NetBox's ScriptSerializer shows them, and
// running one is refused with a 400 that says why.
func TestScriptModuleUpload(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		a := e.Admin()
		body, ct := moduleForm(t, `C:\fakepath\branches.py`, []byte(branchModule))
		m := a.Must(http.StatusCreated, "POST", uploadPath, body, ct).Object()
		if m["display"] != "branches" || m["file_path"] != "branches.py" || m["last_updated"] != nil || m["created"] == nil {
			t.Errorf("module: %v", m)
		}
		stored, err := os.ReadFile(filepath.Join(e.Config.MediaRoot, "scripts", "branches.py"))
		if err != nil || string(stored) != branchModule {
			t.Errorf("stored file: %q, %v", stored, err)
		}

		list := a.Must(http.StatusOK, "GET", scriptsPath, nil).Results()
		if len(list) != 2 {
			t.Fatalf("scripts: %v", list)
		}
		// Ordered by module, then name.
		audit, branch := list[0], list[1]
		if audit["name"] != "Audit" || branch["name"] != "NewBranch" {
			t.Fatalf("order: %v, %v", audit["name"], branch["name"])
		}
		id := idOf(branch)
		want := fmt.Sprintf(`{"id":%d,"url":"http://inventory.test/api/extras/scripts/%d/","display_url":"http://inventory.test/extras/scripts/%d/",`+
			`"module":%v,"name":"NewBranch","description":"Provision a new branch site","vars":{"site_name":"StringVar","switch_count":"IntegerVar"},`+
			`"result":null,"display":"NewBranch (branches)","is_executable":true}`, id, id, id, m["id"])
		if got := string(a.Must(http.StatusOK, "GET", fmt.Sprintf("%s%d/", scriptsPath, id), nil).Body); got != want {
			t.Errorf("retrieve:\n got %s\nwant %s", got, want)
		}
		if audit["description"] != "" || fmt.Sprint(audit["vars"]) != "map[]" {
			t.Errorf("Audit: %v", audit)
		}
		for q, n := range map[string]int{"name=Audit": 1, "q=branch": 1, fmt.Sprintf("module_id=%v", m["id"]): 2,
			"module_id=99999": 0, "is_executable=true": 2, "name__ic=a": 2} {
			if got := len(a.Must(http.StatusOK, "GET", scriptsPath+"?"+q, nil).Results()); got != n {
				t.Errorf("?%s: %d scripts, want %d", q, got, n)
			}
		}
		brief := a.Must(http.StatusOK, "GET", fmt.Sprintf("%s%d/?brief=1", scriptsPath, id), nil).Object()
		if len(brief) != 5 || brief["display"] != "NewBranch (branches)" {
			t.Errorf("brief: %v", brief)
		}

		// Running is not offered: NetBox's answer for a script that cannot
		// run, in its error shape; nothing is written.
		r := a.Must(http.StatusBadRequest, "POST", fmt.Sprintf("%s%d/", scriptsPath, id), map[string]any{"data": map[string]any{}, "commit": true})
		if !strings.Contains(string(r.Body), `"detail":"This script is not currently executable`) {
			t.Errorf("run: %s", r.Body)
		}
		a.Must(http.StatusNotFound, "POST", fmt.Sprintf("%s%d/", scriptsPath, 99999999), map[string]any{"data": map[string]any{}, "commit": true})
		// Scripts are written through their module only.
		for _, m := range []string{"PATCH", "PUT", "DELETE"} {
			a.Must(http.StatusMethodNotAllowed, m, fmt.Sprintf("%s%d/", scriptsPath, id), map[string]any{"name": "x"})
		}
		a.Must(http.StatusMethodNotAllowed, "POST", scriptsPath, map[string]any{"name": "x"})
	})
}

// TestScriptModuleUploadInvalid: bad uploads answer 400 naming the
// problem, and leave no row and no file behind.
func TestScriptModuleUploadInvalid(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		a := e.Admin()
		ok, ct := moduleForm(t, "tools.py", []byte(branchModule))
		a.Must(http.StatusCreated, "POST", uploadPath, ok, ct)
		big := bytes.Repeat([]byte("# padding\n"), (1<<20)/10+1)
		for _, tc := range []struct {
			name, filename string
			content        []byte
			want           string
		}{
			{"no file", "", nil, `{"file":["No file was submitted."]}`},
			{"empty", "a.py", []byte{}, `{"file":["The submitted file is empty."]}`},
			{"not Python", "a.txt", []byte("x = 1\n"), `{"file":["Upload a Python module: a file whose name ends in .py."]}`},
			{"no name", "../.py", []byte("x = 1\n"), `{"file":["Upload a Python module: a file whose name ends in .py."]}`},
			{"not UTF-8", "a.py", []byte("x = '\xff\xfe'\n"), `{"non_field_errors":["Error loading script: the file is not UTF-8 text"]}`},
			{"syntax", "a.py", []byte("class A(:\n"), `{"non_field_errors":["Error loading script: '(' was never closed (line 1)"]}`},
			{"too large", "a.py", big, `{"file":["Ensure this file is no larger than 1048576 bytes; it has 1048580."]}`},
			{"duplicate", "tools.py", []byte("x = 1\n"), `{"non_field_errors":["A script module with this file name already exists."]}`},
			{"duplicate by base name", "/etc/tools.py", []byte("x = 1\n"), `{"non_field_errors":["A script module with this file name already exists."]}`},
		} {
			t.Run(tc.name, func(t *testing.T) {
				body, ct := moduleForm(t, tc.filename, tc.content)
				r := a.Must(http.StatusBadRequest, "POST", uploadPath, body, ct)
				if got := string(r.Body); got != tc.want {
					t.Errorf("got  %s\nwant %s", got, tc.want)
				}
			})
		}
		// A JSON string is no file.
		r := a.Must(http.StatusBadRequest, "POST", uploadPath, map[string]any{"file": "/etc/passwd"})
		if !strings.Contains(string(r.Body), "The submitted data was not a file.") {
			t.Errorf("JSON file: %s", r.Body)
		}
		if got := mediaFiles(t, e); fmt.Sprint(got) != "[scripts/tools.py]" {
			t.Errorf("files left: %v", got)
		}
		if n := len(a.Must(http.StatusOK, "GET", scriptsPath, nil).Results()); n != 2 {
			t.Errorf("%d scripts, want tools.py's 2", n)
		}
	})
}

// TestScriptPermissions: listing needs view on extras.script, uploading
// add on extras.scriptmodule (NetBox's ScriptModuleViewSet), running the
// custom action run on extras.script; read-only tokens write nothing.
func TestScriptPermissions(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		a := e.Admin()
		body, ct := moduleForm(t, "perm.py", []byte(branchModule))
		a.Must(http.StatusCreated, "POST", uploadPath, body, ct)
		id := idOf(a.Must(http.StatusOK, "GET", scriptsPath+"?name=Audit", nil).Results()[0])
		run := fmt.Sprintf("%s%d/", scriptsPath, id)

		_, uid := e.NewUser("scripter")
		u := e.TokenFor(uid, true)
		u.Must(http.StatusForbidden, "GET", scriptsPath, nil)
		other, ct2 := moduleForm(t, "other.py", []byte("x = 1\n"))
		u.Must(http.StatusForbidden, "POST", uploadPath, other, ct2)
		u.Must(http.StatusForbidden, "POST", run, map[string]any{"data": map[string]any{}, "commit": true})
		// add on the script model is not add on script modules.
		e.Grant(uid, []string{"extras.script"}, []string{"view", "add"}, nil)
		if n := len(u.Must(http.StatusOK, "GET", scriptsPath, nil).Results()); n != 2 {
			t.Errorf("%d scripts listed", n)
		}
		u.Must(http.StatusForbidden, "POST", uploadPath, other, ct2)
		e.Grant(uid, []string{"extras.scriptmodule"}, []string{"add"}, nil)
		e.TokenFor(uid, false).Must(http.StatusForbidden, "POST", uploadPath, other, ct2)
		u.Must(http.StatusCreated, "POST", uploadPath, other, ct2)
		// With run granted, the run is refused for what it is.
		e.Grant(uid, []string{"extras.script"}, []string{"run"}, nil)
		u.Must(http.StatusBadRequest, "POST", run, map[string]any{"data": map[string]any{}, "commit": true})
		e.Anonymous().Must(http.StatusForbidden, "POST", uploadPath, other, ct2)
	})
}
