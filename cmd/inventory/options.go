package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/inventory/inventory/ent/db"
	"github.com/inventory/inventory/filters"
	"github.com/inventory/inventory/server"
	"github.com/inventory/inventory/server/auth"
	"github.com/inventory/inventory/server/metrics"
)

// options are the settings shared by the commands. Every flag has an
// INVENTORY_* environment twin; a JSON config file with NetBox's
// parameter names may set them too (flags and environment win).
type options struct {
	database   string
	dataDir    string
	existing   bool // the command needs an existing database (see creates)
	configFile string
	peppers    string
	migrate    bool
	cfg        server.Config
	exempt     string
	ipHeaders  string
	allow      string
	unknown    string
	// metricsAllow and accessLog are parsed into cfg.Metrics and
	// cfg.AccessLog.
	metricsAllow string
	accessLog    string
	// statementTimeout bounds each PostgreSQL statement (db.StatementTimeout).
	statementTimeout time.Duration
	// transactionTimeout bounds each write transaction (db.TransactionTimeout).
	transactionTimeout time.Duration
	// readDatabases are the hot standbys reads may go to, within
	// readMaxLag (serve only: readFlags).
	readDatabases urlList
	readMaxLag    time.Duration
}

// urlList is a repeatable flag whose environment twin is comma-separated.
type urlList []string

func (l *urlList) String() string { return strings.Join(*l, ",") }

func (l *urlList) Set(v string) error {
	if !l.given() {
		*l = nil // the first flag replaces the environment's list
	}
	*l = append(*l, v)
	return nil
}

// given: the list came from flags (marked by a trailing empty entry that
// Set drops, see readFlags).
func (l *urlList) given() bool { return len(*l) == 0 || (*l)[len(*l)-1] != "" }

// readFlags registers --read-database and --read-max-lag (serve).
func (o *options) readFlags(fs *flag.FlagSet) {
	if env := splitList(os.Getenv("INVENTORY_READ_DATABASES")); len(env) > 0 {
		o.readDatabases = append(env, "") // from the environment: replaced by flags
	}
	fs.Var(&o.readDatabases, "read-database", "a PostgreSQL hot standby of --database (repeatable): GET, HEAD and OPTIONS requests read from it while it is within --read-max-lag, and a client always reads its own writes (env INVENTORY_READ_DATABASES, comma-separated)")
	fs.DurationVar(&o.readMaxLag, "read-max-lag", envDuration("INVENTORY_READ_MAX_LAG", db.DefaultReadMaxLag), "a standby further behind the primary than this serves no reads until it catches up (env INVENTORY_READ_MAX_LAG)")
}

// readURLs are the standbys given, without readFlags' marker.
func (o *options) readURLs() []string {
	var out []string
	for _, u := range o.readDatabases {
		if u != "" {
			out = append(out, u)
		}
	}
	return out
}

// dbOptions are the database's settings among the options.
func (o *options) dbOptions() []db.Option {
	opts := []db.Option{db.StatementTimeout(o.statementTimeout), db.TransactionTimeout(o.transactionTimeout)}
	if urls := o.readURLs(); len(urls) > 0 {
		opts = append(opts, db.ReadDatabases(urls, o.readMaxLag))
	}
	return opts
}

func envOr(key, def string) string {
	if v, ok := os.LookupEnv(key); ok {
		return v
	}
	return def
}

func envInt(key string, def int) int {
	if v, err := strconv.Atoi(os.Getenv(key)); err == nil {
		return v
	}
	return def
}

func envInt64(key string, def int64) int64 {
	if v, err := strconv.ParseInt(os.Getenv(key), 10, 64); err == nil {
		return v
	}
	return def
}

func envBool(key string, def bool) bool {
	if v, err := strconv.ParseBool(os.Getenv(key)); err == nil {
		return v
	}
	return def
}

// creates are the commands that may make a new database; the others act
// on an existing one and stop when there is none, rather than create an
// empty database (and pepper file) in the directory they were run from.
var creates = map[string]bool{"serve": true, "migrate": true, "createsuperuser": true, "import": true}

