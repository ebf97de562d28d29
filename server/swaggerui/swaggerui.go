// Package swaggerui embeds the swagger-ui-dist files the interactive API
// documentation page loads (see README.md for their origin).
package swaggerui

import "embed"

// Version is the swagger-ui-dist release the files come from.
const Version = "5.35.0"

// Files holds the assets, each at its base name.
//
//go:embed swagger-ui.css swagger-ui-bundle.js swagger-ui-bundle.js.LICENSE.txt
//go:embed swagger-ui-standalone-preset.js swagger-ui-standalone-preset.js.LICENSE.txt
//go:embed favicon-32x32.png LICENSE NOTICE
var Files embed.FS
