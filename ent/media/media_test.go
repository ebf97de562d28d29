package media

import (
	"bytes"
	"context"
	"encoding/binary"
	"image"
	"image/color"
	"image/gif"
	"image/jpeg"
	"image/png"
	"os"
	"path/filepath"
	"testing"
)

func encoded(t *testing.T, enc func(*bytes.Buffer, image.Image) error) []byte {
	t.Helper()
	img := image.NewPaletted(image.Rect(0, 0, 5, 7), color.Palette{color.Black, color.White})
	var b bytes.Buffer
	if err := enc(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// bmp is a BITMAPINFOHEADER file header of a w×h image (the pixels do
// not matter to Sniff).
func bmp(w, h int32) []byte {
	b := make([]byte, 54)
	copy(b, "BM")
	binary.LittleEndian.PutUint32(b[14:], 40)
	binary.LittleEndian.PutUint32(b[18:], uint32(w))
	binary.LittleEndian.PutUint32(b[22:], uint32(h))
	return b
}

// webpVP8L is the header of a lossless WebP of w×h.
func webpVP8L(w, h int) []byte {
	b := make([]byte, 30)
	copy(b, "RIFF")
	copy(b[8:], "WEBPVP8L")
	b[20] = 0x2f
	binary.LittleEndian.PutUint32(b[21:], uint32(w-1)|uint32(h-1)<<14)
	return b
}

// TestSniff: images are recognised by content, with their dimensions;
// anything else (SVG, HTML, text, a PNG signature alone) is not an image.
func TestSniff(t *testing.T) {
	cases := []struct {
		name string
		data []byte
		ext  string
		w, h int
	}{
		{"png", encoded(t, func(b *bytes.Buffer, i image.Image) error { return png.Encode(b, i) }), "png", 5, 7},
		{"jpeg", encoded(t, func(b *bytes.Buffer, i image.Image) error { return jpeg.Encode(b, i, nil) }), "jpg", 5, 7},
		{"gif", encoded(t, func(b *bytes.Buffer, i image.Image) error { return gif.Encode(b, i, nil) }), "gif", 5, 7},
		{"bmp", bmp(9, -4), "bmp", 9, 4},
		{"webp", webpVP8L(300, 200), "webp", 300, 200},
		{"svg", []byte(`<svg xmlns="http://www.w3.org/2000/svg"/>`), "", 0, 0},
		{"html", []byte("<html><script>alert(1)</script></html>"), "", 0, 0},
		{"png signature only", []byte("\x89PNG\r\n\x1a\n"), "", 0, 0},
		{"empty", nil, "", 0, 0},
	}
	for _, c := range cases {
		img, err := Sniff(c.data)
		if c.ext == "" {
			if err == nil {
				t.Errorf("%s: recognised as %v", c.name, img)
			}
			continue
		}
		if err != nil || img.Ext != c.ext || img.Width != c.w || img.Height != c.h || MIMEOf("x."+img.Ext) != img.MIME {
			t.Errorf("%s: %+v, %v; want %s %dx%d", c.name, img, err, c.ext, c.w, c.h)
		}
	}
}

// TestValidName follows Django's get_valid_filename; nothing of a client's
// name can leave the directory.
func TestValidName(t *testing.T) {
	for in, want := range map[string]string{
		"Front door":        "Front_door",
		"../../etc/passwd":  "etcpasswd",
		"..":                "",
		"  ":                "",
		"naïve <b>café</b>": "naïve_bcaféb",
	} {
		if got := ValidName(in); got != want {
			t.Errorf("ValidName(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestBatch: a rolled-back batch removes what it wrote and keeps what it
// doomed; a committed one the other way round; names are never reused
// and never leave the root.
func TestBatch(t *testing.T) {
	s := &Store{Root: t.TempDir()}
	exists := func(rel string) bool { _, err := os.Stat(filepath.Join(s.Root, rel)); return err == nil }

	_, b := Begin(context.Background(), s)
	old, err := b.Write("d", "x", "png", []byte("1"))
	if err != nil || old != "d/x.png" {
		t.Fatalf("write: %q %v", old, err)
	}
	b.Finish(true)
	if !exists(old) {
		t.Fatal("committed write removed")
	}

	ctx, b := Begin(context.Background(), s)
	if From(ctx) != b {
		t.Fatal("From does not find the batch")
	}
	again, _ := b.Write("d", "x", "png", []byte("2"))
	if again == old || !exists(again) {
		t.Fatalf("second write of one name: %q", again)
	}
	b.Doom(old)
	b.Finish(false)
	if exists(again) || !exists(old) {
		t.Errorf("rollback: written kept %v, doomed removed %v", exists(again), !exists(old))
	}

	_, b = Begin(context.Background(), s)
	b.Doom(old)
	b.Finish(true)
	if exists(old) {
		t.Error("commit kept a doomed file")
	}
	for _, bad := range []string{"../x", "/etc/passwd", "a/../../x", `a\..\x`, ""} {
		if f, err := s.Open(bad); err == nil {
			f.Close()
			t.Errorf("Open(%q) succeeded", bad)
		}
	}
	if _, err := (&Store{Root: s.Root}).write("../up", "x", "png", nil); err == nil {
		t.Error("write outside the root succeeded")
	}
}
