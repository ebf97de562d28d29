package server_test

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"io/fs"
	"mime/multipart"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/inventory/inventory/server"
	"github.com/inventory/inventory/server/servertest"
)

const attachmentsPath = "/api/extras/image-attachments/"

// A 2×3 and a 4×1 PNG, and an SVG (which is no raster image).
var (
	png2x3, _ = base64.StdEncoding.DecodeString("iVBORw0KGgoAAAANSUhEUgAAAAIAAAADCAIAAAA2iEnWAAAAEElEQVR4nGM4IScHRAwoFABEDQYZFCZhYwAAAABJRU5ErkJggg==")
	png4x1, _ = base64.StdEncoding.DecodeString("iVBORw0KGgoAAAANSUhEUgAAAAQAAAABCAIAAAB2XpiaAAAADUlEQVR4nGM4IScHRwAdHQQRcFW/GQAAAABJRU5ErkJggg==")
	svg       = []byte(`<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><script>alert(2)</script></svg>`)
)

// form builds a multipart body: fields, and the file part "image" when
// file is not nil. It returns the body and its Content-Type header.
func form(t *testing.T, fields map[string]string, filename string, file []byte) ([]byte, string) {
	t.Helper()
	var buf bytes.Buffer
	w := multipart.NewWriter(&buf)
	keys := make([]string, 0, len(fields))
	for k := range fields {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if err := w.WriteField(k, fields[k]); err != nil {
			t.Fatal(err)
		}
	}
	if file != nil {
		fw, err := w.CreateFormFile("image", filename)
		if err != nil {
			t.Fatal(err)
		}
		fw.Write(file)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes(), "Content-Type: " + w.FormDataContentType()
}

// mediaFiles lists the files under the media directory, relative.
func mediaFiles(t *testing.T, e *servertest.Env) []string {
	t.Helper()
	var out []string
	filepath.WalkDir(e.Config.MediaRoot, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(e.Config.MediaRoot, p)
			out = append(out, filepath.ToSlash(rel))
		}
		return nil
	})
	sort.Strings(out)
	return out
}

// mediaPath is the request path of an attachment's image URL.
func mediaPath(t *testing.T, obj map[string]any) string {
	t.Helper()
	u, _ := obj["image"].(string)
	p, ok := strings.CutPrefix(u, "http://inventory.test")
	if !ok || !strings.HasPrefix(p, "/media/image-attachments/") {
		t.Fatalf("image URL %q", u)
	}
	return p
}

