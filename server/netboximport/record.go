package netboximport

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/google/uuid"

	"github.com/inventory/inventory/ent"
	"github.com/inventory/inventory/ent/job"
	"github.com/inventory/inventory/ent/resource"
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

// resume finds the interrupted import of the same source and loads what
// it wrote: the ids of every model the import writes.
func (im *importer) resume(ctx context.Context, ds []*resource.Descriptor) error {
	j, err := im.o.DB.Client.Job.Query().Where(job.NameEQ(JobName)).Order(ent.Desc(job.FieldID)).First(ctx)
	if ent.IsNotFound(err) {
		return fmt.Errorf("--resume: this database holds no import to continue")
	}
	if err != nil {
		return err
	}
	var data struct {
		Source string `json:"source"`
	}
	_ = json.Unmarshal(j.Data, &data)
	switch {
	case j.Status == "completed":
		return fmt.Errorf("--resume: the import from %s into this database completed", data.Source)
	case data.Source != im.o.From:
		return fmt.Errorf("--resume: the interrupted import read %s, not %s", data.Source, im.o.From)
	}
	if err := im.o.DB.Client.Job.UpdateOneID(j.ID).SetStatus("running").SetError("").Exec(ctx); err != nil {
		return err
	}
	im.job = j
	im.existing = &known{bits: map[string][]uint64{}}
	for _, d := range ds {
		rows, err := im.o.DB.Write.QueryContext(ctx, `SELECT id FROM `+quoteIdent(d.Table))
		if err != nil {
			return err
		}
		ct := d.ContentType()
		for rows.Next() {
			var id int
			if err := rows.Scan(&id); err != nil {
				rows.Close()
				return err
			}
			im.existing.add(ct, id)
			im.known.add(ct, id)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
	}
	return nil
}
