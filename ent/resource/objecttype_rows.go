package resource

import (
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"strings"
	"sync"

	"entgo.io/ent/dialect"
)

// The rows of core/object-types (schema.ObjectType): one per served model,
// written by SyncObjectTypes when the database is migrated. A model NetBox
// 4.6.8 has takes its id and its attributes there (objecttype_rows.json,
// extracted by objecttype_rows_extract.py from what a NetBox 4.6.8 lists),
// so that ids a client learnt from NetBox mean the same model here; a
// model NetBox does not list takes the next free id, once, and keeps it.

//go:embed objecttype_rows.json
var objectTypeRowsJSON []byte

type objectTypeRow struct {
	ID              int      `json:"id"`
	Display         string   `json:"display"`
	AppName         string   `json:"app_name"`
	ModelName       string   `json:"model_name"`
	ModelNamePlural string   `json:"model_name_plural"`
	Public          bool     `json:"public"`
	Features        []string `json:"features"`
	IsPluginModel   bool     `json:"is_plugin_model"`
	RestAPIEndpoint *string  `json:"rest_api_endpoint"`
	Description     string   `json:"description"`
}

var objectTypeRows = func() map[string]objectTypeRow {
	var doc struct {
		Rows map[string]objectTypeRow `json:"rows"`
	}
	if err := json.Unmarshal(objectTypeRowsJSON, &doc); err != nil {
		panic("resource: objecttype_rows.json: " + err.Error())
	}
	return doc.Rows
}()

// objectTypeByID maps NetBox's object type ids to "app.model" (the id
// filters' values: every served model is one NetBox lists).
var objectTypeByID = sync.OnceValue(func() map[int]string {
	m := make(map[int]string, len(objectTypeRows))
	for ct, r := range objectTypeRows {
		m[r.ID] = ct
	}
	return m
})

// objectTypeRowOf is the row of a served model: NetBox's, else one made
// from its descriptor (ID 0: the next free id).
func objectTypeRowOf(d *Descriptor) objectTypeRow {
	if r, ok := objectTypeRows[d.ContentType()]; ok {
		return r
	}
	features := []string{}
	if info, ok := netboxObjectTypes.Models[d.ContentType()]; ok {
		features = info.Features
	}
	endpoint := "/api/" + d.App + "/" + d.Path + "/"
	app := strings.ToUpper(d.App[:1]) + d.App[1:]
	return objectTypeRow{Display: app + " > " + titleWords(d.Verbose), AppName: app, ModelName: d.Verbose,
		ModelNamePlural: d.Verbose + "s", Public: true, Features: features, RestAPIEndpoint: &endpoint}
}

// titleWords capitalises each word ("object type" → "Object Type").
func titleWords(s string) string {
	words := strings.Fields(s)
	for i, w := range words {
		words[i] = strings.ToUpper(w[:1]) + w[1:]
	}
	return strings.Join(words, " ")
}

// SyncObjectTypes writes a core_objecttype row for every served model
// (resource.All, core.objecttype itself included) and refreshes the
// attributes of the existing ones. Idempotent; replicas migrating at once
// insert with ON CONFLICT DO NOTHING.
func SyncObjectTypes(ctx context.Context, ex SQLExecer, dia string) error {
	if ByContentType("core.objecttype") == nil {
		return nil
	}
	ph := func(i int) string {
		if dia == dialect.Postgres {
			return fmt.Sprintf("$%d", i)
		}
		return "?"
	}
	cols := []string{"id", "app_label", "model_key", "app_name", "model_name", "model_name_plural", "public",
		"features", "is_plugin_model", "rest_api_endpoint", "description", "label"}
	marks := make([]string, len(cols))
	quoted := make([]string, len(cols))
	sets := make([]string, 0, len(cols))
	for i, c := range cols {
		marks[i], quoted[i] = ph(i+1), quote(c)
		if i >= 3 {
			sets = append(sets, quote(c)+" = "+ph(len(sets)+1))
		}
	}
	insert := "INSERT INTO " + quote("core_objecttype") + " (" + strings.Join(quoted, ", ") + ") VALUES (" +
		strings.Join(marks, ", ") + ") ON CONFLICT DO NOTHING"
	// The attributes follow the data; the id stays.
	update := "UPDATE " + quote("core_objecttype") + " SET " + strings.Join(sets, ", ") + " WHERE " +
		quote("app_label") + " = " + ph(len(sets)+1) + " AND " + quote("model_key") + " = " + ph(len(sets)+2)
	for _, d := range All() {
		r := objectTypeRowOf(d)
		if r.ID == 0 {
			id, err := nextObjectTypeID(ctx, ex, d)
			if err != nil {
				return err
			}
			r.ID = id
		}
		features, err := json.Marshal(r.Features)
		if err != nil {
			return err
		}
		var endpoint any
		if r.RestAPIEndpoint != nil {
			endpoint = *r.RestAPIEndpoint
		}
		args := []any{r.ID, d.App, d.Model, r.AppName, r.ModelName, r.ModelNamePlural, r.Public, string(features),
			r.IsPluginModel, endpoint, r.Description, r.Display}
		if _, err := ex.ExecContext(ctx, insert, args...); err != nil {
			return fmt.Errorf("object type %s: %w", d.ContentType(), err)
		}
		if _, err := ex.ExecContext(ctx, update, append(args[3:], d.App, d.Model)...); err != nil {
			return fmt.Errorf("object type %s: %w", d.ContentType(), err)
		}
	}
	return nil
}

// nextObjectTypeID is the id of d's row: its existing one, else one past
// the largest in use and every id NetBox's data holds.
func nextObjectTypeID(ctx context.Context, ex SQLExecer, d *Descriptor) (int, error) {
	next := 0
	for _, r := range objectTypeRows {
		next = max(next, r.ID)
	}
	rows, err := ex.QueryContext(ctx, "SELECT "+quote("id")+", "+quote("app_label")+", "+quote("model_key")+" FROM "+quote("core_objecttype"))
	if err != nil {
		return 0, err
	}
	defer rows.Close()
	for rows.Next() {
		var id int
		var app, model string
		if err := rows.Scan(&id, &app, &model); err != nil {
			return 0, err
		}
		if app == d.App && model == d.Model {
			return id, nil
		}
		next = max(next, id)
	}
	return next + 1, rows.Err()
}
