package ipam

import (
	"bytes"
	"database/sql"
	"encoding/json"
	"fmt"
	"net/http"

	"github.com/inventory/inventory/ent/logic/pyrepr"
	"github.com/inventory/inventory/ent/logic/rawsql"
	"github.com/inventory/inventory/ent/schema/api"
)

// What the allocation handlers share: the request body as NetBox's
// AvailableObjectsView reads it, the 409, the locks and the queries.

// errInsufficient is NetBox's answer when the parent cannot satisfy the
// request (AvailableObjectsView.post).
var errInsufficient = &api.StatusError{Status: http.StatusConflict,
	Detail: "Insufficient resources are available to satisfy the request"}

// Advisory lock classes: NetBox's ADVISORY_LOCK_KEYS. The second key
// narrows the lock to what an allocation reads (a VRF, a VLAN group), so
// that allocations elsewhere do not wait.
const (
	lockPrefixes int32 = 100100
	lockIPs      int32 = 100200
	lockVLANs    int32 = 100300
	lockASNs     int32 = 100400
	// lockAllVRFs is the key that allocations in one VRF hold shared and
	// an allocation reading every VRF (a global container's available
	// IPs) holds exclusive.
	lockAllVRFs int32 = -1
)

// requested reads the body of an allocation POST: one object or a list of
// them (list true). An empty body is one empty object, as DRF's
// request.data is then; anything but objects is refused per item.
func requested(body []byte) (objs []map[string]json.RawMessage, list bool, err error) {
	body = bytes.TrimSpace(body)
	if len(body) == 0 {
		return []map[string]json.RawMessage{{}}, false, nil
	}
	var raws []json.RawMessage
	if body[0] == '[' {
		if err := json.Unmarshal(body, &raws); err != nil {
			return nil, true, &api.FieldError{Field: "non_field_errors", Message: "Invalid data: " + err.Error()}
		}
		list = true
	} else {
		raws = []json.RawMessage{body}
	}
	objs = make([]map[string]json.RawMessage, len(raws))
	errs := make(api.ItemErrors, len(raws))
	bad := false
	for i, raw := range raws {
		errs[i] = map[string][]string{}
		raw = bytes.TrimSpace(raw)
		if len(raw) == 0 || raw[0] != '{' || json.Unmarshal(raw, &objs[i]) != nil {
			errs[i]["non_field_errors"] = []string{fmt.Sprintf("Invalid data. Expected a dictionary, but got %s.", pyrepr.TypeOfJSON(raw))}
			bad = true
			continue
		}
		if objs[i] == nil {
			objs[i] = map[string]json.RawMessage{}
		}
	}
	if bad {
		return nil, list, errs
	}
	return objs, list, nil
}

// created creates the prepared objects through the normal create path and
// answers them as POST on the model's list would: one object, or a list.
func created(r api.Request, contentType string, objs []map[string]json.RawMessage, list bool) (any, error) {
	ids, err := r.Create(contentType, objs, list)
	if err != nil {
		return nil, err
	}
	out, err := r.Render(contentType, ids)
	if err != nil {
		return nil, err
	}
	if !list {
		if len(out) != 1 {
			return nil, fmt.Errorf("%s: created %d objects for one", contentType, len(out))
		}
		return out[0], nil
	}
	return out, nil
}

// with returns a copy of an object of the request with fields set (a nil
// value is JSON null) and others removed.
func with(obj map[string]json.RawMessage, set map[string]any, drop ...string) (map[string]json.RawMessage, error) {
	out := make(map[string]json.RawMessage, len(obj)+len(set))
	for k, v := range obj {
		out[k] = v
	}
	for _, k := range drop {
		delete(out, k)
	}
	for k, v := range set {
		raw, err := json.Marshal(v)
		if err != nil {
			return nil, err
		}
		out[k] = raw
	}
	return out, nil
}

// query runs a query built with a and hands each row to scan.
func query(r api.Request, q string, a *rawsql.Args, scan func(rows *sql.Rows) error) error {
	rows, err := r.SQL(q, a.List...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		if err := scan(rows); err != nil {
			return err
		}
	}
	return rows.Err()
}

// fieldInt reads an integer field of the request's object (0 when unset).
func fieldInt(v any) int {
	n, _ := rawsql.IntOf(v)
	return n
}

// nullable is an id as a JSON value: null for 0.
func nullable(id int) any {
	if id == 0 {
		return nil
	}
	return id
}

// related renders a related object of the parent, null when unset.
func related(r api.Request, contentType string, id int) (json.RawMessage, error) {
	if id == 0 {
		return json.RawMessage("null"), nil
	}
	raw, err := r.Related(contentType, id)
	if raw == nil || err != nil {
		return json.RawMessage("null"), err
	}
	return raw, nil
}

// Batches of child rows read by the available-* walks: a first page needs
// few rows, a dense parent many, so each batch doubles up to the cap.
const (
	firstBatch = 256
	maxBatch   = 16384
)
