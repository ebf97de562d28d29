package server

import (
	"errors"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/gin-gonic/gin"

	"github.com/inventory/inventory/ent/schema/api"

	"github.com/inventory/inventory/webhooks"
)

// Background tasks: webhook deliveries shown the way NetBox shows its RQ
// queue (BEHAVIOUR.md §12.8). Superusers only (declared per op: the gate
// checks it). The webhooks package owns
// the queries and the task representation; these handlers only translate
// HTTP.

func init() {
	for name, h := range map[string]specialHandler{
		"core.tasks.list": (*Server).listTasks, "core.tasks.get": (*Server).getTask,
		"core.tasks.requeue": (*Server).requeueTask, "core.tasks.enqueue": (*Server).enqueueTask,
		"core.tasks.delete": (*Server).deleteTask, "core.tasks.stop": (*Server).stopTask,
		"core.workers.list": (*Server).listWorkers, "core.workers.get": (*Server).getWorker,
		"core.queues.list": (*Server).listQueues, "core.queues.get": (*Server).getQueue,
	} {
		handle(name, h)
	}
	statuses := webhooks.Statuses
	get := func(handler, summary, response, desc string, query ...api.Param) []api.Op {
		op := api.Op{Method: http.MethodGet, Permission: api.PermSuperuser, Handler: handler, Summary: summary,
			Response: response, Description: desc, Query: query}
		if len(query) > 0 || strings.HasPrefix(response, "page:") {
			op.Errors = []int{http.StatusBadRequest}
		}
		if !strings.HasPrefix(response, "page:") {
			op.Errors = []int{http.StatusNotFound}
		}
		return []api.Op{op}
	}
	pageParams := []api.Param{
		{Name: "limit", Type: "integer", Description: "Number of results (default: all)."},
		{Name: "offset", Type: "integer", Description: "Index of the first result."},
	}
	registerEndpoint(api.Endpoint{App: "core", Path: "background-tasks", InRoot: true,
		Ops: get("core.tasks.list", "List background tasks (webhook deliveries)", "page:BackgroundTask", "A page of tasks.",
			append([]api.Param{
				{Name: "status", Type: "string", Description: "Only tasks in this state.", Enum: statuses},
				{Name: "webhook_id", Type: "integer", Description: "Only deliveries of this webhook."},
			}, pageParams...)...)})
	registerEndpoint(api.Endpoint{App: "core", Path: "background-tasks", Detail: true, Key: "id",
		Ops: get("core.tasks.get", "Get a background task", "BackgroundTask", "The task.")})
	for _, a := range []struct{ name, summary string }{
		{"requeue", "Requeue a failed task"},
		{"enqueue", "Force a task into its queue to run now"},
		{"delete", "Delete a task"},
		{"stop", "Stop a task (a delivery in flight cannot be stopped: 204)"},
	} {
		op := api.Op{Method: http.MethodPost, Permission: api.PermSuperuser, Handler: "core.tasks." + a.name,
			Summary: a.summary, Description: "Done.", Errors: []int{http.StatusNotFound}}
		switch a.name {
		case "stop":
			op.Status, op.Description = http.StatusNoContent, "Nothing was stopped."
		case "requeue":
			op.Description, op.Errors = "Requeued.", []int{http.StatusBadRequest, http.StatusNotFound}
		}
		registerEndpoint(api.Endpoint{App: "core", Path: "background-tasks", Detail: true, Key: "id", Name: a.name,
			Ops: []api.Op{op}})
	}
	registerEndpoint(api.Endpoint{App: "core", Path: "background-workers", InRoot: true,
		Ops: get("core.workers.list", "List background workers (this process's, when it runs the jobs)",
			"page:BackgroundWorker", "The workers.", pageParams...)})
	registerEndpoint(api.Endpoint{App: "core", Path: "background-workers", Detail: true, Key: "name",
		Ops: get("core.workers.get", "Get a background worker", "BackgroundWorker", "The worker.")})
	registerEndpoint(api.Endpoint{App: "core", Path: "background-queues", InRoot: true,
		Ops: get("core.queues.list", "List background queues", "page:BackgroundQueue", "Every queue.")})
	registerEndpoint(api.Endpoint{App: "core", Path: "background-queues", Detail: true, Key: "name", KeyEnum: webhooks.Queues,
		Ops: get("core.queues.get", "Get a background queue", "BackgroundQueue", "The queue.")})
	taskShapes()
}