// TestImageAttachmentUpload is issue 13's "done means" for attachments, on
// both databases: a PNG uploaded to a site as multipart form data is
// listed with its dimensions and size, fetched back byte for byte from its
// image URL (as an image that browsers must not sniff), renamed with a JSON
// PATCH, replaced by a multipart PUT (the old file goes), and gone from
// disk once the attachment is deleted, or once its site is (cascade).
func TestImageAttachmentUpload(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		a := e.Admin()
		site := idOf(a.Must(http.StatusCreated, "POST", "/api/dcim/sites/", map[string]any{"name": "Media", "slug": "media"}).Object())
		body, ct := form(t, map[string]string{"object_type": "dcim.site", "object_id": fmt.Sprint(site), "name": "Front door"}, `C:\fakepath\door photo.png`, png2x3)
		att := a.Must(http.StatusCreated, "POST", attachmentsPath, body, ct).Object()
		for k, want := range map[string]any{"image_width": 2.0, "image_height": 3.0, "image_size": float64(len(png2x3)), "display": "Front door", "object_type": "dcim.site"} {
			if att[k] != want {
				t.Errorf("%s = %v, want %v", k, att[k], want)
			}
		}
		img := mediaPath(t, att)
		if want := fmt.Sprintf("/media/image-attachments/site_%d_Front_door.png", site); img != want {
			t.Errorf("image at %s, want %s", img, want)
		}
		list := a.Must(http.StatusOK, "GET", attachmentsPath+"?object_type=dcim.site&object_id="+fmt.Sprint(site), nil).Results()
		if len(list) != 1 || list[0]["image"] != att["image"] {
			t.Fatalf("list: %v", list)
		}
		r := a.Must(http.StatusOK, "GET", img, nil)
		if !bytes.Equal(r.Body, png2x3) {
			t.Errorf("fetched %d bytes, not the upload", len(r.Body))
		}
		for h, want := range map[string]string{"Content-Type": "image/png", "X-Content-Type-Options": "nosniff"} {
			if got := r.Header.Get(h); got != want {
				t.Errorf("%s: %q, want %q", h, got, want)
			}
		}
		if got := mediaFiles(t, e); len(got) != 1 {
			t.Fatalf("media files: %v", got)
		}

		// JSON PATCH of name and description keeps the file.
		id := idOf(att)
		p := a.Must(http.StatusOK, "PATCH", fmt.Sprintf("%s%d/", attachmentsPath, id), map[string]any{"name": "Door", "description": "north side"}).Object()
		if p["name"] != "Door" || p["description"] != "north side" || p["image"] != att["image"] {
			t.Errorf("PATCH: %v", p)
		}
		// A JSON string is no file.
		r = a.Must(http.StatusBadRequest, "PATCH", fmt.Sprintf("%s%d/", attachmentsPath, id), map[string]any{"image": "/etc/passwd"})
		if !strings.Contains(string(r.Body), "The submitted data was not a file.") {
			t.Errorf("image as a path: %s", r.Body)
		}

		// A multipart PUT replaces the image: the old file goes.
		body, ct = form(t, map[string]string{"object_type": "dcim.site", "object_id": fmt.Sprint(site), "name": "Door"}, "door.png", png4x1)
		put := a.Must(http.StatusOK, "PUT", fmt.Sprintf("%s%d/", attachmentsPath, id), body, ct).Object()
		if put["image_width"] != 4.0 || put["image"] == att["image"] {
			t.Errorf("PUT: %v", put)
		}
		if got, want := mediaFiles(t, e), []string{strings.TrimPrefix(mediaPath(t, put), "/media/")}; fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("after PUT media files %v, want %v", got, want)
		}
		a.Must(http.StatusNotFound, "GET", img, nil)

		// Deleting the attachment deletes the file.
		a.Must(http.StatusNoContent, "DELETE", fmt.Sprintf("%s%d/", attachmentsPath, id), nil)
		if got := mediaFiles(t, e); len(got) != 0 {
			t.Errorf("after delete: media files %v", got)
		}
		a.Must(http.StatusNotFound, "GET", mediaPath(t, put), nil)

		// Deleting the site takes its attachments and their files.
		for i := 0; i < 2; i++ {
			body, ct = form(t, map[string]string{"object_type": "dcim.site", "object_id": fmt.Sprint(site)}, "photo.png", png2x3)
			a.Must(http.StatusCreated, "POST", attachmentsPath, body, ct)
		}
		if got := mediaFiles(t, e); len(got) != 2 || got[0] == got[1] {
			t.Fatalf("two uploads of one name: %v", got)
		}
		a.Must(http.StatusNoContent, "DELETE", fmt.Sprintf("/api/dcim/sites/%d/", site), nil)
		if got := mediaFiles(t, e); len(got) != 0 {
			t.Errorf("after the site's delete: media files %v", got)
		}
		if n := a.Must(http.StatusOK, "GET", attachmentsPath, nil).Object()["count"]; n != 0.0 {
			t.Errorf("attachments left: %v", n)
		}
	})
}

