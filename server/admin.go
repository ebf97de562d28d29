package server

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/inventory/inventory/ent"
	"github.com/inventory/inventory/ent/group"
	"github.com/inventory/inventory/ent/resource"
	"github.com/inventory/inventory/ent/user"
	"github.com/inventory/inventory/server/auth"
)

// Operator commands (inventory user …, inventory permission grant): they
// act on the database directly, without a token, so that an operator can
// bootstrap least-privilege accounts.

// CreateUser creates an active user who is not a superuser (unless
// superuser is set).
func (s *Server) CreateUser(ctx context.Context, username, password, email string, superuser bool) (*ent.User, error) {
	if password == "" {
		return nil, fmt.Errorf("a password is required")
	}
	hash, err := auth.HashPassword(password)
	if err != nil {
		return nil, err
	}
	return s.db.Client.User.Create().SetUsername(username).SetPassword(hash).SetEmail(email).
		SetIsSuperuser(superuser).SetIsStaff(superuser).Save(ctx)
}

// Users lists every user, by username.
func (s *Server) Users(ctx context.Context) ([]*ent.User, error) {
	return s.db.ReadClient.User.Query().Order(ent.Asc(user.FieldUsername)).All(ctx)
}

// SetPassword replaces a user's password.
func (s *Server) SetPassword(ctx context.Context, username, password string) error {
	if password == "" {
		return fmt.Errorf("a password is required")
	}
	hash, err := auth.HashPassword(password)
	if err != nil {
		return err
	}
	n, err := s.db.Client.User.Update().Where(user.UsernameEQ(username)).SetPassword(hash).Save(ctx)
	if err == nil && n == 0 {
		err = fmt.Errorf("no user %q", username)
	}
	return err
}

// Grant creates an ObjectPermission for users and groups (by name). The
// object types and constraints are validated as on the API.
func (s *Server) Grant(ctx context.Context, name string, types, actions []string, constraints json.RawMessage, usernames, groups []string) (*ent.ObjectPermission, error) {
	for _, ct := range types {
		if resource.ByContentType(ct) == nil {
			return nil, fmt.Errorf("unknown object type %q", ct)
		}
	}
	if len(actions) == 0 {
		return nil, fmt.Errorf("at least one action is required")
	}
	var out *ent.ObjectPermission
	err := s.db.InTx(ctx, func(ctx context.Context, tx *ent.Tx) error {
		c := tx.Client()
		q := c.ObjectPermission.Create().SetName(name).SetObjectTypes(types).SetActions(actions)
		if len(constraints) > 0 && string(constraints) != "null" {
			q.SetConstraints(constraints)
		}
		for _, u := range usernames {
			id, err := c.User.Query().Where(user.UsernameEQ(u)).OnlyID(ctx)
			if err != nil {
				return fmt.Errorf("user %q: %w", u, err)
			}
			q.AddUserIDs(id)
		}
		for _, g := range groups {
			id, err := c.Group.Query().Where(group.NameEQ(g)).OnlyID(ctx)
			if ent.IsNotFound(err) {
				var gr *ent.Group
				if gr, err = c.Group.Create().SetName(g).Save(ctx); err == nil {
					id = gr.ID
				}
			}
			if err != nil {
				return fmt.Errorf("group %q: %w", g, err)
			}
			q.AddGroupIDs(id)
		}
		var err error
		out, err = q.Save(ctx)
		return err
	})
	return out, err
}
