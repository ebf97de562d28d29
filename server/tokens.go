package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/mail"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/gin-gonic/gin"

	"github.com/inventory/inventory/ent"
	"github.com/inventory/inventory/ent/hook"
	"github.com/inventory/inventory/ent/resource"
	"github.com/inventory/inventory/ent/user"
	"github.com/inventory/inventory/server/auth"
)

// Kinds whose writes need the server's crypto: registered once, before the
// resource registry resolves its codecs.
func init() {
	resource.RegisterKind("password", nil, func(f *resource.Field, raw json.RawMessage) (any, []string) {
		var pw string
		if err := json.Unmarshal(raw, &pw); err != nil {
			return nil, []string{"Not a valid string."}
		}
		if pw == "" {
			return nil, []string{"This field may not be blank."}
		}
		h, err := auth.HashPassword(pw)
		if err != nil {
			return nil, []string{err.Error()}
		}
		return h, nil
	})
	resource.RegisterKind("allowed-ips", nil, func(f *resource.Field, raw json.RawMessage) (any, []string) {
		var list []string
		if err := json.Unmarshal(raw, &list); err != nil {
			return nil, []string{`Expected a list of items but got type "` + fmt.Sprintf("%T", raw) + `".`}
		}
		prefixes, err := auth.ParseAllowedIPs(list)
		if err != nil {
			var ae auth.AllowedIPErrors
			if errors.As(err, &ae) {
				msgs := make([]string, len(ae))
				for i, e := range ae {
					msgs[i] = e.Message
				}
				return nil, msgs
			}
			return nil, []string{err.Error()}
		}
		out := make([]string, len(prefixes))
		for i, p := range prefixes {
			out[i] = p.String()
		}
		return out, nil
	})
	resource.RegisterKind("username", nil, func(f *resource.Field, raw json.RawMessage) (any, []string) {
		var s string
		if json.Unmarshal(raw, &s) != nil {
			return nil, []string{"Not a valid string."}
		}
		if s == "" {
			return nil, []string{"This field may not be blank."}
		}
		if utf8.RuneCountInString(s) > 150 {
			return nil, []string{"Ensure this field has no more than 150 characters."}
		}
		if !usernameRE.MatchString(s) {
			return nil, []string{"Enter a valid username. This value may contain only letters, numbers, and @/./+/-/_ characters."}
		}
		return s, nil
	})
	resource.RegisterKind("email", nil, func(f *resource.Field, raw json.RawMessage) (any, []string) {
		var s string
		if json.Unmarshal(raw, &s) != nil {
			return nil, []string{"Not a valid string."}
		}
		if s != "" {
			if a, err := mail.ParseAddress(s); err != nil || a.Address != s {
				return nil, []string{"Enter a valid email address."}
			}
		}
		return s, nil
	})
}

// usernameRE is Django's UnicodeUsernameValidator, ^[\w.@+-]+\Z: Python's
// \w is Unicode (letters and numbers of any script, and "_"), where Go's
// is ASCII only.
var usernameRE = regexp.MustCompile(`^[\p{L}\p{N}_.@+-]+$`)

// tokenHook turns a token's one-time secret into its stored form on
// create: a keyed digest under the newest pepper (v1 and v2 alike), a
// random key for v2, and the last six characters for v1's display. The
// plaintext is never written; it is handed to the creating response
// through resource.Reveal.
func (s *Server) tokenHook() ent.Hook {
	return hook.On(func(next ent.Mutator) ent.Mutator {
		return hook.TokenFunc(func(ctx context.Context, m *ent.TokenMutation) (ent.Value, error) {
			version, _ := m.Version()
			if version == 0 {
				version = 2
			}
			secret, given := m.Token()
			if !given || secret == "" {
				secret = auth.NewSecret()
			}
			if version == 1 && len(secret) != auth.SecretLength {
				return nil, resource.Invalid("token", fmt.Sprintf("Ensure this field has exactly %d characters.", auth.SecretLength))
			}
			if exp, ok := m.Expires(); ok && !exp.After(s.now()) {
				return nil, resource.Invalid("expires", fmt.Sprintf(
					"Expiration time must be in the future. Current server time is %s (UTC).", s.now().Format("2006-01-02 15:04:05")))
			}
			pid, digest, err := s.cfg.Peppers.NewTokenDigest(version, secret)
			if err != nil {
				var ae auth.Error
				if errors.As(err, &ae) {
					return nil, resource.Invalid("__all__", string(ae))
				}
				return nil, err
			}
			m.ResetToken()
			m.SetVersion(version)
			m.SetPepperID(pid)
			m.SetDigest(digest)
			if version == 2 {
				m.SetKey(auth.NewKey())
			} else {
				m.SetLast6(auth.Last6(secret))
			}
			v, err := next.Mutate(ctx, m)
			if err != nil {
				return nil, err
			}
			if id, ok := m.ID(); ok {
				resource.RevealFrom(ctx).Put("users.token", id, secret)
			}
			return v, nil
		})
	}, ent.OpCreate)
}

