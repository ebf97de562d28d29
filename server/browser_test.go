package server_test

import (
	"context"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/inventory/inventory/server/servertest"
)

// The real-browser test drives headless Chromium over the DevTools
// protocol with chromedp: a pure-Go client (no Node, no WebDriver server,
// no second download of a browser), so CI needs only Debian's chromium
// package, which .ci/run installs.

// chromium finds the browser: INVENTORY_CHROMIUM, else Debian's and the
// usual names on PATH.
func chromium() string {
	if p := os.Getenv("INVENTORY_CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// requireChromium returns the browser's path, or skips the test where
// there is none (it must run in CI).
func requireChromium(t *testing.T) string {
	t.Helper()
	exe := chromium()
	if exe == "" {
		if os.Getenv("CI") != "" {
			t.Fatal("chromium not found: .ci/run installs Debian's chromium package (or set INVENTORY_CHROMIUM)")
		}
		t.Skip("chromium not found (apt-get install chromium, or set INVENTORY_CHROMIUM); required in CI")
	}
	return exe
}

// browserContext starts headless Chromium (exe) for the test, ended with
// it, and returns its context, bounded by timeout.
func browserContext(t *testing.T, exe string, timeout time.Duration) context.Context {
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(exe), chromedp.WindowSize(1280, 900),
		chromedp.Flag("disable-dev-shm-usage", true))
	if os.Geteuid() == 0 {
		opts = append(opts, chromedp.NoSandbox) // Chromium refuses root otherwise (CI runs as root)
	}
	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelCtx := chromedp.NewContext(alloc)
	ctx, cancel := context.WithTimeout(ctx, timeout)
	t.Cleanup(func() { cancel(); cancelCtx(); cancelAlloc() })
	return ctx
}

// artifactsDir is where the screenshots go: $INVENTORY_ARTIFACTS/browser,
// by default artifacts/browser at the repository's root (ignored by git),
// kept after the test so CI can publish them and a person can look.
func artifactsDir(t *testing.T) string {
	root := os.Getenv("INVENTORY_ARTIFACTS")
	if root == "" {
		root = filepath.Join("..", "artifacts")
	}
	dir, err := filepath.Abs(filepath.Join(root, "browser"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestBrowser: in headless Chromium, an anonymous visit to a list offers
// the login; logging in as admin goes back to /api/dcim/sites/; a link of
// the list opens a site; the page's form PATCHes its description (and a
// change record says so); logging out ends the session. Screenshots of
// each step are kept in artifactsDir. Without Chromium the test is
// skipped, except in CI, where it must run.
func TestBrowser(t *testing.T) {
	exe := requireChromium(t)
	dir := artifactsDir(t)
	t.Logf("screenshots in %s", dir)
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		kind := filepath.Base(t.Name())
		a := e.Admin()
		for _, n := range []string{"alpha", "<b>bravo</b>"} {
			a.Must(http.StatusCreated, "POST", "/api/dcim/sites/", map[string]any{"name": n, "slug": strings.Trim(n, "<b>/")})
		}
		base := e.URL()
		ctx := browserContext(t, exe, 90*time.Second)
		shot := func(name string) chromedp.Action {
			return chromedp.ActionFunc(func(ctx context.Context) error {
				var png []byte
				if err := chromedp.FullScreenshot(&png, 100).Do(ctx); err != nil {
					return err
				}
				return os.WriteFile(filepath.Join(dir, kind+"-"+name+".png"), png, 0o644)
			})
		}
		xpath := func(x string) chromedp.Action { return chromedp.WaitVisible(x, chromedp.BySearch) }
		var user, list, site, patched, after, location string
		err := chromedp.Run(ctx,
			chromedp.Navigate(base+"/api/dcim/sites/"),
			xpath(`//h1[text()="dcim / sites"]`),
			chromedp.Text(".user", &user),
			shot("1-anonymous"),
			chromedp.Click(`header a[href^="/login/"]`),
			chromedp.WaitVisible("#username"),
			chromedp.SendKeys("#username", "admin"),
			chromedp.SendKeys("#password", "admin"),
			shot("2-login"),
			chromedp.Click(`main form button[type=submit]`),
			chromedp.WaitVisible(`nav.pages`),
			chromedp.Location(&location),
			chromedp.Text("pre.body", &list),
			shot("3-sites"),
			chromedp.Click(`pre.body a[href="`+base+`/api/dcim/sites/1/"]`),
			xpath(`//h1[text()="dcim / sites / 1"]`),
			chromedp.Text("pre.body", &site),
			shot("4-site"),
			chromedp.SetValue("#method", "PATCH"),
			chromedp.SetValue("#content", `{"description": "changed in a browser"}`),
			chromedp.Click(`form.write button[type=submit]`),
			xpath(`//p[@class="request"]/strong[text()="PATCH"]`),
			chromedp.Text("pre.body", &patched),
			shot("5-patched"),
			chromedp.Click(`header form button[type=submit]`),
			xpath(`//h1[text()="Log in"]`),
			shot("6-logged-out"),
			chromedp.Navigate(base+"/api/dcim/sites/1/"),
			xpath(`//h1[text()="dcim / sites / 1"]`),
			chromedp.Text(".user", &after),
			shot("7-after-logout"),
		)
		if err != nil {
			t.Fatalf("browser: %v", err)
		}
		for _, c := range []struct{ what, got, want string }{
			{"anonymous header", user, "Not signed in"},
			{"page after login", location, base + "/api/dcim/sites/"},
			{"list", list, `"<b>bravo</b>"`},
			{"site", site, `"name": "alpha"`},
			{"PATCH answer", patched, `"description": "changed in a browser"`},
			{"header after logout", after, "Not signed in"},
		} {
			if !strings.Contains(c.got, c.want) {
				t.Errorf("%s: %q lacks %q", c.what, c.got, c.want)
			}
		}
		if d := a.Must(http.StatusOK, "GET", "/api/dcim/sites/1/", nil).Object()["description"]; d != "changed in a browser" {
			t.Errorf("description: %v", d)
		}
		changes := a.Must(http.StatusOK, "GET", "/api/core/object-changes/?changed_object_type=dcim.site&changed_object_id=1&action=update", nil).Results()
		if len(changes) != 1 || changes[0]["user_name"] != "admin" {
			t.Errorf("change record of the browser's PATCH: %v", changes)
		}
		if n := e.DB.Client.Session.Query().CountX(context.Background()); n != 0 {
			t.Errorf("%d sessions left after logout", n)
		}
	})
}