func newOptions(name string) (*options, *flag.FlagSet) {
	o := &options{cfg: server.Defaults(), migrate: true, existing: !creates[name]}
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.StringVar(&o.dataDir, "data-dir", envOr("INVENTORY_DATA_DIR", "./data"), "directory for the SQLite file and generated secrets (env INVENTORY_DATA_DIR)")
	fs.StringVar(&o.database, "database", os.Getenv("INVENTORY_DATABASE"), "SQLite file path, or a postgres:// URL (env INVENTORY_DATABASE; default <data-dir>/inventory.db)")
	fs.StringVar(&o.configFile, "config", os.Getenv("INVENTORY_CONFIG"), "optional JSON config file with NetBox parameter names (env INVENTORY_CONFIG)")
	fs.StringVar(&o.peppers, "api-token-peppers", os.Getenv("INVENTORY_API_TOKEN_PEPPERS"), `API_TOKEN_PEPPERS as JSON, e.g. {"1":"<50+ chars>"} (env INVENTORY_API_TOKEN_PEPPERS; default: generated once into <data-dir>/peppers.json)`)
	fs.IntVar(&o.cfg.PaginateCount, "paginate-count", envInt("INVENTORY_PAGINATE_COUNT", o.cfg.PaginateCount), "PAGINATE_COUNT: default page size")
	fs.IntVar(&o.cfg.MaxPageSize, "max-page-size", envInt("INVENTORY_MAX_PAGE_SIZE", o.cfg.MaxPageSize), "MAX_PAGE_SIZE: largest page; 0 removes the cap")
	fs.StringVar(&o.unknown, "filter-unknown", envOr("INVENTORY_FILTER_UNKNOWN", string(o.cfg.FilterUnknown)), "FILTER_UNKNOWN: unknown filter parameters are ignored next to a known filter and a 400 alone (guard), always a 400 (strict), or ignored (ignore, NetBox's)")
	fs.Int64Var(&o.cfg.MaxBodyBytes, "data-upload-max-memory-size", envInt64("INVENTORY_DATA_UPLOAD_MAX_MEMORY_SIZE", o.cfg.MaxBodyBytes), "DATA_UPLOAD_MAX_MEMORY_SIZE: largest request body in bytes (413 above); 0 removes the limit")
	fs.StringVar(&o.cfg.MediaRoot, "media-root", os.Getenv("INVENTORY_MEDIA_ROOT"), "MEDIA_ROOT: directory of uploaded image attachments; replicas must share it (env INVENTORY_MEDIA_ROOT; default <data-dir>/media)")
	fs.Int64Var(&o.cfg.MaxImageBytes, "image-attachment-max-size", envInt64("INVENTORY_IMAGE_ATTACHMENT_MAX_SIZE", o.cfg.MaxImageBytes), "IMAGE_ATTACHMENT_MAX_SIZE: largest uploaded image in bytes (400 above); 0 removes the limit")
	fs.IntVar(&o.cfg.MaxBulkItems, "max-bulk-items", envInt("INVENTORY_MAX_BULK_ITEMS", o.cfg.MaxBulkItems), "MAX_BULK_ITEMS: most items in one bulk create, update or delete (400 above); 0 removes the cap")
	fs.IntVar(&o.cfg.ListRowsInFlight, "list-rows-in-flight", envInt("INVENTORY_LIST_ROWS_IN_FLIGHT", o.cfg.ListRowsInFlight), "rows of list pages built and sent at once, all requests together: a list waits until its page fits (bounds memory under many parallel large pages); 0: no bound (env INVENTORY_LIST_ROWS_IN_FLIGHT)")
	fs.BoolVar(&o.cfg.ShareListPages, "share-list-pages", envBool("INVENTORY_SHARE_LIST_PAGES", o.cfg.ShareListPages), "identical list requests in flight together share one build, and a page several asked for serves the next ones until the next write or --cache-ttl (env INVENTORY_SHARE_LIST_PAGES)")
	fs.BoolVar(&o.cfg.LoginRequired, "login-required", envBool("INVENTORY_LOGIN_REQUIRED", o.cfg.LoginRequired), "LOGIN_REQUIRED: refuse anonymous requests")
	fs.BoolVar(&o.cfg.EnforceGlobalUnique, "enforce-global-unique", envBool("INVENTORY_ENFORCE_GLOBAL_UNIQUE", o.cfg.EnforceGlobalUnique), "ENFORCE_GLOBAL_UNIQUE: refuse duplicate IP addresses and prefixes outside VRFs")
	fs.IntVar(&o.cfg.ChangelogRetention, "changelog-retention", envInt("INVENTORY_CHANGELOG_RETENTION", o.cfg.ChangelogRetention), "CHANGELOG_RETENTION: days to keep change records; 0 keeps them forever")
	fs.StringVar(&o.exempt, "exempt-view-permissions", os.Getenv("INVENTORY_EXEMPT_VIEW_PERMISSIONS"), `EXEMPT_VIEW_PERMISSIONS: comma-separated app.model list, or "*"`)
	fs.StringVar(&o.ipHeaders, "http-client-ip-headers", os.Getenv("INVENTORY_HTTP_CLIENT_IP_HEADERS"), "HTTP_CLIENT_IP_HEADERS: comma-separated headers carrying the client address (default: the peer address)")
	fs.DurationVar(&o.cfg.IdempotencyWindow, "idempotency-window", envDuration("INVENTORY_IDEMPOTENCY_WINDOW", o.cfg.IdempotencyWindow), "how long the answer of an allocation POST with an Idempotency-Key header is replayed to its retries; 0 ignores the header (env INVENTORY_IDEMPOTENCY_WINDOW)")
	fs.DurationVar(&o.statementTimeout, "statement-timeout", envDuration("INVENTORY_STATEMENT_TIMEOUT", db.DefaultStatementTimeout), "PostgreSQL statement_timeout of the serving connections: a longer query is cancelled and answered 503; 0 uses the server's setting (env INVENTORY_STATEMENT_TIMEOUT)")
	fs.DurationVar(&o.transactionTimeout, "transaction-timeout", envDuration("INVENTORY_TRANSACTION_TIMEOUT", db.DefaultTransactionTimeout), "deadline of each write transaction, waiting for the writer included: a longer write is rolled back and answered 503, freeing SQLite's writer; 0: none (env INVENTORY_TRANSACTION_TIMEOUT)")
	fs.StringVar(&o.cfg.Metrics.Guard.Token, "metrics-token", os.Getenv("INVENTORY_METRICS_TOKEN"), "bearer token GET /metrics requires; unset, the allow-list decides (env INVENTORY_METRICS_TOKEN)")
	fs.StringVar(&o.metricsAllow, "metrics-allow", envOr("INVENTORY_METRICS_ALLOW", "127.0.0.0/8,::1"), "comma-separated client networks that may read /metrics without the token; empty refuses all (env INVENTORY_METRICS_ALLOW)")
	fs.StringVar(&o.accessLog, "access-log", envOr("INVENTORY_ACCESS_LOG", "text"), "one line per request on stderr: text, json or off (env INVENTORY_ACCESS_LOG)")
	fs.DurationVar(&o.cfg.SessionCookieAge, "session-cookie-age", envDuration("INVENTORY_SESSION_COOKIE_AGE", o.cfg.SessionCookieAge), "SESSION_COOKIE_AGE: how long a browser login (/login/) lasts (env INVENTORY_SESSION_COOKIE_AGE)")
	fs.IntVar(&o.cfg.LoginLimit.PerUser, "login-failures-per-user", envInt("INVENTORY_LOGIN_FAILURES_PER_USER", o.cfg.LoginLimit.PerUser), "failed logins a username may have within --login-failure-window before /login/ answers 429; 0: no limit")
	fs.IntVar(&o.cfg.LoginLimit.PerAddress, "login-failures-per-address", envInt("INVENTORY_LOGIN_FAILURES_PER_ADDRESS", o.cfg.LoginLimit.PerAddress), "failed logins a client address may have within --login-failure-window before /login/ answers 429; 0: no limit")
	fs.DurationVar(&o.cfg.LoginLimit.Window, "login-failure-window", envDuration("INVENTORY_LOGIN_FAILURE_WINDOW", o.cfg.LoginLimit.Window), "the window failed logins are counted in")
	w := &o.cfg.Webhooks
	fs.StringVar(&o.allow, "webhook-allow", os.Getenv("INVENTORY_WEBHOOK_ALLOW"), "comma-separated CIDRs and host names webhooks may reach although internal (loopback, private, link-local); e.g. 127.0.0.1/32 for the local receiver (env INVENTORY_WEBHOOK_ALLOW)")
	fs.StringVar(&w.CAFileDir, "webhook-ca-dir", os.Getenv("INVENTORY_WEBHOOK_CA_DIR"), "directory webhooks' ca_file_path must point into; unset refuses CA files (env INVENTORY_WEBHOOK_CA_DIR)")
	fs.IntVar(&w.MaxAttempts, "webhook-max-attempts", envInt("INVENTORY_WEBHOOK_MAX_ATTEMPTS", w.MaxAttempts), "sends per delivery before it is marked failed (env INVENTORY_WEBHOOK_MAX_ATTEMPTS)")
	fs.DurationVar(&w.BackoffBase, "webhook-backoff", envDuration("INVENTORY_WEBHOOK_BACKOFF", w.BackoffBase), "delay after the first failure; doubles per attempt, with jitter (env INVENTORY_WEBHOOK_BACKOFF)")
	fs.DurationVar(&w.BackoffMax, "webhook-backoff-max", envDuration("INVENTORY_WEBHOOK_BACKOFF_MAX", w.BackoffMax), "longest delay between attempts (env INVENTORY_WEBHOOK_BACKOFF_MAX)")
	fs.DurationVar(&w.Timeout, "webhook-timeout", envDuration("INVENTORY_WEBHOOK_TIMEOUT", w.Timeout), "timeout of one webhook request (env INVENTORY_WEBHOOK_TIMEOUT)")
	fs.DurationVar(&w.Lease, "webhook-lease", envDuration("INVENTORY_WEBHOOK_LEASE", w.Lease), "how long a worker's claim on a delivery holds; a dead worker's deliveries are taken over after it (default 2×timeout+30s; env INVENTORY_WEBHOOK_LEASE)")
	fs.DurationVar(&w.PollInterval, "webhook-poll-interval", envDuration("INVENTORY_WEBHOOK_POLL_INTERVAL", w.PollInterval), "how often workers look for events and due deliveries (env INVENTORY_WEBHOOK_POLL_INTERVAL)")
	fs.DurationVar(&w.Retention, "webhook-retention", envDuration("INVENTORY_WEBHOOK_RETENTION", w.Retention), "delete finished deliveries and dispatched events older than this; 0 keeps them (env INVENTORY_WEBHOOK_RETENTION)")
	ds := &o.cfg.DataSources
	fs.StringVar(&ds.Root, "data-sources-root", os.Getenv("INVENTORY_DATA_SOURCES_ROOT"), "directory that local data sources (and git repositories on this server) must lie below (env INVENTORY_DATA_SOURCES_ROOT; default <data-dir>/datasources)")
	fs.Int64Var(&ds.MaxFileSize, "data-source-max-file-size", envInt64("INVENTORY_DATA_SOURCE_MAX_FILE_SIZE", ds.MaxFileSize), "largest file a data source sync takes, in bytes; a larger one fails the sync (env INVENTORY_DATA_SOURCE_MAX_FILE_SIZE)")
	fs.IntVar(&ds.MaxFiles, "data-source-max-files", envInt("INVENTORY_DATA_SOURCE_MAX_FILES", ds.MaxFiles), "most files one data source may hold (env INVENTORY_DATA_SOURCE_MAX_FILES)")
	fs.Int64Var(&ds.MaxTotalSize, "data-source-max-size", envInt64("INVENTORY_DATA_SOURCE_MAX_SIZE", ds.MaxTotalSize), "most bytes one data source's files may hold together, and a git clone may download (env INVENTORY_DATA_SOURCE_MAX_SIZE)")
	fs.DurationVar(&ds.FetchTimeout, "data-source-fetch-timeout", envDuration("INVENTORY_DATA_SOURCE_FETCH_TIMEOUT", ds.FetchTimeout), "longest a sync may take to read its directory or clone its repository (env INVENTORY_DATA_SOURCE_FETCH_TIMEOUT)")
	fs.DurationVar(&ds.PollInterval, "data-source-poll-interval", envDuration("INVENTORY_DATA_SOURCE_POLL_INTERVAL", ds.PollInterval), "how often workers run queued syncs and look for due scheduled ones (env INVENTORY_DATA_SOURCE_POLL_INTERVAL)")
	return o, fs
}

