package server

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"hash/fnv"
	"net/http"
	"time"

	"entgo.io/ent/dialect"
	"github.com/gin-gonic/gin"

	"github.com/inventory/inventory/ent"
	"github.com/inventory/inventory/ent/idempotencykey"
	"github.com/inventory/inventory/ent/resource"
	"github.com/inventory/inventory/ent/schema/api"
)

// Idempotency-Key (ops declared api.Op.Idempotent: the allocation
// endpoints). NetBox has nothing like it: a client that retries a POST
// to available-ips after a timeout gets a second address, and the first
// one leaks. Here a request that carries an Idempotency-Key header is
// answered once: its status and body are stored with the key in the
// request's own transaction (core_idempotencykey), so a retry of the same
// request by the same user at the same endpoint within
// Config.IdempotencyWindow gets that answer again, byte for byte, and
// allocates nothing. Errors are not stored: they wrote nothing, so a
// retry simply runs again.
//
// Reusing a key for a different request (another body or query) is 422
// Unprocessable Content, as the IETF draft on the header
// (draft-ietf-httpapi-idempotency-key-header) says; not 409, which the
// allocation endpoints answer when the space is exhausted and pynetbox
// turns into an AllocationError.
//
// Two requests with the same key at once: on PostgreSQL the second waits
// on an advisory lock of the key, taken first in the transaction, and
// then replays; SQLite runs write transactions one at a time anyway.

// IdempotencyHeader is the request header naming a key.
const IdempotencyHeader = "Idempotency-Key"

// lockIdempotency is the advisory lock class of keys (NetBox's lock
// classes are 100100..; this one is ours).
const lockIdempotency int32 = 100900

// idempotent is one keyed request.
type idempotent struct {
	user        int
	endpoint    string
	key         string
	fingerprint string
	window      time.Duration
	now         time.Time
	pg          bool
}

// answer is a stored response.
type answer struct {
	status int
	body   []byte
}

// idempotencyOf reads the request's key: nil when it has none, the op
// does not honour keys or the window is 0.
func (s *Server) idempotencyOf(c *gin.Context, op api.Op, body []byte) (*idempotent, error) {
	key := c.GetHeader(IdempotencyHeader)
	if !op.Idempotent || s.cfg.IdempotencyWindow <= 0 || key == "" {
		return nil, nil
	}
	if len(key) > 255 {
		return nil, detailErr(http.StatusBadRequest, "Idempotency-Key must be at most 255 characters.")
	}
	user := 0
	if p := PrincipalFrom(c.Request.Context()); p != nil && p.User != nil {
		user = p.User.ID
	}
	h := sha256.New()
	h.Write([]byte(c.Request.URL.RawQuery))
	h.Write([]byte{0})
	h.Write(canonicalJSON(body))
	return &idempotent{
		user: user, endpoint: c.Request.Method + " " + c.Request.URL.Path, key: key,
		fingerprint: hex.EncodeToString(h.Sum(nil)), window: s.cfg.IdempotencyWindow,
		now: s.now(), pg: s.db.Dialect == dialect.Postgres,
	}, nil
}

// canonicalJSON re-encodes a body with sorted keys and no spacing, so that
// a retry that serialises the same object differently is the same request.
func canonicalJSON(raw []byte) []byte {
	if len(raw) == 0 {
		return nil
	}
	var v any
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if dec.Decode(&v) != nil {
		return raw
	}
	out, err := json.Marshal(v)
	if err != nil {
		return raw
	}
	return out
}

// replay, inside the request's transaction, returns the stored answer of
// the key (nil: none, run the request), or 422 when the key answered a
// different request. An expired answer is forgotten.
func (k *idempotent) replay(ctx context.Context, tx *resource.Tx) (*answer, error) {
	if k.pg {
		h := fnv.New32a()
		h.Write([]byte(k.endpoint + "\x00" + k.key))
		if _, err := tx.Client.ExecContext(ctx, "SELECT pg_advisory_xact_lock($1, $2)", lockIdempotency, int32(h.Sum32())+int32(k.user)); err != nil {
			return nil, err
		}
	}
	row, err := tx.Client.IdempotencyKey.Query().Where(idempotencykey.UserIDEQ(k.user),
		idempotencykey.EndpointEQ(k.endpoint), idempotencykey.IdempotencyKeyEQ(k.key)).Only(ctx)
	switch {
	case ent.IsNotFound(err):
		return nil, nil
	case err != nil:
		return nil, err
	case !row.Expires.After(k.now):
		return nil, tx.Client.IdempotencyKey.DeleteOneID(row.ID).Exec(ctx)
	case row.Fingerprint != k.fingerprint:
		return nil, detailErr(http.StatusUnprocessableEntity,
			"This Idempotency-Key was used for a different request (another body or query) at this endpoint.")
	}
	return &answer{status: row.Status, body: row.Body}, nil
}

// store keeps the answer of a request that succeeded.
func (k *idempotent) store(ctx context.Context, tx *resource.Tx, status int, body []byte) error {
	return tx.Client.IdempotencyKey.Create().SetUserID(k.user).SetEndpoint(k.endpoint).SetIdempotencyKey(k.key).
		SetFingerprint(k.fingerprint).SetStatus(status).SetBody(body).SetCreated(k.now).
		SetExpires(k.now.Add(k.window)).Exec(ctx)
}
