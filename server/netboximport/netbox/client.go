package netbox

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Defaults of Options.
const (
	DefaultConcurrency = 4
	DefaultPageSize    = 1000 // NetBox's MAX_PAGE_SIZE: a larger limit is cut to it
	DefaultTimeout     = 60 * time.Second
	DefaultRetries     = 3
	DefaultBackoff     = time.Second
	maxBackoff         = 30 * time.Second
	maxErrorBody       = 64 << 10
)

// Options tune a Client; the zero value is usable.
type Options struct {
	// Client makes the requests; a client of its own (connections pooled up
	// to Concurrency) when nil.
	Client *http.Client
	// Concurrency bounds the requests in flight, all endpoints together;
	// DefaultConcurrency when zero.
	Concurrency int
	// PageSize is the objects asked for per list request; DefaultPageSize
	// when zero.
	PageSize int
	// Timeout bounds each request, its answer read in full;
	// DefaultTimeout when zero.
	Timeout time.Duration
	// Retries are the further attempts after a timeout, a broken
	// connection, a 5xx or a 429; DefaultRetries when zero, none when
	// negative.
	Retries int
	// Backoff is the wait before the first retry, doubled for each next
	// one up to 30 s (a 429's Retry-After is honoured when longer);
	// DefaultBackoff when zero.
	Backoff time.Duration
	// Wait waits d or until ctx ends; a timer when nil (tests pass one that
	// returns at once).
	Wait func(ctx context.Context, d time.Duration) error
	// Log is told of each retry (never with the token); nothing when nil.
	Log func(msg string)
	// MaxFileSize bounds a file fetched by File (an image attachment);
	// DefaultMaxFileSize when zero.
	MaxFileSize int64
}

// Client reads one NetBox. Safe for concurrent use: Pages of several
// endpoints may run at once, sharing Options.Concurrency connections.
type Client struct {
	base  string // scheme://host[:port][/prefix], no trailing slash
	token string
	auth  string // the Authorization header
	opts  Options
	hc    *http.Client
	slots chan struct{}
	modes sync.Map // endpoint → the mode found to page it, when not byCursor
}

// New is a Client of the NetBox at baseURL (with or without a trailing
// /api/) authenticating with token: `Token <t>` for a v1 token, `Bearer
// <t>` for a v2 one (nbt_ prefix). An empty token sends no Authorization.
func New(baseURL, token string, opts Options) (*Client, error) {
	u, err := url.Parse(strings.TrimSpace(baseURL))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("netbox: the URL %q is not an http(s) URL of a NetBox", redactURL(baseURL))
	}
	if u.User != nil {
		return nil, errors.New("netbox: the URL holds credentials; pass the token on its own")
	}
	u.RawQuery, u.Fragment = "", ""
	u.Path = strings.TrimSuffix(strings.TrimSuffix(u.Path, "/"), "/api")
	if strings.ContainsAny(token, " \t\r\n") {
		return nil, errors.New("netbox: the token holds white space")
	}
	if opts.Concurrency <= 0 {
		opts.Concurrency = DefaultConcurrency
	}
	if opts.PageSize <= 0 {
		opts.PageSize = DefaultPageSize
	}
	if opts.Timeout <= 0 {
		opts.Timeout = DefaultTimeout
	}
	switch {
	case opts.Retries == 0:
		opts.Retries = DefaultRetries
	case opts.Retries < 0:
		opts.Retries = 0
	}
	if opts.Backoff <= 0 {
		opts.Backoff = DefaultBackoff
	}
	if opts.Wait == nil {
		opts.Wait = func(ctx context.Context, d time.Duration) error {
			t := time.NewTimer(d)
			defer t.Stop()
			select {
			case <-t.C:
				return nil
			case <-ctx.Done():
				return ctx.Err()
			}
		}
	}
	c := &Client{base: strings.TrimSuffix(u.String(), "/"), token: token, opts: opts, hc: opts.Client,
		slots: make(chan struct{}, opts.Concurrency)}
	switch {
	case token == "":
	case strings.HasPrefix(token, "nbt_"):
		c.auth = "Bearer " + token
	default:
		c.auth = "Token " + token
	}
	if c.hc == nil {
		tr := http.DefaultTransport.(*http.Transport).Clone()
		tr.MaxConnsPerHost = opts.Concurrency
		tr.MaxIdleConnsPerHost = opts.Concurrency
		c.hc = &http.Client{Transport: tr}
	}
	return c, nil
}

