package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"os/signal"
	"strconv"
	"syscall"
	"text/tabwriter"
	"time"

	"github.com/inventory/inventory/webhooks"
)

// worker runs only the background jobs (webhook delivery and data source
// syncs): replicas can split API serving and delivery; several workers may
// share one PostgreSQL.
func worker(args []string) error {
	o, fs := newOptions("worker")
	if err := o.parse(fs, args); err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	srv, closeDB, err := o.server(ctx)
	if err != nil {
		return err
	}
	defer closeDB()
	eng := srv.Webhooks()
	stopJobs, err := eng.Start(ctx)
	if err != nil {
		return err
	}
	stopSyncs, err := srv.DataSources().Start(ctx)
	if err != nil {
		return err
	}
	defer stopSyncs()
	slog.Info("webhook worker running", "worker", eng.WorkerID, "database", o.redactedDatabase())
	<-ctx.Done()
	slog.Info("shutting down")
	return stopJobs()
}

// webhooksCmd is `inventory webhooks list|requeue`.
func webhooksCmd(args []string) error {
	if len(args) == 0 || (args[0] != "list" && args[0] != "requeue") {
		return errors.New("usage: inventory webhooks list [--status failed] [--webhook ID] | requeue TASK-ID... | requeue --all-failed")
	}
	sub, args := args[0], args[1:]
	o, fs := newOptions("webhooks " + sub)
	status := fs.String("status", "", "list: only tasks in this state (queued, scheduled, started, finished, failed)")
	hook := fs.Int("webhook", 0, "list: only deliveries of this webhook id")
	limit := fs.Int("limit", 50, "list: at most this many (0: all)")
	allFailed := fs.Bool("all-failed", false, "requeue: every failed task")
	if err := o.parse(fs, args); err != nil {
		return err
	}
	ctx := context.Background()
	srv, closeDB, err := o.server(ctx)
	if err != nil {
		return err
	}
	defer closeDB()
	eng := srv.Webhooks()
	switch sub {
	case "list":
		rows, total, err := eng.Tasks(ctx, webhooks.TaskFilter{Status: *status, WebhookID: *hook, Limit: *limit})
		if err != nil {
			return err
		}
		tw := tabwriter.NewWriter(os.Stdout, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "ID\tSTATUS\tATTEMPTS\tCODE\tWEBHOOK\tEVENT\tOBJECT\tCREATED\tNEXT/ENDED\tERROR")
		for _, r := range rows {
			code := "-"
			if r.ResponseCode != nil {
				code = strconv.Itoa(*r.ResponseCode)
			}
			when := r.NextAttemptAt.Format(time.RFC3339)
			if r.EndedAt != nil {
				when = r.EndedAt.Format(time.RFC3339)
			}
			msg := r.Error
			if len(msg) > 60 {
				msg = msg[:57] + "..."
			}
			fmt.Fprintf(tw, "%s\t%s\t%d\t%s\t%s\t%s\t%s:%d\t%s\t%s\t%s\n", r.UUID, r.Status, r.Attempts, code,
				r.WebhookName, r.Event, r.ObjectType, r.ObjectID, r.CreatedAt.Format(time.RFC3339), when, msg)
		}
		tw.Flush()
		fmt.Printf("%d of %d tasks\n", len(rows), total)
		return nil
	default:
		ids := fs.Args()
		if *allFailed {
			rows, _, err := eng.Tasks(ctx, webhooks.TaskFilter{Status: webhooks.StatusFailed})
			if err != nil {
				return err
			}
			for _, r := range rows {
				ids = append(ids, r.UUID)
			}
		}
		if len(ids) == 0 {
			return errors.New("requeue: give task ids or --all-failed")
		}
		var failed error
		for _, id := range ids {
			if err := eng.Requeue(ctx, id); err != nil {
				fmt.Fprintf(os.Stderr, "%s: %v\n", id, err)
				failed = errors.New("some tasks were not requeued")
				continue
			}
			fmt.Printf("%s requeued\n", id)
		}
		return failed
	}
}

// webhookReceiver prints the webhook requests it receives, to check what
// a webhook sends (NetBox's webhook_receiver). Point a webhook at
// http://127.0.0.1:9000/ and allow it with --webhook-allow 127.0.0.1/32.
func webhookReceiver(args []string) error {
	fs := flag.NewFlagSet("webhook-receiver", flag.ContinueOnError)
	listen := fs.String("listen", envOr("INVENTORY_RECEIVER_LISTEN", "127.0.0.1:9000"), "address to listen on (env INVENTORY_RECEIVER_LISTEN)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "Listening on http://%s/ (Ctrl+C to stop)\n", *listen)
	srv := &http.Server{Addr: *listen, Handler: webhooks.Receiver(os.Stdout), ReadHeaderTimeout: 10 * time.Second}
	return srv.ListenAndServe()
}
