package notify_test

import (
	"context"
	stdsql "database/sql"
	"fmt"
	"net/url"
	"os"
	"testing"
	"time"

	"github.com/inventory/inventory/ent"
	"github.com/inventory/inventory/ent/db"
	"github.com/inventory/inventory/ent/db/notify"
)

// The table a statement writes decides whether its transaction notifies.
func TestWritten(t *testing.T) {
	for _, c := range []struct{ query, table string }{
		{`SELECT "id" FROM "tenancy_tenant" WHERE "id" = $1 FOR UPDATE`, ""},
		{`SELECT pg_advisory_xact_lock($1, $2)`, ""},
		{`SAVEPOINT s1`, ""},
		{`INSERT INTO "tenancy_tenant" ("name", "slug") VALUES ($1, $2) RETURNING "id"`, "tenancy_tenant"},
		{`UPDATE "users_token" SET "last_used" = $1 WHERE "id" = $2`, "users_token"},
		{`DELETE FROM "users_objectpermission" WHERE "id" = $1`, "users_objectpermission"},
		{`  insert into public.extras_tag (name) values ($1)`, "extras_tag"},
		{`UPDATE "core_delivery" SET "status" = $1`, "core_delivery"},
		{`WITH RECURSIVE sub(id) AS (SELECT 1) UPDATE x SET y = 1`, "*"},
		{`TRUNCATE "dcim_site"`, "*"},
	} {
		if got := notify.Written(c.query); got != c.table {
			t.Errorf("%s: table %q, want %q", c.query, got, c.table)
		}
	}
}

// freshDatabase creates a PostgreSQL database for the test (dropped
// afterwards) and returns its URL and an admin connection to the server.
func freshDatabase(t *testing.T) string {
	admin := os.Getenv("INVENTORY_TEST_POSTGRES")
	if admin == "" {
		if os.Getenv("CI") == "true" {
			t.Fatal("INVENTORY_TEST_POSTGRES is not set in CI: the PostgreSQL suite must run")
		}
		t.Skip("INVENTORY_TEST_POSTGRES not set: the invalidation channel is PostgreSQL's")
	}
	conn, err := stdsql.Open("pgx", admin)
	if err != nil {
		t.Fatal(err)
	}
	name := fmt.Sprintf("inv_notify_%d_%d", os.Getpid(), time.Now().UnixNano()%1e6)
	if _, err := conn.Exec("CREATE DATABASE " + name); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		conn.Exec("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)")
		conn.Close()
	})
	u, err := url.Parse(admin)
	if err != nil {
		t.Fatal(err)
	}
	u.Path = "/" + name
	return u.String()
}