func (s *Server) superuser(c *gin.Context) error {
	p := PrincipalFrom(c.Request.Context())
	if p == nil {
		return errNotAuthenticated
	}
	if !p.User.IsSuperuser {
		return errForbidden
	}
	return nil
}

// page reads limit/offset; non-model lists return everything by default
// (BEHAVIOUR.md §6.4).
func page(q url.Values) (limit, offset int) {
	limit, _ = strconv.Atoi(q.Get("limit"))
	offset, _ = strconv.Atoi(q.Get("offset"))
	if limit < 0 {
		limit = 0
	}
	if offset < 0 {
		offset = 0
	}
	return limit, offset
}

func pageLinks(r *http.Request, count, limit, offset int) (next, prev any) {
	if limit <= 0 {
		return nil, nil
	}
	mk := func(off int) string {
		u := *r.URL
		q := u.Query()
		q.Set("limit", strconv.Itoa(limit))
		if off > 0 {
			q.Set("offset", strconv.Itoa(off))
		} else {
			q.Del("offset")
		}
		u.RawQuery = q.Encode()
		return baseURL(r) + u.RequestURI()
	}
	if offset+limit < count {
		next = mk(offset + limit)
	}
	if offset > 0 {
		prev = mk(max(0, offset-limit))
	}
	return next, prev
}

func (s *Server) listTasks(c *gin.Context) error {
	if err := s.plainFilters(c, "status", "webhook_id", "webhook"); err != nil {
		return err
	}
	q := c.Request.URL.Query()
	f := webhooks.TaskFilter{Status: q.Get("status")}
	if f.Status != "" && !slices.Contains(webhooks.Statuses, f.Status) {
		return bodyError{map[string][]string{"status": {"Select a valid choice. " + f.Status + " is not one of the available choices."}}}
	}
	for _, name := range []string{"webhook_id", "webhook"} {
		if raw := q.Get(name); raw != "" {
			// Blanks around it are read, as the rack elevation's exclude
			// (and Python's int()): one reading of integers for the
			// document's QueryInteger.
			n, err := strconv.Atoi(strings.TrimSpace(raw))
			if err != nil {
				return bodyError{map[string][]string{name: {"Enter a whole number."}}}
			}
			f.WebhookID = n
		}
	}
	f.Limit, f.Offset = page(q)
	rows, count, err := s.hooks.Tasks(c.Request.Context(), f)
	if err != nil {
		return err
	}
	base := baseURL(c.Request) + "/api"
	results := make([]*webhooks.Task, len(rows))
	for i, d := range rows {
		results[i] = s.hooks.TaskOf(d, base)
	}
	next, prev := pageLinks(c.Request, count, f.Limit, f.Offset)
	writeJSON(c, http.StatusOK, map[string]any{"count": count, "next": next, "previous": prev, "results": results})
	return nil
}

func (s *Server) getTask(c *gin.Context) error {
	d, err := s.hooks.Task(c.Request.Context(), c.Param("id"))
	if errors.Is(err, webhooks.ErrNotFound) {
		return errNotFound
	}
	if err != nil {
		return err
	}
	writeJSON(c, http.StatusOK, s.hooks.TaskOf(d, baseURL(c.Request)+"/api"))
	return nil
}

func (s *Server) requeueTask(c *gin.Context) error {
	id := c.Param("id")
	switch err := s.hooks.Requeue(c.Request.Context(), id); {
	case errors.Is(err, webhooks.ErrNotFound):
		return detailErr(http.StatusNotFound, "Job "+id+" not found.")
	case errors.Is(err, webhooks.ErrNotFailed):
		return detailErr(http.StatusBadRequest, "Job "+id+" is not failed; only failed or retrying tasks can be requeued.")
	case err != nil:
		return err
	}
	c.Status(http.StatusOK)
	return nil
}

// enqueueTask forces a task into the queue to run now (NetBox: 200, empty
// body). A started task is already running: nothing to do, 200 as well.
func (s *Server) enqueueTask(c *gin.Context) error {
	id := c.Param("id")
	switch err := s.hooks.Enqueue(c.Request.Context(), id); {
	case errors.Is(err, webhooks.ErrNotFound):
		return detailErr(http.StatusNotFound, "Job "+id+" not found.")
	case err != nil && !errors.Is(err, webhooks.ErrRunning):
		return err
	}
	c.Status(http.StatusOK)
	return nil
}

