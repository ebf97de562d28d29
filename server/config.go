package server

import (
	"log/slog"
	"time"

	"github.com/inventory/inventory/ent/media"
	"github.com/inventory/inventory/ent/schema/api"
	"github.com/inventory/inventory/filters"
	"github.com/inventory/inventory/server/auth"
	"github.com/inventory/inventory/server/datasources"
	"github.com/inventory/inventory/server/metrics"
	"github.com/inventory/inventory/server/session"
	"github.com/inventory/inventory/webhooks"
)

// Config holds the settings of a running server. Parameter names follow
// NetBox's configuration (SPEC.md), so operators recognise them.
type Config struct {
	// PaginateCount is the default page size (PAGINATE_COUNT).
	PaginateCount int
	// MaxPageSize caps the page size; 0 removes the cap (MAX_PAGE_SIZE).
	MaxPageSize int
	// FilterUnknown is what unknown filter parameters do (FILTER_UNKNOWN):
	// guard, strict or ignore (filters.Unknown).
	FilterUnknown filters.Unknown
	// ExemptViewPermissions lists "app.model" (or "*") readable without a
	// permission (EXEMPT_VIEW_PERMISSIONS).
	ExemptViewPermissions []string
	// LoginRequired refuses anonymous requests (LOGIN_REQUIRED).
	LoginRequired bool
	// DefaultPermissions are granted to every authenticated user
	// (DEFAULT_PERMISSIONS): "app.action_model" → constraint sets, ORed;
	// an empty list is unrestricted.
	DefaultPermissions map[string][]map[string]any
	// HTTPClientIPHeaders names the headers that carry the client address
	// for token allowed_ips; empty means the peer address only.
	HTTPClientIPHeaders []string
	// Peppers are the token peppers (API_TOKEN_PEPPERS).
	Peppers auth.Peppers
	// MaxBodyBytes limits request bodies (DATA_UPLOAD_MAX_MEMORY_SIZE);
	// 0 removes the limit.
	MaxBodyBytes int64
	// MaxBulkItems caps the items of one bulk create, update or delete
	// (MAX_BULK_ITEMS); 0 removes the cap.
	MaxBulkItems int
	// ListRowsInFlight bounds the rows of list pages being read, rendered
	// and sent at once, all requests together: a list request waits until
	// its page's rows (its limit, at most this) fit. A page of 1000
	// interfaces holds about 5 MB while it is built, so 100 clients paging
	// at once would hold half a gigabyte; the bound keeps memory flat and
	// costs them only waiting their turn for the cores. 0: no bound.
	ListRowsInFlight int
	// ShareListPages lets identical list requests in flight together share
	// one build, and keeps a page asked for by several for the next ones
	// until the next write or the cache TTL (coalesce.go).
	ShareListPages bool
	// Hostname is reported by /api/status/.
	Hostname string
	// ChangelogRetention is how many days change records are kept; 0
	// keeps them forever (CHANGELOG_RETENTION).
	ChangelogRetention int
	// Version is the NetBox version the API answers as ("4.6.0", status's
	// netbox-version); API-Version is its major.minor.
	Version string
	// Build is this service's own release and commit (status, metrics,
	// inventory version), read from the binary's build information.
	Build metrics.Build
	// IdempotencyWindow is how long the answer of a request made with an
	// Idempotency-Key header is kept for its retries (the allocation
	// endpoints); 0 ignores the header.
	IdempotencyWindow time.Duration
	// Webhooks are the delivery settings (allow-list, attempts, backoff,
	// timeout, poll interval).
	Webhooks webhooks.Config
	// DataSources are the data source settings: the root of local
	// sources and the sync limits (package datasources).
	DataSources datasources.Config
	// MediaRoot is the directory uploaded files are stored in (MEDIA_ROOT;
	// by default <data-dir>/media); "" refuses uploads.
	MediaRoot string
	// MaxImageBytes is the largest image an attachment may upload
	// (IMAGE_ATTACHMENT_MAX_SIZE, 400 above); 0 removes the limit.
	MaxImageBytes int64
	// EnforceGlobalUnique refuses duplicate IP addresses and prefixes in
	// the global table (ENFORCE_GLOBAL_UNIQUE); VRFs decide for themselves.
	EnforceGlobalUnique bool
	// Metrics guards GET /metrics (a bearer token, else an allow-list of
	// client networks; loopback by default); Separate serves it only on
	// cmd's own metrics listener.
	Metrics MetricsConfig
	// AccessLog receives one line per request; nil logs none.
	AccessLog *slog.Logger
	// SessionCookieAge is how long a browser login lasts
	// (SESSION_COOKIE_AGE).
	SessionCookieAge time.Duration
	// LoginLimit bounds failed logins at /login/.
	LoginLimit LoginLimit
}

// LoginLimit is how many failed logins a username and a client address
// may make within Window before /login/ answers 429 (0: no limit).
type LoginLimit struct {
	PerUser, PerAddress int
	Window              time.Duration
}

// MetricsConfig is where and to whom the Prometheus metrics are served.
type MetricsConfig struct {
	Guard    metrics.Guard
	Separate bool
}

// settings are the parameters the model rules read from each request's
// context (api.SettingsFrom).
func (c Config) settings() api.Settings {
	return api.Settings{EnforceGlobalUnique: c.EnforceGlobalUnique}
}

// Defaults returns NetBox's defaults.
func Defaults() Config {
	return Config{
		PaginateCount: 50,
		Build:         metrics.ReadBuild(""),
		Metrics:       MetricsConfig{Guard: metrics.Guard{Allow: metrics.DefaultAllow}},
		MaxPageSize:   1000,
		FilterUnknown: filters.Guard,
		LoginRequired: true,
		// DefaultPermissions: every user manages their own tokens.
		DefaultPermissions: DefaultPermissions(),
		// NetBox's DATA_UPLOAD_MAX_MEMORY_SIZE: 2.5 MiB.
		MaxBodyBytes: 5 << 19,
		DataSources:  datasources.Defaults(),
		// NetBox sets no cap (only the body size bounds a bulk request);
		// 1000 is its MAX_PAGE_SIZE and Django's
		// DATA_UPLOAD_MAX_NUMBER_FIELDS: what one request may read, it
		// may write. One bulk is one transaction holding SQLite's single
		// writer, so the cap bounds how long other writers wait.
		MaxBulkItems: 1000,
		// Twenty pages of 1000 (about 100 MB of interfaces) at once: more
		// than the cores of a typical server can build at a time.
		ListRowsInFlight: 20000,
		ShareListPages:   true,
		// NetBox's default CHANGELOG_RETENTION.
		ChangelogRetention: 90,
		Version:            "4.6.0",
		IdempotencyWindow:  24 * time.Hour,
		MaxImageBytes:      media.DefaultMaxSize,
		Webhooks:           webhooks.Defaults(),
		SessionCookieAge:   session.DefaultLifetime,
		LoginLimit:         LoginLimit{PerUser: 5, PerAddress: 20, Window: 15 * time.Minute},
		// NetBox's default ENFORCE_GLOBAL_UNIQUE.
		EnforceGlobalUnique: api.DefaultSettings().EnforceGlobalUnique,
	}
}