func envDuration(key string, def time.Duration) time.Duration {
	if v, err := time.ParseDuration(os.Getenv(key)); err == nil {
		return v
	}
	return def
}

// fileConfig is the optional config file.
type fileConfig struct {
	Database              *string           `json:"DATABASE"`
	PaginateCount         *int              `json:"PAGINATE_COUNT"`
	MaxPageSize           *int              `json:"MAX_PAGE_SIZE"`
	FilterUnknown         *string           `json:"FILTER_UNKNOWN"`
	DataUploadMaxMemory   *int64            `json:"DATA_UPLOAD_MAX_MEMORY_SIZE"`
	MaxBulkItems          *int              `json:"MAX_BULK_ITEMS"`
	MediaRoot             *string           `json:"MEDIA_ROOT"`
	ImageMaxSize          *int64            `json:"IMAGE_ATTACHMENT_MAX_SIZE"`
	LoginRequired         *bool             `json:"LOGIN_REQUIRED"`
	EnforceGlobalUnique   *bool             `json:"ENFORCE_GLOBAL_UNIQUE"`
	ChangelogRetention    *int              `json:"CHANGELOG_RETENTION"`
	SessionCookieAge      *int              `json:"SESSION_COOKIE_AGE"`
	ExemptViewPermissions []string          `json:"EXEMPT_VIEW_PERMISSIONS"`
	HTTPClientIPHeaders   []string          `json:"HTTP_CLIENT_IP_HEADERS"`
	APITokenPeppers       map[string]string `json:"API_TOKEN_PEPPERS"`
}

