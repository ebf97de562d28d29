package auth

import (
	"fmt"
	"net/http"
	"net/netip"
	"strings"
	"time"
)

// PeerAddr is the pseudo header name for the socket peer address in the
// HTTP_CLIENT_IP_HEADERS list (Django's META name for it).
const PeerAddr = "REMOTE_ADDR"

// ClientIP returns the client address used for allowed_ips checks.
//
// headers is HTTP_CLIENT_IP_HEADERS, tried in order; the first header that
// is present and non-empty wins, and PeerAddr stands for r.RemoteAddr at its
// position. An empty list means the peer address only — our default.
// NetBox defaults to X-Real-IP, X-Forwarded-For, then the peer, which lets
// any client that reaches the server directly pick its own address. When
// the list names headers but not PeerAddr and none is present, the address
// is undetermined: behind a proxy that is a misconfiguration, not a reason
// to fall back to the proxy's own address.
//
// Names may be HTTP names ("X-Forwarded-For") or Django META names
// ("HTTP_X_FORWARDED_FOR"). Values: for a comma list the leftmost entry is
// used (as NetBox; the proxy must overwrite or sanitise it), and "ip:port",
// "[v6]:port" and "[v6]" are tolerated. IPv4-mapped IPv6 addresses are
// unmapped and zones dropped so they compare with allowed_ips.
//
// Errors wrap ErrClientIPUnknown (403) and say which value failed.
func ClientIP(r *http.Request, headers []string) (netip.Addr, error) {
	if len(headers) == 0 {
		headers = []string{PeerAddr}
	}
	for _, h := range headers {
		if strings.EqualFold(h, PeerAddr) {
			a, err := parseHostPort(r.RemoteAddr)
			if err != nil {
				return netip.Addr{}, fmt.Errorf("%w (peer address %q: %v)", ErrClientIPUnknown, r.RemoteAddr, err)
			}
			return a, nil
		}
		name := h
		if s, ok := strings.CutPrefix(strings.ToUpper(h), "HTTP_"); ok {
			name = strings.ReplaceAll(s, "_", "-")
		}
		v := strings.TrimSpace(r.Header.Get(name))
		if v == "" {
			continue
		}
		first, _, _ := strings.Cut(v, ",")
		a, err := parseHostPort(strings.TrimSpace(first))
		if err != nil {
			return netip.Addr{}, fmt.Errorf("%w (header %s %q: %v)", ErrClientIPUnknown, name, v, err)
		}
		return a, nil
	}
	return netip.Addr{}, fmt.Errorf("%w (none of the headers %v present)", ErrClientIPUnknown, headers)
}

// parseHostPort accepts "ip", "ip:port", "[v6]:port" and "[v6]".
func parseHostPort(s string) (netip.Addr, error) {
	a, err := netip.ParseAddr(s)
	if err != nil {
		if ap, err2 := netip.ParseAddrPort(s); err2 == nil {
			a, err = ap.Addr(), nil
		} else if strings.HasPrefix(s, "[") && strings.HasSuffix(s, "]") {
			a, err = netip.ParseAddr(s[1 : len(s)-1])
		}
	}
	if err != nil {
		return netip.Addr{}, err
	}
	return a.Unmap().WithZone(""), nil
}

// AllowedIPError describes one bad allowed_ips entry, for a DRF-style 400
// body such as {"allowed_ips": {"<Index>": ["<Message>"]}}.
type AllowedIPError struct {
	Index   int
	Value   string
	Message string
}

// AllowedIPErrors lists every bad entry (DRF reports them all).
type AllowedIPErrors []AllowedIPError

func (e AllowedIPErrors) Error() string {
	parts := make([]string, len(e))
	for i, x := range e {
		parts[i] = fmt.Sprintf("allowed_ips[%d] %q: %s", x.Index, x.Value, x.Message)
	}
	return strings.Join(parts, "; ")
}

