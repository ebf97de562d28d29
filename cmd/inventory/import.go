package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/inventory/inventory/ent/media"
	"github.com/inventory/inventory/ent/schema/api"
	"github.com/inventory/inventory/server"
	"github.com/inventory/inventory/server/netboximport"
	"github.com/inventory/inventory/server/netboximport/netbox"
	"github.com/inventory/inventory/server/netboximport/progress"
)

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
		src = netboximport.DirSource{Path: *fromDir}
	case *url != "":
		c, err := netbox.New(*url, *token, netbox.Options{Concurrency: *concurrency})
		if err != nil {
			return err
		}
		src, from = c, c.URL()
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
	bars := progress.New(os.Stderr, progress.Options{TTY: progress.IsTerminal(os.Stderr)})
	rep, err := netboximport.Import(ctx, netboximport.Options{
		Source: src, From: from, DB: d, Handler: srv.Handler(),
		Settings: api.Settings{EnforceGlobalUnique: cfg.EnforceGlobalUnique},
		Media:    &media.Store{Root: cfg.MediaRoot, MaxSize: cfg.MaxImageBytes},
		Progress: bars,
		Verify:   *verify, Force: *force, SkipInvalid: *skipInvalid, Resume: *resume, Changelog: *changelog,
		Concurrency: *concurrency, Batch: *batch,
	})
	bars.Finish()
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
