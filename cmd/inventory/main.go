// Command inventory is the single binary of the service: it serves the
// REST API, migrates the database and manages users, tokens and webhooks.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/inventory/inventory/ent/db"
	"github.com/inventory/inventory/ent/db/notify"
	"github.com/inventory/inventory/server"
	"github.com/inventory/inventory/server/metrics"
	"github.com/inventory/inventory/server/session"
	"github.com/inventory/inventory/webhooks"
)

// version is the NetBox version the API answers as (status's
// netbox-version, the API-Version header).
var version = "4.6.0"

// release is this service's own version, set at link time with -ldflags
// "-X main.release=..." (make build passes git describe); without it, the
// module version go install records, or "devel".
var release string

func main() {
	if err := run(os.Args[1:]); err != nil {
		if errors.Is(err, flag.ErrHelp) { // -h, --help: the usage was printed
			return
		}
		fmt.Fprintln(os.Stderr, "inventory:", err)
		os.Exit(1)
	}
}

func usage() error {
	fmt.Fprint(os.Stderr, `usage: inventory <command> [flags]

commands:
  serve            run the API server
  migrate          create or upgrade the database schema
  createsuperuser  create a superuser (and optionally a token)
  worker           run only the webhook jobs (dispatch, delivery, cleanup)
  webhooks         list or requeue webhook deliveries: webhooks list|requeue
  webhook-receiver print the webhook requests received (port 9000)
  user             create|list|set-password|revoke-sessions: manage users
  permission       grant: create an object permission for users and groups
  bench            seed a data set and load-test a running server
  import           import netbox: copy a NetBox's data, ids included, into an empty database
  version          print the version

Run "inventory <command> -h" for the flags of a command.
`)
	return errors.New("no command given")
}

func run(args []string) error {
	if len(args) == 0 {
		return usage()
	}
	cmd, args := args[0], args[1:]
	switch cmd {
	case "serve":
		return serve(args)
	case "migrate":
		return migrate(args)
	case "createsuperuser":
		return createSuperuser(args)
	case "user":
		return userCmd(args)
	case "permission":
		return permissionCmd(args)
	case "bench":
		return bench(args)
	case "import":
		return importCmd(args)
	case "worker":
		return worker(args)
	case "webhooks":
		return webhooksCmd(args)
	case "webhook-receiver":
		return webhookReceiver(args)
	case "version":
		b := metrics.ReadBuild(release)
		fmt.Printf("inventory %s (commit %s, %s), NetBox API %s\n", b.Version, b.Commit, b.GoVersion, version)
		return nil
	case "-h", "--help", "help":
		usage()
		return nil
	}
	return fmt.Errorf("unknown command %q", cmd)
}

func migrate(args []string) error {
	o, fs := newOptions("migrate")
	if err := o.parse(fs, args); err != nil {
		return err
	}
	ctx := context.Background()
	d, err := db.Open(ctx, o.database, o.dbOptions()...)
	if err != nil {
		return err
	}
	defer d.Close()
	if err := d.Migrate(ctx); err != nil {
		return err
	}
	slog.Info("database migrated", "database", o.redactedDatabase())
	return nil
}

func createSuperuser(args []string) error {
	o, fs := newOptions("createsuperuser")
	username := fs.String("username", envOr("INVENTORY_SUPERUSER_NAME", "admin"), "username (env INVENTORY_SUPERUSER_NAME)")
	password := fs.String("password", os.Getenv("INVENTORY_SUPERUSER_PASSWORD"), "password (env INVENTORY_SUPERUSER_PASSWORD)")
	email := fs.String("email", "", "email address")
	token := fs.String("token", os.Getenv("INVENTORY_SUPERUSER_TOKEN"), "also create a v1 token with this 40-character secret (env INVENTORY_SUPERUSER_TOKEN)")
	ifNotExists := fs.Bool("if-not-exists", false, "succeed without changes when the user exists")
	if err := o.parse(fs, args); err != nil {
		return err
	}
	if *password == "" {
		return errors.New("a password is required (--password or INVENTORY_SUPERUSER_PASSWORD)")
	}
	ctx := context.Background()
	srv, closeDB, err := o.server(ctx)
	if err != nil {
		return err
	}
	defer closeDB()
	if err := srv.CreateSuperuser(ctx, *username, *password, *email, *token, *ifNotExists); err != nil {
		return err
	}
	slog.Info("superuser ready", "username", *username)
	return nil
}

