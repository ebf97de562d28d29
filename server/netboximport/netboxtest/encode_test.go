package netboxtest

import (
	"bytes"
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// appendJSON writes what json.Marshal writes (less its HTML escaping), but
// "id" first.
func TestAppendJSON(t *testing.T) {
	for _, in := range []string{
		`{"b":[1,2.50,{"x":null}],"a":"q\"uo\\te\n\t\u0001 é ☃ \u2028","c":true,"d":false,"e":{}, "f":[]}`,
		`"plain"`, `[]`, `12345678901234567890`, `{"a":1,"id":2,"z":{"b":1,"id":3}}`,
	} {
		dec := json.NewDecoder(bytes.NewReader([]byte(in)))
		dec.UseNumber()
		var v any
		if err := dec.Decode(&v); err != nil {
			t.Fatal(err)
		}
		got, err := appendJSON(nil, v)
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		enc.Encode(v)
		want := bytes.TrimSpace(buf.Bytes())
		want = bytes.ReplaceAll(want, []byte(`{"a":1,"id":2,"z":{"b":1,"id":3}}`), []byte(`{"id":2,"a":1,"z":{"id":3,"b":1}}`))
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("%s:\n got %s, %v\nwant %s", in, got, err, want)
		}
	}
}

// parseJSON and appendJSON give back every object of the demo set as it
// was (key order and numbers included; escapes as encoding/json writes
// them), and refuse what is not JSON or nests without bound.
func TestParseJSON(t *testing.T) {
	ctx := context.Background()
	dir := Dir{Path: "../../../testdata/netbox-demo"}
	eps, _ := dir.Endpoints(ctx)
	n := 0
	for _, ep := range eps {
		objs, err := ReadAll(ctx, dir, ep)
		if err != nil {
			t.Fatal(err)
		}
		for _, o := range objs {
			v, err := parseJSON(o)
			if err != nil {
				t.Fatalf("%s: %v", ep, err)
			}
			out, err := appendJSON(nil, v)
			if err != nil {
				t.Fatal(err)
			}
			var a, b any
			json.Unmarshal(o, &a)
			json.Unmarshal(out, &b)
			if !bytes.Contains(o, []byte(`\`)) && !bytes.Equal(out, o) || !reflect.DeepEqual(a, b) {
				t.Fatalf("%s:\n%s\n%s", ep, o, out)
			}
			n++
		}
	}
	if n != 6307 {
		t.Errorf("%d objects", n)
	}
	for _, bad := range []string{``, `{`, `{"a"}`, `{"a":1,}`, `[1,]`, `tru`, `"x`, `{"a":1}x`, `-`, "\"a\x01\"", strings.Repeat("[", 300) + strings.Repeat("]", 300)} {
		if v, err := parseJSON([]byte(bad)); err == nil {
			t.Errorf("%q parsed as %v", bad, v)
		}
	}
	if v, err := parseJSON([]byte(` {"é":"\u00e9\n","n":-1.5e3,"x":[true,false,null,{}]} `)); err != nil ||
		!reflect.DeepEqual(v, object{{"é", "é\n"}, {"n", json.Number("-1.5e3")}, {"x", []any{true, false, nil, object{}}}}) {
		t.Errorf("%#v, %v", v, err)
	}
}
