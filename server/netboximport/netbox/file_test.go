package netbox_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/inventory/inventory/server/netboximport/netbox"
	"github.com/inventory/inventory/server/netboximport/netboxtest"
)

// Download fetches an image attachment's file from the NetBox, retrying as
// a list read does, bounded in size; the token goes to the NetBox only.
func TestDownload(t *testing.T) {
	ctx := context.Background()
	srv := netboxtest.NewServer(netboxtest.NewMemory(nil), token)
	defer srv.Close()
	srv.PutFile("/media/image-attachments/rack.png", []byte("PNG…"))
	var elsewhereAuth []string
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		elsewhereAuth = append(elsewhereAuth, r.Header.Get("Authorization"))
		w.Write([]byte("elsewhere"))
	}))
	defer other.Close()
	c, w, _ := newClient(t, srv.URL, token, netbox.Options{})
	const png = "/media/image-attachments/rack.png"
	for _, tc := range []struct {
		name   string
		url    string
		limit  int64
		inject func()
		want   string
		err    string
	}{
		{name: "a file", url: srv.URL + png, limit: 100, want: "PNG…"},
		{name: "a 503, retried", url: srv.URL + png, limit: 100, inject: func() { srv.Fail(png, 1, 503, "busy") }, want: "PNG…"},
		{name: "over the limit", url: srv.URL + png, limit: 3, err: "netbox: GET /media/image-attachments/rack.png: HTTP 200 OK: 6 bytes, over the limit of 3"},
		{name: "missing", url: srv.URL + "/media/nothing.png", limit: 100, err: "netbox: GET /media/nothing.png: HTTP 404 Not Found: Not found."},
		{name: "elsewhere, without the token", url: other.URL + "/x.png", limit: 100, want: "elsewhere"},
		{name: "not a URL", url: "file:///etc/passwd", limit: 100, err: `is not an http(s) URL of a file`},
	} {
		if tc.inject != nil {
			tc.inject()
		}
		b, err := c.Download(ctx, tc.url, tc.limit)
		switch {
		case tc.err == "" && (err != nil || string(b) != tc.want):
			t.Errorf("%s: %q, %v", tc.name, b, err)
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("%s: %v; want %q", tc.name, err, tc.err)
		}
	}
	if len(elsewhereAuth) != 1 || elsewhereAuth[0] != "" {
		t.Errorf("another server got Authorization %q", elsewhereAuth)
	}
	if got := w.got(); len(got) != 1 {
		t.Errorf("waited %v; want one backoff", got)
	}
}
