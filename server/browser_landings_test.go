package server_test

import (
	"context"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/inventory/inventory/server/servertest"
)

// TestBrowserNoDeadEnds: in headless Chromium, signed in, every place a
// person lands is a usable page (issue 36): "/" opens the API root, a
// list's filter form filters it, a display_url opens the object's page,
// /api/schema/ is the document, and ReDoc's page (/api/schema/redoc/, an
// index of the API with its first operations) leads to an endpoint's
// operations (openapi_redoc.go: ReDoc rendering the whole document took
// half a minute and more). Each page must be ready within pageBudget of
// its navigation (generous beside the second: CI runs this beside
// the whole suite on two cores); the times are logged. Screenshots go to
// artifactsDir.
func TestBrowserNoDeadEnds(t *testing.T) {
	exe := requireChromium(t)
	const pageBudget = 10 * time.Second
	dir := artifactsDir(t)
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		kind := filepath.Base(t.Name())
		a := e.Admin()
		for _, n := range []string{"alpha", "bravo", "charlie"} {
			a.Must(http.StatusCreated, "POST", "/api/dcim/sites/", map[string]any{"name": n, "slug": n})
		}
		du := a.Must(http.StatusOK, "GET", "/api/dcim/sites/2/", nil).Object()["display_url"].(string)
		du = du[strings.Index(du, "/dcim/"):] // the path: these requests' host is not the browser's
		base := e.URL()
		// The filter form and ReDoc read the built document: built here
		// as `inventory serve` builds it at start-up (Server.WarmOpenAPI),
		// so that the times below are the pages'.
		e.Anonymous().Must(http.StatusOK, "GET", "/api/schema/", nil)
		e.Anonymous().Must(http.StatusOK, "GET", "/api/schema/redoc/", nil)
		ctx := browserContext(t, exe, 5*time.Minute)
		// Sign in once.
		if err := chromedp.Run(ctx,
			chromedp.Navigate(base+"/login/?next=/api/"),
			chromedp.WaitVisible("#username", chromedp.ByID),
			chromedp.SendKeys("#username", "admin", chromedp.ByID),
			chromedp.SendKeys("#password", "admin", chromedp.ByID),
			chromedp.Click(`main form button[type=submit]`, chromedp.ByQuery),
			chromedp.WaitVisible(`//h1[text()="API root"]`, chromedp.BySearch),
		); err != nil {
			t.Fatalf("login: %v", err)
		}
		// step runs actions that end with the page ready, within the budget.
		step := func(name string, actions ...chromedp.Action) {
			t.Helper()
			sctx, cancel := context.WithTimeout(ctx, pageBudget)
			defer cancel()
			start := time.Now()
			if err := chromedp.Run(sctx, actions...); err != nil {
				var loc, html string
				chromedp.Run(ctx, chromedp.Location(&loc), chromedp.OuterHTML("main", &html))
				t.Fatalf("%s: %v (after %v) at %s:\n%.3000s", name, err, time.Since(start), loc, html)
			}
			t.Logf("%s: ready in %v", name, time.Since(start).Round(time.Millisecond))
			var png []byte
			if err := chromedp.Run(ctx, chromedp.FullScreenshot(&png, 80)); err == nil {
				os.WriteFile(filepath.Join(dir, kind+"-landing-"+name+".png"), png, 0o644)
			}
		}
		var location, body, schema string
		step("root", chromedp.Navigate(base+"/"), chromedp.WaitVisible(`//h1[text()="API root"]`, chromedp.BySearch),
			chromedp.Location(&location))
		if location != base+"/api/" {
			t.Errorf("/ led to %s", location)
		}
		step("filtered list", chromedp.Navigate(base+"/api/dcim/sites/"), chromedp.WaitVisible(`form.filter`, chromedp.ByQuery),
			// SetValue: typing into the name opens its list of suggestions
			// over the button.
			chromedp.SetValue("#filter-name", "name__ic", chromedp.ByID), chromedp.SetValue("#filter-value", "rav", chromedp.ByID),
			chromedp.Submit(`form.filter`, chromedp.ByQuery),

			chromedp.WaitVisible(`//nav[@class="pages"]/span[text()="1 results"]`, chromedp.BySearch),
			chromedp.Location(&location), chromedp.Text("pre.body", &body, chromedp.ByQuery))
		if !strings.HasSuffix(location, "/api/dcim/sites/?name__ic=rav") || !strings.Contains(body, `"bravo"`) {
			t.Errorf("filter form: at %s, %.200s", location, body)
		}
		step("display_url", chromedp.Navigate(base+du), chromedp.WaitVisible(`//h1[text()="dcim / sites / 2"]`, chromedp.BySearch),
			chromedp.Location(&location))
		if location != base+"/api/dcim/sites/2/" {
			t.Errorf("display_url %s led to %s", base+du, location)
		}
		step("schema", chromedp.Navigate(base+"/api/schema/"), chromedp.WaitReady(`body`, chromedp.ByQuery),
			chromedp.Evaluate(`document.contentType + " " + document.body.textContent.substring(0, 11)`, &schema))
		if schema != `application/json {"openapi":` {
			t.Errorf("/api/schema/ in a browser: %.100s", schema)
		}
		// ReDoc: usable is its menu and the first operation rendered, and
		// the index's links to every application and endpoint; one of them
		// opens that endpoint's operations.
		sites := `a[href="/api/schema/redoc/?app=dcim&endpoint=sites"]`
		step("redoc", chromedp.Navigate(base+"/api/schema/redoc/"),
			chromedp.WaitVisible(`li[data-item-id="section/Applications"]`, chromedp.ByQuery),
			chromedp.WaitVisible(`li[data-item-id="tag/api"]`, chromedp.ByQuery),
			chromedp.WaitVisible(`[data-section-id="operation/api_root"] h2`, chromedp.ByQuery),
			chromedp.WaitVisible(sites, chromedp.ByQuery))
		step("redoc endpoint", chromedp.Click(sites, chromedp.ByQuery),
			chromedp.WaitVisible(`li[data-item-id="tag/dcim"]`, chromedp.ByQuery),
			chromedp.WaitVisible(`[data-section-id="operation/dcim_sites_list"] h2`, chromedp.ByQuery),
			chromedp.Location(&location))
		if location != base+"/api/schema/redoc/?app=dcim&endpoint=sites" {
			t.Errorf("ReDoc's link to dcim/sites led to %s", location)
		}
	})
}