// TestImageAttachmentBadInput: every refused upload answers 400 naming the
// field, writes no row and leaves no file: a file that is no image
// (content decides: an SVG named .png, text), an oversized one, an empty
// one, a missing file, an object that does not exist, a model that takes
// no attachments. A write that fails after the file was stored (the
// result is outside the user's permission: 403) rolls back and removes it.
func TestImageAttachmentBadInput(t *testing.T) {
	small := func(c *server.Config) { c.MaxImageBytes = 200 }
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		a := e.Admin()
		site := fmt.Sprint(idOf(a.Must(http.StatusCreated, "POST", "/api/dcim/sites/", map[string]any{"name": "Bad", "slug": "bad"}).Object()))
		manu := fmt.Sprint(idOf(a.Must(http.StatusCreated, "POST", "/api/dcim/manufacturers/", map[string]any{"name": "M", "slug": "m"}).Object()))
		ok := map[string]string{"object_type": "dcim.site", "object_id": site}
		cases := []struct {
			name     string
			fields   map[string]string
			filename string
			file     []byte
			field    string
			msg      string
		}{
			{"svg named png", ok, "x.png", svg, "image", "Upload a valid image."},
			{"text", ok, "notes.txt", []byte("hello"), "image", "Upload a valid image."},
			{"oversized", ok, "big.png", append(append([]byte{}, png2x3...), make([]byte, 300)...), "image", "no larger than 200 bytes"},
			{"empty", ok, "e.png", []byte{}, "image", "The submitted file is empty."},
			{"no file", ok, "", nil, "image", "This field is required."},
			{"no such object", map[string]string{"object_type": "dcim.site", "object_id": "99999999"}, "x.png", png2x3, "object_id", "Related object not found"},
			{"model without attachments", map[string]string{"object_type": "dcim.manufacturer", "object_id": manu}, "x.png", png2x3, "__all__", "Image attachments cannot be assigned to this object type (DCIM | manufacturer)."},
		}
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				body, ct := form(t, c.fields, c.filename, c.file)
				r := a.Must(http.StatusBadRequest, "POST", attachmentsPath, body, ct)
				errs := r.Object()
				msgs, _ := errs[c.field].([]any)
				if len(msgs) == 0 || !strings.Contains(fmt.Sprint(msgs[0]), c.msg) {
					t.Errorf("%s: %s, want %s: %q", c.name, r.Body, c.field, c.msg)
				}
				if got := mediaFiles(t, e); len(got) != 0 {
					t.Errorf("files left: %v", got)
				}
			})
		}
		// An upload the user may add only under another name: stored,
		// then refused by the permission check, rolled back, removed.
		u, uid := e.NewUser("uploader")
		e.Grant(uid, []string{"extras.imageattachment"}, []string{"add", "view"}, map[string]any{"name": "allowed"})
		body, ct := form(t, map[string]string{"object_type": "dcim.site", "object_id": site, "name": "other"}, "x.png", png2x3)
		u.Must(http.StatusForbidden, "POST", attachmentsPath, body, ct)
		if got := mediaFiles(t, e); len(got) != 0 {
			t.Errorf("files left by a rolled-back write: %v", got)
		}
		if n := a.Must(http.StatusOK, "GET", attachmentsPath, nil).Object()["count"]; n != 0.0 {
			t.Errorf("rows left: %v", n)
		}
	}, small)
}