// poll waits up to 5 s for cond: a notification arrives asynchronously,
// but within milliseconds, far below the 60 s TTL of these caches.
func poll(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// Two processes' worth of handles on one database: writes through one
// drop the cache of the other on commit only, writes to the delivery
// tables do not, and while the listener is cut off the cache is off.
func TestInvalidationAcrossReplicas(t *testing.T) {
	dsn := freshDatabase(t)
	ctx := context.Background()
	open := func() *db.DB {
		d, err := db.Open(ctx, dsn)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { d.Close() })
		return d
	}
	a, b := open(), open()
	if err := a.Migrate(ctx); err != nil {
		t.Fatal(err)
	}
	// A heartbeat far shorter than the test: the idle ping path runs
	// hundreds of times without losing the connection or a notification.
	l := b.ListenForWrites(time.Minute, notify.Timing{Heartbeat: 10 * time.Millisecond, MinBackoff: 2 * time.Second, MaxBackoff: 4 * time.Second})
	defer l.Close()
	if !l.Live() {
		t.Fatal("listener not up after ListenForWrites")
	}
	cached := func() bool {
		_, ok := b.Cache.Get("k")
		return ok
	}
	fill := func(t *testing.T) {
		t.Helper()
		b.Cache.Put("k", b.Cache.Gen(), 1)
		if !cached() {
			t.Fatal("cache does not keep an entry")
		}
	}
	// marker sends a notification by hand and waits for it: every
	// notification committed before it has arrived by then.
	marker := func(payload string) int64 {
		t.Helper()
		if _, err := a.Client.ExecContext(ctx, "SELECT pg_notify($1, $2)", notify.Channel, payload); err != nil {
			t.Fatal(err)
		}
		var n int64
		poll(t, "marker "+payload, func() bool {
			var last string
			n, last = l.Received()
			return last == payload
		})
		return n
	}

	t.Run("commit", func(t *testing.T) {
		before := marker("m1") // (a notification: it empties the cache)
		fill(t)
		if err := a.InTx(ctx, func(ctx context.Context, tx *ent.Tx) error {
			return tx.Tenant.Create().SetName("t1").SetSlug("t1").Exec(ctx)
		}); err != nil {
			t.Fatal(err)
		}
		poll(t, "the other replica's cache to drop its entry", func() bool { return !cached() })
		if n, last := l.Received(); n != before+1 || last != "tenancy_tenant" {
			t.Fatalf("received %d (last %q) after one commit, want one notification naming tenancy_tenant", n-before, last)
		}
	})
	t.Run("rollback", func(t *testing.T) {
		before := marker("m2")
		tx, err := a.Client.Tx(ctx)
		if err != nil {
			t.Fatal(err)
		}
		tx.Tenant.Create().SetName("t2").SetSlug("t2").ExecX(ctx)
		if err := tx.Rollback(); err != nil {
			t.Fatal(err)
		}
		if n := marker("m3"); n != before+1 {
			t.Fatalf("%d notifications for a rollback", n-before-1)
		}
	})
	t.Run("uncached tables", func(t *testing.T) {
		before := marker("m4")
		if err := a.InTx(ctx, func(ctx context.Context, tx *ent.Tx) error {
			return tx.IdempotencyKey.Create().SetUserID(1).SetEndpoint("/x").SetIdempotencyKey("k").SetFingerprint("f").
				SetStatus(201).SetBody([]byte("{}")).SetExpires(time.Now().Add(time.Hour)).Exec(ctx)
		}); err != nil {
			t.Fatal(err)
		}
		if n := marker("m5"); n != before+1 {
			t.Fatalf("%d notifications for a write no cache depends on", n-before-1)
		}
	})
	t.Run("outside a transaction", func(t *testing.T) {
		fill(t)
		if err := a.Client.Tenant.Update().SetDescription("d").Exec(ctx); err != nil {
			t.Fatal(err)
		}
		poll(t, "the entry to drop", func() bool { return !cached() })
	})
	t.Run("quiet bookkeeping", func(t *testing.T) {
		before := marker("m6")
		// (The token's last_used is such a write; any table will do.)
		if err := a.Client.Tenant.Update().SetDescription("q1").Exec(notify.Quietly(ctx)); err != nil {
			t.Fatal(err)
		}
		if n := marker("m7"); n != before+1 {
			t.Fatalf("%d notifications for a quiet write", n-before-1)
		}
		a.Cache.Put("local", a.Cache.Gen(), 1)
		if err := a.Client.Tenant.Update().SetDescription("q2").Exec(notify.Quietly(ctx)); err != nil {
			t.Fatal(err)
		}
		if _, ok := a.Cache.Get("local"); !ok {
			t.Fatal("a quiet write emptied the writer's own cache")
		}
	})
	t.Run("channel lost", func(t *testing.T) {
		fill(t)
		res, err := a.Client.ExecContext(ctx, "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND application_name = $1", notify.ApplicationName)
		if err != nil {
			t.Fatal(err)
		}
		if n, _ := res.RowsAffected(); n != 1 {
			t.Fatalf("%d listening backends", n)
		}
		poll(t, "the listener to notice", func() bool { return !l.Live() })
		// Off: nothing is served from the cache, nothing is kept (the
		// reconnection waits at least MinBackoff/2 = 1 s).
		b.Cache.Put("k2", b.Cache.Gen(), 1)
		if _, ok := b.Cache.Get("k2"); (ok || cached()) && !l.Live() {
			t.Fatal("cache served an entry while the channel was down")
		}
		poll(t, "the listener to reconnect", l.Live)
		fill(t)
		if err := a.InTx(ctx, func(ctx context.Context, tx *ent.Tx) error {
			return tx.Tenant.Create().SetName("t3").SetSlug("t3").Exec(ctx)
		}); err != nil {
			t.Fatal(err)
		}
		poll(t, "a write after reconnecting to drop the entry", func() bool { return !cached() })
	})
}
