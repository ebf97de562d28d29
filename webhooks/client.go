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
	"sync"
	"syscall"
	"time"

	"github.com/inventory/inventory/ent/logic/hookguard"
)

// Guard decides which addresses webhooks may reach; the ranges and the
// allow-list live in ent/logic/hookguard, which the save-time checks of
// webhook definitions use too (one place decides what is internal).
type Guard = hookguard.Guard

// NewGuard parses an allow-list of CIDRs, single addresses and host names.
func NewGuard(allow []string) (*Guard, error) { return hookguard.NewGuard(allow) }

// Internal reports whether ip is not a public unicast address.
func Internal(ip netip.Addr) bool { return hookguard.Internal(ip) }

// ErrForbiddenTarget is returned for a refused address.
var ErrForbiddenTarget = errors.New("webhook target is an internal address (allow it with the webhook allow-list setting)")

// dial connects to addr; unless the host name is allow-listed, the address
// is checked after DNS resolution, on the socket about to connect (so a
// name that resolves to an internal address, or re-resolves to one, is
// refused).
func dial(g *Guard, timeout time.Duration) func(ctx context.Context, network, addr string) (net.Conn, error) {
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
		if g.AllowedHost(host) {
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
		DialContext:           dial(c.guard, c.timeout),
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

// GuardedDialer is the dialer of the webhook client for other outgoing
// connections that must not reach what webhooks may not (data sources'
// git remotes): the guard checks every resolved address on its socket.
func GuardedDialer(g *Guard, timeout time.Duration) func(ctx context.Context, network, addr string) (net.Conn, error) {
	return dial(g, timeout)
}
