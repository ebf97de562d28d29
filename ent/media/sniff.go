package media

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"image"
	_ "image/gif" // registers the GIF header reader
	_ "image/jpeg"
	_ "image/png"
	"strings"
)

// Image is what Sniff learnt of an upload.
type Image struct {
	Ext, MIME     string
	Width, Height int
}

// ErrNotImage: the content is no image of a supported format.
var ErrNotImage = errors.New("not an image")

// MIMEOf is the content type a stored file is served with, by the
// extension Sniff gave it ("" for anything else: never served as is).
func MIMEOf(name string) string {
	i := strings.LastIndexByte(name, '.')
	if i < 0 {
		return ""
	}
	switch name[i+1:] {
	case "png":
		return "image/png"
	case "jpg":
		return "image/jpeg"
	case "gif":
		return "image/gif"
	case "bmp":
		return "image/bmp"
	case "webp":
		return "image/webp"
	}
	return ""
}

// Sniff recognises an image by its content, never by a name the client
// gave: only the header is read (no pixels are decoded, so a small file
// claiming huge dimensions costs nothing).
func Sniff(data []byte) (Image, error) {
	if cfg, format, err := image.DecodeConfig(bytes.NewReader(data)); err == nil {
		ext := map[string]string{"png": "png", "jpeg": "jpg", "gif": "gif"}[format]
		if ext != "" && cfg.Width > 0 && cfg.Height > 0 {
			return Image{Ext: ext, MIME: MIMEOf("." + ext), Width: cfg.Width, Height: cfg.Height}, nil
		}
	}
	if w, h, ok := bmpSize(data); ok {
		return Image{Ext: "bmp", MIME: "image/bmp", Width: w, Height: h}, nil
	}
	if w, h, ok := webpSize(data); ok {
		return Image{Ext: "webp", MIME: "image/webp", Width: w, Height: h}, nil
	}
	return Image{}, ErrNotImage
}

// bmpSize reads a BITMAPINFOHEADER (or later) header's dimensions.
func bmpSize(b []byte) (int, int, bool) {
	if len(b) < 26 || b[0] != 'B' || b[1] != 'M' || binary.LittleEndian.Uint32(b[14:]) < 40 {
		return 0, 0, false
	}
	w := int32(binary.LittleEndian.Uint32(b[18:]))
	h := int32(binary.LittleEndian.Uint32(b[22:]))
	if h < 0 {
		h = -h // top-down rows
	}
	return int(w), int(h), w > 0 && h > 0
}

// webpSize reads the canvas size of a lossy (VP8), lossless (VP8L) or
// extended (VP8X) WebP file.
func webpSize(b []byte) (int, int, bool) {
	if len(b) < 30 || string(b[0:4]) != "RIFF" || string(b[8:12]) != "WEBP" {
		return 0, 0, false
	}
	var w, h int
	switch string(b[12:16]) {
	case "VP8 ":
		if b[23] != 0x9d || b[24] != 0x01 || b[25] != 0x2a {
			return 0, 0, false
		}
		w = int(binary.LittleEndian.Uint16(b[26:]) & 0x3fff)
		h = int(binary.LittleEndian.Uint16(b[28:]) & 0x3fff)
	case "VP8L":
		if b[20] != 0x2f {
			return 0, 0, false
		}
		v := binary.LittleEndian.Uint32(b[21:])
		w, h = int(v&0x3fff)+1, int((v>>14)&0x3fff)+1
	case "VP8X":
		w = 1 + int(b[24]) | int(b[25])<<8 | int(b[26])<<16
		h = 1 + int(b[27]) | int(b[28])<<8 | int(b[29])<<16
	default:
		return 0, 0, false
	}
	return w, h, w > 0 && h > 0
}

// DataURI encodes an upload as the JSON form a file field also accepts:
// data:<type>;name=<file name>;base64,<content>. The server turns a
// multipart file part into it, so both ways in share one decoder.
func DataURI(filename string, data []byte) string {
	return "data:application/octet-stream;name=" + strings.NewReplacer(";", "", ",", "").Replace(filename) +
		";base64," + base64.StdEncoding.EncodeToString(data)
}

// ParseDataURI reads a base64 data URI: the name parameter, if any, and
// the content. Anything else is not a file.
func ParseDataURI(s string) (name string, data []byte, ok bool) {
	rest, found := strings.CutPrefix(s, "data:")
	if !found {
		return "", nil, false
	}
	head, body, found := strings.Cut(rest, ",")
	if !found {
		return "", nil, false
	}
	params := strings.Split(head, ";")
	if params[len(params)-1] != "base64" {
		return "", nil, false
	}
	for _, p := range params[:len(params)-1] {
		if v, ok := strings.CutPrefix(p, "name="); ok {
			name = v
		}
	}
	data, err := base64.StdEncoding.DecodeString(body)
	if err != nil {
		return "", nil, false
	}
	return name, data, true
}
