package netboximport

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/inventory/inventory/ent"
	"github.com/inventory/inventory/ent/resource"
)

// changesEndpoint is NetBox's change log, imported with Changelog.
const changesEndpoint = "core/object-changes"

// netboxChange is what a NetBox change record says.
type netboxChange struct {
	ID                int             `json:"id"`
	Time              string          `json:"time"`
	User              json.RawMessage `json:"user"`
	UserName          string          `json:"user_name"`
	RequestID         string          `json:"request_id"`
	Action            json.RawMessage `json:"action"`
	ChangedObjectType string          `json:"changed_object_type"`
	ChangedObjectID   int             `json:"changed_object_id"`
	ObjectRepr        string          `json:"object_repr"`
	Message           string          `json:"message"`
	Prechange         json.RawMessage `json:"prechange_data"`
	Postchange        json.RawMessage `json:"postchange_data"`
}

// importChanges writes NetBox's change records as this service's, with
// their ids: the history of every object survives the move. Change
// records are read-only to the API (no create through the resource
// layer); they are written as change capture writes its own, in
// multi-row INSERTs, one transaction per page.
func (im *importer) importChanges(ctx context.Context) error {
	r := &EndpointResult{Endpoint: changesEndpoint}
	im.rep.Endpoints = append(im.rep.Endpoints, r)
	im.byEP[changesEndpoint] = r
	if n, err := im.o.Source.Count(ctx, changesEndpoint); err == nil {
		im.o.Progress.Start(changesEndpoint, n)
	}
	err := im.o.Source.Pages(ctx, changesEndpoint, func(objs []json.RawMessage) error {
		im.o.Progress.Read(changesEndpoint, len(objs))
		r.Read += len(objs)
		im.rep.Read += len(objs)
		var bs []*ent.ObjectChangeCreate
		for _, raw := range objs {
			b, err := im.change(raw)
			if err != nil {
				id, _ := idOf(rawField(raw, "id"))
				if err := im.refused(changesEndpoint, id, err.Error()); err != nil {
					return err
				}
				im.refuse[key{"core.objectchange", id}] = true
				continue
			}
			if b != nil {
				bs = append(bs, b)
			}
		}
		if im.existing != nil {
			kept := bs[:0]
			for _, b := range bs {
				if id, _ := b.Mutation().ID(); !im.existing.has("core.objectchange", id) {
					kept = append(kept, b)
				}
			}
			r.Written += len(bs) - len(kept)
			im.rep.Written += len(bs) - len(kept)
			bs = kept
		}
		for lo := 0; lo < len(bs); lo += 500 {
			if err := im.o.DB.Client.ObjectChange.CreateBulk(bs[lo:min(lo+500, len(bs))]...).Exec(ctx); err != nil {
				return fmt.Errorf("%s: %w", changesEndpoint, err)
			}
		}
		r.Written += len(bs)
		im.rep.Written += len(bs)
		im.o.Progress.Wrote(changesEndpoint, len(bs))
		return nil
	})
	im.o.Progress.Done(changesEndpoint, err)
	return err
}

// change turns one NetBox change record into its create.
func (im *importer) change(raw json.RawMessage) (*ent.ObjectChangeCreate, error) {
	var c netboxChange
	if err := json.Unmarshal(raw, &c); err != nil {
		return nil, err
	}
	t, ok := resource.ParseTime(c.Time)
	if !ok {
		return nil, fmt.Errorf("time %q", c.Time)
	}
	action := c.Action
	var n nested
	if json.Unmarshal(c.Action, &n) == nil && n.Value != nil {
		action = n.Value
	}
	var act string
	if err := json.Unmarshal(action, &act); err != nil || act != "create" && act != "update" && act != "delete" {
		return nil, fmt.Errorf("action %s", c.Action)
	}
	b := im.o.DB.Client.ObjectChange.Create().SetTime(t.UTC().Truncate(time.Microsecond)).SetUserName(c.UserName).
		SetRequestID(c.RequestID).SetAction(act).SetChangedObjectType(c.ChangedObjectType).
		SetChangedObjectID(c.ChangedObjectID).SetObjectRepr(c.ObjectRepr).SetMessage(c.Message)
	if uid, ok := idOf(c.User); ok && im.known.has("users.user", uid) {
		b.SetUserID(uid)
	}
	if !isNull(c.Prechange) && string(c.Prechange) != "{}" {
		b.SetPrechangeData(c.Prechange)
	}
	if !isNull(c.Postchange) && string(c.Postchange) != "{}" {
		b.SetPostchangeData(c.Postchange)
	}
	b.Mutation().SetImportedID(c.ID)
	return b, nil
}