// String names the NetBox, never the token (%v of a Client is safe to log).
func (c *Client) String() string { return "netbox.Client(" + c.base + ")" }

// GoString is String: %#v must not print the token either.
func (c *Client) GoString() string { return c.String() }

// URL is the NetBox's base URL.
func (c *Client) URL() string { return c.base }

// Error is a request NetBox refused or did not answer.
type Error struct {
	Endpoint string // "dcim/devices", "status"; a file's path ("/media/…")
	Status   int    // the HTTP status; 0 when there was no answer
	Detail   string // NetBox's detail, or what went wrong
	Attempts int    // requests made, retries included
	err      error  // the cause, for errors.Is (a timeout, a broken connection)
}

func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString("netbox: GET ")
	if e.Endpoint == "" {
		b.WriteString("/api/")
	} else if strings.HasPrefix(e.Endpoint, "/") {
		b.WriteString(e.Endpoint) // a file's path
	} else {
		b.WriteString("/api/" + e.Endpoint + "/")
	}
	if e.Status != 0 {
		fmt.Fprintf(&b, ": HTTP %d %s", e.Status, http.StatusText(e.Status))
	}
	if e.Detail != "" {
		b.WriteString(": " + e.Detail)
	}
	if e.Attempts > 1 {
		fmt.Fprintf(&b, " (after %d attempts)", e.Attempts)
	}
	return b.String()
}

func (e *Error) Unwrap() error { return e.err }

// redacted is a cause whose text had the token removed.
type redacted struct {
	msg string
	err error
}

func (r *redacted) Error() string { return r.msg }
func (r *redacted) Unwrap() error { return r.err }

// redact removes the token (and its secret part) from s.
func (c *Client) redact(s string) string {
	if c.token == "" {
		return s
	}
	s = strings.ReplaceAll(s, c.token, "<token>")
	if _, secret, ok := strings.Cut(c.token, "."); ok && len(secret) >= 8 {
		s = strings.ReplaceAll(s, secret, "<token>")
	}
	return s
}

func redactURL(s string) string {
	if u, err := url.Parse(s); err == nil {
		return u.Redacted()
	}
	return "(unparsable)"
}

// get GETs /api/<path>/?q into v, retrying what may pass; endpoint names
// the request in errors.
func (c *Client) get(ctx context.Context, endpoint, path string, q url.Values, v any) error {
	u := c.base + "/api/"
	if path != "" {
		u += path + "/"
	}
	if len(q) > 0 {
		u += "?" + q.Encode()
	}
	backoff := c.opts.Backoff
	for attempt := 1; ; attempt++ {
		e, retry, retryAfter := c.once(ctx, endpoint, u, v)
		if e == nil {
			return nil
		}
		e.Attempts = attempt
		if !retry || attempt > c.opts.Retries || ctx.Err() != nil {
			return e // the caller's end too: errors.Is(e, context.Canceled)
		}
		d := max(backoff, min(retryAfter, 2*maxBackoff))
		if c.opts.Log != nil {
			c.opts.Log(c.redact(fmt.Sprintf("%s; retrying in %s", e.Error(), d)))
		}
		if err := c.opts.Wait(ctx, d); err != nil {
			return err
		}
		backoff = min(2*backoff, maxBackoff)
	}
}

