package server

import (
	"context"
	"encoding/json"
	"log/slog"
	"slices"
	"strings"
	"sync"

	"entgo.io/ent/dialect/sql"
	"github.com/gin-gonic/gin"

	"github.com/inventory/inventory/ent"
	"github.com/inventory/inventory/ent/group"
	"github.com/inventory/inventory/ent/hook"
	"github.com/inventory/inventory/ent/objectpermission"
	"github.com/inventory/inventory/ent/resource"
	"github.com/inventory/inventory/ent/schema/api"
	"github.com/inventory/inventory/ent/user"
	"github.com/inventory/inventory/filters"
)

// The permission model (BEHAVIOUR.md §4): every generic handler passes
// through authorize, which applies the model-level gate and leaves the
// object-level restriction (the constraints of the caller's grants for the
// action) for the handler's queries; writes re-check their result against
// the restriction inside the transaction (inReach), and attribute lookups
// of related objects see only what the caller may view (Tx.Visible).

// grant is one permission that applies to a user: an ObjectPermission
// assigned directly or through a group, or a DEFAULT_PERMISSIONS entry.
type grant struct {
	types, actions []string
	constraints    json.RawMessage // null: unrestricted
}

// userGrants caches a principal's grants for the request.
type userGrants struct {
	once   sync.Once
	grants []grant
	err    error
}

// DefaultPermissions returns NetBox's DEFAULT_PERMISSIONS: every user may
// view, add, change and delete their own tokens.
func DefaultPermissions() map[string][]map[string]any {
	own := []map[string]any{{"user": resource.UserToken}}
	return map[string][]map[string]any{
		"users.view_token": own, "users.add_token": own, "users.change_token": own, "users.delete_token": own,
	}
}

// grants loads the enabled permissions of p's user (directly or through a
// group) plus the configured defaults, once per request.
func (s *Server) grants(ctx context.Context, p *Principal) ([]grant, error) {
	p.perms.once.Do(func() {
		uid := p.User.ID
		perms, err := s.db.ReadClient.ObjectPermission.Query().Where(
			objectpermission.EnabledEQ(true),
			objectpermission.Or(
				objectpermission.HasUsersWith(user.IDEQ(uid)),
				objectpermission.HasGroupsWith(group.HasUsersWith(user.IDEQ(uid))),
			)).All(ctx)
		if err != nil {
			p.perms.err = err
			return
		}
		for _, op := range perms {
			p.perms.grants = append(p.perms.grants, grant{types: op.ObjectTypes, actions: op.Actions, constraints: op.Constraints})
		}
		for name, sets := range s.cfg.DefaultPermissions {
			app, rest, ok := strings.Cut(name, ".")
			action, model, ok2 := strings.Cut(rest, "_")
			if !ok || !ok2 {
				continue
			}
			g := grant{types: []string{app + "." + model}, actions: []string{action}}
			if len(sets) > 0 {
				g.constraints, _ = json.Marshal(sets)
			}
			p.perms.grants = append(p.perms.grants, g)
		}
	})
	return p.perms.grants, p.perms.err
}

// matching returns the constraints of p's grants for (content type,
// action); ok is false when there is no grant at all.
func (s *Server) matching(ctx context.Context, p *Principal, ct, action string) (sets []json.RawMessage, ok bool, err error) {
	gs, err := s.grants(ctx, p)
	if err != nil {
		return nil, false, err
	}
	for _, g := range gs {
		if slices.Contains(g.types, ct) && slices.Contains(g.actions, action) {
			sets, ok = append(sets, g.constraints), true
		}
	}
	return sets, ok, nil
}

// permits is the permission model: nil error means the caller may perform
// action on d; a nil Cond means on every object, otherwise only on the
// objects the Cond selects. d nil stands for the API roots and status.
func (s *Server) permits(ctx context.Context, p *Principal, d *resource.Descriptor, action string) (filters.Cond, error) {
	c, err := s.grantedTo(ctx, p, d, action)
	if err != nil {
		return nil, err
	}
	return sharedOnly(p, d, c), nil
}

// sharedOnly limits the rows of a shared model to the shared ones and the
// caller's own, beyond what the caller's grants c allow (NetBox's
// SharedObjectQuerySetMixin restricts the queryset every action looks
// objects up in); superusers are exempt.
func sharedOnly(p *Principal, d *resource.Descriptor, c filters.Cond) filters.Cond {
	if d == nil || !d.Shared || p != nil && p.User.IsSuperuser {
		return c
	}
	user := 0
	if p != nil {
		user = p.User.ID
	}
	if c == nil {
		return d.SharedRestriction(user)
	}
	return filters.AndConds(c, d.SharedRestriction(user))
}

