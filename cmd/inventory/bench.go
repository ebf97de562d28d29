package main

import (
	"bufio"
	"context"
	"crypto/rand"
	stdsql "database/sql"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"strings"
	"syscall"
	"time"

	"entgo.io/ent/dialect"

	"github.com/inventory/inventory/ent/db"
	"github.com/inventory/inventory/server"
	"github.com/inventory/inventory/server/auth"
)

// benchOptions are the flags of "inventory bench".
type benchOptions struct {
	database   string
	clients    int
	duration   time.Duration
	warmup     time.Duration
	sites      int
	devices    int
	vms        int
	vlans      int
	prefixes   int
	tags       int
	batch      int
	only       string
	cpuProfile string
	memProfile string
	bulkMax    int
	keep       bool
	// ipAddresses to seed (bench_ipaddr.go).
	ipAddresses int
	// allocAddresses fill the start of the /16 of the available-ips scenario.
	allocAddresses int
	// cableRequests bulk cable creates of 1000 cables (bench_cables.go).
	cableRequests int
	// readDatabase is a hot standby server of --database's
	// (bench_standby.go).
	readDatabase string
	// scale > 0 seeds the demo-shaped DCIM data set at that multiple and
	// runs the DCIM workloads (bench_dcim.go, bench_dcim_load.go).
	scale int
	// changes: the change log is topped up to this many records (--scale).
	changes int
	// deleteRequests: spare 500-component devices to delete (--scale).
	deleteRequests int
}

