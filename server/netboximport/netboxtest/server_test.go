package netboxtest_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/inventory/inventory/server/netboximport/netboxtest"
)

// The fake answers as NetBox 4.6 does: paging (count, next, previous,
// limit/offset, limit 0 and over MAX_PAGE_SIZE), the cursor (start), id__gt, ordering=id,
// brief, exclude, the indexes, a detail, the status, and its errors.
func TestServer(t *testing.T) {
	ctx := context.Background()
	mem, err := netboxtest.Load(ctx, netboxtest.Dir{Path: demo})
	if err != nil {
		t.Fatal(err)
	}
	if n, _ := mem.Count(ctx, "dcim/interfaces"); n != 1586 {
		t.Fatalf("loaded %d interfaces", n)
	}
	srv := netboxtest.NewServer(mem, "tok")
	defer srv.Close()
	get := func(path, auth string) (int, string) {
		req, _ := http.NewRequest("GET", srv.URL+path, nil)
		if auth != "" {
			req.Header.Set("Authorization", auth)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	u := strings.TrimPrefix(srv.URL, "http://")
	all, _ := netboxtest.ReadAll(ctx, mem, "dcim/interfaces")
	id := func(i int) string { n, _ := netboxtest.ObjectID(all[i]); return strconv.Itoa(n) }
	id1 := func(i int) string { n, _ := netboxtest.ObjectID(all[i]); return strconv.Itoa(n + 1) }
	for _, tc := range []struct {
		path, auth string
		status     int
		want       []string // substrings of the answer
		not        []string
	}{
		{"/api/dcim/sites/", "", 403, []string{`{"detail":"Authentication credentials were not provided."}`}, nil},
		{"/api/dcim/sites/", "Token nope", 403, []string{`"detail":"Invalid token"`}, nil},
		{"/api/dcim/sites/", "Bearer tok", 403, []string{`Invalid token`}, nil},
		{"/api/dcim/sites/", "Token tok", 200, []string{`{"count":24,"next":null,"previous":null,"results":[{"id":1,`}, nil},
		{"/api/dcim/interfaces/?limit=2&offset=4", "Token tok", 200, []string{
			`"count":1586,"next":"http://` + u + `/api/dcim/interfaces/?limit=2\u0026offset=6","previous":"http://` + u + `/api/dcim/interfaces/?limit=2\u0026offset=2"`,
			`"results":[{"id":` + id(4) + `,`, `{"id":` + id(5) + `,`}, []string{`"id":` + id(6) + `,`}},
		{"/api/dcim/interfaces/?limit=2&id__gt=" + id(1583) + "&ordering=id", "Token tok", 200, []string{`"count":2,"next":null`, `{"id":` + id(1584) + `,`, `{"id":` + id(1585) + `,`}, nil},
		{"/api/dcim/interfaces/?limit=2&id__gt=" + id(1581) + "&ordering=id", "Token tok", 200, []string{`"count":4,"next":"http://` + u + `/api/dcim/interfaces/?id__gt=` + id(1581) + `\u0026limit=2\u0026offset=2\u0026ordering=id"`}, nil},
		{"/api/dcim/interfaces/?limit=0", "Token tok", 200, []string{`"count":1586,"next":"http://` + u + `/api/dcim/interfaces/?limit=1000\u0026offset=1000"`}, nil},
		{"/api/dcim/interfaces/?limit=5000&offset=1000", "Token tok", 200, []string{`"next":null`, `{"id":` + id(1000) + `,`, `{"id":` + id(1585) + `,`}, nil},
		{"/api/dcim/interfaces/?limit=1&brief=1", "Token tok", 200, []string{`"count":1586`, `"device":{`, `"name":"GigabitEthernet0/0/0"`}, []string{`"link_peers"`, `"tags"`}},
		{"/api/dcim/devices/?limit=1&exclude=config_context", "Token tok", 200, []string{`"name":"dmi01-akron-rtr01"`, `"local_context_data"`}, []string{`"config_context"`}},
		{"/api/dcim/devices/?limit=1", "Token tok", 200, []string{`"config_context"`}, nil},
		{"/api/dcim/interfaces/?start=0&limit=2", "Token tok", 200, []string{
			`{"count":null,"next":"http://` + u + `/api/dcim/interfaces/?limit=2\u0026start=` + id1(1) + `","previous":null,"results":[{"id":` + id(0) + `,`}, nil},
		{"/api/dcim/interfaces/?start=" + id(1584) + "&limit=2", "Token tok", 200, []string{`"next":"http://`, `{"id":` + id(1585) + `,`}, nil},
		{"/api/dcim/interfaces/?start=" + id1(1585) + "&limit=2", "Token tok", 200, []string{`{"count":null,"next":null,"previous":null,"results":[]}`}, nil},
		{"/api/dcim/interfaces/?start=-1", "Token tok", 400, []string{`["Invalid 'start' parameter: must be a non-negative integer."]`}, nil},
		{"/api/dcim/interfaces/?start=1&offset=5", "Token tok", 400, []string{`["'start' and 'offset' are mutually exclusive."]`}, nil},
		{"/api/dcim/interfaces/?start=1&ordering=id", "Token tok", 400, []string{`["Ordering cannot be specified in conjunction with cursor-based pagination."]`}, nil},
		{"/api/dcim/interfaces/?id__gt=x", "Token tok", 400, []string{`{"id__gt":["Enter a number."]}`}, nil},
		{"/api/dcim/interfaces/?ordering=name", "Token tok", 400, []string{`orders by id only`}, nil},
		{"/api/dcim/sites/24/", "Token tok", 200, []string{`{"id":24,`, `"slug":"ncsu-128"`}, nil},
		{"/api/dcim/sites/25/", "Token tok", 404, []string{`"detail":"No dcim/sites matches the given query."`}, nil},
		{"/api/dcim/nothing/", "Token tok", 404, []string{`"detail":"Not found."`}, nil},
		{"/api/", "Token tok", 200, []string{`"dcim":"http://` + u + `/api/dcim/"`, `"status":"http://`, `"plugins":"http://`}, nil},
		{"/api/wireless/", "Token tok", 200, []string{`"wireless-lans":"http://` + u + `/api/wireless/wireless-lans/"`}, nil},
		{"/api/wireless/wireless-lans/", "Token tok", 200, []string{`{"count":0,"next":null,"previous":null,"results":[]}`}, nil},
		{"/api/status/", "Token tok", 200, []string{`"netbox-version":"4.6.8"`}, nil},
	} {
		status, body := get(tc.path, tc.auth)
		if status != tc.status {
			t.Errorf("%s: %d %s", tc.path, status, body[:min(len(body), 300)])
			continue
		}
		for _, w := range tc.want {
			if !strings.Contains(body, w) {
				t.Errorf("%s: no %s in %s", tc.path, w, body[:min(len(body), 400)])
			}
		}
		for _, w := range tc.not {
			if strings.Contains(body, w) {
				t.Errorf("%s: %s in the answer", tc.path, w)
			}
		}
	}
	var st map[string]any
	_, body := get("/api/status/", "Token tok")
	json.Unmarshal([]byte(body), &st)
	if st["netbox-version"] != "4.6.8" {
		t.Errorf("%v", st)
	}
	// Faults queue and are counted.
	before := srv.Requests("dcim/sites")
	srv.Fail("dcim/sites", 1, 500, `{"detail":"boom"}`)
	srv.Fail("dcim/sites", 1, 429, "slow down")
	if s, b := get("/api/dcim/sites/", "Token tok"); s != 500 || b != `{"detail":"boom"}` {
		t.Errorf("first fault: %d %s", s, b)
	}
	if s, b := get("/api/dcim/sites/1/", "Token tok"); s != 429 || b != "slow down" {
		t.Errorf("second fault, on a detail: %d %s", s, b)
	}
	if s, _ := get("/api/dcim/sites/", "Token tok"); s != 200 || srv.Requests("dcim/sites") != before+3 {
		t.Errorf("after the faults: %d, %d requests", s, srv.Requests("dcim/sites"))
	}
}
