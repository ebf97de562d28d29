package webhooks

import (
	"fmt"
	"time"

	"github.com/inventory/inventory/ent/logic/jinja"
)

// Config are the delivery settings (flags and INVENTORY_WEBHOOK_* env
// twins in cmd/inventory).
type Config struct {
	// AllowedTargets lists CIDRs ("10.0.0.0/8", "127.0.0.1/32") and host
	// names ("receiver.internal") that webhooks may reach although they are
	// internal (loopback, private, link-local ...). Empty: only public
	// addresses.
	AllowedTargets []string
	// CAFileDir is the directory webhooks' ca_file_path must point into
	// (checked when a webhook is saved and again at delivery). Empty: CA
	// files are refused.
	CAFileDir string
	// MaxAttempts is the number of sends before a delivery is failed.
	MaxAttempts int
	// BackoffBase is the delay after the first failure; it doubles per
	// attempt (with jitter) up to BackoffMax.
	BackoffBase time.Duration
	BackoffMax  time.Duration
	// Timeout bounds one HTTP request (connect to last body byte).
	Timeout time.Duration
	// Lease is how long a worker's claim on a delivery holds: when the
	// worker dies (kill -9, a replica lost) another worker takes the
	// delivery over after this long and sends it again with the same
	// delivery id. It must exceed Timeout; 0 means 2·Timeout + 30 s.
	Lease time.Duration
	// PollInterval is how often the jobs look for new events and due
	// deliveries.
	PollInterval time.Duration
	// BatchSize bounds events dispatched and deliveries claimed per run.
	BatchSize int
	// Concurrency is the number of sends in flight per worker.
	Concurrency int
	// ResponseBodyLimit is how much of a response body is kept.
	ResponseBodyLimit int
	// Retention: finished deliveries and dispatched outbox events older
	// than this are deleted (0 keeps them).
	Retention time.Duration
	// Templates bounds template rendering.
	Templates jinja.Limits
	// UserAgent of outgoing requests.
	UserAgent string
}

// Defaults are the default delivery settings.
func Defaults() Config {
	return Config{
		MaxAttempts:       5,
		BackoffBase:       10 * time.Second,
		BackoffMax:        time.Hour,
		Timeout:           10 * time.Second,
		PollInterval:      time.Second,
		BatchSize:         100,
		Concurrency:       4,
		ResponseBodyLimit: 2048,
		Retention:         7 * 24 * time.Hour,
		Templates:         jinja.DefaultLimits,
		UserAgent:         "inventory-webhooks",
	}
}

// Check reports settings that cannot work together (defaults filled in).
func (c Config) Check() error {
	c.fill()
	if c.Lease > 0 && c.Lease <= c.Timeout {
		return fmt.Errorf("webhook lease %v must exceed the webhook timeout %v", c.Lease, c.Timeout)
	}
	_, err := NewGuard(c.AllowedTargets)
	return err
}

func (c *Config) fill() {
	d := Defaults()
	if c.MaxAttempts <= 0 {
		c.MaxAttempts = d.MaxAttempts
	}
	if c.BackoffBase <= 0 {
		c.BackoffBase = d.BackoffBase
	}
	if c.BackoffMax <= 0 {
		c.BackoffMax = d.BackoffMax
	}
	if c.Timeout <= 0 {
		c.Timeout = d.Timeout
	}
	if c.PollInterval <= 0 {
		c.PollInterval = d.PollInterval
	}
	if c.BatchSize <= 0 {
		c.BatchSize = d.BatchSize
	}
	if c.Concurrency <= 0 {
		c.Concurrency = d.Concurrency
	}
	if c.ResponseBodyLimit <= 0 {
		c.ResponseBodyLimit = d.ResponseBodyLimit
	}
	if c.Templates.MaxOutput <= 0 {
		c.Templates = d.Templates
	}
	if c.UserAgent == "" {
		c.UserAgent = d.UserAgent
	}
}
