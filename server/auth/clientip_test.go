package auth

import (
	"errors"
	"net/http/httptest"
	"net/netip"
	"strings"
	"testing"
	"time"
)

func TestClientIP(t *testing.T) {
	tests := []struct {
		name   string
		peer   string
		hdr    map[string]string
		config []string
		want   string // "" = error
	}{
		{"default is peer only", "192.0.2.1:5555", nil, nil, "192.0.2.1"},
		{"default ignores spoofable headers", "192.0.2.1:5555", map[string]string{"X-Real-IP": "10.9.9.9", "X-Forwarded-For": "10.8.8.8"}, nil, "192.0.2.1"},
		{"peer v6", "[2001:db8::1]:443", nil, nil, "2001:db8::1"},
		{"peer v4-mapped is unmapped", "[::ffff:192.0.2.7]:1", nil, nil, "192.0.2.7"},
		{"peer zone dropped", "[fe80::1%eth0]:1", nil, nil, "fe80::1"},
		{"peer without port", "192.0.2.1", nil, nil, "192.0.2.1"},
		{"peer unparseable", "@", nil, nil, ""},
		{"first configured header wins", "192.0.2.1:1", map[string]string{"X-Real-IP": "10.0.0.1", "X-Forwarded-For": "10.0.0.2"}, []string{"X-Real-IP", "X-Forwarded-For"}, "10.0.0.1"},
		{"order is the config's", "192.0.2.1:1", map[string]string{"X-Real-IP": "10.0.0.1", "X-Forwarded-For": "10.0.0.2"}, []string{"X-Forwarded-For", "X-Real-IP"}, "10.0.0.2"},
		{"falls through to next header", "192.0.2.1:1", map[string]string{"X-Forwarded-For": "10.0.0.2"}, []string{"X-Real-IP", "X-Forwarded-For"}, "10.0.0.2"},
		{"empty header counts as absent", "192.0.2.1:1", map[string]string{"X-Real-IP": " ", "X-Forwarded-For": "10.0.0.2"}, []string{"X-Real-IP", "X-Forwarded-For"}, "10.0.0.2"},
		{"comma list leftmost", "192.0.2.1:1", map[string]string{"X-Forwarded-For": " 10.0.0.3 , 10.0.0.4, 172.16.0.1"}, []string{"X-Forwarded-For"}, "10.0.0.3"},
		{"v4 with port", "192.0.2.1:1", map[string]string{"X-Real-IP": "10.0.0.5:8080"}, []string{"X-Real-IP"}, "10.0.0.5"},
		{"v6 bare", "192.0.2.1:1", map[string]string{"X-Real-IP": "2001:db8::5"}, []string{"X-Real-IP"}, "2001:db8::5"},
		{"v6 bracketed with port", "192.0.2.1:1", map[string]string{"X-Real-IP": "[2001:db8::5]:8080, 10.0.0.1"}, []string{"X-Real-IP"}, "2001:db8::5"},
		{"v6 bracketed without port", "192.0.2.1:1", map[string]string{"X-Real-IP": "[2001:db8::6]"}, []string{"X-Real-IP"}, "2001:db8::6"},
		{"v4-mapped header unmapped", "192.0.2.1:1", map[string]string{"X-Real-IP": "::ffff:10.1.2.3"}, []string{"X-Real-IP"}, "10.1.2.3"},
		{"Django META name", "192.0.2.1:1", map[string]string{"X-Forwarded-For": "10.0.0.9"}, []string{"HTTP_X_FORWARDED_FOR"}, "10.0.0.9"},
		{"header names case-insensitive", "192.0.2.1:1", map[string]string{"X-Real-IP": "10.0.0.9"}, []string{"x-real-ip"}, "10.0.0.9"},
		{"REMOTE_ADDR as fallback", "192.0.2.1:1", nil, []string{"X-Real-IP", "REMOTE_ADDR"}, "192.0.2.1"},
		{"REMOTE_ADDR first shadows headers", "192.0.2.1:1", map[string]string{"X-Real-IP": "10.0.0.1"}, []string{"remote_addr", "X-Real-IP"}, "192.0.2.1"},
		{"header configured but absent, no peer fallback", "192.0.2.1:1", nil, []string{"X-Real-IP"}, ""},
		{"garbage header", "192.0.2.1:1", map[string]string{"X-Real-IP": "unknown"}, []string{"X-Real-IP", "REMOTE_ADDR"}, ""},
		{"hostname is not an address", "192.0.2.1:1", map[string]string{"X-Real-IP": "proxy.local:80"}, []string{"X-Real-IP"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := httptest.NewRequest("GET", "/api/", nil)
			r.RemoteAddr = tt.peer
			for k, v := range tt.hdr {
				r.Header.Set(k, v)
			}
			got, err := ClientIP(r, tt.config)
			if tt.want == "" {
				var e Error
				if err == nil || !errors.As(err, &e) || e != ErrClientIPUnknown {
					t.Fatalf("got %v, %v; want ErrClientIPUnknown", got, err)
				}
				return
			}
			if err != nil || got != netip.MustParseAddr(tt.want) {
				t.Fatalf("got %v, %v; want %s", got, err, tt.want)
			}
		})
	}
}

