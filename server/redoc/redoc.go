// Package redoc embeds the ReDoc script the API reference page loads (see
// README.md for its origin).
package redoc

import "embed"

// Version is the redoc release the files come from.
const Version = "2.5.4"

// Files holds the assets, each at its base name.
//
//go:embed redoc.standalone.js redoc.standalone.js.LICENSE.txt LICENSE
var Files embed.FS
