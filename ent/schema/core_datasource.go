package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/field"

	"github.com/inventory/inventory/ent/logic/core"
	"github.com/inventory/inventory/ent/schema/api"
)

// DataSourceType are NetBox's data backends. Served: a directory on the
// server (below the operator's DATA_SOURCES_ROOT) and a git repository;
// amazon-s3 is listed as NetBox lists it and refused on write
// (core.DataSourceHooks).
var DataSourceType = api.C("local", "Local", "git", "Git", "amazon-s3", "Amazon S3")

// DataSourceStatus are NetBox's DataSourceStatusChoices.
var DataSourceStatus = api.C("new", "New", "queued", "Queued", "syncing", "Syncing",
	"completed", "Completed", "failed", "Failed")

// DataSource is core.DataSource: where data files come from. A sync
// (POST .../sync/, or every sync_interval minutes) replaces the source's
// data files with what the directory or repository holds, all or none
// (package datasources); status and last_synced are the server's.
type DataSource struct{ ent.Schema }

// Mixin: NetBox's PrimaryModel. Its DataSourceSerializer lists no tags,
// so the API neither shows nor sets them (not in Fields); the tag filters
// are served, as NetBox's filter set has them.
func (DataSource) Mixin() []ent.Mixin { return PrimaryMixins() }

func (DataSource) Fields() []ent.Field {
	ro := api.Field{ReadOnly: true}
	return []ent.Field{
		NaturalUniqueName(100),
		NaturalKeyField("name"),
		field.String("type").MaxRuneLen(50).Annotations(api.Field{Kind: "choice", Choices: DataSourceType}),
		field.String("source_url").MaxRuneLen(200).NotEmpty(),
		field.String("status").MaxRuneLen(50).Default("new").
			Annotations(api.Field{Kind: "choice", Choices: DataSourceStatus, ReadOnly: true}),
		field.Bool("enabled").Default(true),
		// NetBox's serializer takes any integer (the reference's type
		// integer, no choices); its model checks JobIntervalChoices
		// (core.DataSourceHooks).
		field.Int("sync_interval").Optional().Nillable(),
		field.Text("ignore_rules").Default(""),
		field.JSON("parameters", map[string]any{}).Optional().Annotations(api.Field{Kind: "json"}),
		field.Time("last_synced").Optional().Nillable().Annotations(ro),
	}
}

// Hooks: NetBox's DataSource.clean() (a local source's URL is a path or
// file://; the URL and parameters are checked when written, not at sync).
func (DataSource) Hooks() []ent.Hook { return core.DataSourceHooks() }

func (DataSource) Annotations() []schema.Annotation {
	return []schema.Annotation{
		entsql.Annotation{Table: "core_datasource"},
		api.Model{
			App: "core", Path: "data-sources", Verbose: "data source",
			Fields: []string{"id", "url", "display_url", "display", "name", "type", "source_url", "enabled", "status",
				"description", "sync_interval", "parameters", "ignore_rules", "owner", "comments", "custom_fields",
				"created", "last_updated", "last_synced", "file_count"},
			Brief:    []string{"id", "url", "display", "name", "description"},
			Display:  "{name}",
			Search:   []string{"name", "description", "source_url"},
			Ordering: []string{"name"},
			// NetBox's filter is a MultipleChoiceFilter (character lookups).
			Filters: []api.Filter{{Name: "sync_interval", Kind: "choice", Column: "sync_interval",
				Choices: []string{"1", "60", "720", "1440", "10080", "43200"}}},
			Counts: map[string]api.Count{
				"file_count": {Model: "core.datafile", Column: "source_id"},
			},
			Endpoints: []api.Endpoint{{Name: "sync", Detail: true, Ops: []api.Op{{
				Method: "POST", Permission: "sync", Handler: "core.datasources.sync", Write: true,
				Summary:     "Synchronize the data source",
				Description: "Queues a sync job for the data source and answers the data source (status queued), as NetBox's sync action.",
				Response:    "DataSource", Errors: []int{400, 404},
			}}}},
		},
	}
}
