package netboxtest

import (
	"bytes"
	"encoding/json"
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
