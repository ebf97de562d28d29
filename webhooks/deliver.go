// Delivery side of the webhooks package (the change-capture side lives in
// capture*.go and doc.go).
//
// The flow: change capture writes an OutboxEvent in the transaction of
// every change. Dispatch (dispatch.go) turns new events into Delivery rows,
// one per matching event rule whose action is a webhook. Deliver (this
// file) claims due rows, renders URL, headers and body with the sandboxed
// Jinja engine (render.go, jinja/), signs, sends through the SSRF-guarded
// client (client.go) and records the outcome; failures are retried with
// exponential backoff and jitter up to Config.MaxAttempts, then failed
// until an operator requeues them (tasks.go). Jobs (jobs.go) run both on a
// gocron schedule inside `serve` or `inventory worker`; tests call
// Dispatch and Deliver directly.
//
// Delivery is at least once: a worker that dies after sending but before
// recording leaves a lease that expires, and the row is sent again with
// the same X-Delivery-ID, so receivers can de-duplicate.
package webhooks

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"os"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"entgo.io/ent/dialect"
	"entgo.io/ent/dialect/sql"
	"github.com/google/uuid"

	"github.com/inventory/inventory/ent"
	"github.com/inventory/inventory/ent/db"
	"github.com/inventory/inventory/ent/delivery"
	"github.com/inventory/inventory/ent/logic/hookguard"
)

// Delivery states (NetBox's background task statuses).
const (
	StatusQueued    = "queued"
	StatusScheduled = "scheduled"
	StatusStarted   = "started"
	StatusFinished  = "finished"
	StatusFailed    = "failed"
)

// Engine dispatches events and delivers webhooks over one database.
type Engine struct {
	client  *ent.Client
	dialect string
	cfg     Config
	http    *Client
	log     *slog.Logger
	// Now is the clock (tests move it forward instead of sleeping).
	Now func() time.Time
	// WorkerID names this worker in claims and task listings.
	WorkerID string

	stats workerStats
}

// New builds an engine. The allow-list is parsed here.
func New(d *db.DB, cfg Config) (*Engine, error) {
	cfg.fill()
	if err := cfg.Check(); err != nil {
		return nil, err
	}
	g, err := NewGuard(cfg.AllowedTargets)
	if err != nil {
		return nil, err
	}
	installPolicy(d.Client, &hookguard.Policy{Guard: g, CADir: cfg.CAFileDir})
	host, _ := os.Hostname()
	return &Engine{
		client: d.Client, dialect: d.Dialect, cfg: cfg,
		http:     NewClient(g, cfg.Timeout),
		log:      slog.Default().With("component", "webhooks"),
		Now:      func() time.Time { return time.Now().UTC() },
		WorkerID: fmt.Sprintf("%s:%d:%s", host, os.Getpid(), uuid.NewString()[:8]),
	}, nil
}

// Config returns the effective settings.
func (e *Engine) Config() Config { return e.cfg }

func (e *Engine) now() time.Time { return e.Now().UTC().Truncate(time.Microsecond) }

// lease is how long a claim holds: longer than any send can take.
func (e *Engine) lease() time.Duration {
	if e.cfg.Lease > 0 {
		return e.cfg.Lease
	}
	return 2*e.cfg.Timeout + 30*time.Second
}

// Backoff is the delay after the n-th failed attempt (n >= 1): base·2^(n-1)
// capped at max, with "equal jitter" (half fixed, half random) so that
// deliveries failing together do not retry together.
func Backoff(base, max time.Duration, n int) time.Duration {
	d := base
	for i := 1; i < n && d < max; i++ {
		d *= 2
	}
	if d > max {
		d = max
	}
	half := d / 2
	if half <= 0 {
		return d
	}
	return half + rand.N(half+1)
}

type claimed struct {
	row   *ent.Delivery
	claim string
}

// claim takes up to n due deliveries: queued or scheduled ones whose time
// has come, and started ones whose lease has expired (their worker died).
// PostgreSQL: FOR UPDATE SKIP LOCKED, so concurrent workers take disjoint
// rows; SQLite: the transaction is immediate, so claims are serialised.
// The claim token guards the later result update.
func (e *Engine) claim(ctx context.Context, n int) ([]claimed, error) {
	tx, err := e.client.Tx(ctx)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	now := e.now()
	q := tx.Delivery.Query().Where(delivery.Or(
		delivery.And(delivery.StatusIn(StatusQueued, StatusScheduled), delivery.NextAttemptAtLTE(now)),
		delivery.And(delivery.StatusEQ(StatusStarted), delivery.LeaseUntilLT(now)),
	)).Order(delivery.ByNextAttemptAt(), delivery.ByID()).Limit(n)
	if e.dialect == dialect.Postgres {
		q = q.ForUpdate(sql.WithLockAction(sql.SkipLocked))
	}
	rows, err := q.All(ctx)
	if err != nil {
		return nil, err
	}
	var out []claimed
	for _, r := range rows {
		token := uuid.NewString()
		lease := now.Add(e.lease())
		r, err = tx.Delivery.UpdateOne(r).
			SetStatus(StatusStarted).AddAttempts(1).SetStartedAt(now).SetLeaseUntil(lease).
			SetWorker(e.WorkerID).SetClaim(token).ClearEndedAt().
			Save(ctx)
		if err != nil {
			return nil, err
		}
		out = append(out, claimed{r, token})
	}
	if err := tx.Commit(); err != nil {
		return nil, err
	}
	return out, nil
}

