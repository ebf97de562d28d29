package webhooks

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/inventory/inventory/ent"
	"github.com/inventory/inventory/ent/delivery"
	"github.com/inventory/inventory/ent/predicate"
)

// Deliveries are shown the way NetBox shows its RQ queue: as background
// tasks (/api/core/background-tasks/) in one queue, "default".

// FuncName is the func_name of every delivery task, as in NetBox.
const FuncName = "extras.webhooks.send_webhook"

// Queues are the queue names NetBox reports; deliveries use "default".
var Queues = []string{"default", "high", "low"}

// TaskFilter selects tasks.
type TaskFilter struct {
	Status    string // queued, scheduled, started, finished, failed
	WebhookID int
	Limit     int // 0: all
	Offset    int
}

// ErrNotFailed: only failed and retrying tasks can be requeued.
var ErrNotFailed = errors.New("only failed or retrying tasks can be requeued")

// Statuses are the valid task statuses.
var Statuses = []string{StatusQueued, StatusStarted, StatusFinished, StatusFailed, StatusScheduled}

// Tasks lists deliveries, newest first, and the total count.
func (e *Engine) Tasks(ctx context.Context, f TaskFilter) ([]*ent.Delivery, int, error) {
	var preds []predicate.Delivery
	if f.Status != "" {
		preds = append(preds, delivery.StatusEQ(f.Status))
	}
	if f.WebhookID != 0 {
		preds = append(preds, delivery.WebhookID(f.WebhookID))
	}
	q := e.client.Delivery.Query().Where(preds...)
	n, err := q.Clone().Count(ctx)
	if err != nil {
		return nil, 0, err
	}
	q = q.Order(delivery.ByID()).Offset(f.Offset)
	if f.Limit > 0 {
		q = q.Limit(f.Limit)
	}
	rows, err := q.All(ctx)
	return rows, n, err
}

// Task finds a delivery by its task id.
func (e *Engine) Task(ctx context.Context, id string) (*ent.Delivery, error) {
	d, err := e.client.Delivery.Query().Where(delivery.UUID(id)).Only(ctx)
	if ent.IsNotFound(err) {
		return nil, ErrNotFound
	}
	return d, err
}

// Requeue puts a failed delivery, or one still retrying after a failed
// attempt (scheduled), back in the queue to run now with a fresh attempt
// budget (the attempt log is kept). NetBox users requeue whatever its
// tasks view lists with an error; here a failing delivery is retried on
// its own before it fails, so the retrying ones are requeued too.
func (e *Engine) Requeue(ctx context.Context, id string) error {
	d, err := e.Task(ctx, id)
	if err != nil {
		return err
	}
	if d.Status != StatusFailed && d.Status != StatusScheduled {
		return ErrNotFailed
	}
	now := e.now()
	n, err := e.client.Delivery.Update().Where(delivery.ID(d.ID), delivery.StatusEQ(d.Status)).
		SetStatus(StatusQueued).SetAttempts(0).SetEnqueuedAt(now).SetNextAttemptAt(now).
		ClearEndedAt().ClearLeaseUntil().SetClaim("").Save(ctx)
	if err != nil {
		return err
	}
	if n == 0 {
		// Claimed by a worker (or finished) meanwhile.
		return ErrNotFailed
	}
	return nil
}

// QueueStats are the counts of one queue.
type QueueStats struct {
	Name      string
	Counts    map[string]int
	OldestJob *time.Time
}

// Queue returns the counts per state of the default queue.
func (e *Engine) Queue(ctx context.Context) (*QueueStats, error) {
	var rows []struct {
		Status string `json:"status"`
		Count  int    `json:"count"`
	}
	err := e.client.Delivery.Query().GroupBy(delivery.FieldStatus).Aggregate(ent.Count()).Scan(ctx, &rows)
	if err != nil {
		return nil, err
	}
	qs := &QueueStats{Name: "default", Counts: map[string]int{}}
	for _, r := range rows {
		qs.Counts[r.Status] = r.Count
	}
	oldest, err := e.client.Delivery.Query().Where(delivery.StatusIn(StatusQueued)).
		Order(delivery.ByEnqueuedAt()).First(ctx)
	if err == nil {
		t := oldest.EnqueuedAt
		qs.OldestJob = &t
	} else if !ent.IsNotFound(err) {
		return nil, err
	}
	return qs, nil
}

