package api

import "context"

// Settings are the configuration parameters that model rules depend on
// (NetBox's ENFORCE_GLOBAL_UNIQUE). Configuration is passed as structs,
// never read from globals: the server puts its Settings in every request's
// context, and hooks read them with SettingsFrom.
type Settings struct {
	// EnforceGlobalUnique refuses a duplicate IP address or prefix in the
	// global table (no VRF), as VRFs with enforce_unique do within
	// themselves (ENFORCE_GLOBAL_UNIQUE).
	EnforceGlobalUnique bool
}

// DefaultSettings are NetBox's defaults.
func DefaultSettings() Settings { return Settings{EnforceGlobalUnique: true} }

type settingsKey struct{}

// WithSettings returns ctx carrying s.
func WithSettings(ctx context.Context, s Settings) context.Context {
	return context.WithValue(ctx, settingsKey{}, s)
}

// SettingsFrom returns the Settings in ctx, or NetBox's defaults when ctx
// carries none (a write outside a request: a migration, a test).
func SettingsFrom(ctx context.Context) Settings {
	if s, ok := ctx.Value(settingsKey{}).(Settings); ok {
		return s
	}
	return DefaultSettings()
}
