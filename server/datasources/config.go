package datasources

import (
	"fmt"
	"time"
)

// Config bounds syncs. Zero values take the defaults.
type Config struct {
	// Root is the directory local sources, and git repositories given as
	// a path or file:// URL, must lie below (DATA_SOURCES_ROOT; cmd
	// defaults it to <data-dir>/datasources). "" refuses them.
	Root string
	// MaxFileSize is the largest file a sync takes (a larger one fails
	// the sync).
	MaxFileSize int64
	// MaxFiles is the most files one source may hold after its ignore
	// rules.
	MaxFiles int
	// MaxTotalSize bounds the files of one source together, and the
	// bytes a git clone may download.
	MaxTotalSize int64
	// FetchTimeout bounds reading a source: a clone, or a directory walk.
	FetchTimeout time.Duration
	// PollInterval is how often the engine runs queued syncs and looks
	// for sources whose sync_interval is due.
	PollInterval time.Duration
	// AllowedTargets are the webhooks' allow-list: internal hosts that
	// http(s) git remotes may reach.
	AllowedTargets []string
}

// Defaults are the default limits.
func Defaults() Config {
	return Config{
		MaxFileSize:  1 << 20,
		MaxFiles:     1000,
		MaxTotalSize: 64 << 20,
		FetchTimeout: 2 * time.Minute,
		PollInterval: 5 * time.Second,
	}
}

func (c Config) withDefaults() Config {
	d := Defaults()
	if c.MaxFileSize <= 0 {
		c.MaxFileSize = d.MaxFileSize
	}
	if c.MaxFiles <= 0 {
		c.MaxFiles = d.MaxFiles
	}
	if c.MaxTotalSize <= 0 {
		c.MaxTotalSize = d.MaxTotalSize
	}
	if c.FetchTimeout <= 0 {
		c.FetchTimeout = d.FetchTimeout
	}
	if c.PollInterval <= 0 {
		c.PollInterval = d.PollInterval
	}
	return c
}

// limitError is a source beyond a limit.
func limitError(format string, a ...any) error { return fmt.Errorf(format, a...) }
