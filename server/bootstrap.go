package server

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/inventory/inventory/ent"
	"github.com/inventory/inventory/ent/resource"
	enttoken "github.com/inventory/inventory/ent/token"
	"github.com/inventory/inventory/ent/user"
	"github.com/inventory/inventory/server/auth"
)

// CreateSuperuser creates a superuser and, when token is given, a v1 token
// with that 40-character secret (v2 keys are generated, so a chosen v2
// value is not possible). With ifNotExists an existing user is left alone
// and only a missing token is added.
func (s *Server) CreateSuperuser(ctx context.Context, username, password, email, token string, ifNotExists bool) error {
	hash, err := auth.HashPassword(password)
	if err != nil {
		return err
	}
	return s.db.InTx(ctx, func(ctx context.Context, tx *ent.Tx) error {
		c := tx.Client()
		u, err := c.User.Query().Where(user.UsernameEQ(username)).Only(ctx)
		switch {
		case err == nil && !ifNotExists:
			return fmt.Errorf("user %q already exists", username)
		case err == nil:
		case ent.IsNotFound(err):
			u, err = c.User.Create().SetUsername(username).SetPassword(hash).SetEmail(email).
				SetIsSuperuser(true).SetIsStaff(true).Save(ctx)
			if err != nil {
				return err
			}
		default:
			return err
		}
		if token == "" {
			return nil
		}
		for _, l := range s.cfg.Peppers.V1Lookups(token) {
			if n, _ := c.Token.Query().Where(enttoken.DigestEQ(l.Digest)).Count(ctx); n > 0 {
				return nil
			}
		}
		d := resource.ByContentType("users.token")
		ctx, _ = resource.WithReveal(ctx)
		_, err = d.Create(ctx, &resource.Tx{Client: c, Dialect: s.db.Dialect}, resource.Input{
			"user": json.RawMessage(fmt.Sprint(u.ID)), "version": json.RawMessage("1"),
			"token": mustJSON(token), "description": mustJSON("created by createsuperuser"),
		})
		return err
	})
}

func mustJSON(v any) json.RawMessage {
	b, _ := json.Marshal(v)
	return b
}
