package server

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"strings"

	"entgo.io/ent/dialect/sql"
	"github.com/gin-gonic/gin"

	"github.com/inventory/inventory/ent/media"
	"github.com/inventory/inventory/ent/resource"
)

// Uploaded files (SPEC.md §4.12): a write may come as multipart form data,
// whose text fields become strings and whose file parts become base64 data
// URIs (media.DataURI) of one JSON object, so the resource layer decodes
// one form only. The files are served under /media/, to whoever may view
// both the attachment and the object it belongs to.

// isMultipart says whether the request carries multipart form data.
func isMultipart(r *http.Request) bool {
	mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	return mt == "multipart/form-data"
}

// multipartBody reads a multipart form into the JSON object of a write.
// A field given twice keeps its last value, as Django's QueryDict.get.
func multipartBody(c *gin.Context) (json.RawMessage, error) {
	_, params, _ := mime.ParseMediaType(c.GetHeader("Content-Type"))
	if params["boundary"] == "" {
		return nil, detailErr(http.StatusBadRequest, "Multipart form parse error - Invalid boundary in multipart: None")
	}
	rd := multipart.NewReader(c.Request.Body, params["boundary"])
	obj := map[string]string{}
	for {
		part, err := rd.NextPart()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, formReadErr(err)
		}
		name := part.FormName()
		var buf bytes.Buffer
		if _, err := io.Copy(&buf, part); err != nil {
			return nil, formReadErr(err)
		}
		if name == "" {
			continue
		}
		if part.FileName() != "" {
			obj[name] = media.DataURI(part.FileName(), buf.Bytes())
		} else {
			obj[name] = buf.String()
		}
	}
	raw, err := json.Marshal(obj)
	if err != nil {
		return nil, err
	}
	if msg := resource.CheckJSONText(raw); msg != "" {
		return nil, detailErr(http.StatusBadRequest, "Multipart form parse error - "+msg)
	}
	return raw, nil
}

func formReadErr(err error) error {
	var mbe *http.MaxBytesError
	if errors.As(err, &mbe) {
		return detailErr(http.StatusRequestEntityTooLarge, fmt.Sprintf("Request body too large: the limit is %d bytes (DATA_UPLOAD_MAX_MEMORY_SIZE + IMAGE_ATTACHMENT_MAX_SIZE).", mbe.Limit))
	}
	return detailErr(http.StatusBadRequest, "Multipart form parse error - "+err.Error())
}

// bodyLimit is the largest body a request may send: multipart forms may
// carry a file on top of the fields.
func (s *Server) bodyLimit(r *http.Request) int64 {
	if s.cfg.MaxBodyBytes > 0 && isMultipart(r) && s.cfg.MaxImageBytes > 0 {
		return s.cfg.MaxBodyBytes + s.cfg.MaxImageBytes
	}
	return s.cfg.MaxBodyBytes
}

// serveMedia serves GET /media/<name>: the stored file of an image
// attachment the caller may view, whose object the caller may view too.
// Files are sent with the type their content was recognised as, never
// sniffed again by the browser, and as no document that could run script.
func (s *Server) serveMedia(c *gin.Context) error {
	rel := strings.TrimPrefix(c.Param("path"), "/")
	ctx := c.Request.Context()
	p := PrincipalFrom(ctx)
	notFound := detailErr(http.StatusNotFound, "Not found.")
	for _, d := range resource.All() {
		f := d.Field("image")
		if f == nil || f.Kind != resource.KindImage {
			continue
		}
		cond, err := s.permits(ctx, p, d, actionView)
		if err != nil {
			return err
		}
		where := append(preds(cond), func(sel *sql.Selector) { sel.Where(sql.EQ(sel.C(f.Column), rel)) })
		rows, err := d.Where(ctx, s.db.Store(), 1, where...)
		if err != nil {
			return err
		}
		if len(rows) == 0 {
			continue
		}
		ct, _ := d.Value(rows[0], "object_type").(string)
		id, _ := d.Value(rows[0], "object_id").(int)
		if od := resource.ByContentType(ct); od != nil {
			ocond, err := s.permits(ctx, p, od, actionView)
			if err != nil {
				return notFound
			}
			if r, err := od.Get(ctx, s.db.Store(), id, preds(ocond)...); err != nil || r == nil {
				return notFound
			}
		}
		file, err := s.media.Open(rel)
		if err != nil {
			return notFound
		}
		defer file.Close()
		st, err := file.Stat()
		if err != nil {
			return err
		}
		h := c.Writer.Header()
		typ := media.MIMEOf(rel)
		if typ == "" {
			typ = "application/octet-stream"
			h.Set("Content-Disposition", "attachment")
		}
		h.Set("Content-Type", typ)
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Content-Security-Policy", "default-src 'none'; sandbox")
		h.Set("Cache-Control", "private")
		http.ServeContent(c.Writer, c.Request, "", st.ModTime(), file)
		return nil
	}
	return notFound
}