// Deliver claims due deliveries (up to BatchSize), sends them with up to
// Concurrency requests in flight, and records each outcome. It returns the
// number of attempts made.
func (e *Engine) Deliver(ctx context.Context) (int, error) {
	rows, err := e.claim(ctx, e.cfg.BatchSize)
	if err != nil || len(rows) == 0 {
		return 0, err
	}
	sem := make(chan struct{}, e.cfg.Concurrency)
	var wg sync.WaitGroup
	var mu sync.Mutex
	var firstErr error
	for _, c := range rows {
		wg.Add(1)
		sem <- struct{}{}
		go func(c claimed) {
			defer func() { <-sem; wg.Done() }()
			if err := e.attempt(ctx, c); err != nil {
				mu.Lock()
				if firstErr == nil {
					firstErr = err
				}
				mu.Unlock()
			}
		}(c)
	}
	wg.Wait()
	return len(rows), firstErr
}

// outcome is one attempt's result.
type outcome struct {
	code      *int
	body      string
	err       string
	duration  time.Duration
	permanent bool // do not retry (template error, webhook gone)
}

func (e *Engine) attempt(ctx context.Context, c claimed) error {
	e.begin()
	o := e.send(ctx, c.row)
	e.end(o)
	return e.record(ctx, c, o)
}

func (e *Engine) send(ctx context.Context, d *ent.Delivery) outcome {
	w, err := e.client.Webhook.Get(ctx, d.WebhookID)
	if err != nil {
		if ent.IsNotFound(err) {
			return outcome{err: fmt.Sprintf("webhook %d no longer exists", d.WebhookID), permanent: true}
		}
		return outcome{err: err.Error()}
	}
	req, err := Render(w, d.Context, d.UUID, d.RequestID, e.cfg.UserAgent, e.cfg.Templates)
	if err != nil {
		return outcome{err: err.Error(), permanent: true}
	}
	ca := ""
	if w.CaFilePath != nil {
		ca = *w.CaFilePath
	}
	if ca != "" {
		// Checked at save too; this catches definitions saved before the
		// check or a directory setting changed since.
		if err := hookguard.CAFile(e.cfg.CAFileDir, ca); err != nil {
			return outcome{err: "ca_file_path: " + err.Error(), permanent: true}
		}
	}
	hc, err := e.http.For(w.SslVerification, ca)
	if err != nil {
		return outcome{err: err.Error()}
	}
	rctx, cancel := context.WithTimeout(ctx, e.cfg.Timeout)
	defer cancel()
	hr, err := http.NewRequestWithContext(rctx, req.Method, req.URL, strings.NewReader(string(req.Body)))
	if err != nil {
		return outcome{err: err.Error(), permanent: true}
	}
	hr.Header = req.Header
	start := time.Now()
	resp, err := hc.Do(hr)
	if err != nil {
		return outcome{err: err.Error(), duration: time.Since(start)}
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(io.LimitReader(resp.Body, int64(e.cfg.ResponseBodyLimit)+1))
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<20))
	o := outcome{code: &resp.StatusCode, body: truncateBytes(raw, e.cfg.ResponseBodyLimit), duration: time.Since(start)}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		o.err = fmt.Sprintf("Status %d returned with content '%s', webhook FAILED to process.", resp.StatusCode, o.body)
	}
	return o
}

// truncate keeps at most n bytes of valid UTF-8.
func truncateBytes(b []byte, n int) string {
	if len(b) > n {
		b = b[:n]
		for len(b) > 0 && !utf8.Valid(b) {
			b = b[:len(b)-1]
		}
	}
	return strings.ToValidUTF8(string(b), "\uFFFD")
}

// record stores an attempt: finished on 2XX; otherwise scheduled for a
// retry, or failed once the attempts are used up. The update only applies
// while this worker still holds the claim.
func (e *Engine) record(ctx context.Context, c claimed, o outcome) error {
	now := e.now()
	entry := map[string]any{"attempt": c.row.Attempts, "time": now.Format(time.RFC3339Nano),
		"worker": e.WorkerID, "duration_ms": o.duration.Milliseconds()}
	if o.code != nil {
		entry["status_code"] = *o.code
	}
	if o.err != "" {
		entry["error"] = o.err
	}
	u := e.client.Delivery.Update().Where(delivery.ID(c.row.ID), delivery.Claim(c.claim), delivery.StatusEQ(StatusStarted)).
		SetResponseBody(o.body).SetError(o.err).SetDurationMs(int(o.duration.Milliseconds())).
		ClearLeaseUntil().AppendLog([]map[string]any{entry})
	if o.code != nil {
		u = u.SetResponseCode(*o.code)
	} else {
		u = u.ClearResponseCode()
	}
	switch {
	case o.err == "":
		u = u.SetStatus(StatusFinished).SetEndedAt(now)
	case o.permanent || c.row.Attempts >= e.cfg.MaxAttempts:
		u = u.SetStatus(StatusFailed).SetEndedAt(now)
	default:
		u = u.SetStatus(StatusScheduled).SetNextAttemptAt(now.Add(Backoff(e.cfg.BackoffBase, e.cfg.BackoffMax, c.row.Attempts)))
	}
	n, err := u.Save(ctx)
	if err != nil {
		return err
	}
	if n == 0 {
		e.log.Warn("delivery was deleted or reclaimed by another worker before its result was recorded", "task", c.row.UUID)
	}
	if o.err != "" {
		e.log.Info("webhook delivery failed", "task", c.row.UUID, "webhook", c.row.WebhookName, "attempt", c.row.Attempts, "error", o.err)
	}
	return nil
}

// ErrNotFound: no such task.
var ErrNotFound = errors.New("task not found")