// deleteTask deletes a task in any state (NetBox: 200, empty body).
func (s *Server) deleteTask(c *gin.Context) error {
	id := c.Param("id")
	switch err := s.hooks.Delete(c.Request.Context(), id); {
	case errors.Is(err, webhooks.ErrNotFound):
		return detailErr(http.StatusNotFound, "Job "+id+" not found")
	case err != nil:
		return err
	}
	c.Status(http.StatusOK)
	return nil
}

// stopTask: NetBox stops a job a worker is executing (200) and answers
// 204 when nothing was stopped. A delivery in flight is one HTTP request
// that cannot be interrupted, so nothing is ever stopped: 204.
func (s *Server) stopTask(c *gin.Context) error {
	id := c.Param("id")
	switch _, err := s.hooks.Task(c.Request.Context(), id); {
	case errors.Is(err, webhooks.ErrNotFound):
		return detailErr(http.StatusNotFound, "Job "+id+" not found")
	case err != nil:
		return err
	}
	c.Status(http.StatusNoContent)
	return nil
}

// workers are the background workers: this process's, when it runs the
// jobs (BEHAVIOUR.md §12.8). Workers of other processes are not known.
func (s *Server) workers(c *gin.Context) []*webhooks.Worker {
	if w := s.hooks.Worker(baseURL(c.Request) + "/api"); w != nil {
		return []*webhooks.Worker{w}
	}
	return []*webhooks.Worker{}
}

func (s *Server) listWorkers(c *gin.Context) error {
	all := s.workers(c)
	limit, offset := page(c.Request.URL.Query())
	rows := all[min(offset, len(all)):]
	if limit > 0 && len(rows) > limit {
		rows = rows[:limit]
	}
	next, prev := pageLinks(c.Request, len(all), limit, offset)
	writeJSON(c, http.StatusOK, map[string]any{"count": len(all), "next": next, "previous": prev, "results": rows})
	return nil
}

func (s *Server) getWorker(c *gin.Context) error {
	for _, w := range s.workers(c) {
		if w.Name == c.Param("name") {
			writeJSON(c, http.StatusOK, w)
			return nil
		}
	}
	return errNotFound
}

func (s *Server) queueJSON(c *gin.Context, name string) (map[string]any, error) {
	counts := map[string]int{}
	var oldest any
	workers := 0
	if slices.Contains(webhooks.WorkerQueues, name) {
		workers = len(s.workers(c))
	}
	if name == "default" {
		qs, err := s.hooks.Queue(c.Request.Context())
		if err != nil {
			return nil, err
		}
		counts = qs.Counts
		if qs.OldestJob != nil {
			oldest = *qs.OldestJob
		}
	}
	return map[string]any{
		"name":                 name,
		"url":                  baseURL(c.Request) + "/api/core/background-queues/" + name + "/",
		"jobs":                 counts[webhooks.StatusQueued],
		"oldest_job_timestamp": oldest,
		"index":                slices.Index(webhooks.Queues, name),
		"scheduler_pid":        nil,
		"workers":              workers,
		"finished_jobs":        counts[webhooks.StatusFinished],
		"started_jobs":         counts[webhooks.StatusStarted],
		"deferred_jobs":        0,
		"failed_jobs":          counts[webhooks.StatusFailed],
		"scheduled_jobs":       counts[webhooks.StatusScheduled],
	}, nil
}

func (s *Server) listQueues(c *gin.Context) error {
	var results []map[string]any
	for _, name := range webhooks.Queues {
		m, err := s.queueJSON(c, name)
		if err != nil {
			return err
		}
		results = append(results, m)
	}
	writeJSON(c, http.StatusOK, map[string]any{"count": len(results), "next": nil, "previous": nil, "results": results})
	return nil
}

func (s *Server) getQueue(c *gin.Context) error {
	name := c.Param("name")
	if !slices.Contains(webhooks.Queues, name) {
		return errNotFound
	}
	m, err := s.queueJSON(c, name)
	if err != nil {
		return err
	}
	writeJSON(c, http.StatusOK, m)
	return nil
}

