package webhooks

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"os"
	"strings"
	"sync"
	"syscall"
	"time"
)

// Guard decides which addresses outgoing webhooks may reach: public
// addresses always, internal ones (loopback, private, link-local, CGNAT,
// multicast, unspecified, reserved) only when the operator allows them.
type Guard struct {
	nets  []netip.Prefix
	hosts map[string]bool
}

// NewGuard parses an allow-list of CIDRs, single addresses and host names.
func NewGuard(allow []string) (*Guard, error) {
	g := &Guard{hosts: map[string]bool{}}
	for _, a := range allow {
		a = strings.TrimSpace(a)
		if a == "" {
			continue
		}
		if p, err := netip.ParsePrefix(a); err == nil {
			g.nets = append(g.nets, p.Masked())
			continue
		}
		if ip, err := netip.ParseAddr(a); err == nil {
			g.nets = append(g.nets, netip.PrefixFrom(ip, ip.BitLen()))
			continue
		}
		if strings.ContainsAny(a, "/ :") {
			return nil, fmt.Errorf("webhook allow-list: %q is neither a CIDR, an address nor a host name", a)
		}
		g.hosts[strings.ToLower(strings.TrimSuffix(a, "."))] = true
	}
	return g, nil
}

var internalNets = func() []netip.Prefix {
	var out []netip.Prefix
	for _, s := range []string{
		"0.0.0.0/8", "10.0.0.0/8", "100.64.0.0/10", "127.0.0.0/8", "169.254.0.0/16", "172.16.0.0/12",
		"192.0.0.0/24", "192.0.2.0/24", "192.168.0.0/16", "198.18.0.0/15", "198.51.100.0/24",
		"203.0.113.0/24", "224.0.0.0/4", "240.0.0.0/4",
		"::/128", "::1/128", "64:ff9b::/96", "64:ff9b:1::/48", "100::/64", "2001:db8::/32",
		"fc00::/7", "fe80::/10", "fec0::/10", "ff00::/8",
	} {
		out = append(out, netip.MustParsePrefix(s))
	}
	return out
}()

// Internal reports whether ip is not a public unicast address.
func Internal(ip netip.Addr) bool {
	ip = ip.Unmap()
	for _, p := range internalNets {
		if p.Contains(ip) {
			return true
		}
	}
	return false
}

// AllowedIP reports whether ip may be reached.
func (g *Guard) AllowedIP(ip netip.Addr) bool {
	ip = ip.Unmap()
	for _, p := range g.nets {
		if p.Contains(ip) {
			return true
		}
	}
	return !Internal(ip)
}

func (g *Guard) allowedHost(host string) bool {
	return g.hosts[strings.ToLower(strings.TrimSuffix(host, "."))]
}

// ErrForbiddenTarget is returned for a refused address.
var ErrForbiddenTarget = errors.New("webhook target is an internal address (allow it with the webhook allow-list setting)")

// dial connects to addr; unless the host name is allow-listed, the address
// is checked after DNS resolution, on the socket about to connect (so a
// name that resolves to an internal address, or re-resolves to one, is
// refused).
func (g *Guard) dial(timeout time.Duration) func(ctx context.Context, network, addr string) (net.Conn, error) {
	open := &net.Dialer{Timeout: timeout}
	checked := &net.Dialer{Timeout: timeout, Control: func(_, address string, _ syscall.RawConn) error {
		host, _, err := net.SplitHostPort(address)
		if err != nil {
			return err
		}
		ip, err := netip.ParseAddr(host)
		if err != nil || !g.AllowedIP(ip) {
			return fmt.Errorf("%w: %s", ErrForbiddenTarget, host)
		}
		return nil
	}}
	return func(ctx context.Context, network, addr string) (net.Conn, error) {
		host, _, err := net.SplitHostPort(addr)
		if err != nil {
			return nil, err
		}
		if g.allowedHost(host) {
			return open.DialContext(ctx, network, addr)
		}
		return checked.DialContext(ctx, network, addr)
	}
}

// Client is the one HTTP client every webhook goes through: SSRF guard,
// no proxies, no redirects, a timeout, TLS per webhook.
type Client struct {
	guard   *Guard
	timeout time.Duration
	mu      sync.Mutex
	clients map[string]*http.Client // by TLS settings
}

// NewClient builds the client.
func NewClient(g *Guard, timeout time.Duration) *Client {
	return &Client{guard: g, timeout: timeout, clients: map[string]*http.Client{}}
}

// For returns the http.Client for a webhook's TLS settings.
func (c *Client) For(verify bool, caFile string) (*http.Client, error) {
	key := fmt.Sprintf("%t|%s", verify, caFile)
	c.mu.Lock()
	defer c.mu.Unlock()
	if hc, ok := c.clients[key]; ok {
		return hc, nil
	}
	tc := &tls.Config{MinVersion: tls.VersionTLS12, InsecureSkipVerify: !verify} //nolint:gosec // per webhook, NetBox's ssl_verification
	if caFile != "" {
		pem, err := os.ReadFile(caFile)
		if err != nil {
			return nil, fmt.Errorf("CA file: %w", err)
		}
		pool := x509.NewCertPool()
		if !pool.AppendCertsFromPEM(pem) {
			return nil, fmt.Errorf("CA file %s holds no certificates", caFile)
		}
		tc.RootCAs = pool
	}
	tr := &http.Transport{
		Proxy:                 nil, // a proxy would bypass the address check
		DialContext:           c.guard.dial(c.timeout),
		TLSClientConfig:       tc,
		TLSHandshakeTimeout:   c.timeout,
		ResponseHeaderTimeout: c.timeout,
		MaxIdleConnsPerHost:   4,
		IdleConnTimeout:       90 * time.Second,
		ForceAttemptHTTP2:     true,
	}
	hc := &http.Client{
		Transport: tr,
		Timeout:   c.timeout,
		CheckRedirect: func(*http.Request, []*http.Request) error {
			return http.ErrUseLastResponse // a 3xx is a failed delivery
		},
	}
	c.clients[key] = hc
	return hc, nil
}
