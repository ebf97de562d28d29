// Package media keeps the files that image attachments upload: a directory
// (MEDIA_ROOT, by default <data-dir>/media) where each file is written
// under a name the server chooses, never the client, and what one write
// transaction did to it (Batch): files written are removed again when the
// transaction rolls back, files whose rows were deleted or replaced are
// removed once it commits. It also recognises images by their content
// (Sniff): PNG, JPEG, GIF, BMP and WebP, the formats of NetBox's
// IMAGE_ATTACHMENT_IMAGE_FORMATS that Go reads without cgo (AVIF is not);
// SVG, being no raster image, is refused like any other file.
//
// It imports only the standard library: the resource layer (which writes
// through it) and the server (which serves from it) both use it.
package media
