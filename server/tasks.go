package server

import (
	"errors"
	"net/http"
	"net/url"
	"slices"
	"strconv"

	"github.com/gin-gonic/gin"

	"github.com/inventory/inventory/webhooks"
)

// Background tasks: webhook deliveries shown the way NetBox shows its RQ
// queue (BEHAVIOUR.md §12.8). Superusers only. The webhooks package owns
// the queries and the task representation; these handlers only translate
// HTTP.

func (s *Server) taskRoutes(api *gin.RouterGroup) {
	api.GET("/core/background-tasks/", s.wrap(s.listTasks))
	api.GET("/core/background-tasks/:id/", s.wrap(s.getTask))
	api.POST("/core/background-tasks/:id/requeue/", s.wrap(s.requeueTask))
	api.POST("/core/background-tasks/:id/enqueue/", s.wrap(s.enqueueTask))
	api.POST("/core/background-tasks/:id/delete/", s.wrap(s.deleteTask))
	api.POST("/core/background-tasks/:id/stop/", s.wrap(s.stopTask))
	api.GET("/core/background-workers/", s.wrap(s.listWorkers))
	api.GET("/core/background-workers/:name/", s.wrap(s.getWorker))
	api.GET("/core/background-queues/", s.wrap(s.listQueues))
	api.GET("/core/background-queues/:name/", s.wrap(s.getQueue))
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
	if err := s.superuser(c); err != nil {
		return err
	}
	q := c.Request.URL.Query()
	f := webhooks.TaskFilter{Status: q.Get("status")}
	if f.Status != "" && !slices.Contains(webhooks.Statuses, f.Status) {
		return bodyError{map[string][]string{"status": {"Select a valid choice. " + f.Status + " is not one of the available choices."}}}
	}
	for _, name := range []string{"webhook_id", "webhook"} {
		if raw := q.Get(name); raw != "" {
			n, err := strconv.Atoi(raw)
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
	if err := s.superuser(c); err != nil {
		return err
	}
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
	if err := s.superuser(c); err != nil {
		return err
	}
	id := c.Param("id")
	switch err := s.hooks.Requeue(c.Request.Context(), id); {
	case errors.Is(err, webhooks.ErrNotFound):
		return detailErr(http.StatusNotFound, "Job "+id+" not found.")
	case errors.Is(err, webhooks.ErrNotFailed):
		return detailErr(http.StatusBadRequest, "Job "+id+" is not failed; only failed tasks can be requeued.")
	case err != nil:
		return err
	}
	c.Status(http.StatusOK)
	return nil
}

// enqueueTask forces a task into the queue to run now (NetBox: 200, empty
// body). A started task is already running: nothing to do, 200 as well.
func (s *Server) enqueueTask(c *gin.Context) error {
	if err := s.superuser(c); err != nil {
		return err
	}
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
	if err := s.superuser(c); err != nil {
		return err
	}
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
	if err := s.superuser(c); err != nil {
		return err
	}
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
	if err := s.superuser(c); err != nil {
		return err
	}
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
	if err := s.superuser(c); err != nil {
		return err
	}
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
	if err := s.superuser(c); err != nil {
		return err
	}
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
	if err := s.superuser(c); err != nil {
		return err
	}
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
