package netboximport

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/google/uuid"

	"github.com/inventory/inventory/ent"
)

// An import is recorded as a job of this service (core/jobs, "NetBox
// import"): running while it writes, completed or errored at the end,
// with the source and the counts in its data. It is the mark that tells
// an unfinished import from a finished one: a database whose import job
// did not complete holds part of a NetBox, and a later import refuses it
// as it refuses any database that holds data. A completed import adds one
// change record (on the job) that says what was imported and from where:
// the import's rows themselves have none (it is no change of this
// service's data, and NetBox's own history comes with --changelog).

// JobName is the name of an import's job.
const JobName = "NetBox import"

func (im *importer) startJob(ctx context.Context) error {
	now := time.Now().UTC()
	data, _ := json.Marshal(map[string]any{"source": im.o.From, "netbox_version": im.rep.Version})
	j, err := im.o.DB.Client.Job.Create().SetName(JobName).SetStatus("running").SetStarted(now).
		SetJobID(uuid.NewString()).SetData(data).Save(ctx)
	if err != nil {
		return fmt.Errorf("recording the import: %w", err)
	}
	im.job = j
	return nil
}

// endJob marks the job completed (err nil) or errored, and for a
// completed import writes its change record.
func (im *importer) endJob(ctx context.Context, failure error) error {
	if im.job == nil {
		return nil
	}
	now := time.Now().UTC()
	endpoints := 0
	for _, e := range im.rep.Endpoints {
		if e.Written > 0 {
			endpoints++
		}
	}
	summary := fmt.Sprintf("Imported %d objects of %d endpoints from %s (NetBox %s)", im.rep.Written, endpoints, im.o.From, im.rep.Version)
	data, _ := json.Marshal(map[string]any{"source": im.o.From, "netbox_version": im.rep.Version,
		"objects": im.rep.Written, "endpoints": endpoints, "refused": len(im.rep.Refused)})
	tx, err := im.o.DB.Client.Tx(ctx)
	if err != nil {
		return err
	}
	if err := im.recordEnd(ctx, tx, now, failure, data, summary); err != nil {
		_ = tx.Rollback()
		return fmt.Errorf("recording the import: %w", err)
	}
	return tx.Commit()
}

func (im *importer) recordEnd(ctx context.Context, tx *ent.Tx, now time.Time, failure error, data json.RawMessage, summary string) error {
	{
		u := tx.Job.UpdateOneID(im.job.ID).SetCompleted(now).SetData(data)
		if failure != nil {
			u.SetStatus("errored").SetError(failure.Error())
		} else {
			u.SetStatus("completed")
		}
		if err := u.Exec(ctx); err != nil {
			return err
		}
		if failure != nil {
			return nil
		}
		return tx.ObjectChange.Create().SetTime(now).SetUserName(actor.Username).SetAction("create").
			SetChangedObjectType("core.job").SetChangedObjectID(im.job.ID).
			SetObjectRepr(truncate(JobName+" from "+im.o.From, 200)).SetMessage(truncate(summary, 200)).
			SetPostchangeData(data).Exec(ctx)
	}
}
