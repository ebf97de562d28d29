package server

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"path"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/inventory/inventory/ent"
	"github.com/inventory/inventory/ent/logic/extras"
	"github.com/inventory/inventory/ent/managedfile"
	"github.com/inventory/inventory/ent/media"
	"github.com/inventory/inventory/ent/resource"
)

// Script modules (POST /api/extras/scripts/upload/, declared by
// extras.script in ent/schema/extras_script.go): NetBox's
// ScriptModuleSerializer. The multipart file is stored in the scripts
// directory of the media store (<MEDIA_ROOT>/scripts/) under the upload's
// base name made safe (media.ValidName), never a client path; its
// core_managedfile row and one extras_script row per Script class found by
// the static parse (extras.ParseScriptModule) are written in one
// transaction, and the file goes again when anything fails (media.Batch).

// scriptsRoot is NetBox's ManagedFileRootPathChoices.SCRIPTS: the
// file_root of script modules and the directory they are stored in.
const scriptsRoot = "scripts"

// Messages as NetBox's ScriptModuleSerializer and DRF's FileField say them.
const (
	msgScriptDuplicate = "A script module with this file name already exists."
	msgNoFile          = "No file was submitted."
	msgNotFile         = "The submitted data was not a file. Check the encoding type on the form."
)

func init() {
	handle("extras.scripts.upload", (*Server).uploadScriptModule)
}

// uploadScriptModule serves POST /api/extras/scripts/upload/.
func (s *Server) uploadScriptModule(c *gin.Context) error {
	in, err := objectBody(c)
	if err != nil {
		return err
	}
	raw, given := in["file"]
	var uri string
	if !given || string(raw) == "null" {
		return resource.Invalid("file", msgNoFile)
	}
	if json.Unmarshal(raw, &uri) != nil {
		return resource.Invalid("file", msgNotFile)
	}
	filename, data, ok := media.ParseDataURI(uri)
	switch {
	case !ok:
		return resource.Invalid("file", msgNotFile)
	case len(data) == 0:
		return resource.Invalid("file", "The submitted file is empty.")
	case len(data) > extras.MaxScriptModuleSize:
		return resource.Invalid("file", fmt.Sprintf("Ensure this file is no larger than %d bytes; it has %d.", extras.MaxScriptModuleSize, len(data)))
	}
	// Only the base name of what the client sent counts (Django's
	// UploadedFile.name), made safe as the storage's get_valid_name.
	base := path.Base(strings.ReplaceAll(filename, "\\", "/"))
	stem, ok := strings.CutSuffix(base, ".py")
	if stem = media.ValidName(stem); !ok || stem == "" {
		return resource.Invalid("file", "Upload a Python module: a file whose name ends in .py.")
	}
	scripts, err := extras.ParseScriptModule(data)
	if err != nil {
		return resource.Invalid("non_field_errors", "Error loading script: "+err.Error())
	}
	name := stem + ".py"
	var id int
	err = s.writeTx(c, func(ctx context.Context, tx *resource.Tx) error {
		taken, err := tx.Client.ManagedFile.Query().
			Where(managedfile.FileRootEQ(scriptsRoot), managedfile.FilePathEQ(name)).Exist(ctx)
		if err != nil {
			return err
		}
		if taken {
			return resource.Invalid("non_field_errors", msgScriptDuplicate)
		}
		b := media.From(ctx)
		if b == nil || b.Store == nil || b.Store.Root == "" {
			return resource.Invalid("file", "File uploads are not enabled on this server (MEDIA_ROOT).")
		}
		// A file left on disk under this name (by no row) makes the store
		// pick another, as Django's get_available_name.
		rel, err := b.Write(scriptsRoot, stem, "py", data)
		if err != nil {
			return fmt.Errorf("store script module: %w", err)
		}
		m, err := tx.Client.ManagedFile.Create().
			SetFileRoot(scriptsRoot).SetFilePath(strings.TrimPrefix(rel, scriptsRoot+"/")).Save(ctx)
		if ent.IsConstraintError(err) {
			return resource.Invalid("non_field_errors", msgScriptDuplicate)
		}
		if err != nil {
			return err
		}
		id = m.ID
		python := strings.TrimSuffix(m.FilePath, ".py")
		for _, sc := range scripts {
			if _, err := tx.Client.Script.Create().SetName(sc.Name).SetModuleID(m.ID).SetModuleName(python).
				SetDescription(sc.Description).SetVars(orderedVars(sc.Vars)).Save(ctx); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	m, err := s.db.Client.ManagedFile.Get(c.Request.Context(), id)
	if err != nil {
		return err
	}
	out := scriptModule{ID: m.ID, Display: strings.TrimSuffix(m.FilePath, ".py"), FilePath: m.FilePath,
		Created: resource.FormatTime(m.Created)}
	if m.LastUpdated != nil {
		t := resource.FormatTime(*m.LastUpdated)
		out.LastUpdated = &t
	}
	body, err := json.Marshal(out)
	if err != nil {
		return err
	}
	writeJSON(c, http.StatusCreated, body)
	return nil
}

// scriptModule is NetBox's ScriptModuleSerializer, in its field order.
type scriptModule struct {
	ID          int     `json:"id"`
	Display     string  `json:"display"`
	FilePath    string  `json:"file_path"`
	Created     string  `json:"created"`
	LastUpdated *string `json:"last_updated"`
}

// orderedVars renders a class's variables as NetBox's vars: an object of
// name → variable class, in the variables' order.
func orderedVars(vars []extras.ScriptVar) json.RawMessage {
	b := []byte{'{'}
	for i, v := range vars {
		if i > 0 {
			b = append(b, ',')
		}
		k, _ := json.Marshal(v.Name)
		c, _ := json.Marshal(v.Class)
		b = append(append(append(b, k...), ':'), c...)
	}
	return append(b, '}')
}
