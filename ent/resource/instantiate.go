package resource

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"sync"

	"entgo.io/ent"
	"entgo.io/ent/dialect/sql"

	"github.com/inventory/inventory/ent/logic/rawsql"
	"github.com/inventory/inventory/ent/schema/api"
)

// Instantiation of components from templates (api.Instantiate): creating a
// device creates its device type's components, installing a module its
// module type's, in the creating transaction, as NetBox's Device.save and
// Module.save do. Everything comes from the templates' declarations; this
// file knows no model.
//
// Cost: one query reads the owner, then per template kind one query reads
// the templates and batched INSERTs (ent's bulk create, so that every
// row still passes the hook chain and change capture records it, cut by
// the database's parameter limit: createRows) write the components, per
// level for kinds that refer to their own kind (an inventory item's
// parent). Components a module adopts move in many-row updates. Change
// records and outbox events are then written in batches by change capture
// at commit. Nothing is per component.

// instPlan is one template kind instantiated for one kind of owner.
type instPlan struct {
	tmpl, comp *Descriptor
	src        api.Source
	inst       *api.Instantiate
}

var (
	plansOnce sync.Once
	plans     map[string][]instPlan // owner content type → plans in dependency order
)

// instantiationPlans indexes the declarations by owner, ordered so that a
// kind comes after the kinds it refers to (power outlets after power
// ports, front ports after rear ports); kinds with generic references
// (inventory items) come last. A declaration naming an unknown model
// panics at start-up, like any descriptor error.
func instantiationPlans() map[string][]instPlan {
	plansOnce.Do(func() {
		plans = map[string][]instPlan{}
		for _, d := range All() {
			in := d.Instantiate
			if in == nil || in.Into == "" {
				continue
			}
			comp := ByContentType(in.Into)
			if comp == nil {
				panic(fmt.Sprintf("resource %s: instantiates unknown model %s", d.ContentType(), in.Into))
			}
			for _, src := range in.Sources {
				if ByContentType(src.Owner) == nil {
					continue // the owner model is not built yet
				}
				if err := checkPlan(d, comp, in, src); err != nil {
					panic(fmt.Sprintf("resource %s: instantiate: %v", d.ContentType(), err))
				}
				plans[src.Owner] = append(plans[src.Owner], instPlan{tmpl: d, comp: comp, src: src, inst: in})
			}
		}
		for owner, ps := range plans {
			plans[owner] = orderPlans(ps)
		}
	})
	return plans
}

func checkPlan(t, comp *Descriptor, in *api.Instantiate, src api.Source) error {
	for _, names := range [][]string{in.Copy, in.Resolve, in.Refs} {
		for _, n := range names {
			if t.byName[n] == nil || comp.byName[n] == nil || comp.byName[n].col < 0 {
				return fmt.Errorf("field %s is not on both %s and %s", n, t.ContentType(), comp.ContentType())
			}
		}
	}
	for k, of := range src.Set {
		if f := comp.byName[k]; f != nil && f.col < 0 {
			return fmt.Errorf("set: %s.%s is no column", comp.ContentType(), k)
		}
		if of != "id" {
			if f := ByContentType(src.Owner).byName[strings.Split(of, ".")[0]]; f == nil {
				return fmt.Errorf("set: %s has no field %s", src.Owner, of)
			}
		}
	}
	if t.byName[src.Template] == nil {
		return fmt.Errorf("template field %s unknown", src.Template)
	}
	return nil
}

