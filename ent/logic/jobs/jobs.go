package jobs

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/google/uuid"

	"github.com/inventory/inventory/ent"
	"github.com/inventory/inventory/ent/job"
)

// The statuses of a job (NetBox's JobStatusChoices).
const (
	StatusPending   = "pending"
	StatusScheduled = "scheduled"
	StatusRunning   = "running"
	StatusCompleted = "completed"
	StatusErrored   = "errored"
	StatusFailed    = "failed"
)

// MaxLogEntries bounds the log entries one run keeps (a sync of many
// files logs per file at most this many lines; the rest are counted).
const MaxLogEntries = 200

// Spec describes a run: its name, the object it concerns (a data source:
// object type "core.datasource" and its id), its recurrence in minutes
// for scheduled jobs, and the user who asked for it.
type Spec struct {
	Name       string
	ObjectType string
	ObjectID   int
	Interval   int
	UserID     *int
}

// Log collects a run's log entries in NetBox's JobLogEntry shape and
// the data the run reports.
type Log struct {
	entries []any
	dropped int
	Data    any
}

// Info and Warning add an entry.
func (l *Log) Info(msg string)    { l.add("info", msg) }
func (l *Log) Warning(msg string) { l.add("warning", msg) }

func (l *Log) add(level, msg string) {
	if len(l.entries) >= MaxLogEntries {
		l.dropped++
		return
	}
	l.entries = append(l.entries, map[string]any{
		"level": level, "message": msg, "timestamp": time.Now().UTC().Format(time.RFC3339Nano),
	})
}

func (l *Log) all() []any {
	if l.dropped == 0 {
		return l.entries
	}
	return append(l.entries, map[string]any{"level": "warning",
		"message":   fmt.Sprintf("%d more log entries were not kept", l.dropped),
		"timestamp": time.Now().UTC().Format(time.RFC3339Nano)})
}

// Failure is an error a run ends with that is the job's own outcome (a
// data source that cannot be read): the job is "failed" with its
// message. Any other error leaves the job "errored" (NetBox: an
// exception in the job's code).
type Failure struct{ Err error }

func (f *Failure) Error() string { return f.Err.Error() }
func (f *Failure) Unwrap() error { return f.Err }

func now() time.Time { return time.Now().UTC().Truncate(time.Microsecond) }

// Enqueue records a pending run and returns its row; Start runs it later.
func Enqueue(ctx context.Context, c *ent.Client, s Spec) (*ent.Job, error) {
	b := c.Job.Create().SetName(s.Name).SetJobID(uuid.NewString()).SetStatus(StatusPending).SetNillableUserID(s.UserID)
	if s.ObjectType != "" {
		b.SetObjectType(s.ObjectType).SetObjectID(s.ObjectID)
	}
	if s.Interval > 0 {
		b.SetInterval(s.Interval)
	}
	return b.Save(ctx)
}

// Run records a run of fn: a row that is running while fn runs and then
// completed, or errored/failed with fn's error, which Run returns.
func Run(ctx context.Context, c *ent.Client, s Spec, fn func(ctx context.Context, l *Log) error) error {
	j, err := Enqueue(ctx, c, s)
	if err != nil {
		return fmt.Errorf("record job %s: %w", s.Name, err)
	}
	return Start(ctx, c, j, fn)
}

// Start runs fn for the pending job j and records its outcome.
func Start(ctx context.Context, c *ent.Client, j *ent.Job, fn func(ctx context.Context, l *Log) error) error {
	// Claimed by compare-and-set: of several workers polling the same
	// pending job, one runs it.
	n, err := c.Job.Update().Where(job.ID(j.ID), job.StatusEQ(StatusPending)).
		SetStatus(StatusRunning).SetStarted(now()).Save(ctx)
	if err != nil {
		return fmt.Errorf("record job %s: %w", j.Name, err)
	}
	if n == 0 {
		return ErrClaimed
	}
	l := &Log{}
	runErr := fn(ctx, l)
	status, msg := StatusCompleted, ""
	if runErr != nil {
		status, msg = StatusErrored, runErr.Error()
		var f *Failure
		if errors.As(runErr, &f) {
			status = StatusFailed
		}
	}
	u := c.Job.UpdateOne(j).SetStatus(status).SetCompleted(now()).SetError(msg).SetLogEntries(l.all())
	if l.Data != nil {
		raw, err := json.Marshal(l.Data)
		if err == nil {
			u.SetData(raw)
		}
	}
	// The outcome is written even when ctx ended meanwhile (shutdown).
	if err := u.Exec(context.WithoutCancel(ctx)); err != nil {
		slog.Error("record job outcome", "job", j.Name, "error", err)
	}
	return runErr
}

// Retention is how long finished job records are kept: NetBox's
// JOB_RETENTION default, 90 days.
const Retention = 90 * 24 * time.Hour

// Prune deletes the records of jobs that ended more than Retention before
// now, and returns how many went.
func Prune(ctx context.Context, c *ent.Client, at time.Time) (int, error) {
	return c.Job.Delete().Where(job.CompletedLT(at.Add(-Retention))).Exec(ctx)
}

// ErrClaimed: another worker started the job first.
var ErrClaimed = errors.New("the job was started by another worker")
