package netboximport

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"strings"
)

// FileSource is a Source that also fetches the files its objects link to:
// an image attachment's image, which NetBox's API gives as a URL under
// /media/. An import from a source without it refuses image attachments.
type FileSource interface {
	File(ctx context.Context, url string) ([]byte, error)
}

// File reads a recorded NetBox's file from <Dir>/media/<path below
// /media/>: a copy of NetBox's MEDIA_ROOT next to the list answers.
func (s DirSource) File(ctx context.Context, u string) ([]byte, error) {
	p, err := url.Parse(u)
	if err != nil {
		return nil, err
	}
	rel, ok := strings.CutPrefix(p.Path, "/media/")
	if !ok {
		return nil, fmt.Errorf("%s is not under /media/", u)
	}
	// Cleaned as an absolute path first: no "..", the file stays below
	// the directory.
	rel = strings.TrimPrefix(path.Clean("/"+rel), "/")
	return os.ReadFile(filepath.Join(s.Dir, "media", filepath.FromSlash(rel)))
}