// once makes one request: its error, whether to retry it, and a 429's
// Retry-After.
func (c *Client) once(ctx context.Context, endpoint, u string, v any) (e *Error, retry bool, retryAfter time.Duration) {
	select {
	case c.slots <- struct{}{}:
	case <-ctx.Done():
		return &Error{Endpoint: endpoint, Detail: ctx.Err().Error(), err: ctx.Err()}, false, 0
	}
	defer func() { <-c.slots }()
	rctx, cancel := context.WithTimeout(ctx, c.opts.Timeout)
	defer cancel()
	fail := func(status int, detail string, err error) *Error {
		detail = c.redact(detail)
		if err != nil {
			err = &redacted{msg: c.redact(err.Error()), err: err}
		}
		return &Error{Endpoint: endpoint, Status: status, Detail: detail, err: err}
	}
	// The cause of a failed exchange: our timeout, the caller's end, or the
	// network.
	cause := func(err error) (*Error, bool) {
		switch {
		case ctx.Err() != nil:
			return fail(0, ctx.Err().Error(), ctx.Err()), false
		case rctx.Err() != nil:
			return fail(0, fmt.Sprintf("no answer within %s", c.opts.Timeout), context.DeadlineExceeded), true
		}
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err // its text repeats the URL
		}
		var ne net.Error
		return fail(0, err.Error(), err), errors.As(err, &ne) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) || isConnErr(err)
	}
	req, err := http.NewRequestWithContext(rctx, http.MethodGet, u, nil)
	if err != nil {
		return fail(0, err.Error(), err), false, 0
	}
	req.Header.Set("Accept", "application/json")
	if c.auth != "" {
		req.Header.Set("Authorization", c.auth)
	}
	resp, err := c.hc.Do(req)
	if err != nil {
		e, retry := cause(err)
		return e, retry, 0
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		body, _ := io.ReadAll(io.LimitReader(resp.Body, maxErrorBody))
		e := fail(resp.StatusCode, errorDetail(resp.Header.Get("Content-Type"), body), nil)
		retry := resp.StatusCode >= 500 || resp.StatusCode == http.StatusTooManyRequests
		if s, err := strconv.Atoi(resp.Header.Get("Retry-After")); err == nil && s > 0 {
			retryAfter = time.Duration(s) * time.Second
		}
		return e, retry, retryAfter
	}
	if ct := resp.Header.Get("Content-Type"); !strings.Contains(ct, "json") {
		return fail(resp.StatusCode, fmt.Sprintf("answered %q, not JSON: is this the URL of a NetBox?", ct), nil), false, 0
	}
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		e, retry := cause(err)
		return e, retry, 0
	}
	if err := json.Unmarshal(body, v); err != nil {
		return fail(resp.StatusCode, "the answer is not the JSON NetBox sends: "+err.Error(), err), false, 0
	}
	return nil, false, 0
}

func isConnErr(err error) bool {
	s := err.Error()
	return strings.Contains(s, "connection reset") || strings.Contains(s, "connection refused") || strings.Contains(s, "broken pipe")
}

// errorDetail is what NetBox said: its {"detail": ...}, a field error's
// JSON, or the start of a text answer (an HTML error page says little).
func errorDetail(contentType string, body []byte) string {
	body = bytes.TrimSpace(body)
	if len(body) == 0 {
		return ""
	}
	if strings.Contains(contentType, "json") || body[0] == '{' || body[0] == '[' {
		var d struct {
			Detail *string `json:"detail"`
		}
		if json.Unmarshal(body, &d) == nil && d.Detail != nil {
			return *d.Detail
		}
		var buf bytes.Buffer
		if json.Compact(&buf, body) == nil {
			return clip(buf.String(), 500)
		}
	}
	if strings.Contains(contentType, "html") || body[0] == '<' {
		if i := bytes.Index(body, []byte("<title>")); i >= 0 {
			if j := bytes.Index(body[i:], []byte("</title>")); j > 0 {
				return "an HTML page titled " + strconv.Quote(strings.TrimSpace(string(body[i+7:i+j])))
			}
		}
		return "an HTML page"
	}
	line, _, _ := strings.Cut(string(body), "\n")
	return clip(line, 200)
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
