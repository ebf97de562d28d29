package hookguard

import (
	"net/netip"
	"os"
	"path/filepath"
	"testing"
)

func TestLiteralIP(t *testing.T) {
	cases := []struct {
		host string
		want string // "" = a host name
	}{
		{"127.0.0.1", "127.0.0.1"},
		{"127.1", "127.0.0.1"},
		{"127.0.1", "127.0.0.1"},
		{"2130706433", "127.0.0.1"},
		{"0x7f000001", "127.0.0.1"},
		{"0X7F.1", "127.0.0.1"},
		{"0177.0.0.1", "127.0.0.1"},
		{"0177.1", "127.0.0.1"},
		{"127.0.0.1.", "127.0.0.1"},
		{"0", "0.0.0.0"},
		{"169.254.169.254", "169.254.169.254"},
		{"[::ffff:127.0.0.1]", "::ffff:127.0.0.1"},
		{"::1", "::1"},
		{"[fe80::1%eth0]", "fe80::1%eth0"},
		{"hooks.example.com", ""},
		{"1e100.net", ""},
		{"256.1.1.1", ""},
		{"1.2.3.4.5", ""},
		{"08.0.0.1", ""},
		{"4294967296", ""},
		{"1.16777216", ""},
		{"", ""},
	}
	for _, c := range cases {
		ip, ok := LiteralIP(c.host)
		if c.want == "" {
			if ok {
				t.Errorf("%q: read as %s, want a host name", c.host, ip)
			}
			continue
		}
		if !ok || ip != netip.MustParseAddr(c.want) {
			t.Errorf("%q: got %s %v, want %s", c.host, ip, ok, c.want)
		}
	}
}

func TestGuard(t *testing.T) {
	g, err := NewGuard([]string{"100.64.0.0/10", "receiver.internal"})
	if err != nil {
		t.Fatal(err)
	}
	for addr, want := range map[string]bool{
		"8.8.8.8": true, "127.0.0.1": false, "::ffff:127.0.0.1": false, "169.254.169.254": false,
		"0.0.0.0": false, "224.0.0.1": false, "255.255.255.255": false, "240.0.0.1": false,
		"fe80::1%eth0": false, "::": false, "100.64.1.1": true, "10.1.2.3": false,
	} {
		if got := g.AllowedIP(netip.MustParseAddr(addr)); got != want {
			t.Errorf("%s: allowed %v, want %v", addr, got, want)
		}
	}
	if !g.AllowedHost("Receiver.Internal.") || g.AllowedHost("other.internal") {
		t.Error("host allow-list")
	}
	if _, err := NewGuard([]string{"not a cidr/x"}); err == nil {
		t.Error("a bad allow-list entry is accepted")
	}
}

func TestHeaders(t *testing.T) {
	for _, h := range []string{"host", "Content-Length", "TRANSFER-ENCODING", "connection", "x-hook-signature", "X-Delivery-Id"} {
		if !Owned(h) {
			t.Errorf("%s is not owned", h)
		}
	}
	if Owned("X-Custom") || !ValidHeaderName("X-Custom_1") || ValidHeaderName("X Bad") || ValidHeaderName("") || ValidHeaderName("a\rb") {
		t.Error("header names")
	}
}

func TestCAFile(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "ca.pem")
	if err := os.WriteFile(good, []byte("pem"), 0o600); err != nil {
		t.Fatal(err)
	}
	outside := filepath.Join(t.TempDir(), "other.pem")
	if err := os.WriteFile(outside, []byte("pem"), 0o600); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link.pem")
	if err := os.Symlink(outside, link); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, "sub"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := CAFile(dir, good); err != nil {
		t.Errorf("good file: %v", err)
	}
	for _, p := range []string{"/etc/shadow", "/etc/passwd", outside, link, dir, filepath.Join(dir, "sub"),
		filepath.Join(dir, "missing.pem"), filepath.Join(dir, "..", filepath.Base(filepath.Dir(outside)), "other.pem"), "ca.pem"} {
		if err := CAFile(dir, p); err != ErrCAFile {
			t.Errorf("%s: got %v, want ErrCAFile", p, err)
		}
	}
	if err := CAFile("", good); err != ErrCAFilesDisabled {
		t.Errorf("no directory: %v", err)
	}
}
