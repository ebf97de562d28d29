package server

import (
	"bytes"
	"context"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/inventory/inventory/ent"
	"github.com/inventory/inventory/ent/user"
	"github.com/inventory/inventory/server/auth"
	"github.com/inventory/inventory/server/browse"
	"github.com/inventory/inventory/server/session"
)

// Browser sessions (SPEC.md §5.1): /login/ checks a username and password
// and sets the session cookie, which then authenticates API requests as a
// token does; /logout/ ends the session. The sessions live in the
// database (server/session), so every replica honours them and a logout
// or a revocation takes effect everywhere at once. Unsafe requests made
// with a session need its CSRF token (the X-CSRFToken header, or the
// csrfmiddlewaretoken field of the browsable API's form), as in Django:
// SameSite=Lax already keeps the cookie off cross-site POSTs, the token
// covers older browsers and same-site attackers. A request with an
// Authorization header never looks at the cookie and never needs the
// token: no browser adds that header on its own.

// Paths of the login and logout pages (Django's, under no prefix).
const (
	loginPath  = "/login/"
	logoutPath = "/logout/"
)

// sessionRoutes registers /login/ and /logout/.
func (s *Server) sessionRoutes() {
	s.engine.GET(loginPath, s.wrap(s.loginForm))
	s.engine.POST(loginPath, s.wrap(s.login))
	s.engine.GET(logoutPath, s.wrap(s.logoutForm))
	s.engine.POST(logoutPath, s.wrap(s.logout))
}

// secure reports whether the request came over TLS (directly or through
// a proxy saying so): cookies are then marked Secure.
func secure(r *http.Request) bool { return strings.HasPrefix(baseURL(r), "https:") }

// sessionPrincipal authenticates r by its session cookie: nil without
// one, or when the session is unknown, expired or its user inactive (the
// request is then anonymous, and the page offers the login).
func (s *Server) sessionPrincipal(r *http.Request) (*Principal, error) {
	ck, err := r.Cookie(session.Cookie)
	if err != nil || ck.Value == "" {
		return nil, nil
	}
	row, err := session.Lookup(r.Context(), s.db.ReadClient, ck.Value, s.now())
	if err != nil || row == nil {
		return nil, err
	}
	if row.Edges.User == nil || !row.Edges.User.IsActive {
		return nil, nil
	}
	return &Principal{User: row.Edges.User, Session: row}, nil
}

// checkCSRF refuses an unsafe API request authenticated by a session
// without its token (DRF's SessionAuthentication messages).
func checkCSRF(r *http.Request, p *Principal) error {
	if p == nil || p.Session == nil {
		return nil
	}
	switch r.Method {
	case http.MethodGet, http.MethodHead, http.MethodOptions, http.MethodTrace:
		return nil
	}
	got := r.Header.Get(session.CSRFHeader)
	switch {
	case got == "":
		return detailErr(http.StatusForbidden, "CSRF Failed: CSRF token missing.")
	case !session.Equal(p.Session.CsrfToken, got):
		return detailErr(http.StatusForbidden, "CSRF Failed: CSRF token incorrect.")
	}
	return nil
}

// nextPath is where a login sends the browser: a local path only, never
// another site ("//evil" and "/\evil" are other sites to a browser).
func nextPath(raw string) string {
	if !strings.HasPrefix(raw, "/") || strings.HasPrefix(raw, "//") || strings.HasPrefix(raw, "/\\") {
		return "/api/"
	}
	return raw
}

// loginToken is the login form's double-submit token: the csrftoken
// cookie's value, set now when the browser has none.
func loginToken(c *gin.Context) string {
	if ck, err := c.Request.Cookie(session.CSRFCookie); err == nil && len(ck.Value) >= 32 {
		return ck.Value
	}
	tok := session.NewSecret()
	http.SetCookie(c.Writer, session.NewCookie(session.CSRFCookie, tok, 365*24*time.Hour, secure(c.Request)))
	return tok
}

func (s *Server) renderLogin(c *gin.Context, status int, l browse.Login) error {
	var b bytes.Buffer
	if err := browse.RenderLogin(&b, l); err != nil {
		return err
	}
	c.Header("Cache-Control", "no-store")
	c.Data(status, "text/html; charset=utf-8", b.Bytes())
	return nil
}

func (s *Server) loginForm(c *gin.Context) error {
	l := browse.Login{Next: nextPath(c.Query("next")), CSRF: loginToken(c)}
	if p, _ := s.sessionPrincipal(c.Request); p != nil {
		l.User = p.User.Username
	}
	return s.renderLogin(c, http.StatusOK, l)
}

// Messages of the login form (Django's AuthenticationForm).
const (
	msgBadLogin = "Please enter a correct username and password. Note that both fields may be case-sensitive."
	msgCSRF     = "CSRF verification failed: reload the login page and try again."
)

