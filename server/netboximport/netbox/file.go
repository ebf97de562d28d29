package netbox

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
)

// DefaultMaxFileSize is File's limit when Options.MaxFileSize is zero:
// this service's default image attachment limit.
const DefaultMaxFileSize = 10 << 20

// File fetches a file NetBox links to, at most Options.MaxFileSize bytes
// (netboximport.FileSource: an image attachment's image).
func (c *Client) File(ctx context.Context, rawURL string) ([]byte, error) {
	limit := c.opts.MaxFileSize
	if limit <= 0 {
		limit = DefaultMaxFileSize
	}
	return c.Download(ctx, rawURL, limit)
}

// Download fetches a file NetBox links to (an image attachment's "image",
// under /media/): its bytes, at most limit of them. The token goes with it
// only to the NetBox's own scheme, host and port, never to another server a
// URL names. It shares the client's connections, timeout and retries.
func (c *Client) Download(ctx context.Context, rawURL string, limit int64) ([]byte, error) {
	u, err := url.Parse(rawURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("netbox: %q is not an http(s) URL of a file", c.redact(rawURL))
	}
	base, _ := url.Parse(c.base)
	own := strings.EqualFold(u.Scheme, base.Scheme) && strings.EqualFold(u.Host, base.Host)
	name := u.Path
	var body []byte
	backoff := c.opts.Backoff
	for attempt := 1; ; attempt++ {
		var e *Error
		var retry bool
		body, e, retry = c.download(ctx, name, u.String(), own, limit)
		if e == nil {
			return body, nil
		}
		e.Attempts = attempt
		if !retry || attempt > c.opts.Retries || ctx.Err() != nil {
			return nil, e
		}
		if c.opts.Log != nil {
			c.opts.Log(c.redact(fmt.Sprintf("%s; retrying in %s", e.Error(), backoff)))
		}
		if err := c.opts.Wait(ctx, backoff); err != nil {
			return nil, err
		}
		backoff = min(2*backoff, maxBackoff)
	}
}

// errTooLarge is a file over Download's limit.
var errTooLarge = errors.New("larger than the limit")

func (c *Client) download(ctx context.Context, name, u string, own bool, limit int64) ([]byte, *Error, bool) {
	select {
	case c.slots <- struct{}{}:
	case <-ctx.Done():
		return nil, &Error{Endpoint: name, Detail: ctx.Err().Error(), err: ctx.Err()}, false
	}
	defer func() { <-c.slots }()
	rctx, cancel := context.WithTimeout(ctx, c.opts.Timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(rctx, http.MethodGet, u, nil)
	if err != nil {
		return nil, &Error{Endpoint: name, Detail: c.redact(err.Error())}, false
	}
	if own && c.auth != "" {
		req.Header.Set("Authorization", c.auth)
	}
	fail := func(status int, detail string, err error) *Error {
		if err != nil {
			err = &redacted{msg: c.redact(err.Error()), err: err}
		}
		return &Error{Endpoint: name, Status: status, Detail: c.redact(detail), err: err}
	}
	resp, err := c.hc.Do(req)
	if err == nil {
		defer resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			b, _ := io.ReadAll(io.LimitReader(resp.Body, maxErrorBody))
			retry := resp.StatusCode >= 500 || resp.StatusCode == http.StatusTooManyRequests
			return nil, fail(resp.StatusCode, errorDetail(resp.Header.Get("Content-Type"), b), nil), retry
		}
		if resp.ContentLength > limit {
			return nil, fail(resp.StatusCode, fmt.Sprintf("%d bytes, over the limit of %d", resp.ContentLength, limit), errTooLarge), false
		}
		var b []byte
		b, err = io.ReadAll(io.LimitReader(resp.Body, limit+1))
		if err == nil {
			if int64(len(b)) > limit {
				return nil, fail(resp.StatusCode, fmt.Sprintf("over the limit of %d bytes", limit), errTooLarge), false
			}
			return b, nil, false
		}
	}
	switch {
	case ctx.Err() != nil:
		return nil, fail(0, ctx.Err().Error(), ctx.Err()), false
	case rctx.Err() != nil:
		return nil, fail(0, fmt.Sprintf("no answer within %s", c.opts.Timeout), context.DeadlineExceeded), true
	}
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	return nil, fail(0, err.Error(), err), true
}