func init() {
	// The endpoint is declared by users.token (ent/schema/users_token.go).
	handle("users.tokens.provision", (*Server).provision)
	// Username and password, plus any writable token field.
	oasShape("TokenProvisionRequest", func(b *oasBuilder) *openapi3.Schema {
		prov := oasObject(map[string]*openapi3.SchemaRef{
			"username": oasVal(oasTyped("string")),
			"password": oasVal(&openapi3.Schema{Type: &openapi3.Types{"string"}, WriteOnly: true}),
		}, "username", "password")
		if tok := resource.ByContentType("users.token"); tok != nil {
			for _, f := range tok.Fields {
				if oasWritable(f) && f.Name != "user" {
					prov.Properties[f.Name] = b.writeField(f)
				}
			}
		}
		return prov
	})
}

// provision serves POST /api/users/tokens/provision/ (SPEC.md §4.13):
// username and password in, a new token (with its secret, once) out.
func (s *Server) provision(c *gin.Context) error {
	in, err := objectBody(c)
	if err != nil {
		return err
	}
	var username, password string
	verr := map[string]any{}
	for key, dst := range map[string]*string{"username": &username, "password": &password} {
		v, ok := in[key]
		if !ok || json.Unmarshal(v, dst) != nil || *dst == "" {
			verr[key] = []string{"This field is required."}
		}
		delete(in, key)
	}
	if len(verr) > 0 {
		return &resource.ValidationError{Fields: verr}
	}
	ctx := c.Request.Context()
	u, err := s.db.ReadClient.User.Query().Where(user.UsernameEQ(username)).Only(ctx)
	if err != nil {
		auth.CheckPassword(auth.DummyHash(), password) // same cost as a real check
		if ent.IsNotFound(err) {
			return detailErr(http.StatusForbidden, string(auth.ErrInvalidCredentials))
		}
		return err
	}
	if !auth.CheckPassword(u.Password, password) || !u.IsActive {
		return detailErr(http.StatusForbidden, string(auth.ErrInvalidCredentials))
	}
	d := resource.ByContentType("users.token")
	// The user must be allowed to create (their own) tokens (SPEC.md
	// §4.13); by DEFAULT_PERMISSIONS every user is.
	if err := s.authorizeAs(c, &Principal{User: u}, d, actionAdd); err != nil {
		return errForbidden
	}
	in["user"] = json.RawMessage(fmt.Sprint(u.ID))
	ctx, _ = resource.WithReveal(ctx)
	c.Request = c.Request.WithContext(ctx)
	// NetBox's provisioning response lists the token without pepper_id.
	v := view(c)
	v.Omit = append(v.Omit, "pepper_id")
	return s.createOne(c, d, in, v)
}

func sprint(v any) string { return fmt.Sprint(v) }

var errGrantDenied = detailErr(http.StatusForbidden, "This user does not have permission to create tokens for other users.")

// checkGrant applies users.grant_token (BEHAVIOUR.md §3.6): creating a
// token for another user needs superuser status or a "grant" permission on
// users.token whose constraints, rewritten onto the user (user → id,
// user__x → x; anything else fails closed), match the target user. It
// runs before validation; an unresolvable user is left to validation.
func (s *Server) checkGrant(c *gin.Context, d *resource.Descriptor, in resource.Input) error {
	if d.ContentType() != "users.token" {
		return nil
	}
	ctx := c.Request.Context()
	p := PrincipalFrom(ctx)
	raw, given := in["user"]
	if p == nil || p.User.IsSuperuser || !given {
		return nil
	}
	ud := resource.ByContentType("users.user")
	tx := &resource.Tx{Client: s.db.ReadClient, Dialect: s.db.Dialect, Visible: s.visible(ctx, p)}
	target, msg := tx.ResolveRef(ctx, ud, raw)
	if msg != "" || target == p.User.ID {
		return nil
	}
	sets, ok, err := s.matching(ctx, p, "users.token", "grant")
	if err != nil {
		return err
	}
	if !ok {
		return errGrantDenied
	}
	for _, raw := range sets {
		onUser, ok := grantOnUser(raw)
		if !ok {
			continue
		}
		cond, all, err := ud.Constraint(onUser, p.User.ID)
		if err != nil {
			continue
		}
		if all {
			return nil
		}
		r, err := ud.Get(ctx, s.db.Store(), target, preds(cond)...)
		if err != nil {
			return err
		}
		if r != nil {
			return nil
		}
	}
	return errGrantDenied
}

// grantOnUser rewrites token constraints into user constraints; ok is
// false when a key is not about the token's user.
func grantOnUser(raw json.RawMessage) (json.RawMessage, bool) {
	var v any
	if len(raw) == 0 || json.Unmarshal(raw, &v) != nil || v == nil {
		return raw, true
	}
	rewrite := func(m map[string]any) (map[string]any, bool) {
		out := map[string]any{}
		for k, val := range m {
			switch {
			case k == "user":
				out["id"] = val
			case strings.HasPrefix(k, "user__"):
				out[strings.TrimPrefix(k, "user__")] = val
			default:
				return nil, false
			}
		}
		return out, true
	}
	switch x := v.(type) {
	case map[string]any:
		m, ok := rewrite(x)
		if !ok {
			return nil, false
		}
		b, _ := json.Marshal(m)
		return b, true
	case []any:
		var out []any
		for _, e := range x {
			m, isMap := e.(map[string]any)
			if !isMap {
				out = append(out, e)
				continue
			}
			r, ok := rewrite(m)
			if !ok {
				return nil, false
			}
			out = append(out, r)
		}
		b, _ := json.Marshal(out)
		return b, true
	}
	return nil, false
}