// login checks the form and starts a session. Failures count against the
// username and the client address (Config.LoginLimit); a blocked one
// is 429 with Retry-After, whatever the password, so that guessing on
// after the block learns nothing.
func (s *Server) login(c *gin.Context) error {
	r := c.Request
	if err := r.ParseForm(); err != nil {
		return detailErr(http.StatusBadRequest, "Malformed form.")
	}
	username := r.PostForm.Get("username")
	l := browse.Login{Next: nextPath(r.PostForm.Get("next")), Username: username, CSRF: loginToken(c)}
	if ck, err := r.Cookie(session.CSRFCookie); err != nil || !session.Equal(ck.Value, r.PostForm.Get(session.CSRFField)) {
		l.Error = msgCSRF
		return s.renderLogin(c, http.StatusForbidden, l)
	}
	now := s.now()
	userKey, addrKey := strings.ToLower(username), ""
	if addr, err := auth.ClientIP(r, s.cfg.HTTPClientIPHeaders); err == nil {
		addrKey = addr.String()
	}
	blocked, wait := s.loginUsers.Blocked(now, userKey)
	if b, w := s.loginAddrs.Blocked(now, addrKey); b {
		blocked, wait = true, max(wait, w)
	}
	if blocked {
		c.Header("Retry-After", strconv.Itoa(int(wait.Seconds())+1))
		l.Error = "Too many failed logins. Try again in " + wait.Round(time.Second).String() + "."
		return s.renderLogin(c, http.StatusTooManyRequests, l)
	}
	u, err := s.db.Client.User.Query().Where(user.UsernameEQ(username)).Only(r.Context())
	if err != nil && !ent.IsNotFound(err) {
		return err
	}
	if !s.passwordMatches(u, r.PostForm.Get("password")) {
		s.loginUsers.Fail(now, userKey)
		s.loginAddrs.Fail(now, addrKey)
		l.Error = msgBadLogin
		return s.renderLogin(c, http.StatusOK, l)
	}
	s.loginUsers.Reset(userKey)
	secret, _, err := session.Create(r.Context(), s.db.Client, u, now, s.cfg.SessionCookieAge)
	if err != nil {
		return err
	}
	http.SetCookie(c.Writer, session.NewCookie(session.Cookie, secret, s.cfg.SessionCookieAge, secure(r)))
	c.Header("Cache-Control", "no-store")
	c.Redirect(http.StatusFound, l.Next)
	return nil
}

// passwordMatches checks pw against an active user's hash. An unknown
// user is checked against a throwaway hash, so that the answer takes as
// long and does not tell which usernames exist.
func (s *Server) passwordMatches(u *ent.User, pw string) bool {
	if u == nil || !u.IsActive {
		auth.CheckPassword(auth.DummyHash(), pw)
		return false
	}
	return auth.CheckPassword(u.Password, pw)
}

// logoutForm is the page of the logout button (a logout is a POST, so
// that no link or image of another page logs anyone out).
func (s *Server) logoutForm(c *gin.Context) error {
	p, err := s.sessionPrincipal(c.Request)
	if err != nil {
		return err
	}
	if p == nil {
		c.Redirect(http.StatusFound, loginPath)
		return nil
	}
	return s.renderLogin(c, http.StatusOK, browse.Login{Logout: true, User: p.User.Username, CSRF: p.Session.CsrfToken})
}

// logout ends the session of the cookie, if the form carries its token,
// and clears the cookie.
func (s *Server) logout(c *gin.Context) error {
	r := c.Request
	if err := r.ParseForm(); err != nil {
		return detailErr(http.StatusBadRequest, "Malformed form.")
	}
	p, err := s.sessionPrincipal(r)
	if err != nil {
		return err
	}
	if p != nil {
		if !session.Equal(p.Session.CsrfToken, r.PostForm.Get(session.CSRFField)) {
			return s.renderLogin(c, http.StatusForbidden, browse.Login{Logout: true, User: p.User.Username,
				CSRF: p.Session.CsrfToken, Error: msgCSRF})
		}
		ck, _ := r.Cookie(session.Cookie)
		if err := session.Delete(r.Context(), s.db.Client, ck.Value); err != nil {
			return err
		}
	}
	http.SetCookie(c.Writer, session.NewCookie(session.Cookie, "", -1, secure(r)))
	c.Redirect(http.StatusFound, loginPath)
	return nil
}

// RevokeSessions ends every session of a user (cmd's `user
// revoke-sessions`) and returns how many. A password change needs no
// call: sessions remember the password they were opened with.
func (s *Server) RevokeSessions(ctx context.Context, username string) (int, error) {
	u, err := s.db.Client.User.Query().Where(user.UsernameEQ(username)).Only(ctx)
	if err != nil {
		return 0, err
	}
	return session.Revoke(ctx, s.db.Client, u.ID)
}