func (o *options) parse(fs *flag.FlagSet, args []string) error {
	if err := fs.Parse(args); err != nil {
		return err
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	if o.configFile != "" {
		raw, err := os.ReadFile(o.configFile)
		if err != nil {
			return err
		}
		var fc fileConfig
		if err := json.Unmarshal(raw, &fc); err != nil {
			return fmt.Errorf("config %s: %w", o.configFile, err)
		}
		if fc.Database != nil && o.database == "" {
			o.database = *fc.Database
		}
		if fc.PaginateCount != nil && !set["paginate-count"] && os.Getenv("INVENTORY_PAGINATE_COUNT") == "" {
			o.cfg.PaginateCount = *fc.PaginateCount
		}
		if fc.MaxPageSize != nil && !set["max-page-size"] && os.Getenv("INVENTORY_MAX_PAGE_SIZE") == "" {
			o.cfg.MaxPageSize = *fc.MaxPageSize
		}
		if fc.FilterUnknown != nil && !set["filter-unknown"] && os.Getenv("INVENTORY_FILTER_UNKNOWN") == "" {
			o.unknown = *fc.FilterUnknown
		}
		if fc.DataUploadMaxMemory != nil && !set["data-upload-max-memory-size"] && os.Getenv("INVENTORY_DATA_UPLOAD_MAX_MEMORY_SIZE") == "" {
			o.cfg.MaxBodyBytes = *fc.DataUploadMaxMemory
		}
		if fc.MaxBulkItems != nil && !set["max-bulk-items"] && os.Getenv("INVENTORY_MAX_BULK_ITEMS") == "" {
			o.cfg.MaxBulkItems = *fc.MaxBulkItems
		}
		if fc.MediaRoot != nil && o.cfg.MediaRoot == "" {
			o.cfg.MediaRoot = *fc.MediaRoot
		}
		if fc.ImageMaxSize != nil && !set["image-attachment-max-size"] && os.Getenv("INVENTORY_IMAGE_ATTACHMENT_MAX_SIZE") == "" {
			o.cfg.MaxImageBytes = *fc.ImageMaxSize
		}
		if fc.LoginRequired != nil && !set["login-required"] && os.Getenv("INVENTORY_LOGIN_REQUIRED") == "" {
			o.cfg.LoginRequired = *fc.LoginRequired
		}
		if fc.EnforceGlobalUnique != nil && !set["enforce-global-unique"] && os.Getenv("INVENTORY_ENFORCE_GLOBAL_UNIQUE") == "" {
			o.cfg.EnforceGlobalUnique = *fc.EnforceGlobalUnique
		}
		if fc.ChangelogRetention != nil && !set["changelog-retention"] && os.Getenv("INVENTORY_CHANGELOG_RETENTION") == "" {
			o.cfg.ChangelogRetention = *fc.ChangelogRetention
		}
		if fc.SessionCookieAge != nil && !set["session-cookie-age"] && os.Getenv("INVENTORY_SESSION_COOKIE_AGE") == "" {
			o.cfg.SessionCookieAge = time.Duration(*fc.SessionCookieAge) * time.Second // Django's: seconds
		}
		if o.exempt == "" {
			o.exempt = strings.Join(fc.ExemptViewPermissions, ",")
		}
		if o.ipHeaders == "" {
			o.ipHeaders = strings.Join(fc.HTTPClientIPHeaders, ",")
		}
		if o.peppers == "" && fc.APITokenPeppers != nil {
			raw, _ := json.Marshal(fc.APITokenPeppers)
			o.peppers = string(raw)
		}
	}
	if o.database == "" {
		o.database = filepath.Join(o.dataDir, "inventory.db")
	}
	if o.cfg.MediaRoot == "" {
		o.cfg.MediaRoot = filepath.Join(o.dataDir, "media")
	}
	if o.cfg.DataSources.Root == "" {
		o.cfg.DataSources.Root = filepath.Join(o.dataDir, "datasources")
	}
	if o.cfg.MaxImageBytes < 0 {
		return errors.New("IMAGE_ATTACHMENT_MAX_SIZE must not be negative")
	}
	o.cfg.ExemptViewPermissions = splitList(o.exempt)
	o.cfg.HTTPClientIPHeaders = splitList(o.ipHeaders)
	o.cfg.Webhooks.AllowedTargets = splitList(o.allow)
	// Git remotes of data sources reach what webhooks may reach.
	o.cfg.DataSources.AllowedTargets = o.cfg.Webhooks.AllowedTargets
	var err error
	if o.cfg.Metrics.Guard.Allow, err = auth.ParseAllowedIPs(splitList(o.metricsAllow)); err != nil {
		return fmt.Errorf("metrics allow-list: %w", err)
	}
	// One logger for the access log and every other line (start-up,
	// warnings, ignored filter parameters), in the chosen format; lines
	// logged within a request carry its request_id (server.LogHandler).
	var h slog.Handler
	switch o.accessLog {
	case "json":
		h = slog.NewJSONHandler(os.Stderr, nil)
	case "text", "off", "":
		h = slog.NewTextHandler(os.Stderr, nil)
	default:
		return fmt.Errorf("access log %q: want text, json or off", o.accessLog)
	}
	logger := slog.New(server.LogHandler(h))
	slog.SetDefault(logger)
	o.cfg.AccessLog = nil
	if o.accessLog == "text" || o.accessLog == "json" {
		o.cfg.AccessLog = logger
	}
	if err := o.cfg.Webhooks.Check(); err != nil {
		return err
	}
	o.cfg.Version = version
	o.cfg.Build = metrics.ReadBuild(release)
	if o.cfg.ChangelogRetention < 0 {
		return errors.New("CHANGELOG_RETENTION must not be negative")
	}
	if o.cfg.SessionCookieAge <= 0 {
		return errors.New("SESSION_COOKIE_AGE must be positive")
	}
	if o.cfg.LoginLimit.PerUser < 0 || o.cfg.LoginLimit.PerAddress < 0 || o.cfg.LoginLimit.Window < 0 {
		return errors.New("the login failure limits must not be negative")
	}
	unknown, err := filters.ParseUnknown(o.unknown)
	if err != nil {
		return err
	}
	o.cfg.FilterUnknown = unknown
	if o.cfg.MaxBodyBytes < 0 || o.cfg.MaxBulkItems < 0 || o.cfg.ListRowsInFlight < 0 {
		return errors.New("DATA_UPLOAD_MAX_MEMORY_SIZE, MAX_BULK_ITEMS and --list-rows-in-flight must not be negative")
	}
	if o.cfg.IdempotencyWindow < 0 {
		return errors.New("the idempotency window must not be negative")
	}
	if o.cfg.PaginateCount < 1 || o.cfg.MaxPageSize < 0 {
		return errors.New("PAGINATE_COUNT must be positive and MAX_PAGE_SIZE not negative")
	}
	return nil
}

func splitList(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// open opens (and by default migrates) the database and completes the
// server config with the token peppers.
func (o *options) open(ctx context.Context) (*db.DB, server.Config, error) {
	if o.existing {
		if path, ok := db.SQLitePath(o.database); ok {
			if _, err := os.Stat(path); errors.Is(err, os.ErrNotExist) {
				return nil, o.cfg, fmt.Errorf("no database at %s (data directory %s): run this command where the service keeps its data, or give --data-dir (INVENTORY_DATA_DIR) or --database (INVENTORY_DATABASE); inventory serve or inventory migrate creates a new one", path, o.dataDir)
			}
		}
	}
	peppers, err := o.loadPeppers()
	if err != nil {
		return nil, o.cfg, err
	}
	o.cfg.Peppers = peppers
	d, err := db.Open(ctx, o.database, o.dbOptions()...)
	if err != nil {
		return nil, o.cfg, err
	}
	if o.migrate {
		if err := d.Migrate(ctx); err != nil {
			d.Close()
			return nil, o.cfg, fmt.Errorf("migrate: %w", err)
		}
	}
	return d, o.cfg, nil
}

// loadPeppers reads API_TOKEN_PEPPERS, or generates one pepper into the
// data directory on first use so that a newcomer's tokens work out of the
// box. Replicas sharing PostgreSQL must share the peppers: configure them.
func (o *options) loadPeppers() (auth.Peppers, error) {
	raw := o.peppers
	file := filepath.Join(o.dataDir, "peppers.json")
	if raw == "" {
		b, err := os.ReadFile(file)
		switch {
		case err == nil:
			raw = string(b)
		case errors.Is(err, os.ErrNotExist):
			secret := make([]byte, 32)
			if _, err := rand.Read(secret); err != nil {
				return nil, err
			}
			b, _ := json.Marshal(map[string]string{"1": hex.EncodeToString(secret)})
			if err := os.MkdirAll(o.dataDir, 0o700); err != nil {
				return nil, err
			}
			if err := os.WriteFile(file, b, 0o600); err != nil {
				return nil, err
			}
			slog.Info("generated token pepper", "file", file)
			raw = string(b)
		default:
			return nil, err
		}
	}
	var p auth.Peppers
	if err := json.Unmarshal([]byte(raw), &p); err != nil {
		return nil, fmt.Errorf("API_TOKEN_PEPPERS: %w", err)
	}
	if err := p.Validate(); err != nil {
		return nil, fmt.Errorf("API_TOKEN_PEPPERS: %w", err)
	}
	return p, nil
}

// redactedDatabase hides a PostgreSQL password in logs.
func (o *options) redactedDatabase() string {
	if u, err := url.Parse(o.database); err == nil && u.User != nil {
		return u.Redacted()
	}
	return o.database
}

// server opens (and migrates) the database and builds the server over it:
// what every command that reads or writes objects starts with. close
// releases the database.
func (o *options) server(ctx context.Context) (s *server.Server, close func() error, err error) {
	d, cfg, err := o.open(ctx)
	if err != nil {
		return nil, nil, err
	}
	return server.New(cfg, d), d.Close, nil
}
