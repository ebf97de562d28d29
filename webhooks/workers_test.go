package webhooks_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"strconv"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/inventory/inventory/ent/db"
	"github.com/inventory/inventory/ent/delivery"
	"github.com/inventory/inventory/server"
	"github.com/inventory/inventory/server/servertest"
	"github.com/inventory/inventory/webhooks"
)

func workerConfig() webhooks.Config {
	c := webhooks.Defaults()
	c.AllowedTargets = []string{"127.0.0.1/32"}
	c.BatchSize = 3
	c.Concurrency = 2
	return c
}

// allowWorkerTargets lets the server save webhooks to the receivers the
// workers may reach (the allow-list applies at save too).
func allowWorkerTargets(c *server.Config) { c.Webhooks.AllowedTargets = workerConfig().AllowedTargets }

// Two workers, each with its own connection pool, dispatch and deliver
// the same 120 events concurrently: every delivery is sent exactly once.
func TestTwoWorkersNeverDeliverTwice(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		ctx := context.Background()
		var mu sync.Mutex
		count := map[string]int{}
		rcv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			mu.Lock()
			count[r.Header.Get(webhooks.HeaderDeliveryID)]++
			mu.Unlock()
		}))
		defer rcv.Close()
		siteID, _, _ := setup(t, e, rcv.URL, nil, nil)
		data := siteData(t, e, siteID)
		const events = 120
		for i := 0; i < events; i++ {
			outbox(t, e.DB.Client, "updated", "dcim.site", siteID, data)
		}
		var wg sync.WaitGroup
		errs := make(chan error, 2)
		for w := 0; w < 2; w++ {
			d, err := db.Open(ctx, e.DSN)
			if err != nil {
				t.Fatal(err)
			}
			defer d.Close()
			eng, err := webhooks.New(d, workerConfig())
			if err != nil {
				t.Fatal(err)
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				for idle := 0; idle < 3; {
					n, err := eng.Dispatch(ctx)
					if err != nil {
						errs <- err
						return
					}
					m, err := eng.Deliver(ctx)
					if err != nil {
						errs <- err
						return
					}
					if n+m == 0 {
						idle++
					} else {
						idle = 0
					}
				}
			}()
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Fatal(err)
		}
		if n := e.DB.Client.Delivery.Query().CountX(ctx); n != events {
			t.Fatalf("%d deliveries, want %d (an event dispatched twice or not at all)", n, events)
		}
		if n := e.DB.Client.Delivery.Query().Where(delivery.StatusEQ("finished")).CountX(ctx); n != events {
			t.Fatalf("%d finished, want %d", n, events)
		}
		mu.Lock()
		defer mu.Unlock()
		if len(count) != events {
			t.Fatalf("%d distinct deliveries received, want %d", len(count), events)
		}
		for id, n := range count {
			if n != 1 {
				t.Errorf("delivery %s sent %d times", id, n)
			}
		}
	}, allowWorkerTargets)
}

// TestChildProcess is the subprocess of TestKilledProcessDeliversAfterRestart.
func TestChildProcess(t *testing.T) {
	dsn := os.Getenv("INVENTORY_WEBHOOK_CHILD_DSN")
	if dsn == "" {
		t.Skip("helper process")
	}
	ctx := context.Background()
	d, err := db.Open(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	siteID, _ := strconv.Atoi(os.Getenv("INVENTORY_WEBHOOK_CHILD_SITE"))
	// The change's transaction: the outbox row commits with it.
	tx, err := d.Client.Tx(ctx)
	if err != nil {
		t.Fatal(err)
	}
	tx.OutboxEvent.Create().SetEvent("updated").SetObjectType("dcim.site").SetObjectID(siteID).
		SetRequestID("r-1").SetData(json.RawMessage(os.Getenv("INVENTORY_WEBHOOK_CHILD_DATA"))).ExecX(ctx)
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	fmt.Println("committed")
	if os.Getenv("INVENTORY_WEBHOOK_CHILD_MODE") == "commit" {
		select {} // killed here: between commit and any dispatch
	}
	eng, err := webhooks.New(d, workerConfig())
	if err != nil {
		t.Fatal(err)
	}
	eng.RunOnce(ctx) // the receiver holds the request until we are killed
	select {}
}

// A process killed after committing a change (before dispatch, or in the
// middle of sending) leaves the event to be delivered after a restart.
func TestKilledProcessDeliversAfterRestart(t *testing.T) {
	for _, mode := range []string{"commit", "sending"} {
		t.Run(mode, func(t *testing.T) {
			servertest.Each(t, func(t *testing.T, e *servertest.Env) {
				ctx := context.Background()
				arrived := make(chan string, 10)
				hold := make(chan struct{})
				var mu sync.Mutex
				var first = true
				rcv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
					arrived <- r.Header.Get(webhooks.HeaderDeliveryID)
					mu.Lock()
					block := first
					first = false
					mu.Unlock()
					if block && mode == "sending" {
						select {
						case <-hold:
						case <-r.Context().Done():
						}
					}
				}))
				defer rcv.Close()
				defer close(hold)
				siteID, _, _ := setup(t, e, rcv.URL, nil, nil)
				cmd := exec.Command(os.Args[0], "-test.run=^TestChildProcess$", "-test.v")
				cmd.Env = append(os.Environ(), "INVENTORY_WEBHOOK_CHILD_DSN="+e.DSN,
					"INVENTORY_WEBHOOK_CHILD_SITE="+strconv.Itoa(siteID), "INVENTORY_WEBHOOK_CHILD_MODE="+mode,
					"INVENTORY_WEBHOOK_CHILD_DATA="+string(siteData(t, e, siteID)))
				out, err := cmd.StdoutPipe()
				if err != nil {
					t.Fatal(err)
				}
				if err := cmd.Start(); err != nil {
					t.Fatal(err)
				}
				sc := bufio.NewScanner(out)
				for sc.Scan() && sc.Text() != "committed" {
				}
				var firstID string
				if mode == "sending" {
					firstID = <-arrived // the child is mid-send
				}
				cmd.Process.Signal(syscall.SIGKILL)
				cmd.Wait()

				// Restart: a fresh engine; its clock is past the dead
				// worker's lease.
				eng, err := webhooks.New(e.DB, workerConfig())
				if err != nil {
					t.Fatal(err)
				}
				eng.Now = func() time.Time { return time.Now().UTC().Add(time.Hour) }
				if err := eng.RunOnce(ctx); err != nil {
					t.Fatal(err)
				}
				var got string
				select {
				case got = <-arrived:
				default:
					t.Fatal("not delivered after restart")
				}
				if mode == "sending" && got != firstID {
					t.Fatalf("redelivery has id %s, first attempt %s: receivers cannot de-duplicate", got, firstID)
				}
				d := e.DB.Client.Delivery.Query().OnlyX(ctx)
				if d.Status != "finished" {
					t.Fatalf("status %s (%s)", d.Status, d.Error)
				}
			}, allowWorkerTargets)
		})
	}
}
