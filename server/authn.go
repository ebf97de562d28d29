package server

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"slices"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/inventory/inventory/ent"
	"github.com/inventory/inventory/ent/resource"
	"github.com/inventory/inventory/ent/token"
	"github.com/inventory/inventory/server/auth"
)

// Principal is the authenticated caller of a request.
type Principal struct {
	User  *ent.User
	Token *ent.Token
	// Session is the browser session that authenticated the request
	// (session.go); nil for a token.
	Session *ent.Session

	perms userGrants // loaded on first use (perms.go)
	// inProcess marks the principal of InProcess.
	inProcess bool
}

// InProcess returns ctx for requests that code inside this process sends
// to Handler directly (no network), made by a superuser named username
// that is no user of the database: the importer reads back what it wrote
// through the API this way (package netboximport). Such a context cannot
// come from the network: the server makes each request's context itself.
func InProcess(ctx context.Context, username string) context.Context {
	u := &ent.User{Username: username, IsActive: true, IsSuperuser: true}
	return context.WithValue(ctx, principalKey{}, &Principal{User: u, inProcess: true})
}

type principalKey struct{}

// PrincipalFrom returns the caller of the request ctx belongs to, or nil.
func PrincipalFrom(ctx context.Context) *Principal {
	p, _ := ctx.Value(principalKey{}).(*Principal)
	return p
}

// usernameOf names the requesting user for logs and pages; "" when anonymous.
func usernameOf(ctx context.Context) string {
	if p := PrincipalFrom(ctx); p != nil && p.User != nil {
		return p.User.Username
	}
	return ""
}

// authenticate resolves the Authorization header (BEHAVIOUR.md §3.3, §3.5).
// A malformed or failing credential ends the request with NetBox's 403;
// no credential leaves the request anonymous for authorize to judge.
func (s *Server) authenticate(c *gin.Context) {
	if p := PrincipalFrom(c.Request.Context()); p != nil && p.inProcess {
		// A request made inside this process (InProcess); a request from
		// the network has a context of its own and never carries one.
		c.Set(ctxPrincipal, p)
		c.Next()
		return
	}
	p, err := s.principal(c.Request)
	if err == nil && strings.HasPrefix(c.Request.URL.Path, "/api/") {
		err = checkCSRF(c.Request, p)
	}
	if err != nil {
		s.render(c, err)
		c.Abort()
		return
	}
	if p != nil {
		c.Set(ctxPrincipal, p)
		c.Request = c.Request.WithContext(context.WithValue(c.Request.Context(), principalKey{}, p))
	}
	c.Next()
}

func (s *Server) principal(r *http.Request) (*Principal, error) {
	header := r.Header.Get("Authorization")
	if header == "" {
		return s.sessionPrincipal(r)
	}
	cred, err := auth.ParseAuthorization(header)
	if err != nil || cred.Secret == "" {
		return nil, err
	}
	ctx := r.Context()
	// The lookup and HMAC check are cached (keyed by a hash of the header,
	// never the secret itself) until the next write or the cache TTL; the
	// per-request checks below always run.
	sum := sha256.Sum256([]byte(header))
	key := "auth:" + hex.EncodeToString(sum[:])
	var p *Principal
	if v, ok := s.db.Cache.Get(key); ok {
		p = v.(*Principal)
	} else {
		gen := s.db.Cache.Gen()
		t, err := s.lookupToken(ctx, cred)
		if err != nil {
			return nil, err
		}
		p = &Principal{User: t.Edges.User, Token: t}
		s.db.Cache.Put(key, gen, p)
	}
	t := p.Token
	now := s.now()
	if err := auth.CheckToken(auth.TokenState{Enabled: t.Enabled, Expires: t.Expires, AllowedIPs: t.AllowedIps},
		r, s.cfg.HTTPClientIPHeaders, now); err != nil {
		return nil, err
	}
	s.lastUsed.touch(ctx, s.db.Client, t, now)
	if p.User == nil || !p.User.IsActive {
		return nil, auth.ErrUserInactive
	}
	return p, nil
}

// lookupToken finds and verifies the token of a credential.
func (s *Server) lookupToken(ctx context.Context, cred auth.Credential) (*ent.Token, error) {
	var (
		t   *ent.Token
		err error
	)
	if cred.Version == 2 {
		t, err = s.db.ReadClient.Token.Query().Where(token.KeyEQ(cred.Key), token.VersionEQ(2)).WithUser().Only(ctx)
		if ent.IsNotFound(err) || err == nil && (t.PepperID == nil || !auth.Verify(s.cfg.Peppers[*t.PepperID], cred.Secret, t.Digest)) {
			return nil, auth.ErrInvalidV2
		}
	} else {
		lookups := s.cfg.Peppers.V1Lookups(cred.Secret)
		digests := make([]string, len(lookups))
		for i, l := range lookups {
			digests[i] = l.Digest
		}
		t, err = s.db.ReadClient.Token.Query().Where(token.VersionEQ(1), token.DigestIn(digests...)).WithUser().First(ctx)
		if ent.IsNotFound(err) || len(digests) == 0 {
			return nil, auth.ErrInvalidV1
		}
	}
	return t, err
}

// Actions of the permission model.
const (
	actionView   = "view"
	actionAdd    = "add"
	actionChange = "change"
	actionDelete = "delete"
)

// exempt reports whether d is in EXEMPT_VIEW_PERMISSIONS. "*" never covers
// the users app's models, which must be listed explicitly (as NetBox).
func (s *Server) exempt(d *resource.Descriptor) bool {
	ct := d.ContentType()
	if slices.Contains(s.cfg.ExemptViewPermissions, ct) {
		return true
	}
	return d.App != "users" && slices.Contains(s.cfg.ExemptViewPermissions, "*")
}
