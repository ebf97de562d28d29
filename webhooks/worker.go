package webhooks

import (
	"context"
	"errors"
	"os"
	"strconv"
	"sync"
	"time"

	"github.com/inventory/inventory/ent/delivery"
)

// The worker: the process running the engine's jobs (Start) is shown as
// one background worker (/api/core/background-workers/), the way NetBox
// shows an RQ worker, with the engine's own counters. A process that does
// not run the jobs (--no-worker) has no worker.

// WorkerQueues are the queues the worker takes tasks from: deliveries are
// all in "default".
var WorkerQueues = []string{"default"}

// workerStats are the worker's counters since Start.
type workerStats struct {
	mu      sync.Mutex
	birth   time.Time // zero while the jobs do not run in this process
	ok, bad int
	working time.Duration
	busy    int // attempts in flight
}

// Worker is the worker as NetBox's BackgroundWorkerSerializer shows it.
type Worker struct {
	Name               string    `json:"name"`
	URL                string    `json:"url"`
	State              string    `json:"state"` // busy or idle
	BirthDate          time.Time `json:"birth_date"`
	QueueNames         []string  `json:"queue_names"`
	PID                string    `json:"pid"`
	SuccessfulJobCount int       `json:"successful_job_count"`
	FailedJobCount     int       `json:"failed_job_count"`
	TotalWorkingTime   int       `json:"total_working_time"` // whole seconds spent sending
}

// Worker returns this process's worker, or nil when the jobs do not run
// here; base is the API base URL ("http://host/api").
func (e *Engine) Worker(base string) *Worker {
	s := &e.stats
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.birth.IsZero() {
		return nil
	}
	state := "idle"
	if s.busy > 0 {
		state = "busy"
	}
	return &Worker{
		Name: e.WorkerID, URL: base + "/core/background-workers/" + e.WorkerID + "/",
		State: state, BirthDate: s.birth, QueueNames: WorkerQueues, PID: strconv.Itoa(os.Getpid()),
		SuccessfulJobCount: s.ok, FailedJobCount: s.bad, TotalWorkingTime: int(s.working / time.Second),
	}
}

// started and stopped mark the jobs running in this process or not.
func (e *Engine) started() {
	e.stats.mu.Lock()
	e.stats.birth, e.stats.ok, e.stats.bad, e.stats.working = e.now(), 0, 0, 0
	e.stats.mu.Unlock()
}

func (e *Engine) stopped() {
	e.stats.mu.Lock()
	e.stats.birth = time.Time{}
	e.stats.mu.Unlock()
}

// begin and end bracket one attempt: an attempt that ends without error
// counts as a successful job, any other as a failed one (as an RQ job
// that raised), whether or not it will be retried.
func (e *Engine) begin() {
	e.stats.mu.Lock()
	e.stats.busy++
	e.stats.mu.Unlock()
}

func (e *Engine) end(o outcome) {
	e.stats.mu.Lock()
	defer e.stats.mu.Unlock()
	e.stats.busy--
	if o.err == "" {
		e.stats.ok++
	} else {
		e.stats.bad++
	}
	e.stats.working += o.duration
}

// ErrRunning: a started task is being sent; it can be neither stopped nor
// enqueued again.
var ErrRunning = errors.New("task is running")

// Delete removes a task whatever its state, as NetBox deletes an RQ job.
// A delivery being sent is not interrupted; its result is dropped.
func (e *Engine) Delete(ctx context.Context, id string) error {
	n, err := e.client.Delivery.Delete().Where(delivery.UUID(id)).Exec(ctx)
	if err != nil {
		return err
	}
	if n == 0 {
		return ErrNotFound
	}
	return nil
}

// Enqueue puts a task in the queue to run now, as NetBox's enqueue forces
// an RQ job into its queue: a scheduled retry (or a queued task) becomes
// due at once, keeping its attempt count; a finished or failed one runs
// again with a fresh attempt budget. A started one is being sent: nothing
// is done (ErrRunning).
func (e *Engine) Enqueue(ctx context.Context, id string) error {
	d, err := e.Task(ctx, id)
	if err != nil {
		return err
	}
	now := e.now()
	u := e.client.Delivery.Update().Where(delivery.ID(d.ID), delivery.StatusEQ(d.Status)).
		SetStatus(StatusQueued).SetNextAttemptAt(now).ClearLeaseUntil().SetClaim("")
	switch d.Status {
	case StatusStarted:
		return ErrRunning
	case StatusQueued, StatusScheduled:
	default:
		u = u.SetAttempts(0).SetEnqueuedAt(now).ClearEndedAt()
	}
	n, err := u.Save(ctx)
	if err != nil {
		return err
	}
	if n == 0 {
		// Claimed (or finished) meanwhile.
		return ErrRunning
	}
	return nil
}