// Task is a delivery as a background task (BEHAVIOUR.md §12.8) plus the
// delivery's own fields. Field order is the response's key order.
type Task struct {
	ID             string            `json:"id"`
	URL            string            `json:"url"`
	Description    string            `json:"description"`
	Origin         string            `json:"origin"`
	FuncName       string            `json:"func_name"`
	Args           []string          `json:"args"`
	Kwargs         map[string]string `json:"kwargs"`
	Result         *string           `json:"result"`
	Timeout        int               `json:"timeout"`
	ResultTTL      *int              `json:"result_ttl"`
	CreatedAt      time.Time         `json:"created_at"`
	EnqueuedAt     *time.Time        `json:"enqueued_at"`
	StartedAt      *time.Time        `json:"started_at"`
	EndedAt        *time.Time        `json:"ended_at"`
	WorkerName     *string           `json:"worker_name"`
	Position       *int              `json:"position"`
	Status         string            `json:"status"`
	Meta           map[string]any    `json:"meta"`
	LastHeartbeat  *time.Time        `json:"last_heartbeat"`
	IsFinished     bool              `json:"is_finished"`
	IsQueued       bool              `json:"is_queued"`
	IsFailed       bool              `json:"is_failed"`
	IsStarted      bool              `json:"is_started"`
	IsDeferred     bool              `json:"is_deferred"`
	IsCanceled     bool              `json:"is_canceled"`
	IsScheduled    bool              `json:"is_scheduled"`
	IsStopped      bool              `json:"is_stopped"`
	Webhook        Ref               `json:"webhook"`
	EventRule      Ref               `json:"event_rule"`
	Event          string            `json:"event"`
	ObjectType     string            `json:"object_type"`
	ObjectID       int               `json:"object_id"`
	RequestID      *string           `json:"request_id"`
	Attempts       int               `json:"attempts"`
	MaxAttempts    int               `json:"max_attempts"`
	NextAttemptAt  *time.Time        `json:"next_attempt_at"`
	LastResponse   *int              `json:"last_response_code"`
	ResponseBody   string            `json:"response_body"`
	DurationMs     *int              `json:"duration_ms"`
	ExcInfo        *string           `json:"exc_info"`
	ErrorLog       []map[string]any  `json:"error_log"`
	DeliveryHeader string            `json:"delivery_id"`
}

// Ref is a brief related object.
type Ref struct {
	ID   int    `json:"id"`
	URL  string `json:"url"`
	Name string `json:"name"`
}

// TaskOf renders a delivery; base is the API base URL ("http://host/api").
func (e *Engine) TaskOf(d *ent.Delivery, base string) *Task {
	t := &Task{
		ID:          d.UUID,
		URL:         fmt.Sprintf("%s/core/background-tasks/%s/", base, d.UUID),
		Description: fmt.Sprintf("Webhook %q: %s %s %d (rule %q)", d.WebhookName, d.Event, d.ObjectType, d.ObjectID, d.RuleName),
		Origin:      "default",
		FuncName:    FuncName,
		Args:        []string{},
		Kwargs: map[string]string{
			"event_rule": d.RuleName, "model_name": d.ObjectType, "event_type": d.Event,
			"object_id": fmt.Sprint(d.ObjectID), "webhook": d.WebhookName,
		},
		Timeout:        int(e.cfg.Timeout / time.Second),
		CreatedAt:      d.CreatedAt,
		EnqueuedAt:     &d.EnqueuedAt,
		StartedAt:      d.StartedAt,
		EndedAt:        d.EndedAt,
		Status:         d.Status,
		Meta:           map[string]any{},
		Webhook:        Ref{ID: d.WebhookID, URL: fmt.Sprintf("%s/extras/webhooks/%d/", base, d.WebhookID), Name: d.WebhookName},
		EventRule:      Ref{ID: d.RuleID, URL: fmt.Sprintf("%s/extras/event-rules/%d/", base, d.RuleID), Name: d.RuleName},
		Event:          d.Event,
		ObjectType:     d.ObjectType,
		ObjectID:       d.ObjectID,
		Attempts:       d.Attempts,
		MaxAttempts:    e.cfg.MaxAttempts,
		LastResponse:   d.ResponseCode,
		ResponseBody:   d.ResponseBody,
		DurationMs:     d.DurationMs,
		ErrorLog:       d.Log,
		DeliveryHeader: d.UUID,
	}
	if t.ErrorLog == nil {
		t.ErrorLog = []map[string]any{}
	}
	if d.RequestID != "" {
		t.RequestID = &d.RequestID
	}
	if d.Worker != "" && d.Status == StatusStarted {
		t.WorkerName = &d.Worker
		t.LastHeartbeat = d.StartedAt
	}
	if d.Status == StatusQueued || d.Status == StatusScheduled {
		next := d.NextAttemptAt
		t.NextAttemptAt = &next
	}
	if d.Error != "" {
		t.ExcInfo = &d.Error
	}
	if d.Status == StatusFinished && d.ResponseCode != nil {
		r := fmt.Sprintf("Status %d returned, webhook successfully processed.", *d.ResponseCode)
		t.Result = &r
	}
	switch d.Status {
	case StatusFinished:
		t.IsFinished = true
	case StatusQueued:
		t.IsQueued = true
	case StatusFailed:
		t.IsFailed = true
	case StatusStarted:
		t.IsStarted = true
	case StatusScheduled:
		t.IsScheduled = true
	}
	return t
}