// orderPlans sorts plans so that referenced kinds come first.
func orderPlans(ps []instPlan) []instPlan {
	sort.SliceStable(ps, func(i, j int) bool { return ps[i].tmpl.ContentType() < ps[j].tmpl.ContentType() })
	deps := func(p instPlan) map[string]bool {
		out := map[string]bool{}
		for _, r := range p.inst.Refs {
			if tg := p.tmpl.byName[r].Target; tg != p.tmpl.ContentType() {
				out[tg] = true
			}
		}
		for _, l := range p.inst.Lists {
			out[l.Of] = true
		}
		return out
	}
	var out []instPlan
	done := map[string]bool{}
	rest := ps
	for len(rest) > 0 {
		var next []instPlan
		progress := false
		for _, p := range rest {
			ready := len(p.inst.Generic) == 0 || len(rest) == 1 || allGeneric(rest)
			for dep := range deps(p) {
				if !done[dep] && hasKind(rest, dep) {
					ready = false
				}
			}
			if ready {
				out = append(out, p)
				done[p.tmpl.ContentType()] = true
				progress = true
			} else {
				next = append(next, p)
			}
		}
		if !progress { // a cycle of declarations: keep their order
			return append(out, next...)
		}
		rest = next
	}
	return out
}

func hasKind(ps []instPlan, ct string) bool {
	for _, p := range ps {
		if p.tmpl.ContentType() == ct {
			return true
		}
	}
	return false
}

func allGeneric(ps []instPlan) bool {
	for _, p := range ps {
		if len(p.inst.Generic) == 0 {
			return false
		}
	}
	return true
}

// Instantiates reports whether creating an object of d instantiates
// components.
func (d *Descriptor) Instantiates() bool { return len(instantiationPlans()[d.ContentType()]) > 0 }

// instantiate creates the components of the new object id of d from its
// type's templates.
func (d *Descriptor) instantiate(ctx context.Context, tx *Tx, id int) error {
	ps := instantiationPlans()[d.ContentType()]
	if len(ps) == 0 {
		return nil
	}
	st := tx.Store()
	owner, err := d.Get(ctx, st, id)
	if err != nil || owner == nil {
		return err
	}
	ctx = api.WithInstantiation(ctx)
	made := map[string]map[int]int{} // template kind → template id → component id
	depth := map[int]int{}           // component id → _depth, for trees
	tokens := map[string][]string{}  // Source.Token → values, outermost first
	set := map[string]any{}          // owner paths of Source.Set, read once
	for _, p := range ps {
		src := p.src
		replicate, adopt := true, false
		if src.Replicate != "" {
			if v, ok := d.Value(owner, src.Replicate).(bool); ok {
				replicate = v
			}
		}
		if src.Adopt != "" {
			adopt, _ = d.Value(owner, src.Adopt).(bool)
		}
		if !replicate && !adopt {
			continue
		}
		typeID := d.Value(owner, src.Match)
		if typeID == nil {
			continue
		}
		tmpls, err := p.templates(ctx, st, typeID)
		if err != nil {
			return err
		}
		if len(tmpls) == 0 {
			continue
		}
		if src.Token != "" && tokens[src.Token] == nil {
			if tokens[src.Token], err = tokenValues(ctx, st, d, owner, src); err != nil {
				return err
			}
		}
		rows, err := p.values(ctx, st, d, owner, tmpls, made, tokens[src.Token], set)
		if err != nil {
			return err
		}
		tct := p.tmpl.ContentType()
		if made[tct] == nil {
			made[tct] = map[int]int{}
		}
		if adopt {
			if tmpls, rows, err = p.adopt(ctx, tx, owner, tmpls, rows, made[tct]); err != nil {
				return err
			}
		}
		if !replicate {
			continue
		}
		if err := p.create(ctx, tx, tmpls, rows, made, depth); err != nil {
			return err
		}
	}
	return nil
}

// templateCache holds the templates instantiate read, by kind and type,
// for the objects of one bulk create (WithTemplateCache).
type templateCache struct {
	mu   sync.Mutex
	rows map[templateKey][]*Row
}

type templateKey struct {
	tmpl   *Descriptor
	typeID string
}

type templateCacheKey struct{}