// bench seeds a fresh database, serves it on loopback in this process and
// drives it with concurrent clients, printing req/s and latency per
// scenario (DESIGN.md §6: figures are printed, never asserted). The
// database is always a fresh one: a SQLite file in a temporary directory,
// or a database created inside the given PostgreSQL server and dropped at
// the end.
func bench(args []string) error {
	o := &benchOptions{}
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	fs.StringVar(&o.database, "database", envOr("INVENTORY_BENCH_DATABASE", "sqlite"), `"sqlite" (a fresh file in a temporary directory) or a postgres:// URL of a server in which a fresh database is created and dropped (env INVENTORY_BENCH_DATABASE)`)
	fs.IntVar(&o.clients, "clients", envInt("INVENTORY_BENCH_CLIENTS", 8), "concurrent client goroutines per read scenario (env INVENTORY_BENCH_CLIENTS)")
	fs.DurationVar(&o.duration, "duration", envDuration("INVENTORY_BENCH_DURATION", 5*time.Second), "measured time per scenario (env INVENTORY_BENCH_DURATION)")
	fs.DurationVar(&o.warmup, "warmup", envDuration("INVENTORY_BENCH_WARMUP", time.Second), "unmeasured warm-up per read scenario (env INVENTORY_BENCH_WARMUP)")
	fs.IntVar(&o.sites, "sites", envInt("INVENTORY_BENCH_SITES", 20000), "sites to seed (env INVENTORY_BENCH_SITES)")
	fs.IntVar(&o.devices, "devices", envInt("INVENTORY_BENCH_DEVICES", 1000), "devices to seed, 28 to a rack (env INVENTORY_BENCH_DEVICES)")
	fs.IntVar(&o.vms, "vms", envInt("INVENTORY_BENCH_VMS", 1000), "virtual machines to seed, each with an interface and primary IPv4 and IPv6 addresses (env INVENTORY_BENCH_VMS)")
	fs.IntVar(&o.vlans, "vlans", envInt("INVENTORY_BENCH_VLANS", 10000), "VLANs to seed (env INVENTORY_BENCH_VLANS)")
	fs.IntVar(&o.prefixes, "prefixes", envInt("INVENTORY_BENCH_PREFIXES", 100000), "/24 prefixes to seed, plus their /16 containers (env INVENTORY_BENCH_PREFIXES)")
	fs.IntVar(&o.tags, "tags", envInt("INVENTORY_BENCH_TAGS", 10), "tags to seed (env INVENTORY_BENCH_TAGS)")
	fs.IntVar(&o.batch, "batch", envInt("INVENTORY_BENCH_BATCH", 2000), "objects per seeding transaction (env INVENTORY_BENCH_BATCH)")
	fs.StringVar(&o.only, "scenarios", os.Getenv("INVENTORY_BENCH_SCENARIOS"), "comma-separated substrings: run only the scenarios whose name contains one (env INVENTORY_BENCH_SCENARIOS)")
	fs.StringVar(&o.cpuProfile, "cpuprofile", os.Getenv("INVENTORY_BENCH_CPUPROFILE"), "write a CPU profile of the load phase (not the seeding) to this file (env INVENTORY_BENCH_CPUPROFILE)")
	fs.StringVar(&o.memProfile, "memprofile", os.Getenv("INVENTORY_BENCH_MEMPROFILE"), "write a heap profile (after a collection) at the end of the load phase to this file: what the process still holds (env INVENTORY_BENCH_MEMPROFILE)")
	fs.IntVar(&o.bulkMax, "bulk-requests", envInt("INVENTORY_BENCH_BULK_REQUESTS", 10), "at most this many requests per bulk write scenario (env INVENTORY_BENCH_BULK_REQUESTS)")
	fs.IntVar(&o.ipAddresses, "ip-addresses", envInt("INVENTORY_BENCH_IP_ADDRESSES", 100000), "IP addresses to seed, spread over sixteen /16s (env INVENTORY_BENCH_IP_ADDRESSES)")
	fs.IntVar(&o.allocAddresses, "alloc-addresses", envInt("INVENTORY_BENCH_ALLOC_ADDRESSES", 50000), "IP addresses taking the start of the /16 whose available IPs are listed (env INVENTORY_BENCH_ALLOC_ADDRESSES)")
	fs.IntVar(&o.cableRequests, "cable-requests", envInt("INVENTORY_BENCH_CABLE_REQUESTS", 3), "bulk creates of 1000 cables between 2000 fresh interfaces (seeded; -1: no cable scenarios) (env INVENTORY_BENCH_CABLE_REQUESTS)")
	fs.StringVar(&o.readDatabase, "read-database", os.Getenv("INVENTORY_BENCH_READ_DATABASE"), "a postgres:// URL of a hot standby server of --database's: the scenarios run on the primary alone, then with reads spread over it and the standby, and are compared (env INVENTORY_BENCH_READ_DATABASE)")
	fs.IntVar(&o.scale, "scale", envInt("INVENTORY_BENCH_SCALE", 0), "seed the DCIM data set shaped like NetBox's demo data at this multiple (1: ~the demo set, 100: ~7,000 devices, 160,000 interfaces, 18,000 VMs) and run the DCIM workloads of issue 37 instead of the prefix-centred set (--sites, --prefixes, --devices, --vms, --vlans, --ip-addresses are then ignored); 0: the prefix-centred set (env INVENTORY_BENCH_SCALE; make bench INVENTORY_BENCH_SCALE=100)")
	fs.IntVar(&o.changes, "changes", envInt("INVENTORY_BENCH_CHANGES", -1), "with --scale: top the change log up to this many records by interface updates (default 10,000 per unit of scale: 1,000,000 at 100) (env INVENTORY_BENCH_CHANGES)")
	fs.IntVar(&o.deleteRequests, "delete-requests", envInt("INVENTORY_BENCH_DELETE_REQUESTS", 3), "with --scale: spare devices of 536 components, each cabled by 48 cables, that the delete workload deletes (env INVENTORY_BENCH_DELETE_REQUESTS)")
	fs.BoolVar(&o.keep, "keep", false, "keep the seeded database after the run (its location is printed) for a closer look")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("bench: unexpected arguments %q", fs.Args())
	}
	if o.clients < 1 || o.duration <= 0 || o.batch < 1 || o.sites < 1 || o.tags < 1 || o.vlans < 0 || o.prefixes < 0 || o.bulkMax < 1 || o.warmup < 0 || o.allocAddresses < 0 {
		return errors.New("bench: --clients, --duration, --batch, --sites, --tags and --bulk-requests must be positive; --vlans, --prefixes and --warmup not negative")
	}

	if o.scale < 0 || o.deleteRequests < 0 {
		return errors.New("bench: --scale and --delete-requests must not be negative")
	}
	if o.scale > 0 {
		if o.changes < 0 {
			o.changes = 10000 * o.scale
		}
		// The available-ips /16 fills with the data set (500 per unit,
		// the 50,000 at 100) unless the flag says otherwise.
		set := false
		fs.Visit(func(f *flag.Flag) { set = set || f.Name == "alloc-addresses" })
		if !set && os.Getenv("INVENTORY_BENCH_ALLOC_ADDRESSES") == "" {
			o.allocAddresses = min(50000, 500*o.scale)
		}
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	if o.readDatabase != "" && !strings.HasPrefix(o.database, "postgres") {
		return errors.New("bench: --read-database needs a postgres:// --database (its hot standby's server)")
	}
	dsn, kind, cleanup, err := benchDatabase(ctx, o.database)
	if err != nil {
		return err
	}
	if o.keep {
		cleanup = func() { fmt.Printf("kept:      %s\n", redactDSN(dsn)) }
	}
	defer cleanup()

	// No deadline on write transactions: seeding writes a batch of devices
	// with all their components in one (at scale 100 on PostgreSQL, past
	// the server's 30 s), as an import does; the measured requests run far
	// from it.
	d, err := db.Open(ctx, dsn, db.TransactionTimeout(0))
	if err != nil {
		return err
	}
	defer d.Close()
	if err := d.Migrate(ctx); err != nil {
		return fmt.Errorf("migrate: %w", err)
	}

	printMachine(ctx, d, kind)
	fmt.Printf("load:      %d clients per read scenario, %s each (after %s warm-up); bulk writes: 1 client, at most %d requests\n\n",
		o.clients, o.duration, o.warmup, o.bulkMax)

	// A generated pepper and superuser token: nothing of this outlives the run.
	pepper, token := randomHex(32), randomHex(20)
	cfg := server.Defaults()
	cfg.Peppers = auth.Peppers{1: pepper}
	cfg.Hostname = "bench"
	cfg.Version = version
	srv := server.New(cfg, d)
	if err := srv.CreateSuperuser(ctx, "bench", randomHex(16), "", token, false); err != nil {
		return err
	}

	seed, err := seedBench(ctx, d, o)
	if err != nil {
		return fmt.Errorf("seed: %w", err)
	}
	if d.Dialect == dialect.Postgres {
		// What autovacuum does to a table soon after a bulk load, done
		// before measuring: the visibility map set, so that index-only
		// scans read no heap pages (a fresh table's 50,000 used addresses
		// cost available-ips 22-49 ms instead of 13-16 ms in heap
		// fetches), and fresh statistics.
		t0 := time.Now()
		if _, err := d.Write.ExecContext(ctx, "VACUUM (ANALYZE)"); err != nil {
			return fmt.Errorf("vacuum: %w", err)
		}
		fmt.Printf("vacuumed:  VACUUM (ANALYZE) of the seeded database in %.1fs, as autovacuum would after the load\n\n", time.Since(t0).Seconds())
	}

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	hs := &http.Server{Handler: srv.Handler(), ReadHeaderTimeout: 10 * time.Second}
	go hs.Serve(ln)
	defer func() {
		shut, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		hs.Shutdown(shut)
	}()

	if o.cpuProfile != "" {
		f, err := os.Create(o.cpuProfile)
		if err != nil {
			return err
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return err
		}
		defer pprof.StopCPUProfile()
	}

	l := newLoader("http://"+ln.Addr().String(), "Token "+token, o)
	l.statements = d.Statements.Load
	l.sharePages = srv.SetShareListPages
	if o.readDatabase != "" {
		return benchStandby(ctx, o, d, l, cfg, dsn, token, seed)
	}
	err = l.run(ctx, seed)
	if o.memProfile != "" {
		f, ferr := os.Create(o.memProfile)
		if ferr != nil {
			return errors.Join(err, ferr)
		}
		runtime.GC()
		runtime.GC()
		err = errors.Join(err, pprof.WriteHeapProfile(f), f.Close())
	}
	return err
}