func TestParseAllowedIPs(t *testing.T) {
	tests := []struct {
		in   []string
		want []string // canonical, nil = error
		errs []AllowedIPError
	}{
		{[]string{}, []string{}, nil},
		{[]string{"10.0.0.0/8", "192.0.2.1", " 2001:db8::/32 ", "2001:db8::1", "0.0.0.0/0", "::/0"},
			[]string{"10.0.0.0/8", "192.0.2.1/32", "2001:db8::/32", "2001:db8::1/128", "0.0.0.0/0", "::/0"}, nil},
		{[]string{"10.0.0.1/8"}, nil, []AllowedIPError{{0, "10.0.0.1/8", "10.0.0.1/8 has host bits set; did you mean 10.0.0.0/8?"}}},
		{[]string{"10.0.0.0/8", "nope", "10.0.0.0/33", "", "fe80::1%eth0", "1.2.3.4:80"}, nil, []AllowedIPError{
			{1, "nope", MsgInvalidNetwork}, {2, "10.0.0.0/33", MsgInvalidNetwork}, {3, "", MsgInvalidNetwork},
			{4, "fe80::1%eth0", MsgInvalidNetwork}, {5, "1.2.3.4:80", MsgInvalidNetwork}}},
	}
	for _, tt := range tests {
		got, err := ParseAllowedIPs(tt.in)
		if tt.want == nil {
			var errs AllowedIPErrors
			if !errors.As(err, &errs) || len(errs) != len(tt.errs) {
				t.Fatalf("%v: err = %v, want %v", tt.in, err, tt.errs)
			}
			for i := range errs {
				if errs[i] != tt.errs[i] {
					t.Errorf("%v: error %d = %+v, want %+v", tt.in, i, errs[i], tt.errs[i])
				}
			}
			continue
		}
		if err != nil || len(got) != len(tt.want) {
			t.Fatalf("%v: %v, %v", tt.in, got, err)
		}
		for i := range got {
			if got[i].String() != tt.want[i] {
				t.Errorf("%v: entry %d = %s, want %s", tt.in, i, got[i], tt.want[i])
			}
		}
	}
}