// WithTemplateCache returns ctx in which instantiate reads the templates
// of a kind and type once: for the objects of one bulk create, whose
// creations write no templates (creating a device writes its components,
// never its type's templates). 100 devices of one type in one request
// read each template kind once, not a hundred times (a statement per
// template kind and device: ~1 000 of the request's statements).
func WithTemplateCache(ctx context.Context) context.Context {
	return context.WithValue(ctx, templateCacheKey{}, &templateCache{rows: map[templateKey][]*Row{}})
}

// templates reads the templates of p's kind belonging to typeID, in id
// order, once per bulk create when ctx has a WithTemplateCache. The rows
// are only read from, never changed, so the objects may share them.
func (p instPlan) templates(ctx context.Context, st Store, typeID any) ([]*Row, error) {
	tf := p.tmpl.byName[p.src.Template]
	read := func() ([]*Row, error) {
		return p.tmpl.Where(ctx, st, 0, func(s *sql.Selector) {
			s.Where(sql.EQ(s.C(tf.Column), typeID)).OrderBy(s.C("id"))
		})
	}
	c, _ := ctx.Value(templateCacheKey{}).(*templateCache)
	if c == nil {
		return read()
	}
	k := templateKey{p.tmpl, fmt.Sprint(typeID)}
	c.mu.Lock()
	rows, ok := c.rows[k]
	c.mu.Unlock()
	if ok {
		return rows, nil
	}
	rows, err := read()
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	c.rows[k] = rows
	c.mu.Unlock()
	return rows, nil
}

// values computes the component fields of each template, except the
// references to the component's own kind (set level by level in create).
func (p instPlan) values(ctx context.Context, st Store, od *Descriptor, owner *Row, tmpls []*Row,
	made map[string]map[int]int, tokens []string, set map[string]any) ([]map[*Field]any, error) {
	var cf map[string]any
	if p.comp.Custom {
		defs, err := CustomFieldsFor(ctx, st, p.comp.ContentType())
		if err != nil {
			return nil, err
		}
		cf = map[string]any{}
		for _, def := range defs {
			var v any
			if def.Default != nil {
				_ = json.Unmarshal(def.Default, &v)
			}
			cf[def.Name] = v
		}
	}
	out := make([]map[*Field]any, len(tmpls))
	for i, t := range tmpls {
		v := map[*Field]any{}
		for k, of := range p.src.Set {
			f := p.comp.byName[k]
			if f == nil {
				continue // a field of other component kinds
			}
			if of == "id" {
				v[f] = owner.ID
				continue
			}
			if _, ok := set[of]; !ok {
				x, _, err := follow(ctx, st, od, owner, of)
				if err != nil {
					return nil, err
				}
				set[of] = x
			}
			v[f] = set[of]
		}
		for _, n := range p.inst.Copy {
			v[p.comp.byName[n]] = p.tmpl.Value(t, n)
		}
		for _, n := range p.inst.Resolve {
			s, _ := p.tmpl.Value(t, n).(string)
			for _, tok := range tokens {
				s = strings.Replace(s, p.src.Token, tok, 1)
			}
			v[p.comp.byName[n]] = s
		}
		for _, n := range p.inst.Refs {
			f := p.tmpl.byName[n]
			if f.Target == p.tmpl.ContentType() {
				continue // own kind: create sets it level by level
			}
			var cid any
			if tid, ok := p.tmpl.Value(t, n).(int); ok {
				if c, ok := made[f.Target][tid]; ok {
					cid = c
				}
			}
			v[p.comp.byName[n]] = cid
		}
		for _, g := range p.inst.Generic {
			tct, _ := p.tmpl.Value(t, g+"_type").(string)
			tid, ok := p.tmpl.Value(t, g+"_id").(int)
			var ct, cid any
			if c, found := made[tct][tid]; ok && found {
				if td := ByContentType(tct); td != nil && td.Instantiate != nil {
					ct, cid = td.Instantiate.Into, c
				}
			}
			v[p.comp.byName[g+"_type"]], v[p.comp.byName[g+"_id"]] = ct, cid
		}
		for _, l := range p.inst.Lists {
			list, err := mapList(p.tmpl.Value(t, l.Field), l, made[l.Of])
			if err != nil {
				return nil, err
			}
			v[p.comp.byName[l.Field]] = list
		}
		if cf != nil {
			v[p.comp.byName["custom_fields"]] = cf
		}
		out[i] = v
	}
	return out, nil
}

