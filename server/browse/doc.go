// Package browse renders the browsable API: the page a browser gets for
// any API URL (SPEC.md §1), as Django REST framework's browsable API shows
// it. The handlers answer JSON as always; the server's middleware keeps
// that answer and hands it here, so every endpoint is browsable without
// code of its own and JSON clients get exactly the bytes they got before.
//
// The page shows the request, the response status and headers, and the
// body pretty-printed, with every URL of this service a link (so the API
// root and the app roots read as link lists, and lists page through their
// next/previous links). It is plain server-rendered HTML with one embedded
// stylesheet and no script: html/template escapes everything, and links
// are made only of URLs under the request's own origin, never of
// javascript: or foreign URLs an object's field might hold.
package browse
