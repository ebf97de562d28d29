package schema

import (
	"encoding/json"

	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"

	"github.com/inventory/inventory/ent/schema/api"
)

// JobStatus are NetBox's JobStatusChoices.
var JobStatus = api.C("pending", "Pending", "scheduled", "Scheduled", "running", "Running",
	"completed", "Completed", "errored", "Errored", "failed", "Failed")

// JobNotifications are NetBox's JobNotificationChoices.
var JobNotifications = api.C("always", "Always", "on_failure", "On failure", "never", "Never")

// Job is core.Job: one row per run of a background job of this service
// (a data source's sync, the change-log retention, the session and
// webhook housekeeping), written by package jobs as the run starts and
// ends. NetBox records the jobs it hands to RQ the same way; here the
// scheduler is gocron inside the process. Read-only through the API.
type Job struct{ ent.Schema }

func (Job) Fields() []ent.Field {
	ro := api.Field{ReadOnly: true}
	return []ent.Field{
		// The object the job concerns (a data source's sync), if any:
		// NetBox's JobsMixin deletes an object's jobs with it.
		field.String("object_type").MaxRuneLen(100).Optional().Nillable().
			Annotations(api.Field{ObjectTypes: "jobs", OnDelete: api.Cascade, ReadOnly: true}),
		field.Int("object_id").Optional().Nillable().Annotations(ro),
		field.String("name").MaxRuneLen(200).Annotations(ro),
		field.Time("created").Default(Now).Immutable().Annotations(ro),
		field.Time("scheduled").Optional().Nillable().Annotations(ro),
		// Recurrence in minutes (a scheduled job's period).
		field.Int("interval").Optional().Nillable().Annotations(ro),
		field.Time("started").Optional().Nillable().Annotations(ro),
		field.Time("completed").Optional().Nillable().Annotations(ro),
		field.Int("user_id").Optional().Nillable().Annotations(ro),
		field.String("status").MaxRuneLen(30).Default("pending").
			Annotations(api.Field{Kind: "choice", Choices: JobStatus, ReadOnly: true}),
		field.JSON("data", json.RawMessage{}).Optional().Annotations(api.Field{Kind: "json", ReadOnly: true}),
		field.Text("error").Default("").Annotations(ro),
		field.String("job_id").MaxRuneLen(36).Unique().Annotations(ro),
		field.String("queue_name").MaxRuneLen(100).Default("").Annotations(ro),
		// NetBox notifies the job's user on completion (default always);
		// this service sends no job notifications, so it says never.
		field.String("notifications").MaxRuneLen(30).Default("never").
			Annotations(api.Field{Kind: "choice", Choices: JobNotifications, ReadOnly: true}),
		field.JSON("log_entries", []any{}).Default([]any{}).Annotations(api.Field{Kind: "json", ReadOnly: true}),
	}
}

func (Job) Edges() []ent.Edge {
	return []ent.Edge{
		edge.To("user", User.Type).Field("user_id").Unique().
			Annotations(OnDelete(api.SetNull, api.Field{Lookup: "username", ReadOnly: true})...),
	}
}

func (Job) Indexes() []ent.Index {
	return []ent.Index{index.Fields("created"), index.Fields("object_type", "object_id"), index.Fields("status")}
}

func (Job) Annotations() []schema.Annotation {
	return []schema.Annotation{
		entsql.Annotation{Table: "core_job"},
		api.Model{
			App: "core", Path: "jobs", Verbose: "job", ReadOnly: true,
			Fields: []string{"id", "url", "display_url", "display", "object_type", "object_id", "object", "name",
				"status", "created", "scheduled", "interval", "started", "completed", "user", "data", "error",
				"job_id", "queue_name", "notifications", "log_entries"},
			Brief:    []string{"url", "created", "completed", "user", "status"},
			Display:  "{name}",
			Search:   []string{"name"},
			Ordering: []string{"-created"},
			Filters: []api.Filter{
				{Name: "created__before", Kind: "datetime-before", Column: "created"},
				{Name: "created__after", Kind: "datetime-after", Column: "created"},
				{Name: "scheduled__before", Kind: "datetime-before", Column: "scheduled"},
				{Name: "scheduled__after", Kind: "datetime-after", Column: "scheduled"},
				{Name: "started__before", Kind: "datetime-before", Column: "started"},
				{Name: "started__after", Kind: "datetime-after", Column: "started"},
				{Name: "completed__before", Kind: "datetime-before", Column: "completed"},
				{Name: "completed__after", Kind: "datetime-after", Column: "completed"},
			},
		},
	}
}
