package webhooks

import (
	"context"
	"sync"
	"time"

	"github.com/go-co-op/gocron/v2"

	"github.com/inventory/inventory/ent/delivery"
	"github.com/inventory/inventory/ent/idempotencykey"
	"github.com/inventory/inventory/ent/logic/jobs"
	"github.com/inventory/inventory/ent/outboxevent"
)

// RunOnce dispatches every pending event and makes every due delivery
// attempt, looping until nothing is left (tests call this directly).
func (e *Engine) RunOnce(ctx context.Context) error {
	for {
		n, err := e.Dispatch(ctx)
		if err != nil {
			return err
		}
		if n < e.cfg.BatchSize {
			break
		}
	}
	for {
		n, err := e.Deliver(ctx)
		if err != nil {
			return err
		}
		if n < e.cfg.BatchSize {
			return nil
		}
	}
}

// Cleanup deletes finished deliveries and dispatched outbox events older
// than the retention period, and the expired answers of Idempotency-Keys
// (server/idempotency.go; this is the housekeeping job every worker runs).
func (e *Engine) Cleanup(ctx context.Context) error {
	if _, err := e.client.IdempotencyKey.Delete().Where(idempotencykey.ExpiresLT(e.now())).Exec(ctx); err != nil {
		return err
	}
	if e.cfg.Retention <= 0 {
		return nil
	}
	cut := e.now().Add(-e.cfg.Retention)
	if _, err := e.client.Delivery.Delete().Where(delivery.StatusEQ(StatusFinished), delivery.EndedAtLT(cut)).Exec(ctx); err != nil {
		return err
	}
	_, err := e.client.OutboxEvent.Delete().Where(outboxevent.DispatchedLT(cut)).Exec(ctx)
	return err
}

// CleanupJob is the name of the cleanup job's runs in /api/core/jobs/.
const CleanupJob = "Webhook cleanup"

// RunCleanup runs Cleanup once as a recorded job (a core.Job row). The
// dispatch and delivery polls, every PollInterval, are not recorded: each
// delivery is its own background task already.
func (e *Engine) RunCleanup(ctx context.Context) error {
	return jobs.Run(ctx, e.client, jobs.Spec{Name: CleanupJob, Interval: 60}, func(ctx context.Context, _ *jobs.Log) error {
		return e.Cleanup(ctx)
	})
}

// Start runs the dispatch, delivery and cleanup jobs on a gocron
// scheduler until ctx ends or the returned stop is called. Each job runs
// in singleton mode (a slow run is not overlapped by the next).
func (e *Engine) Start(ctx context.Context) (stop func() error, err error) {
	s, err := gocron.NewScheduler()
	if err != nil {
		return nil, err
	}
	every := gocron.DurationJob(e.cfg.PollInterval)
	once := gocron.WithSingletonMode(gocron.LimitModeReschedule)
	now := gocron.WithStartAt(gocron.WithStartImmediately())
	jobs := []struct {
		name string
		def  gocron.JobDefinition
		fn   func(context.Context) error
	}{
		{"webhooks-dispatch", every, func(ctx context.Context) error { _, err := e.Dispatch(ctx); return err }},
		{"webhooks-deliver", every, func(ctx context.Context) error { _, err := e.Deliver(ctx); return err }},
		{"webhooks-cleanup", gocron.DurationJob(time.Hour), e.RunCleanup},
	}
	for _, j := range jobs {
		j := j
		task := gocron.NewTask(func() {
			if err := j.fn(ctx); err != nil && ctx.Err() == nil {
				e.log.Error("job failed", "job", j.name, "error", err)
			}
		})
		if _, err := s.NewJob(j.def, task, once, now, gocron.WithName(j.name)); err != nil {
			return nil, err
		}
	}
	s.Start()
	e.started()
	var mu sync.Mutex
	var stopped bool
	stop = func() error {
		mu.Lock()
		defer mu.Unlock()
		if stopped {
			return nil
		}
		stopped = true
		err := s.Shutdown()
		e.stopped()
		return err
	}
	go func() {
		<-ctx.Done()
		_ = stop()
	}()
	return stop, nil
}
