package netboximport

import "context"

// FileSource is a Source that also fetches the files its objects link to:
// an image attachment's image, which NetBox's API gives as a URL under
// /media/. An import from a source without it refuses image attachments.
type FileSource interface {
	File(ctx context.Context, url string) ([]byte, error)
}

// EndpointLister is a Source that can name every list endpoint it serves
// (a NetBox's API root per app, the files of a DirSource): endpoints this
// service has no model for (a plugin's) are then reported, not silently
// left behind.
type EndpointLister interface {
	Endpoints(ctx context.Context) ([]string, error)
}