// TestImageAttachmentServing: a stored file is served only to whoever may
// view the attachment and its object; others get 404 (anonymous callers
// NetBox's 403), and names that are no stored file, or try to leave the
// media directory, are 404 too.
func TestImageAttachmentServing(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		a := e.Admin()
		site := idOf(a.Must(http.StatusCreated, "POST", "/api/dcim/sites/", map[string]any{"name": "Seen", "slug": "seen"}).Object())
		body, ct := form(t, map[string]string{"object_type": "dcim.site", "object_id": fmt.Sprint(site)}, "p.png", png2x3)
		img := mediaPath(t, a.Must(http.StatusCreated, "POST", attachmentsPath, body, ct).Object())

		u, uid := e.NewUser("viewer")
		u.Must(http.StatusForbidden, "GET", img, nil) // no permission at all
		e.Grant(uid, []string{"extras.imageattachment"}, []string{"view"}, nil)
		u.Must(http.StatusNotFound, "GET", img, nil) // the attachment, not its site
		e.Grant(uid, []string{"dcim.site"}, []string{"view"}, map[string]any{"slug": "other"})
		u.Must(http.StatusNotFound, "GET", img, nil) // a site, not this one
		e.Grant(uid, []string{"dcim.site"}, []string{"view"}, map[string]any{"slug": "seen"})
		if r := u.Must(http.StatusOK, "GET", img, nil); !bytes.Equal(r.Body, png2x3) {
			t.Errorf("viewer got %d bytes", len(r.Body))
		}
		e.Anonymous().Must(http.StatusForbidden, "GET", img, nil)
		for _, p := range []string{"/media/image-attachments/nothing.png", "/media/../test.db", "/media/image-attachments/../../x"} {
			a.Must(http.StatusNotFound, "GET", p, nil)
		}
		// A file put into the directory by hand is no attachment: not served.
		os.WriteFile(filepath.Join(e.Config.MediaRoot, "image-attachments", "stray.png"), png2x3, 0o644)
		a.Must(http.StatusNotFound, "GET", "/media/image-attachments/stray.png", nil)
	})
}

// TestJournalEntryCreatedBy: created_by is the requesting user unless the
// create names one (or null), and stays what it was on update.
func TestJournalEntryCreatedBy(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		a := e.Admin()
		site := idOf(a.Must(http.StatusCreated, "POST", "/api/dcim/sites/", map[string]any{"name": "J", "slug": "j"}).Object())
		u, uid := e.NewUser("writer")
		e.Grant(uid, []string{"extras.journalentry"}, []string{"add", "view", "change"}, nil)
		e.Grant(uid, []string{"dcim.site"}, []string{"view"}, nil)
		j := u.Must(http.StatusCreated, "POST", "/api/extras/journal-entries/", map[string]any{
			"assigned_object_type": "dcim.site", "assigned_object_id": site, "comments": "hello"}).Object()
		if j["created_by"] != float64(uid) {
			t.Errorf("created_by %v, want the requesting user %d", j["created_by"], uid)
		}
		if k := j["kind"].(map[string]any); k["value"] != "info" {
			t.Errorf("kind %v, want info", k)
		}
		upd := u.Must(http.StatusOK, "PATCH", fmt.Sprintf("/api/extras/journal-entries/%d/", idOf(j)), map[string]any{"created_by": 1, "comments": "edited"}).Object()
		if upd["created_by"] != float64(uid) || upd["comments"] != "edited" {
			t.Errorf("update: created_by %v comments %v", upd["created_by"], upd["comments"])
		}
		n := a.Must(http.StatusCreated, "POST", "/api/extras/journal-entries/", map[string]any{
			"assigned_object_type": "dcim.site", "assigned_object_id": site, "comments": "anon", "created_by": nil}).Object()
		if n["created_by"] != nil {
			t.Errorf("explicit null: created_by %v", n["created_by"])
		}
		r := a.Must(http.StatusBadRequest, "POST", "/api/extras/journal-entries/", map[string]any{
			"assigned_object_type": "dcim.site", "assigned_object_id": site, "comments": "x", "created_by": 99999999})
		if _, ok := r.Object()["created_by"]; !ok {
			t.Errorf("unknown user: %s", r.Body)
		}
		// The site's delete takes its journal.
		a.Must(http.StatusNoContent, "DELETE", fmt.Sprintf("/api/dcim/sites/%d/", site), nil)
		if c := a.Must(http.StatusOK, "GET", "/api/extras/journal-entries/", nil).Object()["count"]; c != 0.0 {
			t.Errorf("journal left after the site's delete: %v", c)
		}
	})
}
