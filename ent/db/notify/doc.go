// Package notify tells the replicas sharing one PostgreSQL database about
// each other's writes, so that their read caches (tokens, permissions,
// custom field definitions, counts, nested objects: resource.Cache) drop
// what a write on another replica made stale at once instead of after the
// cache's TTL.
//
// Sending (driver.go): Driver wraps the write client's driver. A
// transaction that wrote to any table other than the delivery machinery's
// own (deliveries, outbox events, idempotency keys: nothing cached reads
// them) runs `SELECT pg_notify('inventory_cache', <tables>)` as its last
// statement, inside the transaction, so PostgreSQL delivers the
// notification on commit and never for a rollback. A write outside a
// transaction notifies right after it, unless its context is marked
// Quietly (bookkeeping: a token's last_used). The statement goes to the
// transaction below any statement counting, so batched-write tests see
// the same statements as before.
//
// Receiving (listen.go): Listen keeps one dedicated pgx connection per
// process LISTENing on the channel and bumps the cache for every
// notification (the whole cache, as a local write does; the payload names
// the tables for whoever watches the channel with psql). When the
// connection drops it switches the cache off (every read goes to the
// database) and reconnects with backoff; once listening again it bumps and
// switches the cache back on, since writes made meanwhile were not
// reported. A connection that hangs without failing is caught by a ping
// after every idle heartbeat; until then entries still expire after the
// cache's TTL, which stays the bound on any stale read, including writes
// made to the database by something other than this service.
//
// SQLite is one process: it needs none of this, and neither side runs.
package notify
