package webhooks_test

import (
	"context"
	"os"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"github.com/inventory/inventory/server"
	"github.com/inventory/inventory/server/servertest"
)

// TestTaskActionsAndWorker: the task actions (delete, enqueue, stop) and
// the background worker, absent until the jobs run in the process
// (BEHAVIOUR.md §12.8).
func TestTaskActionsAndWorker(t *testing.T) {
	fast := func(c *server.Config) {
		allowLoopback(c)
		c.Webhooks.PollInterval = 20 * time.Millisecond
	}
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		ctx := context.Background()
		var ok atomic.Bool
		rcv := newReceiver(t, func(int) int {
			if ok.Load() {
				return 204
			}
			return 503
		})
		eng, _ := engine(e)

		// The app root lists the non-model endpoints.
		root := e.Must(200, "GET", "/api/core/", nil).Object()
		for _, p := range []string{"background-queues", "background-tasks", "background-workers", "object-changes"} {
			if root[p] != "http://inventory.test/api/core/"+p+"/" {
				t.Fatalf("core root %v", root)
			}
		}

		// No jobs in this process yet: no worker.
		if w := e.Must(200, "GET", "/api/core/background-workers/", nil).Object(); w["count"] != 0.0 || len(w["results"].([]any)) != 0 {
			t.Fatalf("workers before start: %v", w)
		}
		if r := e.Must(404, "GET", "/api/core/background-workers/"+eng.WorkerID+"/", nil); string(r.Body) != `{"detail":"Not found."}` {
			t.Fatalf("unknown worker: %s", r.Body)
		}
		if n := e.Must(200, "GET", "/api/status/", nil).Object()["rq-workers-running"]; n != 0.0 {
			t.Fatalf("rq-workers-running %v", n)
		}

		// Unknown ids: NetBox's texts (with and without the full stop).
		for action, text := range map[string]string{"delete": "Job nope not found", "stop": "Job nope not found",
			"enqueue": "Job nope not found.", "requeue": "Job nope not found."} {
			if r := e.Must(404, "POST", "/api/core/background-tasks/nope/"+action+"/", nil); string(r.Body) != `{"detail":"`+text+`"}` {
				t.Fatalf("%s unknown: %s", action, r.Body)
			}
		}

		siteID, _, _ := setup(t, e, rcv.URL, nil, nil)
		outbox(t, e.DB.Client, "created", "dcim.site", siteID, siteData(t, e, siteID))
		if err := eng.RunOnce(ctx); err != nil {
			t.Fatal(err)
		}
		tasks := e.Must(200, "GET", "/api/core/background-tasks/?status=scheduled", nil).Results()
		if len(tasks) != 1 {
			t.Fatalf("scheduled tasks %v", tasks)
		}
		tid := tasks[0]["id"].(string)
		task := func() map[string]any { return e.Must(200, "GET", "/api/core/background-tasks/"+tid+"/", nil).Object() }

		// Others may not act on tasks.
		other, _ := e.NewUser("someone")
		for _, a := range []string{"delete", "enqueue", "stop"} {
			other.Must(403, "POST", "/api/core/background-tasks/"+tid+"/"+a+"/", nil)
		}
		other.Must(403, "GET", "/api/core/background-workers/", nil)

		// stop: nothing is ever stopped (204, empty); the task is unchanged.
		if r := e.Must(204, "POST", "/api/core/background-tasks/"+tid+"/stop/", nil); len(r.Body) != 0 {
			t.Fatalf("stop body %q", r.Body)
		}
		// enqueue: a scheduled retry runs now, not after its backoff.
		if r := e.Must(200, "POST", "/api/core/background-tasks/"+tid+"/enqueue/", nil); len(r.Body) != 0 {
			t.Fatalf("enqueue body %q", r.Body)
		}
		if tk := task(); tk["status"] != "queued" || tk["attempts"] != 1.0 {
			t.Fatalf("after enqueue: %v %v", tk["status"], tk["attempts"])
		}
		if err := eng.RunOnce(ctx); err != nil {
			t.Fatal(err)
		}
		if n := len(rcv.all()); n != 2 {
			t.Fatalf("%d requests after enqueue, want 2", n)
		}
		if tk := task(); tk["status"] != "scheduled" || tk["attempts"] != 2.0 {
			t.Fatalf("after the forced attempt: %v %v", tk["status"], tk["attempts"])
		}
		// requeue: a task still retrying runs now, like a failed one, with
		// a fresh attempt budget; a queued one is neither (400).
		if r := e.Must(200, "POST", "/api/core/background-tasks/"+tid+"/requeue/", nil); len(r.Body) != 0 {
			t.Fatalf("requeue body %q", r.Body)
		}
		if tk := task(); tk["status"] != "queued" || tk["attempts"] != 0.0 {
			t.Fatalf("after requeue of a retrying task: %v %v", tk["status"], tk["attempts"])
		}
		if r := e.Must(400, "POST", "/api/core/background-tasks/"+tid+"/requeue/", nil); string(r.Body) != `{"detail":"Job `+tid+` is not failed; only failed or retrying tasks can be requeued."}` {
			t.Fatalf("requeue of a queued task: %s", r.Body)
		}
		if err := eng.RunOnce(ctx); err != nil {
			t.Fatal(err)
		}
		if n := len(rcv.all()); n != 3 {
			t.Fatalf("%d requests after requeue, want 3", n)
		}
		if tk := task(); tk["status"] != "scheduled" || tk["attempts"] != 1.0 {
			t.Fatalf("after the requeued attempt: %v %v", tk["status"], tk["attempts"])
		}
		// delete: gone.
		if r := e.Must(200, "POST", "/api/core/background-tasks/"+tid+"/delete/", nil); len(r.Body) != 0 {
			t.Fatalf("delete body %q", r.Body)
		}
		e.Must(404, "GET", "/api/core/background-tasks/"+tid+"/", nil)
		e.Must(404, "POST", "/api/core/background-tasks/"+tid+"/delete/", nil)

		// With the jobs running here, the process is a worker with the
		// engine's counts.
		ok.Store(true)
		stop, err := eng.Start(ctx)
		if err != nil {
			t.Fatal(err)
		}
		defer stop()
		outbox(t, e.DB.Client, "updated", "dcim.site", siteID, siteData(t, e, siteID))
		deadline := time.Now().Add(10 * time.Second)
		for {
			if fin := e.Must(200, "GET", "/api/core/background-tasks/?status=finished", nil).Results(); len(fin) == 1 {
				break
			}
			if time.Now().After(deadline) {
				t.Fatal("delivery not made by the running jobs")
			}
			time.Sleep(20 * time.Millisecond)
		}
		ws := e.Must(200, "GET", "/api/core/background-workers/", nil).Results()
		if len(ws) != 1 {
			t.Fatalf("workers %v", ws)
		}
		w := ws[0]
		if w["name"] != eng.WorkerID || w["url"] != "http://inventory.test/api/core/background-workers/"+eng.WorkerID+"/" ||
			w["state"] != "idle" || w["pid"] != strconv.Itoa(os.Getpid()) || w["successful_job_count"] != 1.0 ||
			w["failed_job_count"] != 0.0 || w["total_working_time"] != 0.0 || w["birth_date"] == nil {
			t.Fatalf("worker %v", w)
		}
		if qs, _ := w["queue_names"].([]any); len(qs) != 1 || qs[0] != "default" {
			t.Fatalf("queue names %v", w["queue_names"])
		}
		if d := e.Must(200, "GET", "/api/core/background-workers/"+eng.WorkerID+"/", nil).Object(); d["name"] != eng.WorkerID {
			t.Fatalf("worker detail %v", d)
		}
		if q := e.Must(200, "GET", "/api/core/background-queues/default/", nil).Object(); q["workers"] != 1.0 {
			t.Fatalf("default queue workers %v", q["workers"])
		}
		if n := e.Must(200, "GET", "/api/status/", nil).Object()["rq-workers-running"]; n != 1.0 {
			t.Fatalf("rq-workers-running %v", n)
		}
		if err := stop(); err != nil {
			t.Fatal(err)
		}
		if w := e.Must(200, "GET", "/api/core/background-workers/", nil).Object(); w["count"] != 0.0 {
			t.Fatalf("workers after stop: %v", w)
		}
	}, fast)
}
