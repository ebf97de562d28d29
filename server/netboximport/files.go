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

// EndpointLister is a Source that can name every list endpoint it serves
// (a NetBox's API root per app, the files of a DirSource): endpoints this
// service has no model for (a plugin's) are then reported, not silently
// left behind.
type EndpointLister interface {
	Endpoints(ctx context.Context) ([]string, error)
}

// Endpoints are the endpoints recorded in the directory.
func (s DirSource) Endpoints(ctx context.Context) ([]string, error) {
	names, err := filepath.Glob(filepath.Join(s.Dir, "*.json.gz"))
	if err != nil {
		return nil, err
	}
	out := make([]string, 0, len(names))
	for _, n := range names {
		out = append(out, strings.Replace(strings.TrimSuffix(filepath.Base(n), ".json.gz"), ".", "/", 1))
	}
	return out, nil
}
