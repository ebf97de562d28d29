package session

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"log/slog"
	"net/http"
	"time"

	"github.com/go-co-op/gocron/v2"

	"github.com/inventory/inventory/ent"
	"github.com/inventory/inventory/ent/logic/jobs"
	entsession "github.com/inventory/inventory/ent/session"
)

// Names of the cookies, header and form field, Django's: a NetBox user's
// habits (and tools that read Django's names) carry over.
const (
	// Cookie holds the session's secret.
	Cookie = "sessionid"
	// CSRFCookie is the login form's double-submit token: before login
	// there is no session to hold a synchronizer token.
	CSRFCookie = "csrftoken"
	// CSRFHeader carries the session's token on unsafe API requests.
	CSRFHeader = "X-CSRFToken"
	// CSRFField carries it in a form.
	CSRFField = "csrfmiddlewaretoken"
)

// DefaultLifetime is Django's SESSION_COOKIE_AGE: two weeks.
const DefaultLifetime = 14 * 24 * time.Hour

// NewSecret is 32 random bytes, URL-safe: a cookie's secret or a token.
func NewSecret() string {
	b := make([]byte, 32)
	rand.Read(b) // crypto/rand never fails (Go 1.24+)
	return base64.RawURLEncoding.EncodeToString(b)
}

// Digest is what the table stores of a secret: a stolen row is no cookie.
func Digest(secret string) string {
	sum := sha256.Sum256([]byte(secret))
	return hex.EncodeToString(sum[:])
}

// Equal compares tokens in constant time; an empty token never matches.
func Equal(want, got string) bool {
	return want != "" && subtle.ConstantTimeCompare([]byte(want), []byte(got)) == 1
}

// Create stores a new session of u, valid for lifetime from now, and
// returns the cookie's secret and the row.
func Create(ctx context.Context, c *ent.Client, u *ent.User, now time.Time, lifetime time.Duration) (string, *ent.Session, error) {
	secret := NewSecret()
	row, err := c.Session.Create().SetKey(Digest(secret)).SetUserID(u.ID).SetCsrfToken(NewSecret()).
		SetPasswordDigest(Digest(u.Password)).
		SetCreated(now).SetExpires(now.Add(lifetime)).Save(ctx)
	return secret, row, err
}

// Lookup returns the unexpired session of secret with its user, or nil;
// nil too when the user's password changed since the login.
func Lookup(ctx context.Context, c *ent.Client, secret string, now time.Time) (*ent.Session, error) {
	if secret == "" {
		return nil, nil
	}
	row, err := c.Session.Query().Where(entsession.KeyEQ(Digest(secret)), entsession.ExpiresGT(now)).WithUser().Only(ctx)
	if ent.IsNotFound(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if row.Edges.User == nil || !Equal(row.PasswordDigest, Digest(row.Edges.User.Password)) {
		return nil, nil
	}
	return row, nil
}

// Delete ends the session of secret (a logout); an unknown one is no error.
func Delete(ctx context.Context, c *ent.Client, secret string) error {
	_, err := c.Session.Delete().Where(entsession.KeyEQ(Digest(secret))).Exec(ctx)
	return err
}

// Revoke ends every session of a user and returns how many there were.
func Revoke(ctx context.Context, c *ent.Client, userID int) (int, error) {
	return c.Session.Delete().Where(entsession.UserIDEQ(userID)).Exec(ctx)
}

// Prune deletes the sessions expired at now. Lookup already refuses
// them; this only keeps the table small.
func Prune(ctx context.Context, c *ent.Client, now time.Time) (int, error) {
	return c.Session.Delete().Where(entsession.ExpiresLTE(now)).Exec(ctx)
}

// HousekeepingJob is the name of the hourly job's runs in /api/core/jobs/
// (NetBox's system job of the same name also expires sessions and old
// jobs).
const HousekeepingJob = "Housekeeping"

// RunHousekeeping deletes expired sessions and the job records older
// than jobs.Retention, as one recorded job.
func RunHousekeeping(ctx context.Context, c *ent.Client) error {
	return jobs.Run(ctx, c, jobs.Spec{Name: HousekeepingJob, Interval: int(PruneEvery / time.Minute)}, func(ctx context.Context, l *jobs.Log) error {
		at := time.Now().UTC()
		n, err := Prune(ctx, c, at)
		if err != nil {
			return err
		}
		old, err := jobs.Prune(ctx, c, at)
		if err != nil {
			return err
		}
		l.Info(fmt.Sprintf("Deleted %d expired sessions and %d job records.", n, old))
		l.Data = map[string]any{"sessions_deleted": n, "jobs_deleted": old}
		if n > 0 {
			slog.Info("session prune", "deleted", n)
		}
		return nil
	})
}

// PruneEvery is how often StartPrune runs.
const PruneEvery = time.Hour

// StartPrune runs Prune at start and then every PruneEvery on a gocron
// scheduler until Shutdown is called on it. Every replica may run it:
// the delete is idempotent.
func StartPrune(ctx context.Context, c *ent.Client) (gocron.Scheduler, error) {
	s, err := gocron.NewScheduler()
	if err != nil {
		return nil, err
	}
	_, err = s.NewJob(gocron.DurationJob(PruneEvery), gocron.NewTask(func() {
		if err := RunHousekeeping(ctx, c); err != nil {
			slog.Error("session prune", "err", err)
		}
	}), gocron.WithStartAt(gocron.WithStartImmediately()), gocron.WithSingletonMode(gocron.LimitModeReschedule), gocron.WithName("session-prune"))
	if err != nil {
		s.Shutdown()
		return nil, err
	}
	s.Start()
	return s, nil
}

// NewCookie is the cookie of a value: HttpOnly (no script reads it),
// SameSite=Lax (no cross-site POST carries it), Secure over TLS. maxAge
// 0 makes a browser-session cookie, negative deletes it.
func NewCookie(name, value string, maxAge time.Duration, secure bool) *http.Cookie {
	c := &http.Cookie{Name: name, Value: value, Path: "/", HttpOnly: true, SameSite: http.SameSiteLaxMode, Secure: secure}
	switch {
	case maxAge < 0:
		c.MaxAge = -1
	case maxAge > 0:
		c.MaxAge = int(maxAge / time.Second)
	}
	return c
}
