package server_test

import (
	"context"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/inventory/inventory/server/servertest"
)

// TestOpenAPIPythonClient generates a Python client from the served
// OpenAPI document with openapi-python-client, the usual Python generator,
// with its default settings (pinned in testdata/pynetbox/requirements.txt,
// installed by .ci/run), then lists, creates, retrieves and deletes tenants
// with it on every database (testdata/openapi/pyclient.py). The generator
// refused the document while enums held both "true" and "True" (issue 36).
func TestOpenAPIPythonClient(t *testing.T) {
	t.Parallel()
	python := pythonWith(t, "openapi_python_client")
	dir := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	generated := false
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		if !generated {
			doc := e.Anonymous().Must(http.StatusOK, "GET", "/api/schema/?format=json", nil)
			path := filepath.Join(dir, "openapi.json")
			if err := os.WriteFile(path, doc.Body, 0o644); err != nil {
				t.Fatal(err)
			}
			runLogged(t, ctx, python, "-m", "openapi_python_client", "generate", "--path", path,
				"--output-path", filepath.Join(dir, "client"), "--meta", "none",
				"--config", "../testdata/openapi/generator.yaml")
			generated = true
		}
		runLogged(t, ctx, python, "../testdata/openapi/pyclient.py", dir, e.URL(), servertest.Token)
	})
}

// runLogged runs a command, its output logged line by line.
func runLogged(t *testing.T, ctx context.Context, name string, args ...string) {
	t.Helper()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Env = append(os.Environ(), "PYTHONUNBUFFERED=1", "PYTHONDONTWRITEBYTECODE=1")
	out := &lineLogger{t: t}
	cmd.Stdout, cmd.Stderr = out, out
	cmd.WaitDelay = 5 * time.Second
	err := cmd.Run()
	out.flush()
	if ctx.Err() != nil {
		t.Fatalf("%s %v timed out (output above)", name, args)
	}
	if err != nil {
		t.Fatalf("%s %v: %v (output above)", name, args, err)
	}
}
