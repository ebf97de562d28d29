package resource

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	gen "github.com/inventory/inventory/ent"
	"github.com/inventory/inventory/ent/logic/pyrepr"
	"github.com/inventory/inventory/ent/logic/rawsql"
	"github.com/inventory/inventory/ent/schema/api"
	"github.com/inventory/inventory/ent/taggeditem"
)

// decodeTags validates tags, add_tags and remove_tags (SPEC.md §4.11).
func (d *Descriptor) decodeTags(ctx context.Context, tx *Tx, in Input, existing *Row, ch *change, verr *ValidationError) {
	tag := ByContentType("extras.tag")
	list := func(key string, visible bool) ([]int, bool) {
		raw, ok := in[key]
		if !ok || string(raw) == "null" {
			return nil, false
		}
		var items []json.RawMessage
		if err := json.Unmarshal(raw, &items); err != nil {
			verr.add("non_field_errors", fmt.Sprintf("Expected a list of items but got type %q.", pyrepr.TypeOfJSON(raw)))
			return nil, false
		}
		ids := []int{}
		t := *tx
		if !visible {
			t.Visible = nil
		}
		for _, item := range items {
			id, msg := t.ResolveRef(ctx, tag, item)
			if msg != "" {
				verr.add(key, msg)
				return nil, false
			}
			ids = append(ids, id)
		}
		return ids, true
	}
	tags, hasTags := list("tags", true)
	add, hasAdd := list("add_tags", true)
	del, hasDel := list("remove_tags", true)
	if hasTags && len(tags) > 0 && (len(add) > 0 || len(del) > 0) {
		verr.add("tags", `Cannot specify "tags" together with "add_tags" or "remove_tags".`)
		return
	}
	if hasDel && existing == nil && len(del) > 0 {
		verr.add("remove_tags", `Cannot use "remove_tags" when creating a new object.`)
		return
	}
	if hasAdd && hasDel {
		var both []string
		for _, a := range add {
			for _, r := range del {
				if a == r {
					if row, _ := tag.Get(ctx, tx.Store(), a); row != nil {
						both = append(both, tag.DisplayOf(row))
					}
				}
			}
		}
		if len(both) > 0 {
			verr.add("remove_tags", `Tags may not be present in both "add_tags" and "remove_tags": `+strings.Join(both, ", "))
			return
		}
	}
	if hasTags {
		ch.tags = &tags
		return // an empty "tags" wins over add/remove, as in NetBox
	}
	ch.addTags, ch.delTags = add, del
}

// writeTags stores the tag changes of an object and checks that each tag
// may be assigned to this model.
func (d *Descriptor) writeTags(ctx context.Context, tx *Tx, id int, ch *change, created bool) error {
	if !d.Tagged || (ch.tags == nil && len(ch.addTags) == 0 && len(ch.delTags) == 0) {
		return nil
	}
	tag := ByContentType("extras.tag")
	ct := d.ContentType()
	check := func(ids []int) error {
		rows, err := tag.GetMany(ctx, tx.Store(), ids)
		if err != nil {
			return err
		}
		for _, r := range rows {
			var types []string
			if raw, ok := tag.Value(r, "object_types").(json.RawMessage); ok {
				_ = json.Unmarshal(raw, &types)
			}
			if len(types) == 0 {
				continue
			}
			allowed := false
			for _, t := range types {
				allowed = allowed || t == ct
			}
			if !allowed {
				return &DetailError{Status: 400, Detail: fmt.Sprintf("Tag %s cannot be assigned to %s objects.", tag.DisplayOf(r), d.Model)}
			}
		}
		return nil
	}
	var add []int
	if ch.tags != nil {
		// An imported object is new in an empty database: it has no
		// assignments to replace (a statement saved per object).
		if !created || !api.Importing(ctx) {
			if err := deleteTagged(ctx, tx, ct, []int{id}); err != nil {
				return err
			}
		}
		add = *ch.tags
	} else {
		add = ch.addTags
		err := rawsql.Chunks(ch.delTags, func(del []int) error {
			args := []any{ct, id}
			for _, t := range del {
				args = append(args, t)
			}
			q := fmt.Sprintf(`DELETE FROM extras_taggeditem WHERE object_type = %s AND object_id = %s AND tag_id IN (%s)`,
				placeholders(tx.Dialect, 1, 1), placeholders(tx.Dialect, 2, 1), placeholders(tx.Dialect, 3, len(del)))
			_, err := tx.Client.ExecContext(ctx, q, args...)
			return err
		})
		if err != nil {
			return err
		}
	}
	if len(add) > 0 {
		if err := check(add); err != nil {
			return err
		}
		// One read of what the object carries, one insert of what it
		// lacks.
		have := map[int]bool{}
		if ch.tags == nil && !created { // add_tags on an existing object
			rows, err := tx.Client.TaggedItem.Query().Where(
				taggeditem.ObjectTypeEQ(ct), taggeditem.ObjectIDEQ(id)).All(ctx)
			if err != nil {
				return err
			}
			for _, r := range rows {
				have[r.TagID] = true
			}
		}
		var builders []*gen.TaggedItemCreate
		for _, t := range dedupe(add) {
			if !have[t] {
				builders = append(builders, tx.Client.TaggedItem.Create().SetTagID(t).SetObjectType(ct).SetObjectID(id))
			}
		}
		// One INSERT per parameter budget (a tag assignment binds its
		// id's column too, four at most).
		err := rawsql.Batches(tx.Dialect, builders, 4, 0, func(part []*gen.TaggedItemCreate) error {
			_, err := tx.Client.TaggedItem.CreateBulk(part...).Save(ctx)
			return err
		})
		if err != nil {
			return err
		}
	}
	if !created {
		return touch(ctx, tx, d, id)
	}
	return nil
}

func deleteTagged(ctx context.Context, tx *Tx, ct string, ids []int) error {
	for _, chunk := range chunks(ids) {
		if len(chunk) == 0 {
			continue
		}
		args := []any{ct}
		for _, id := range chunk {
			args = append(args, id)
		}
		q := fmt.Sprintf(`DELETE FROM extras_taggeditem WHERE object_type = %s AND object_id IN (%s)`,
			placeholders(tx.Dialect, 1, 1), placeholders(tx.Dialect, 2, len(chunk)))
		if _, err := tx.Client.ExecContext(ctx, q, args...); err != nil {
			return err
		}
	}
	return nil
}
