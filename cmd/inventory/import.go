package main

import (
	"context"
	"errors"
	"flag"

	"fmt"
	"os"
	"os/signal"
	"sync"
	"syscall"
	"time"

	"github.com/inventory/inventory/ent/media"
	"github.com/inventory/inventory/ent/schema/api"
	"github.com/inventory/inventory/server"
	"github.com/inventory/inventory/server/netboximport"
)

// netboxSource opens a running NetBox's REST API as an import source
// (package netboximport/netbox); nil until that client is part of the
// build, when only --from-dir is available.
var netboxSource func(url, token string) (netboximport.Source, error)

// importCmd is `inventory import netbox`: a NetBox's data copied into an
// empty database of this service with NetBox's ids, then verified
// (issue 35).
func importCmd(args []string) error {
	if len(args) == 0 || args[0] != "netbox" {
		return errors.New("usage: inventory import netbox --url URL --token TOKEN [flags] (or --from-dir DIR)")
	}
	o, fs := newOptions("import")
	url := fs.String("url", os.Getenv("INVENTORY_NETBOX_URL"), "the NetBox to import from, e.g. https://netbox.example.com (env INVENTORY_NETBOX_URL)")
	token := fs.String("token", os.Getenv("INVENTORY_NETBOX_TOKEN"), "an API token of that NetBox allowed to read everything (env INVENTORY_NETBOX_TOKEN; never logged)")
	fromDir := fs.String("from-dir", "", "import from recorded list answers in a directory (<app>.<endpoint>.json.gz and _status.json, as testdata/netbox-demo) instead of --url")
	verify := fs.Bool("verify", true, "read every imported object back through this service's API and compare it with NetBox's")
	changelog := fs.Bool("changelog", false, "import NetBox's change records (core/object-changes) too")
	resume := fs.Bool("resume", false, "continue an interrupted import of the same source")
	skipInvalid := fs.Bool("skip-invalid", false, "skip objects this service refuses (and what depends on them) instead of stopping; they are listed")
	force := fs.Bool("force", false, "import from a NetBox other than 4.6.x")
	concurrency := fs.Int("concurrency", 4, "endpoints read from NetBox at once")
	batch := fs.Int("batch", 1000, "objects written per transaction")
	if err := o.parse(fs, args[1:]); err != nil {
		return err
	}
	// The timeouts are the server's, for requests: an import is one long
	// batch job (tracing every cable path is one transaction), bounded
	// only if asked for.
	given := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { given[f.Name] = true })
	if !given["transaction-timeout"] && os.Getenv("INVENTORY_TRANSACTION_TIMEOUT") == "" {
		o.transactionTimeout = 0
	}
	if !given["statement-timeout"] && os.Getenv("INVENTORY_STATEMENT_TIMEOUT") == "" {
		o.statementTimeout = 0
	}
	var src netboximport.Source
	from := *fromDir
	switch {
	case *fromDir != "" && *url != "":
		return errors.New("give --url or --from-dir, not both")
	case *fromDir != "":
		if st, err := os.Stat(*fromDir); err != nil || !st.IsDir() {
			return fmt.Errorf("--from-dir %s: not a directory", *fromDir)
		}
		src = netboximport.DirSource{Dir: *fromDir}
	case *url != "":
		if netboxSource == nil {
			return errors.New("this build reads NetBox only from recorded answers: use --from-dir")
		}
		s, err := netboxSource(*url, *token)
		if err != nil {
			return err
		}
		src, from = s, *url
	default:
		return errors.New("give the NetBox to import from: --url and --token (or --from-dir)")
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	d, cfg, err := o.open(ctx)
	if err != nil {
		return err
	}
	defer d.Close()
	srv := server.New(cfg, d)
	rep, err := netboximport.Import(ctx, netboximport.Options{
		Source: src, From: from, DB: d, Handler: srv.Handler(),
		Settings: api.Settings{EnforceGlobalUnique: cfg.EnforceGlobalUnique},
		Media:    &media.Store{Root: cfg.MediaRoot, MaxSize: cfg.MaxImageBytes},
		Progress: &lineProgress{start: time.Now()},
		Verify:   *verify, Force: *force, SkipInvalid: *skipInvalid, Resume: *resume, Changelog: *changelog,
		Concurrency: *concurrency, Batch: *batch,
	})
	if rep != nil {
		fmt.Println()
		netboximport.WriteSummary(os.Stdout, rep)
	}
	if err != nil {
		return fmt.Errorf("import: %w", err)
	}
	if !rep.OK() {
		return fmt.Errorf("import: %d objects refused, %d differences", len(rep.Refused), len(rep.Differences))
	}
	return nil
}

// lineProgress prints a line per endpoint written, on stderr.
type lineProgress struct {
	mu      sync.Mutex
	start   time.Time
	written map[string]int
	total   int
}

func (p *lineProgress) Start(string, int) {}
func (p *lineProgress) Read(string, int)  {}

func (p *lineProgress) Wrote(ep string, n int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.written == nil {
		p.written = map[string]int{}
	}
	p.written[ep] += n
	p.total += n
}

func (p *lineProgress) Done(ep string, err error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if err != nil {
		fmt.Fprintf(os.Stderr, "%-40s failed: %v\n", ep, err)
		return
	}
	if n := p.written[ep]; n > 0 {
		el := time.Since(p.start).Seconds()
		fmt.Fprintf(os.Stderr, "%-40s %7d written (%d in all, %.0f objects/s)\n", ep, n, p.total, float64(p.total)/el)
	}
}
