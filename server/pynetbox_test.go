package server_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/inventory/inventory/server/servertest"
)

// pynetboxScript is the end-to-end script, relative to this package.
const pynetboxScript = "../testdata/pynetbox/e2e.py"

// TestPynetbox drives a real HTTP server with the real pynetbox client
// (testdata/pynetbox/e2e.py, requirements in testdata/pynetbox/requirements.txt)
// on every database: token provisioning, create/all/filter/get/save/delete,
// a device from a 48-port type with its interfaces and the rack elevation,
// offset and cursor pagination, choices and counts, circuits, a contact
// assigned to a site with a role and found with the site's contact filters,
// a device's config_context merged from two config contexts, and a
// bookmark, a subscription (its notification), a saved filter and a custom
// link on a site.
//
// The interpreter is $INVENTORY_TEST_PYTHON, else python3 on PATH (.ci/run
// puts a virtualenv with the requirements first on PATH). Without python3 or
// pynetbox the test is skipped locally and fails in CI (CI=true).
func TestPynetbox(t *testing.T) {
	t.Parallel()
	python := pythonWith(t, "pynetbox")
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		timeout := 5 * time.Minute
		if d, ok := t.Deadline(); ok && time.Until(d)-10*time.Second < timeout {
			timeout = time.Until(d) - 10*time.Second
		}
		ctx, cancel := context.WithTimeout(context.Background(), timeout)
		defer cancel()
		cmd := exec.CommandContext(ctx, python, pynetboxScript, e.URL())
		cmd.Env = append(os.Environ(),
			"INVENTORY_USER=admin", "INVENTORY_PASSWORD=admin",
			"PYTHONUNBUFFERED=1", "PYTHONDONTWRITEBYTECODE=1")
		out := &lineLogger{t: t}
		cmd.Stdout, cmd.Stderr = out, out
		cmd.WaitDelay = 5 * time.Second
		err := cmd.Run()
		out.flush()
		switch {
		case ctx.Err() != nil:
			t.Fatalf("%s timed out after %v (output above)", pynetboxScript, timeout)
		case err != nil:
			t.Fatalf("%s %s: %v (output above)", pynetboxScript, e.URL(), err)
		}
	})
}

// pythonWith returns the interpreter that can import module (pynetbox,
// openapi_python_client), or skips (locally) / fails (CI) with the reason.
func pythonWith(t *testing.T, module string) string {
	t.Helper()
	unavailable := func(format string, args ...any) {
		t.Helper()
		if os.Getenv("CI") == "true" {
			t.Fatalf(format+" (CI installs testdata/pynetbox/requirements.txt; see .ci/run)", args...)
		}
		t.Skipf(format+"; install with: python3 -m pip install -r testdata/pynetbox/requirements.txt", args...)
	}
	python := os.Getenv("INVENTORY_TEST_PYTHON")
	if python == "" {
		python = "python3"
	}
	path, err := exec.LookPath(python)
	if err != nil {
		unavailable("no Python interpreter %q: %v", python, err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	out, err := exec.CommandContext(ctx, path, "-c", "import importlib.metadata as m; print(m.version('"+strings.ReplaceAll(module, "_", "-")+"'))").CombinedOutput()
	if err != nil {
		var exit *exec.ExitError
		if !errors.As(err, &exit) {
			t.Fatalf("running %s: %v", path, err)
		}
		unavailable("%s cannot import %s: %s", path, module, strings.TrimSpace(string(out)))
	}
	t.Logf("%s, %s %s", path, module, strings.TrimSpace(string(out)))
	return path
}

// lineLogger writes each complete line to t.Log as it arrives (shown with
// -v or when the test fails).
type lineLogger struct {
	t   *testing.T
	mu  sync.Mutex
	buf bytes.Buffer
}

func (l *lineLogger) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.buf.Write(p)
	for {
		i := bytes.IndexByte(l.buf.Bytes(), '\n')
		if i < 0 {
			return len(p), nil
		}
		l.t.Log(string(l.buf.Next(i + 1)[:i]))
	}
}

func (l *lineLogger) flush() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.buf.Len() > 0 {
		l.t.Log(l.buf.String())
		l.buf.Reset()
	}
}
