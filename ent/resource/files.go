package resource

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path"
	"strings"

	"github.com/inventory/inventory/ent/media"
)

// Image fields (KindImage: NetBox's ImageField on an image attachment).
// A file comes in as a multipart file part, which the server hands over
// as a base64 data URI (media.DataURI), or as such a data URI in JSON. It
// is recognised by its content (media.Sniff), never by its name, and
// stored under a name the server makes as NetBox's image_upload does:
// <path>/<object model>_<object id>_<name or the upload's stem>.<format>,
// with a random suffix when taken. The sibling columns <field>_width,
// <field>_height and <field>_size, when declared, get the image's
// dimensions and byte size. The write's media batch (media.Begin) removes
// the file again if the transaction rolls back, and removes a replaced
// file, or the file of a deleted row, once it commits.

// maxImageSide is the largest width or height a PositiveSmallIntegerField
// (NetBox's image_width and image_height) holds.
const maxImageSide = 32767

// Messages as Django's forms.ImageField and DRF's FileField say them.
const (
	msgNotFile  = "The submitted data was not a file. Check the encoding type on the form."
	msgEmpty    = "The submitted file is empty."
	msgNotImage = "Upload a valid image. The file you uploaded was either not an image or a corrupted image."
)

type pendingImage struct {
	f        *Field
	filename string
	data     []byte
	img      media.Image
}

// decodeImages validates the image fields given; nothing is stored yet.
func (d *Descriptor) decodeImages(ctx context.Context, in Input, verr *ValidationError) []pendingImage {
	var out []pendingImage
	for _, f := range d.Fields {
		raw, given := in[f.Name]
		if f.Kind != KindImage || !given {
			continue
		}
		b := media.From(ctx)
		var s string
		if json.Unmarshal(raw, &s) != nil {
			verr.add(f.Name, msgNotFile)
			continue
		}
		name, data, ok := media.ParseDataURI(s)
		switch {
		case !ok:
			verr.add(f.Name, msgNotFile)
			continue
		case b == nil || b.Store == nil || b.Store.Root == "":
			verr.add(f.Name, "File uploads are not enabled on this server (MEDIA_ROOT).")
			continue
		case len(data) == 0:
			verr.add(f.Name, msgEmpty)
			continue
		case b.Store.MaxSize > 0 && int64(len(data)) > b.Store.MaxSize:
			verr.add(f.Name, fmt.Sprintf("Ensure this file is no larger than %d bytes (IMAGE_ATTACHMENT_MAX_SIZE); it has %d.", b.Store.MaxSize, len(data)))
			continue
		}
		img, err := media.Sniff(data)
		if err != nil {
			verr.add(f.Name, msgNotImage)
			continue
		}
		if img.Width > maxImageSide || img.Height > maxImageSide {
			verr.add(f.Name, fmt.Sprintf("Upload a valid image. Its width and height may not exceed %d pixels.", maxImageSide))
			continue
		}
		out = append(out, pendingImage{f: f, filename: name, data: data, img: img})
	}
	return out
}

// storeImages writes the validated images into the media directory as
// part of the write's batch and records their names and dimensions.
func (d *Descriptor) storeImages(ctx context.Context, imgs []pendingImage, existing *Row, ch *change) error {
	if len(imgs) == 0 {
		return nil
	}
	b := media.From(ctx)
	value := func(name string) any {
		f := d.byName[name]
		if f == nil {
			return nil
		}
		if v, ok := ch.set[f]; ok {
			return v
		}
		if existing != nil {
			return d.Value(existing, name)
		}
		return nil
	}
	prefix := ""
	for _, g := range d.Fields {
		if g.Kind == KindGenericObject {
			ct, _ := value(g.Generic + "_type").(string)
			id, _ := value(g.Generic + "_id").(int)
			_, model, _ := strings.Cut(ct, ".")
			prefix = fmt.Sprintf("%s_%d_", model, id)
			break
		}
	}
	for _, p := range imgs {
		stem, _ := value("name").(string)
		if strings.TrimSpace(stem) == "" {
			base := path.Base(strings.ReplaceAll(p.filename, "\\", "/"))
			stem = strings.TrimSuffix(base, path.Ext(base))
		}
		if stem = media.ValidName(stem); stem == "" {
			stem = "unnamed"
		}
		rel, err := b.Write(d.Path, prefix+stem, p.img.Ext, p.data)
		if err != nil {
			return fmt.Errorf("store %s: %w", d.Type, err)
		}
		ch.set[p.f] = rel
		for suffix, v := range map[string]int{"_width": p.img.Width, "_height": p.img.Height, "_size": len(p.data)} {
			if sf := d.byName[p.f.Name+suffix]; sf != nil && sf.col >= 0 {
				ch.set[sf] = v
			}
		}
		if existing != nil {
			if old, _ := d.Value(existing, p.f.Name).(string); old != "" {
				b.Doom(old)
			}
		}
	}
	return nil
}

// doomImages marks the files of rows about to be deleted for removal
// when the transaction commits.
func doomImages(ctx context.Context, tx *Tx, d *Descriptor, ids []int) error {
	var fields []*Field
	for _, f := range d.Fields {
		if f.Kind == KindImage {
			fields = append(fields, f)
		}
	}
	if len(fields) == 0 || len(ids) == 0 {
		return nil
	}
	b := media.From(ctx)
	if b == nil {
		// A delete outside a server write (none today) would leave the
		// files: refuse rather than orphan them silently.
		return errors.New("delete " + d.Type + ": no media batch for its files")
	}
	rows, err := d.GetMany(ctx, tx.Store(), ids)
	if err != nil {
		return err
	}
	for _, r := range rows {
		for _, f := range fields {
			if s, _ := d.Value(r, f.Name).(string); s != "" {
				b.Doom(s)
			}
		}
	}
	return nil
}

// ImageURL is the absolute URL of a stored file: base + /media/ + name.
func ImageURL(base, rel string) string { return base + "/media/" + rel }