func redactDSN(dsn string) string {
	if u, err := url.Parse(dsn); err == nil && u.User != nil {
		return u.Redacted()
	}
	return dsn
}

func randomHex(n int) string {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		panic(err)
	}
	return hex.EncodeToString(b)
}

// benchDatabase turns --database into the DSN of a fresh database and a
// cleanup that removes it.
func benchDatabase(ctx context.Context, spec string) (dsn, kind string, cleanup func(), err error) {
	switch {
	case spec == "sqlite":
		dir, err := os.MkdirTemp("", "inventory-bench-")
		if err != nil {
			return "", "", nil, err
		}
		return filepath.Join(dir, "bench.db"), "sqlite", func() { os.RemoveAll(dir) }, nil
	case strings.HasPrefix(spec, "postgres://") || strings.HasPrefix(spec, "postgresql://"):
		u, err := url.Parse(spec)
		if err != nil {
			return "", "", nil, fmt.Errorf("--database: %w", err)
		}
		admin, err := stdsql.Open("pgx", spec)
		if err != nil {
			return "", "", nil, err
		}
		name := fmt.Sprintf("inv_bench_%d", os.Getpid())
		if _, err := admin.ExecContext(ctx, "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)"); err != nil {
			admin.Close()
			return "", "", nil, fmt.Errorf("connect to PostgreSQL: %w", err)
		}
		if _, err := admin.ExecContext(ctx, "CREATE DATABASE "+name); err != nil {
			admin.Close()
			return "", "", nil, fmt.Errorf("create database %s: %w", name, err)
		}
		u.Path = "/" + name
		return u.String(), "postgres", func() {
			c, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			if _, err := admin.ExecContext(c, "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)"); err != nil {
				fmt.Fprintf(os.Stderr, "bench: drop database %s: %v\n", name, err)
			}
			admin.Close()
		}, nil
	}
	return "", "", nil, fmt.Errorf(`--database must be "sqlite" or a postgres:// URL (the benchmark always works on a fresh database), got %q`, spec)
}

// printMachine prints what the figures were measured on.
func printMachine(ctx context.Context, d *db.DB, kind string) {
	fmt.Printf("inventory %s bench\n", version)
	fmt.Printf("machine:   %d CPUs, %s/%s, %s, %s\n", runtime.NumCPU(), runtime.GOOS, runtime.GOARCH, cpuModel(), runtime.Version())
	var ver string
	q := "SELECT sqlite_version()"
	if kind == "postgres" {
		q = "SHOW server_version"
	}
	if err := d.Read.QueryRowContext(ctx, q).Scan(&ver); err != nil {
		ver = "?"
	}
	fmt.Printf("database:  %s %s\n", kind, ver)
}

func cpuModel() string {
	f, err := os.Open("/proc/cpuinfo")
	if err != nil {
		return "unknown CPU"
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), ":")
		if ok && strings.TrimSpace(k) == "model name" {
			return strings.TrimSpace(v)
		}
	}
	return "unknown CPU"
}