func serve(args []string) error {
	o, fs := newOptions("serve")
	listen := fs.String("listen", envOr("INVENTORY_LISTEN", "127.0.0.1:8000"), "address to listen on (env INVENTORY_LISTEN)")
	noMigrate := fs.Bool("no-migrate", false, "do not migrate the database at start")
	noWorker := fs.Bool("no-worker", envBool("INVENTORY_NO_WORKER", false), "do not run the webhook jobs and data source syncs in this process (env INVENTORY_NO_WORKER)")
	metricsListen := fs.String("metrics-listen", os.Getenv("INVENTORY_METRICS_LISTEN"), "serve /metrics on this address instead of the API's (env INVENTORY_METRICS_LISTEN)")
	o.readFlags(fs)
	cacheTTL := fs.Duration("cache-ttl", envDuration("INVENTORY_CACHE_TTL", db.CacheTTL), "longest life of a cached read (tokens, permissions, counts; 0: nothing is cached); on PostgreSQL replicas invalidate each other at once and this only bounds writes made outside the service (env INVENTORY_CACHE_TTL)")
	if err := o.parse(fs, args); err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	o.migrate = !*noMigrate
	// Listen before the database work, so that a taken port is said at
	// once and names the setting to change.
	ln, err := listenOn(*listen, "--listen", "INVENTORY_LISTEN", "make run LISTEN=127.0.0.1:8010")
	if err != nil {
		return err
	}
	defer ln.Close()
	d, cfg, err := o.open(ctx)
	if err != nil {
		return err
	}
	defer d.Close()
	cfg.Metrics.Separate = *metricsListen != ""
	// Other replicas' writes drop our cached reads (PostgreSQL).
	defer d.ListenForWrites(*cacheTTL, notify.Timing{}).Close()
	api := server.New(cfg, d)
	api.WarmOpenAPI()
	if !*noWorker {
		stopJobs, err := api.Webhooks().Start(ctx)
		if err != nil {
			return err
		}
		defer stopJobs()
		stopSyncs, err := api.DataSources().Start(ctx)
		if err != nil {
			return err
		}
		defer stopSyncs()
	}
	// Daily change-log housekeeping (CHANGELOG_RETENTION).
	sched, err := webhooks.StartRetention(ctx, d.Client, cfg.ChangelogRetention)
	if err != nil {
		return err
	}
	if sched != nil {
		defer sched.Shutdown()
	}
	// Hourly deletion of expired browser sessions.
	prune, err := session.StartPrune(ctx, d.Client)
	if err != nil {
		return err
	}
	defer prune.Shutdown()
	srv := &http.Server{
		Addr:              *listen,
		Handler:           api.Handler(),
		ReadHeaderTimeout: 10 * time.Second,
		BaseContext:       func(net.Listener) context.Context { return ctx },
	}
	slog.Info("serving", "listen", "http://"+ln.Addr().String()+"/api/", "database", o.redactedDatabase())
	errc := make(chan error, 2)
	go func() { errc <- srv.Serve(ln) }()
	if cfg.Metrics.Separate {
		mux := http.NewServeMux()
		mux.Handle("GET /metrics", api.MetricsHandler())
		msrv := &http.Server{Addr: *metricsListen, Handler: mux, ReadHeaderTimeout: 10 * time.Second}
		mln, err := listenOn(*metricsListen, "--metrics-listen", "INVENTORY_METRICS_LISTEN", "")
		if err != nil {
			return err
		}
		slog.Info("serving metrics", "listen", "http://"+mln.Addr().String()+"/metrics")
		go func() { errc <- msrv.Serve(mln) }()
		defer msrv.Close()
	}
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	slog.Info("shutting down")
	shut, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	err = srv.Shutdown(shut)
	api.Settle()
	return err
}

// listenOn opens a TCP listener on addr; its error names the flag and the
// environment variable that choose the address (a newcomer's port 8000 is
// often taken), and how make run takes it when example is given.
func listenOn(addr, flagName, env, example string) (net.Listener, error) {
	ln, err := net.Listen("tcp", addr)
	if err == nil {
		return ln, nil
	}
	msg := fmt.Sprintf("cannot listen on %s: %v; choose another address with %s or %s", addr, err, flagName, env)
	if example != "" {
		msg += " (" + example + ")"
	}
	return nil, errors.New(msg)
}