// mapList rewrites a JSON list of references to templates into the same
// list referring to their counterparts.
func mapList(raw any, l api.ListRef, made map[int]int) ([]any, error) {
	var list []map[string]any
	if b, ok := raw.(json.RawMessage); ok && len(b) > 0 {
		if err := json.Unmarshal(b, &list); err != nil {
			return nil, fmt.Errorf("instantiate %s: %w", l.Field, err)
		}
	}
	out := make([]any, 0, len(list))
	for _, e := range list {
		if n, ok := e[l.Key].(float64); ok {
			if c, found := made[int(n)]; found {
				e[l.Key] = c
				out = append(out, e)
			}
		}
	}
	return out, nil
}

// adopt moves existing components of the owner's device that carry the
// name of a template and no module yet to the owner (NetBox's
// adopt_components), and returns the rows left to create.
func (p instPlan) adopt(ctx context.Context, tx *Tx, owner *Row, tmpls []*Row, rows []map[*Field]any, made map[int]int) ([]*Row, []map[*Field]any, error) {
	scope, within := p.comp.byName[p.src.AdoptScope], p.comp.byName[p.src.AdoptWithin]
	name := p.comp.byName["name"]
	if scope == nil || within == nil || name == nil {
		return tmpls, rows, nil
	}
	existing, err := p.comp.Where(ctx, tx.Store(), 0, func(s *sql.Selector) {
		s.Where(sql.And(sql.EQ(s.C(within.Column), rows[0][within]), sql.IsNull(s.C(scope.Column))))
	})
	if err != nil {
		return nil, nil, err
	}
	byName := map[string]int{}
	for _, r := range existing {
		if n, ok := p.comp.Value(r, "name").(string); ok {
			byName[n] = r.ID
		}
	}
	var leftT []*Row
	var left []map[*Field]any
	var adopted []int
	for i, v := range rows {
		n, _ := v[name].(string)
		cid, ok := byName[n]
		if !ok {
			leftT, left = append(leftT, tmpls[i]), append(left, v)
			continue
		}
		adopted = append(adopted, cid)
		made[tmpls[i].ID] = cid
	}
	// The adopted components move in many-row updates (each still gets
	// its update record), not one mutation each.
	err = rawsql.Chunks(adopted, func(ids []int) error {
		m, err := p.comp.manyRows(tx.Client, ent.OpUpdate, ids)
		if err != nil {
			return err
		}
		if err := m.SetField(scope.Column, owner.ID); err != nil {
			return err
		}
		if _, err := tx.Client.Mutate(ctx, m); err != nil {
			return translate(p.comp, err)
		}
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	return leftT, left, nil
}

// create inserts the components, level by level when they refer to their
// own kind. tmpls[i] is the template of rows[i].
func (p instPlan) create(ctx context.Context, tx *Tx, tmpls []*Row, rows []map[*Field]any, made map[string]map[int]int, depth map[int]int) error {
	tct := p.tmpl.ContentType()
	var self []string
	for _, n := range p.inst.Refs {
		if p.tmpl.byName[n].Target == tct {
			self = append(self, n)
		}
	}
	pending := make([]int, len(rows))
	for i := range rows {
		pending[i] = i
	}
	for len(pending) > 0 {
		var level, later []int
		for _, i := range pending {
			ready := true
			for _, n := range self {
				if tid, ok := p.tmpl.Value(tmpls[i], n).(int); ok {
					if _, found := made[tct][tid]; !found {
						ready = false
					}
				}
			}
			if ready {
				level = append(level, i)
			} else {
				later = append(later, i)
			}
		}
		if len(level) == 0 {
			return fmt.Errorf("instantiate %s: templates refer to each other in a cycle", tct)
		}
		for _, i := range level {
			dep := 0
			for _, n := range self {
				var cid any
				if tid, ok := p.tmpl.Value(tmpls[i], n).(int); ok {
					c := made[tct][tid]
					cid, dep = c, depth[c]+1
				}
				rows[i][p.comp.byName[n]] = cid
			}
			if p.comp.Tree {
				rows[i][p.comp.byName["_depth"]] = dep
			}
		}
		ids, err := p.comp.createRows(ctx, tx, len(level), func(k int, m ent.Mutation) error {
			return setAll(p.comp, m, rows[level[k]])
		})
		if err != nil {
			return translate(p.comp, err)
		}
		for k, i := range level {
			made[tct][tmpls[i].ID] = ids[k]
			if p.comp.Tree {
				depth[ids[k]], _ = rows[i][p.comp.byName["_depth"]].(int)
			}
		}
		pending = later
	}
	return nil
}

// setAll copies component values into a create mutation.
func setAll(d *Descriptor, m ent.Mutation, v map[*Field]any) error {
	for f, x := range v {
		if x == nil {
			continue
		}
		if raw, ok := x.(json.RawMessage); ok {
			var dec any
			if err := json.Unmarshal(raw, &dec); err != nil {
				return err
			}
			x = dec
		}
		if err := m.SetField(f.Column, x); err != nil {
			return fmt.Errorf("instantiate %s.%s: %w", d.Type, f.Column, err)
		}
	}
	return nil
}

// tokenValues are the values replacing src.Token, outermost owner first
// (NetBox's _get_module_tree: a module in a bay of a module in a bay of
// the device gives the outer bay's position, then the inner one's).
func tokenValues(ctx context.Context, st Store, d *Descriptor, owner *Row, src api.Source) ([]string, error) {
	var out []string
	seen := map[int]bool{}
	for cur := owner; cur != nil && !seen[cur.ID]; {
		seen[cur.ID] = true
		v, _, err := follow(ctx, st, d, cur, src.TokenValue)
		if err != nil {
			return nil, err
		}
		s, _ := v.(string)
		out = append(out, s)
		if src.TokenUp == "" {
			break
		}
		up, ud, err := follow(ctx, st, d, cur, src.TokenUp)
		if err != nil {
			return nil, err
		}
		id, ok := up.(int)
		if !ok || ud == nil || ud.byName[lastPart(src.TokenUp)].target != d {
			break
		}
		if cur, err = d.Get(ctx, st, id); err != nil {
			return nil, err
		}
	}
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return out, nil
}

func lastPart(path string) string {
	if i := strings.LastIndexByte(path, '.'); i >= 0 {
		return path[i+1:]
	}
	return path
}

// follow reads a dotted path of FK fields from a row: "module_bay.position"
// is the position of the row's module bay. It returns the value and the
// descriptor of the row it was read from.
func follow(ctx context.Context, st Store, d *Descriptor, r *Row, path string) (any, *Descriptor, error) {
	parts := strings.Split(path, ".")
	for _, part := range parts[:len(parts)-1] {
		f := d.byName[part]
		if f == nil || f.target == nil {
			return nil, nil, fmt.Errorf("path %s: %s is no FK of %s", path, part, d.ContentType())
		}
		id, ok := d.Value(r, part).(int)
		if !ok {
			return nil, nil, nil
		}
		next, err := f.target.Get(ctx, st, id)
		if err != nil || next == nil {
			return nil, nil, err
		}
		d, r = f.target, next
	}
	return d.Value(r, parts[len(parts)-1]), d, nil
}