func TestAllowedIP(t *testing.T) {
	tests := []struct {
		addr    string
		allowed []string
		want    bool
	}{
		{"203.0.113.9", nil, true},
		{"203.0.113.9", []string{}, true},
		{"10.1.2.3", []string{"10.0.0.0/8"}, true},
		{"11.1.2.3", []string{"10.0.0.0/8"}, false},
		{"192.0.2.1", []string{"10.0.0.0/8", "192.0.2.1"}, true},
		{"192.0.2.2", []string{"192.0.2.1"}, false},
		{"2001:db8::7", []string{"2001:db8::/64"}, true},
		{"2001:db9::7", []string{"2001:db8::/64"}, false},
		{"2001:db8::1", []string{"2001:db8::1"}, true},
		{"10.0.0.1", []string{"::/0"}, false},         // families do not cross
		{"2001:db8::1", []string{"0.0.0.0/0"}, false}, // families do not cross
		{"10.0.0.1", []string{"0.0.0.0/0"}, true},
		{"::ffff:10.0.0.1", []string{"10.0.0.0/8"}, true},   // mapped client
		{"10.0.0.1", []string{"::ffff:10.0.0.0/104"}, true}, // mapped entry
		{"10.0.0.1", []string{"::ffff:10.0.0.1"}, true},     // mapped single address
		{"11.0.0.1", []string{"::ffff:10.0.0.0/104"}, false},
		{"fe80::1%eth0", []string{"fe80::/10"}, true}, // zone ignored
	}
	for _, tt := range tests {
		got, err := AllowedIP(netip.MustParseAddr(tt.addr), tt.allowed)
		if err != nil || got != tt.want {
			t.Errorf("AllowedIP(%s, %v) = %v, %v; want %v", tt.addr, tt.allowed, got, err, tt.want)
		}
	}
	if _, err := AllowedIP(netip.MustParseAddr("10.0.0.1"), []string{"junk"}); err == nil {
		t.Error("corrupt stored entry must be an error")
	}
}

func TestCheckToken(t *testing.T) {
	now := time.Date(2025, 1, 1, 12, 0, 0, 0, time.UTC)
	past, future := now.Add(-time.Hour), now.Add(time.Hour)
	tests := []struct {
		name    string
		tok     TokenState
		peer    string
		headers []string
		want    string // "" = ok
	}{
		{"ok", TokenState{Enabled: true}, "192.0.2.1:1", nil, ""},
		{"ok with future expiry and allowed ip", TokenState{Enabled: true, Expires: &future, AllowedIPs: []string{"192.0.2.0/24"}}, "192.0.2.1:1", nil, ""},
		{"disabled", TokenState{Enabled: false}, "192.0.2.1:1", nil, "Token disabled"},
		{"expired", TokenState{Enabled: true, Expires: &past}, "192.0.2.1:1", nil, "Token expired"},
		{"expires now", TokenState{Enabled: true, Expires: &now}, "192.0.2.1:1", nil, "Token expired"},
		{"disabled beats expired", TokenState{Expires: &past}, "192.0.2.1:1", nil, "Token disabled"},
		{"ip beats disabled", TokenState{AllowedIPs: []string{"10.0.0.0/8"}}, "192.0.2.1:1", nil,
			"Source IP 192.0.2.1 is not permitted to authenticate using this token."},
		{"v6 source text", TokenState{Enabled: true, AllowedIPs: []string{"10.0.0.0/8"}}, "[2001:db8::1]:1", nil,
			"Source IP 2001:db8::1 is not permitted to authenticate using this token."},
		{"ip undeterminable", TokenState{Enabled: true, AllowedIPs: []string{"10.0.0.0/8"}}, "192.0.2.1:1", []string{"X-Real-IP"},
			string(ErrClientIPUnknown)},
		{"no allowed_ips: client ip not needed", TokenState{Enabled: true}, "@", []string{"X-Real-IP"}, ""},
	}
	for _, tt := range tests {
		r := httptest.NewRequest("GET", "/", nil)
		r.RemoteAddr = tt.peer
		err := CheckToken(tt.tok, r, tt.headers, now)
		if tt.want == "" {
			if err != nil {
				t.Errorf("%s: %v", tt.name, err)
			}
			continue
		}
		var e Error
		if !errors.As(err, &e) || string(e) != tt.want {
			t.Errorf("%s: got %v, want %q", tt.name, err, tt.want)
		}
		if !strings.HasPrefix(err.Error(), tt.want) {
			t.Errorf("%s: Error() = %q", tt.name, err)
		}
	}
}