// Messages for invalid allowed_ips entries.
const (
	MsgInvalidNetwork = "Enter a valid IPv4 or IPv6 address or network."
	MsgHostBitsFormat = "%s has host bits set; did you mean %s?"
)

// ParseAllowedIPs validates allowed_ips as written by a client. A single
// address becomes a /32 or /128; store Prefix.String(), which is also the
// form NetBox (a PostgreSQL cidr column) returns. Networks with host bits
// set are rejected, as PostgreSQL's cidr rejects them (NetBox answers 500
// for both kinds of bad input; we answer 400). Surrounding space is trimmed
// like DRF's CharField.
func ParseAllowedIPs(entries []string) ([]netip.Prefix, error) {
	out := make([]netip.Prefix, 0, len(entries))
	var errs AllowedIPErrors
	for i, raw := range entries {
		s := strings.TrimSpace(raw)
		var p netip.Prefix
		var err error
		if strings.Contains(s, "/") {
			p, err = netip.ParsePrefix(s)
			if err == nil && p != p.Masked() {
				errs = append(errs, AllowedIPError{i, raw, fmt.Sprintf(MsgHostBitsFormat, p, p.Masked())})
				continue
			}
		} else {
			var a netip.Addr
			a, err = netip.ParseAddr(s)
			if err == nil && a.Zone() != "" {
				err = fmt.Errorf("zone not allowed")
			}
			if err == nil {
				p = netip.PrefixFrom(a, a.BitLen())
			}
		}
		if err != nil {
			errs = append(errs, AllowedIPError{i, raw, MsgInvalidNetwork})
			continue
		}
		out = append(out, p)
	}
	if errs != nil {
		return nil, errs
	}
	return out, nil
}

// Allowed reports whether addr lies in one of prefixes; an empty list allows
// everyone. An IPv4 client matches IPv4-mapped IPv6 entries
// (::ffff:10.0.0.0/104 ≡ 10.0.0.0/8); otherwise families never cross, so
// ::/0 does not admit IPv4 clients (as Python's ipaddress).
func Allowed(addr netip.Addr, prefixes []netip.Prefix) bool {
	if len(prefixes) == 0 {
		return true
	}
	addr = addr.Unmap().WithZone("")
	for _, p := range prefixes {
		if p.Addr().Is4In6() && p.Bits() >= 96 {
			p = netip.PrefixFrom(p.Addr().Unmap(), p.Bits()-96)
		}
		if p.Contains(addr) {
			return true
		}
	}
	return false
}

// AllowedIP is Allowed for stored string entries; the error reports a
// corrupt stored value.
func AllowedIP(addr netip.Addr, allowed []string) (bool, error) {
	prefixes, err := ParseAllowedIPs(allowed)
	if err != nil {
		return false, err
	}
	return Allowed(addr, prefixes), nil
}

// TokenState is what CheckToken needs from a stored token.
type TokenState struct {
	Enabled    bool
	Expires    *time.Time
	AllowedIPs []string
}

// CheckToken runs NetBox's per-request checks after the token was found and
// its secret verified, in NetBox's order: allowed IPs, enabled, expiry.
// The caller then updates last_used (LastUsedStale) and checks that the user
// is active (ErrUserInactive), in that order. The client address is only
// computed when the token restricts it.
func CheckToken(t TokenState, r *http.Request, ipHeaders []string, now time.Time) error {
	if len(t.AllowedIPs) > 0 {
		addr, err := ClientIP(r, ipHeaders)
		if err != nil {
			return err
		}
		ok, err := AllowedIP(addr, t.AllowedIPs)
		if err != nil {
			return fmt.Errorf("auth: stored allowed_ips: %w", err)
		}
		if !ok {
			return ErrSourceIPNotPermitted(addr)
		}
	}
	if !t.Enabled {
		return ErrTokenDisabled
	}
	if Expired(t.Expires, now) {
		return ErrTokenExpired
	}
	return nil
}
