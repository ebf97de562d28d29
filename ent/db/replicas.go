package db

import (
	"time"

	"github.com/inventory/inventory/ent/db/notify"
)

// Replicas: several `serve` processes may share one PostgreSQL database.
// Every write transaction on PostgreSQL notifies on commit (the write
// driver, see Open); a serving process also listens (ListenForWrites), so
// a token revoked or a permission removed through one replica is refused
// by the others at their next request, not after the cache's TTL.

// ListenForWrites makes d's cache drop its entries whenever another
// process (or this one) commits a write to the database, and keeps the
// cache off while it cannot listen; ttl replaces the cache's TTL (0:
// nothing is cached). On SQLite, which has one process, there is nothing to listen to:
// it returns nil (whose Close does nothing). Close the listener before d.
func (d *DB) ListenForWrites(ttl time.Duration, t notify.Timing) *notify.Listener {
	d.Cache.SetTTL(ttl)
	if d.dsn == "" {
		return nil
	}
	if d.router != nil {
		for _, s := range d.router.standbys {
			s.cache.SetTTL(ttl)
		}
	}
	return notify.Listen(d.dsn, d.Cache, t)
}

// uncachedTypes are the models no cached read depends on (the webhook
// machinery's own rows, written on every poll): their writes bump no
// cache, here or (notify's table list) on other replicas.
var uncachedTypes = map[string]bool{"Delivery": true, "OutboxEvent": true, "IdempotencyKey": true}
