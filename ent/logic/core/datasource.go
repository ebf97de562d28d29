package core

import (
	"context"
	"fmt"
	"net/url"
	"path/filepath"
	"slices"
	"strings"

	"entgo.io/ent"

	"github.com/inventory/inventory/ent/logic/hookguard"
	"github.com/inventory/inventory/ent/schema/api"
)

// Policy is what the running service allows data sources: Root is the
// directory local sources (and git repositories given as a path or
// file:// URL) must lie below ("" refuses them), Guard the address guard
// of http(s) git URLs (the webhooks' allow-list). The datasources package
// attaches it to every write of a data source (a client hook).
type Policy struct {
	Root  string
	Guard *hookguard.Guard
}

type policyKey struct{}

// WithPolicy returns ctx carrying p.
func WithPolicy(ctx context.Context, p *Policy) context.Context {
	return context.WithValue(ctx, policyKey{}, p)
}

// strict is the policy of a write no engine configured: no local paths,
// nothing internal.
var strict = &Policy{Guard: mustGuard()}

func mustGuard() *hookguard.Guard {
	g, _ := hookguard.NewGuard(nil)
	return g
}

// PolicyFrom returns the policy in ctx, or the strict one.
func PolicyFrom(ctx context.Context) *Policy {
	if p, ok := ctx.Value(policyKey{}).(*Policy); ok && p != nil && p.Guard != nil {
		return p
	}
	return strict
}

// Messages.
const (
	msgLocalScheme = "URLs for local sources must start with file:// (or specify no scheme)"
	msgGitScheme   = "URLs for git sources must start with http://, https:// or file:// (or be a path on the server)."
)

// DataSourceHooks are DataSource.clean(): NetBox's scheme rule for local
// sources, and this service's reach rules (a path below the root, a
// public git host unless allowed).
func DataSourceHooks() []ent.Hook {
	return []ent.Hook{func(next ent.Mutator) ent.Mutator {
		return ent.MutateFunc(func(ctx context.Context, m ent.Mutation) (ent.Value, error) {
			if err := checkDataSource(ctx, m); err != nil {
				return nil, err
			}
			return next.Mutate(ctx, m)
		})
	}}
}

// JobIntervals are NetBox's JobIntervalChoices (minutes): the values a
// sync_interval may take.
var JobIntervals = []int{1, 60, 720, 1440, 10080, 43200}

func checkDataSource(ctx context.Context, m ent.Mutation) error {
	if v, ok := m.Field("sync_interval"); ok {
		if n, _ := v.(int); !slices.Contains(JobIntervals, n) {
			// Django's model choice validation message.
			return &api.FieldError{Field: "sync_interval", Message: fmt.Sprintf("Value %d is not a valid choice.", n)}
		}
	}
	typ, typeSet := m.Field("type")
	src, srcSet := m.Field("source_url")
	if !typeSet && !srcSet {
		return nil
	}
	if !typeSet || !srcSet {
		// A partial update: read the other from the row.
		old, ok := m.(interface {
			OldType(context.Context) (string, error)
			OldSourceURL(context.Context) (string, error)
		})
		if !ok {
			return nil
		}
		var err error
		if !typeSet {
			if typ, err = old.OldType(ctx); err != nil {
				return err
			}
		}
		if !srcSet {
			if src, err = old.OldSourceURL(ctx); err != nil {
				return err
			}
		}
	}
	t, _ := typ.(string)
	s, _ := src.(string)
	_, err := Resolve(PolicyFrom(ctx), t, s)
	return err
}

// Target is where a data source's files come from: Path, a directory on
// the server (local sources, and git repositories on the server's disk),
// or URL, a remote git repository.
type Target struct {
	Path string
	URL  *url.URL
}

// Resolve checks a data source's type and URL against p and says where
// its files come from; the error is a 400 on source_url (or type).
func Resolve(p *Policy, typ, source string) (Target, error) {
	fe := func(msg string) error { return &api.FieldError{Field: "source_url", Message: msg} }
	u, err := url.Parse(source)
	if err != nil || strings.ContainsAny(source, "\x00\r\n") {
		return Target{}, fe("Enter a valid URL or path.")
	}
	scheme := strings.ToLower(u.Scheme)
	if len(scheme) == 1 {
		scheme = "" // a Windows drive letter is no scheme
	}
	switch typ {
	case "local":
		if scheme != "" && scheme != "file" {
			return Target{}, fe(msgLocalScheme)
		}
	case "git":
		switch scheme {
		case "", "file":
		case "http", "https":
			if u.Host == "" {
				return Target{}, fe("Enter a valid URL.")
			}
			if u.User != nil {
				return Target{}, fe("Put credentials in the parameters (username, password), not in the URL.")
			}
			host := u.Hostname()
			if !p.Guard.AllowedHost(host) {
				if ip, ok := hookguard.LiteralIP(host); ok && !p.Guard.AllowedIP(ip) {
					return Target{}, fe(fmt.Sprintf("%q is an internal address (%s): loopback, private, link-local, multicast and reserved hosts are refused unless the operator allows them (INVENTORY_WEBHOOK_ALLOW).", host, ip.Unmap().WithZone("")))
				}
			}
			return Target{URL: u}, nil
		default:
			return Target{}, fe(msgGitScheme)
		}
	case "amazon-s3":
		return Target{}, &api.FieldError{Field: "type", Message: "The amazon-s3 backend is not served here: use local or git."}
	default:
		return Target{}, &api.FieldError{Field: "type", Message: fmt.Sprintf("Unknown backend type: %s", typ)}
	}
	path := source
	if scheme == "file" {
		if u.Host != "" && u.Host != "localhost" {
			return Target{}, fe("A file:// URL names a path on this server (file:///path).")
		}
		path = u.Path
	}
	return localTarget(p, path)
}

// localTarget is a path below the root: absolute paths must lie below it,
// relative ones are taken from it; ".." may not climb out. Symbolic links
// are resolved again at sync, which refuses any that lead out.
func localTarget(p *Policy, path string) (Target, error) {
	fe := func(msg string) error { return &api.FieldError{Field: "source_url", Message: msg} }
	if p.Root == "" {
		return Target{}, fe("Sources on the server's disk are disabled: the operator has not configured a data sources root (INVENTORY_DATA_SOURCES_ROOT).")
	}
	root := filepath.Clean(p.Root)
	full := path
	if !filepath.IsAbs(full) {
		full = filepath.Join(root, full)
	}
	full = filepath.Clean(full)
	if !Within(root, full) {
		// The root itself is not named: the server's layout is the
		// operator's to tell.
		return Target{}, fe("The path must be a directory below the data sources root (INVENTORY_DATA_SOURCES_ROOT); give it relative to that root.")
	}
	return Target{Path: full}, nil
}

// Within reports whether path is root or below it (both clean).
func Within(root, path string) bool {
	rel, err := filepath.Rel(root, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}