// taskShapes registers the OpenAPI shapes of the background tasks,
// queues and workers.
func taskShapes() {
	str := func() *openapi3.SchemaRef { return oasVal(oasTyped("string")) }
	nstr := func(format string) *openapi3.SchemaRef {
		return oasVal(&openapi3.Schema{Type: &openapi3.Types{"string"}, Format: format, Nullable: true})
	}
	nint := func() *openapi3.SchemaRef {
		return oasVal(&openapi3.Schema{Type: &openapi3.Types{"integer"}, Nullable: true})
	}
	boolean := func() *openapi3.SchemaRef { return oasVal(oasTyped("boolean")) }
	statuses := make([]any, len(webhooks.Statuses))
	for i, s := range webhooks.Statuses {
		statuses[i] = s
	}
	oasShape("BackgroundTask", func(*oasBuilder) *openapi3.Schema {
		kwargs := oasTyped("object")
		kwargs.AdditionalProperties = openapi3.AdditionalProperties{Schema: str()}
		return oasObject(map[string]*openapi3.SchemaRef{
			"id": str(), "url": oasVal(&openapi3.Schema{Type: &openapi3.Types{"string"}, Format: "uri"}),
			"description": str(), "origin": str(), "func_name": str(),
			"args": oasVal(oasArrayOf(str())), "kwargs": oasVal(kwargs),
			"result": nstr(""), "timeout": oasVal(oasTyped("integer")), "result_ttl": nint(),
			"created_at":  oasVal(&openapi3.Schema{Type: &openapi3.Types{"string"}, Format: "date-time"}),
			"enqueued_at": nstr("date-time"), "started_at": nstr("date-time"), "ended_at": nstr("date-time"),
			"worker_name": nstr(""), "position": nint(),
			"status":         oasVal(&openapi3.Schema{Type: &openapi3.Types{"string"}, Enum: statuses}),
			"meta":           oasVal(oasFreeObject()),
			"last_heartbeat": nstr("date-time"),
			"is_finished":    boolean(), "is_queued": boolean(), "is_failed": boolean(),
			"is_started": boolean(), "is_deferred": boolean(), "is_canceled": boolean(),
		}, "id", "url", "func_name", "status")
	})
	oasShape("BackgroundQueue", func(*oasBuilder) *openapi3.Schema {
		queues := make([]any, len(webhooks.Queues))
		for i, q := range webhooks.Queues {
			queues[i] = q
		}
		return oasObject(map[string]*openapi3.SchemaRef{
			"name":                 oasVal(&openapi3.Schema{Type: &openapi3.Types{"string"}, Enum: queues}),
			"url":                  oasVal(&openapi3.Schema{Type: &openapi3.Types{"string"}, Format: "uri"}),
			"jobs":                 oasVal(oasTyped("integer")),
			"oldest_job_timestamp": nstr("date-time"),
			"index":                oasVal(oasTyped("integer")),
			"scheduler_pid":        nint(),
			"workers":              oasVal(oasTyped("integer")),
			"finished_jobs":        oasVal(oasTyped("integer")),
			"started_jobs":         oasVal(oasTyped("integer")),
			"deferred_jobs":        oasVal(oasTyped("integer")),
			"failed_jobs":          oasVal(oasTyped("integer")),
			"scheduled_jobs":       oasVal(oasTyped("integer")),
		}, "name", "url")

	})
	oasShape("BackgroundWorker", func(*oasBuilder) *openapi3.Schema {
		return oasObject(map[string]*openapi3.SchemaRef{
			"name":                 str(),
			"url":                  oasVal(&openapi3.Schema{Type: &openapi3.Types{"string"}, Format: "uri"}),
			"state":                oasVal(&openapi3.Schema{Type: &openapi3.Types{"string"}, Enum: []any{"busy", "idle"}}),
			"birth_date":           oasVal(&openapi3.Schema{Type: &openapi3.Types{"string"}, Format: "date-time"}),
			"queue_names":          oasVal(oasArrayOf(str())),
			"pid":                  str(),
			"successful_job_count": oasVal(oasTyped("integer")),
			"failed_job_count":     oasVal(oasTyped("integer")),
			"total_working_time":   oasVal(oasTyped("integer")),
		}, "name", "url", "state", "birth_date", "queue_names", "pid", "successful_job_count", "failed_job_count", "total_working_time")
	})
}
