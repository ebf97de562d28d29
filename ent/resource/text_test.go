package resource

import "testing"

func TestCheckJSONText(t *testing.T) {
	for _, c := range []struct{ raw, want string }{
		{`{"name":"ok é \u00e9 \ud83d\ude00"}`, ""},
		{`{"name":"a\\ud800"}`, ""}, // an escaped backslash, then text
		{"{\"name\":\"N\xff\xfe\"}", "'utf-8' codec can't decode byte 0xff in position 10: invalid start byte"},
		{"{\"name\":\"\xc3\"}", "'utf-8' codec can't decode byte 0xc3 in position 9: invalid continuation byte"},
		{"\"\xe2\x82", "'utf-8' codec can't decode byte 0xe2 in position 1: unexpected end of data"},
		{`{"name":"\ud800"}`, `lone surrogate '\ud800' in position 9: strings must be valid Unicode`},
		{`{"name":"x\udc00y"}`, `lone surrogate '\udc00' in position 10: strings must be valid Unicode`},
		{`["\ud800\u0041"]`, `lone surrogate '\ud800' in position 2: strings must be valid Unicode`},
		{`{"\uD83D":1}`, `lone surrogate '\ud83d' in position 2: strings must be valid Unicode`},
	} {
		if got := CheckJSONText([]byte(c.raw)); got != c.want {
			t.Errorf("%q: %q, want %q", c.raw, got, c.want)
		}
	}
}

// TestTrimSpace: what Python's str.strip() strips, as DRF's CharField
// trims.
func TestTrimSpace(t *testing.T) {
	for in, want := range map[string]string{
		"  x  ": "x", "\t\n x\r\n": "x", "\u00a0x\u2028": "x", "\x1cx\x1f": "x", "\u200bx": "\u200bx", "   ": "", "a b": "a b",
	} {
		if got := TrimSpace(in); got != want {
			t.Errorf("TrimSpace(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestObjectTypesAsNetBox: the object types each selection accepts follow
// NetBox 4.6, served here or not.
func TestObjectTypesAsNetBox(t *testing.T) {
	for _, c := range []struct {
		sel, ct string
		want    bool
	}{
		{"custom_fields", "circuits.circuit", true},
		{"custom_fields", "dcim.device", true},
		{"custom_fields", "vpn.tunneltermination", true},
		{"custom_fields", "users.token", false},
		{"custom_fields", "extras.tag", false},
		{"custom_fields", "dcim.interfacetemplate", false},
		{"tags", "wireless.wirelesslan", true},
		{"tags", "users.user", false},
		{"event_rules", "extras.tag", true},
		{"event_rules", "core.job", false},
		{"object_permissions", "vpn.tunneltermination", true},
		{"object_permissions", "wireless.wirelesslan", true},
		{"object_permissions", "users.token", true},
		{"object_permissions", "extras.taggeditem", true},
		{"object_permissions", "core.objecttype", false},
		{"object_permissions", "users.userconfig", false},
		{"object_permissions", "auth.permission", false},
		{"object_permissions", "nosuch.model", false},
	} {
		if got := ObjectTypeAccepted(c.sel, c.ct); got != c.want {
			t.Errorf("%s accepts %s: %v, want %v", c.sel, c.ct, got, c.want)
		}
	}
	if n := len(ObjectTypes("custom_fields")); n < 90 {
		t.Errorf("%d object types with custom fields, NetBox 4.6 has 92", n)
	}
}
