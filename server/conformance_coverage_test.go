package server_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/inventory/inventory/ent/resource"
)

// TestFixturesSetEveryOptionalField fails when a writable optional field
// of a model is set (to a value: not null, "", [] or {}) by no fixture's
// fullest object: the fixture's first object and its "complete" payload.
// The round-trip aspect (conformance_roundtrip_test.go) writes back what
// that object reads, so a field it never holds is never round-tripped with
// a value (issue 33). A new field fails here until its model's fixture
// sets it or unsetField says why no fixture can.
func TestFixturesSetEveryOptionalField(t *testing.T) {
	var missing []string
	for _, d := range resource.All() {
		if d.ReadOnlyAPI {
			continue
		}
		fx := loadFixture(t, d.ContentType())
		set := map[string]bool{}
		for _, p := range append([]map[string]any{fx.Create[0], fx.Complete}, fx.Alternates...) {
			for name, v := range p {
				if hasValue(v) {
					set[name] = true
				}
			}
		}
		for _, f := range d.Fields {
			if f.Required || !optionalWritable(f) || set[f.Name] {
				continue
			}
			if _, ok := unsetField[d.ContentType()+"."+f.Name]; ok {
				continue
			}
			missing = append(missing, d.ContentType()+"."+f.Name)
		}
	}
	// An allow-list entry for a field a fixture sets after all is stale.
	for key := range unsetField {
		i := strings.LastIndex(key, ".")
		d := resource.ByContentType(key[:i])
		if d == nil || d.Field(key[i+1:]) == nil {
			t.Errorf("unsetField names no field: %s", key)
			continue
		}
		fx := loadFixture(t, d.ContentType())
		for _, p := range append([]map[string]any{fx.Create[0], fx.Complete}, fx.Alternates...) {
			if hasValue(p[key[i+1:]]) {
				t.Errorf("unsetField lists %s, which its fixture sets", key)
			}
		}
	}
	sort.Strings(missing)
	if len(missing) > 0 {
		t.Errorf("%d writable optional fields set by no fixture's first object, \"complete\" or \"alternates\" (set them, or say in unsetField why none can):\n  %s",
			len(missing), strings.Join(missing, "\n  "))
	}
}

// optionalWritable says whether f is a field a client writes and reads
// back that the fixture must set: what writableBack says, less what the
// round trip adds to every model's fullest object itself (tags, custom
// fields, owner).
func optionalWritable(f *resource.Field) bool {
	switch f.Kind {
	case resource.KindTags, resource.KindCustomFields:
		return false
	}
	if f.Name == "owner" {
		return false
	}
	return writableBack(f)
}

func hasValue(v any) bool {
	switch x := v.(type) {
	case nil:
		return false
	case string:
		return x != ""
	case []any:
		return len(x) > 0
	case map[string]any:
		return len(x) > 0
	}
	return true
}

// unsetField is the reasoned allow-list: writable optional fields that no
// fixture object can hold, keyed "<content type>.<field>".
var unsetField = map[string]string{
	"extras.webhook.ca_file_path": "A CA file must exist on the server inside the configured CA directory, which conformance servers do not configure: TestWebhookCAFileRoundTrip round-trips it.",
	// Data files exist only after a sync of a directory or repository on
	// the server, which fixtures cannot make; a data source alone is
	// cleared (NetBox's SyncedDataMixin.clean()). TestSyncedData writes them.
	"extras.configtemplate.data_source":       syncedOnly,
	"extras.configtemplate.data_file":         syncedOnly,
	"extras.configcontext.data_source":        syncedOnly,
	"extras.configcontext.data_file":          syncedOnly,
	"extras.exporttemplate.data_source":       syncedOnly,
	"extras.configcontextprofile.data_source": syncedOnly,
	"extras.configcontextprofile.data_file":   syncedOnly,
}

const syncedOnly = "a data file comes from a sync of files on the server, which fixtures cannot make: TestSyncedData sets it"

// TestWritableFieldsAsNetBox fails when a field NetBox 4.6's serializer
// accepts on write is missing here or read-only, unless notWritable says
// why: no fixture could set it, nor could a client write back what it read.
func TestWritableFieldsAsNetBox(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("..", "testdata", "reference", "netbox-models.json"))
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Endpoints map[string]struct {
			ContentType string `json:"content_type"`
			Fields      []struct {
				Name     string
				ReadOnly *bool `json:"read_only"` // null: removed since 4.2
			}
		}
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	var wrong []string
	for _, e := range doc.Endpoints {
		d := resource.ByContentType(e.ContentType)
		if d == nil || d.ReadOnlyAPI {
			continue
		}
		for _, rf := range e.Fields {
			switch rf.Name {
			case "tags", "add_tags", "remove_tags", "changelog_message", "custom_fields":
				continue // the generic layer's, for every model (tags.go, changelog.go)
			}
			key := d.ContentType() + "." + rf.Name
			if rf.ReadOnly == nil || *rf.ReadOnly || notWritable[key] != "" {
				continue
			}
			if f := d.Field(rf.Name); f == nil || f.ReadOnly {
				wrong = append(wrong, key)
			}
		}
	}
	sort.Strings(wrong)
	if len(wrong) > 0 {
		t.Errorf("writable in NetBox, missing or read-only here (serve them, or say in notWritable why not):\n  %s", strings.Join(wrong, "\n  "))
	}
}

// notWritable are the fields NetBox's serializer takes on write that this
// service does not, each with its reason.
var notWritable = map[string]string{
	"circuits.circuit.assignments":    "NetBox's write-only nested assignments create CircuitGroupAssignments; served through /api/circuits/circuit-group-assignments/ only",
	"dcim.devicetype.front_image":     "device type images are not stored here (rendered null: api.Model.Empty)",
	"dcim.devicetype.rear_image":      "device type images are not stored here (rendered null: api.Model.Empty)",
	"dcim.modulebay.installed_module": "a reverse one-to-one (Module.module_bay): a module is installed by writing its module_bay",
	"users.token.last_used":           "kept by authentication only: a client cannot forge when a token was last used",
	"users.token.pepper_id":           "chosen by the server from its configured peppers when the token is made",
	"users.user.date_joined":          "kept by the server (set at creation)",
	"users.user.last_login":           "kept by the server (set by logins)",
}