// grantedTo is what p's permissions grant on d (see permits). A model no
// object permission can name (NetBox's OBJECTPERMISSION_OBJECT_TYPES
// leaves core.objecttype out) is viewable by every caller the login rule
// admits, as NetBox's ObjectTypeViewSet is (IsAuthenticatedOrLoginNotRequired).
func (s *Server) grantedTo(ctx context.Context, p *Principal, d *resource.Descriptor, action string) (filters.Cond, error) {
	if d == nil || action == actionView && (s.exempt(d) || !resource.ObjectTypeAccepted("object_permissions", d.ContentType())) {
		if p == nil && s.cfg.LoginRequired {
			return nil, errNotAuthenticated
		}
		return nil, nil
	}
	if p == nil {
		return nil, errNotAuthenticated
	}
	if action != actionView && p.Token != nil && !p.Token.WriteEnabled {
		return nil, errForbidden
	}
	if p.User.IsSuperuser {
		return nil, nil
	}
	sets, ok, err := s.matching(ctx, p, d.ContentType(), action)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, errForbidden
	}
	var conds []filters.Cond
	for _, raw := range sets {
		c, all, err := d.Constraint(raw, p.User.ID)
		if err != nil {
			// Constraints are validated on write; one that no longer
			// translates (a field renamed since) grants nothing.
			slog.WarnContext(ctx, "permission constraint ignored", "type", d.ContentType(), "action", action, "error", err)
			continue
		}
		if all {
			return nil, nil
		}
		conds = append(conds, c)
	}
	return filters.OrConds(conds...), nil
}

// preds turns a restriction into query predicates.
func preds(c filters.Cond) []func(*sql.Selector) {
	if c == nil {
		return nil
	}
	return []func(*sql.Selector){c.Where()}
}

const ctxRestrict = "inventory.restrict"

// ctxGranted is the restriction of the caller's grants alone: written
// objects must fall inside it (inReach), not inside a shared model's
// visibility rule, which NetBox applies to look-ups only (a user may save
// a filter that only its own user sees).
const ctxGranted = "inventory.granted"

// authorize is the one place that decides whether the caller may perform
// action on model d (nil: the API roots). On success the restriction of
// the action is kept for the request's queries (see restriction).
func (s *Server) authorize(c *gin.Context, d *resource.Descriptor, action string) error {
	return s.authorizeAs(c, PrincipalFrom(c.Request.Context()), d, action)
}

// authorizeAs is authorize for a principal other than the request's
// (token provisioning acts for the user whose password it checked).
func (s *Server) authorizeAs(c *gin.Context, p *Principal, d *resource.Descriptor, action string) error {
	cond, err := s.grantedTo(c.Request.Context(), p, d, action)
	if err != nil {
		return err
	}
	c.Set(ctxRestrict, sharedOnly(p, d, cond))
	c.Set(ctxGranted, cond)
	return nil
}

// restriction is the object-level restriction of the action last
// authorized in this request, as predicates (none: everything).
func (s *Server) restriction(c *gin.Context) []func(*sql.Selector) {
	cond, _ := c.Value(ctxRestrict).(filters.Cond)
	return preds(cond)
}

// inReach re-selects written objects through the restriction inside the
// write transaction: a create or update whose result falls outside the
// caller's constraints is rolled back with 403 (BEHAVIOUR.md §4.4).
func (s *Server) inReach(c *gin.Context, ctx context.Context, tx *resource.Tx, d *resource.Descriptor, ids ...int) error {
	cond, _ := c.Value(ctxGranted).(filters.Cond)
	r := preds(cond)
	if len(r) == 0 || len(ids) == 0 {
		return nil
	}
	rows, err := d.GetMany(ctx, tx.Store(), ids, r...)
	if err != nil {
		return err
	}
	if len(rows) != len(dedupeInts(ids)) {
		return errForbidden
	}
	return nil
}

func dedupeInts(ids []int) []int {
	seen := map[int]bool{}
	var out []int
	for _, id := range ids {
		if !seen[id] {
			seen[id] = true
			out = append(out, id)
		}
	}
	return out
}

// visible restricts attribute lookups of related objects to what p may
// view (SPEC.md §2.4); a model p may not view at all matches nothing.
func (s *Server) visible(ctx context.Context, p *Principal) func(d *resource.Descriptor) []func(*sql.Selector) {
	return func(d *resource.Descriptor) []func(*sql.Selector) {
		cond, err := s.permits(ctx, p, d, actionView)
		if err != nil {
			return preds(filters.OrConds())
		}
		return preds(cond)
	}
}

// permissionHook validates an ObjectPermission's constraints against each
// of its object types before it is saved, so that a permission never
// fails at use (BEHAVIOUR.md §4.1: ➜ validate on write).
func (s *Server) permissionHook() ent.Hook {
	return hook.On(func(next ent.Mutator) ent.Mutator {
		return hook.ObjectPermissionFunc(func(ctx context.Context, m *ent.ObjectPermissionMutation) (ent.Value, error) {
			types, ok := m.ObjectTypes()
			if !ok && m.Op().Is(ent.OpUpdateOne) {
				types, _ = m.OldObjectTypes(ctx)
			}
			raw, ok := m.Constraints()
			if !ok && m.Op().Is(ent.OpUpdateOne) && !m.ConstraintsCleared() {
				raw, _ = m.OldConstraints(ctx)
			}
			for _, ct := range types {
				d := resource.ByContentType(ct)
				if d == nil {
					continue
				}
				if _, _, err := d.Constraint(raw, 0); err != nil {
					return nil, &api.FieldError{Field: "constraints", Message: "Invalid filter for " + ct + ": " + err.Error()}
				}
			}
			return next.Mutate(ctx, m)
		})
	}, ent.OpCreate|ent.OpUpdateOne)
}
