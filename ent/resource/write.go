package resource

import (
	"bytes"
	"context"
	stdsql "database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"sort"
	"strings"
	"time"

	"entgo.io/ent"
	"entgo.io/ent/dialect/sql"

	gen "github.com/inventory/inventory/ent"
	"github.com/inventory/inventory/ent/logic/jsonlimit"
	"github.com/inventory/inventory/ent/logic/rawsql"
	"github.com/inventory/inventory/ent/schema/api"
	"github.com/inventory/inventory/filters"
)

// Tx is one write transaction as the resource layer sees it.
type Tx struct {
	Client  *gen.Client // bound to the transaction
	Dialect string
	// Visible restricts attribute lookups of related objects to what the
	// requesting user may view (nil: everything). Lookups by numeric id are
	// never restricted (SPEC.md §2.4).
	Visible func(d *Descriptor) []func(*sql.Selector)

	// err is the first read that failed inside the transaction. Lookups
	// that answer a validation message (a related object not found) must
	// not hide it: on PostgreSQL every later statement of the transaction
	// would fail with "current transaction is aborted", and the client
	// would get a 400 for what is a database fault. decode returns it.
	err error
}

// Store reads inside the transaction; a failed read is remembered (Err).
func (t *Tx) Store() Store { return Store{Dialect: t.Dialect, Q: txReads{t}} }

// Err is the first statement of the transaction that failed, if any: no
// more may run in it (on PostgreSQL every one would fail), so a bulk
// write stops at the item that failed.
func (t *Tx) Err() error { return t.err }

func (t *Tx) fail(err error) {
	if t.err == nil {
		t.err = err
	}
}

// txReads is the transaction's Querier: it remembers the first failure
// and runs nothing after it (the transaction is lost on PostgreSQL
// anyway, and the first error is the one that explains why).
type txReads struct{ t *Tx }

func (r txReads) QueryContext(ctx context.Context, query string, args ...any) (*stdsql.Rows, error) {
	if r.t.err != nil {
		return nil, r.t.err
	}
	rows, err := r.t.Client.QueryContext(ctx, query, args...)
	if err != nil {
		r.t.fail(err)
	}
	return rows, err
}

// MaxChangelogMessage is the length limit of changelog_message.
const MaxChangelogMessage = 200

// Input is one object of a write request.
type Input map[string]json.RawMessage

// change is a validated input.
type change struct {
	set      map[*Field]any // nil value clears the column
	tags     *[]int         // replace the tag set
	addTags  []int
	delTags  []int
	cfData   map[string]any // merged custom field data, when given
	cfGiven  bool
	cfUnique []string // unique custom fields whose value this write sets
	parentOK bool
	m2m      map[*Field][]int // replace the related sets
}

// Message returns the input's changelog_message, validated.
func (in Input) Message() (string, error) {
	raw, ok := in["changelog_message"]
	if !ok {
		return "", nil
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		if string(raw) == "null" {
			return "", nil
		}
		return "", Invalid("changelog_message", "Not a valid string.")
	}
	s = TrimSpace(s) // a DRF CharField
	if len([]rune(s)) > MaxChangelogMessage {
		return "", Invalid("changelog_message", fmt.Sprintf("Ensure this field has no more than %d characters.", MaxChangelogMessage))
	}
	return s, nil
}

// decode validates an input against the model. existing is nil on create.
// partial is PATCH: absent fields keep their value.
func (d *Descriptor) decode(ctx context.Context, tx *Tx, in Input, existing *Row, partial bool) (*change, error) {
	ch := &change{set: map[*Field]any{}}
	verr := &ValidationError{}
	// PostgreSQL text and JSON cannot hold NUL (JSON's \u0000): refuse it
	// in any field, as Django's ProhibitNullCharactersValidator does, on
	// both databases alike.
	for k, raw := range in {
		if bytes.Contains(raw, []byte(`\u0000`)) {
			verr.add(k, "Null characters are not allowed.")
		}
		// Nothing below may walk a value deeper than the API allows
		// (issue 32); the server refuses such bodies already, this is for
		// every other writer.
		if _, over := jsonlimit.Scan(raw, jsonlimit.MaxDepth); over {
			verr.add(k, jsonlimit.Message())
		}
	}
	if !verr.empty() {
		return nil, verr
	}
	if _, err := in.Message(); err != nil {
		var ve *ValidationError
		errors.As(err, &ve)
		verr = ve
	}
	if existing != nil && !partial {
		in = d.withPutDefaults(in)
	}
	for _, f := range d.Fields {
		if f.ReadOnly || f.Column == "" || existing != nil && f.CreateOnly {
			continue
		}
		if f.Kind == KindCustomFields || f.Kind == KindHidden {
			continue
		}
		raw, given := in[f.Name]
		if !given && f.CurrentUser && (existing == nil || !partial) {
			// DRF's CurrentUserDefault: the requesting user, if any, on
			// create and on a full update alike (a declared default).
			if uid, ok := UserFrom(ctx); ok {
				ch.set[f] = uid
			}
			continue
		}
		if !given {
			if existing == nil && f.Required {
				verr.add(f.Name, "This field is required.")
			} else if existing != nil && !partial && f.Required {
				verr.add(f.Name, "This field is required.")
			}
			continue
		}
		if f.Kind == KindImage {
			continue // decodeImages, once the rest is known
		}
		if f.GoType == "[]int" && (f.Min != nil || f.Max != nil) && string(raw) != "null" {
			// A bounded integer list answers per element, as DRF does.
			v, index, msgs := decodeIntList(f, raw)
			if msgs != nil {
				verr.addItem(f.Name, index, msgs...)
				continue
			}
			if f.NotEmpty && emptyJSON(raw) {
				verr.add(f.Name, "This field cannot be blank.")
				continue
			}
			ch.set[f] = v
			continue
		}
		v, msgs := d.decodeField(ctx, tx, f, raw)
		if msgs == nil && f.NotEmpty && emptyJSON(raw) {
			msgs = []string{"This field cannot be blank."}
		}
		if msgs != nil {
			verr.add(f.Name, msgs...)
			continue
		}
		ch.set[f] = v
	}
	for _, f := range d.Fields {
		if f.Kind != KindM2M && f.Kind != KindReverse || f.ReadOnly {
			continue
		}
		if raw, given := in[f.Name]; given {
			ids, msgs := d.decodeM2M(ctx, tx, f, raw)
			if msgs != nil {
				verr.add(f.Name, msgs...)
				continue
			}
			if ch.m2m == nil {
				ch.m2m = map[*Field][]int{}
			}
			ch.m2m[f] = ids
		}
	}
	d.decodeGeneric(ctx, tx, in, existing, ch, verr)
	if d.Tagged {
		d.decodeTags(ctx, tx, in, existing, ch, verr)
	}
	if d.Custom {
		if err := d.decodeCustomFields(ctx, tx, in, existing, ch, verr); err != nil {
			return nil, err
		}
	}
	imgs := d.decodeImages(ctx, in, verr)
	if err := tx.Err(); err != nil {
		return nil, err // a lookup failed: not the client's fault
	}
	if !verr.empty() {
		return nil, verr
	}
	if err := d.storeImages(ctx, imgs, existing, ch); err != nil {
		return nil, err
	}
	return ch, nil
}

// emptyJSON says whether raw is [] or {} (Django's empty values of a
// JSON or array field).
func emptyJSON(raw json.RawMessage) bool {
	t := bytes.TrimSpace(raw)
	if len(t) < 2 || (t[0] != '[' && t[0] != '{') {
		return false
	}
	return len(bytes.TrimSpace(t[1:len(t)-1])) == 0
}

// withPutDefaults is a full update's input with the serializer's declared
// defaults (Field.PutDefault) in place of the fields it omits: DRF writes
// a declared default on every non-partial save, so a PUT that leaves out
// a device's rack clears it. Fields without a declared default are left
// out and keep their value.
func (d *Descriptor) withPutDefaults(in Input) Input {
	var out Input
	for _, f := range d.Fields {
		if f.PutDefault == "" || f.ReadOnly || f.CreateOnly {
			continue
		}
		if _, given := in[f.Name]; given {
			continue
		}
		if out == nil {
			out = make(Input, len(in)+4)
			maps.Copy(out, in)
		}
		out[f.Name] = json.RawMessage(f.PutDefault)
	}
	if out == nil {
		return in
	}
	return out
}

// blankJSON says whether raw is a JSON string that is blank once trimmed,
// as DRF's CharField reads it (trim_whitespace).
func blankJSON(raw json.RawMessage) bool {
	if len(raw) == 0 || raw[0] != '"' {
		return false
	}
	var s string
	return json.Unmarshal(raw, &s) == nil && TrimSpace(s) == ""
}

// blankValue is what a blank input stores, as NetBox stores it: NULL in a
// nullable column whose "" would mean something else (a unique column,
// where NetBox coerces "" to None so that blanks do not collide; a
// special kind such as a WWN, whose field stores None for ""; a choice,
// which renders null either way), "" otherwise.
func blankValue(f *Field) any {
	if f.Nullable && (f.Unique || f.codec != nil || len(f.Choices) > 0) {
		return nil
	}
	return ""
}

// decodeField turns one JSON value into the Go value stored.
func (d *Descriptor) decodeField(ctx context.Context, tx *Tx, f *Field, raw json.RawMessage) (any, []string) {
	if f.Kind == KindFK && string(raw) == `""` {
		// DRF's RelatedField.run_validation: an empty string is None for
		// every relation (then refused where null is).
		raw = json.RawMessage("null")
	}
	if f.Blank && len(f.Choices) == 0 && blankJSON(raw) && (f.codec != nil || f.Nullable && f.Unique) {
		// DRF's CharField answers a blank before any validator runs (a
		// colour's pattern, a WWN's format).
		return blankValue(f), nil
	}
	if string(raw) == "null" && f.Kind != KindChoice {
		if f.Nullable {
			return nil, nil
		}
		return nil, []string{"This field may not be null."}
	}
	if f.codec != nil && f.codec.decode != nil {
		return f.codec.decode(f, raw)
	}
	if len(f.Choices) > 0 && f.Kind != KindChoice {
		// A choice rendered as its bare value (a token's version, a
		// webhook's method): DRF's plain ChoiceField.
		return decodeChoice(f, raw, true)
	}
	switch f.Kind {
	case KindString, KindText, KindSecret:
		return decodeString(f, raw)
	case KindInt:
		return decodeInt(f, raw)
	case KindFloat:
		return decodeFloat(f, raw)
	case KindBool:
		return decodeBool(raw)
	case KindTime:
		return decodeTime(raw)
	case KindChoice:
		return decodeChoice(f, raw, false)
	case KindFK:
		id, msg := tx.ResolveRef(ctx, f.target, raw)
		if msg != "" {
			return nil, []string{msg}
		}
		return id, nil
	case KindJSON, KindStrings:
		return decodeJSON(f, raw)
	case KindGenericType, KindGenericID:
		return nil, nil // validated as a pair in decodeGeneric
	}
	return nil, []string{"Unsupported field."}
}

// decodeGeneric validates <name>_type / <name>_id pairs (SPEC.md §2.5).
func (d *Descriptor) decodeGeneric(ctx context.Context, tx *Tx, in Input, existing *Row, ch *change, verr *ValidationError) {
	for _, f := range d.Fields {
		if f.Kind != KindGenericObject {
			continue
		}
		tf, idf := d.byName[f.Generic+"_type"], d.byName[f.Generic+"_id"]
		rawT, okT := in[tf.Name]
		rawID, okID := in[idf.Name]
		if !okT && !okID {
			continue
		}
		var ct string
		var id *int
		if existing != nil {
			ct, _ = existing.Vals[tf.col].(string)
			if v, ok := existing.Vals[idf.col].(int); ok {
				id = &v
			}
		}
		if okT {
			ct = ""
			// A content type is a related field: "" is null, as DRF's
			// RelatedField reads it.
			if string(rawT) != "null" && string(rawT) != `""` {
				if err := json.Unmarshal(rawT, &ct); err != nil {
					verr.add(tf.Name, "Invalid value. Specify a content type as '<app_label>.<model_name>'.")
					continue
				}
				if msg := featureRefusal(f.ObjectTypes, ct); msg != "" {
					verr.add("__all__", msg)
					continue
				}
				if msg := checkContentType(ct, f.Types); msg != "" {
					verr.add(tf.Name, msg)
					continue
				}
			}
		}
		if okID {
			id = nil
			if string(rawID) != "null" {
				v, msgs := decodeInt(idf, rawID)
				if msgs != nil {
					verr.add(idf.Name, msgs...)
					continue
				}
				n := v.(int)
				id = &n
			}
		}
		switch {
		case ct != "" && id == nil:
			verr.add(idf.Name, "This field cannot be null.")
			continue
		case ct == "" && id != nil:
			verr.add(tf.Name, "This field cannot be null.")
			continue
		case ct != "":
			td := ByContentType(ct)
			if td == nil {
				verr.add(tf.Name, "Invalid content type: "+ct)
				continue
			}
			r, err := td.Get(ctx, tx.Store(), *id)
			if err != nil || r == nil {
				verr.add(idf.Name, fmt.Sprintf("Related object not found using the provided value: %d.", *id))
				continue
			}
			ch.set[tf], ch.set[idf] = ct, *id
			// A hidden _<name>_display keeps the object's display for the
			// row's own (a contact assignment's "<contact> -> <object>"),
			// so that pages render from their own rows.
			if cf := d.byName["_"+f.Generic+"_display"]; cf != nil && cf.Kind == KindHidden {
				ch.set[cf] = td.DisplayOf(r)
			}
		default:
			ch.set[tf], ch.set[idf] = nil, nil
		}
	}
}

// Create validates and inserts one object, returning its id.
func (d *Descriptor) Create(ctx context.Context, tx *Tx, in Input) (_ int, err error) {
	defer func() { err = d.inOrder(err) }()
	wroteDefs(ctx, d)
	if d.ReadOnlyAPI {
		return 0, &DetailError{Status: 405, Detail: `Method "POST" not allowed.`}
	}
	if _, ok := in["remove_tags"]; ok && d.Tagged {
		if string(in["remove_tags"]) != "[]" && string(in["remove_tags"]) != "null" {
			return 0, Invalid("remove_tags", `Cannot use "remove_tags" when creating a new object.`)
		}
	}
	ch, err := d.decode(ctx, tx, in, nil, false)
	if err != nil {
		return 0, err
	}
	ctx = withInputMessage(ctx, in)
	if err := d.checkUnique(ctx, tx, ch, nil); err != nil {
		return 0, err
	}
	ctx = ch.withRelated(ctx)
	m := d.NewCreate(tx.Client)
	if err := d.apply(ctx, tx, m, ch, nil); err != nil {
		return 0, err
	}
	importing := api.Importing(ctx)
	if importing {
		if err := d.importStamps(m, in, true); err != nil {
			return 0, err
		}
	}
	if _, err := tx.Client.Mutate(ctx, m); err != nil {
		tx.fail(err)
		return 0, translate(d, err)
	}
	id, _ := m.(interface{ ID() (int, bool) }).ID()
	if err := d.writeM2M(ctx, tx, id, ch, true); err != nil {
		return 0, err
	}
	if err := d.writeTags(ctx, tx, id, ch, true); err != nil {
		return 0, err
	}
	// A device gets its type's components, a module its module type's
	// (instantiate.go), in this transaction; an import brings the
	// source's own components instead.
	if importing {
		return id, nil
	}
	return id, d.instantiate(ctx, tx, id)
}

// createRows inserts n rows of d through ent's bulk create (every row
// passes the hook chain, and change capture records it), fill setting the
// values of row i, in INSERTs cut by the database's parameter limit
// (rawsql.BulkRanges: a row binds at most one parameter per column of the
// table; on PostgreSQL one array a column, whatever the rows). The ids
// come back in the order of the rows: each INSERT returns its rows' ids in
// order (RETURNING, on both databases).
func (d *Descriptor) createRows(ctx context.Context, tx *Tx, n int, fill func(i int, m ent.Mutation) error) ([]int, error) {
	ids := make([]int, 0, n)
	err := rawsql.BulkRanges(tx.Dialect, n, d.tableCols, func(lo, hi int) error {
		got, err := d.CreateMany(ctx, tx.Client, hi-lo, func(k int, m ent.Mutation) error { return fill(lo+k, m) })
		if err != nil {
			tx.fail(err)
			return err
		}
		if len(got) != hi-lo {
			return fmt.Errorf("%s: inserted %d rows, got %d ids", d.Type, hi-lo, len(got))
		}
		ids = append(ids, got...)
		return nil
	})
	return ids, err
}

// Update validates and applies a PUT (partial=false) or PATCH to existing.
func (d *Descriptor) Update(ctx context.Context, tx *Tx, existing *Row, in Input, partial bool) (err error) {
	defer func() { err = d.inOrder(err) }()
	wroteDefs(ctx, d)
	ch, err := d.decode(ctx, tx, in, existing, partial)
	if err != nil {
		return err
	}
	ctx = withInputMessage(ctx, in)
	if err := d.checkUnique(ctx, tx, ch, existing); err != nil {
		return err
	}
	ctx = ch.withRelated(ctx)
	m := d.NewUpdate(tx.Client, existing.ID)
	if err := d.apply(ctx, tx, m, ch, existing); err != nil {
		return err
	}
	if api.Importing(ctx) {
		if err := d.importStamps(m, in, false); err != nil {
			return err
		}
	}
	if _, err := tx.Client.Mutate(ctx, m); err != nil {
		tx.fail(err)
		return translate(d, err)
	}
	if err := d.refreshDisplayCopies(ctx, tx, existing, ch); err != nil {
		return err
	}
	if err := d.writeM2M(ctx, tx, existing.ID, ch, false); err != nil {
		return err
	}
	return d.writeTags(ctx, tx, existing.ID, ch, false)
}

// apply copies the change into the ent mutation.
func (d *Descriptor) apply(ctx context.Context, tx *Tx, m ent.Mutation, ch *change, existing *Row) error {
	for f, v := range ch.set {
		if v == nil {
			if existing != nil {
				if err := m.ClearField(f.Column); err != nil {
					return err
				}
			}
			continue
		}
		if err := m.SetField(f.Column, v); err != nil {
			return fmt.Errorf("set %s.%s: %w", d.Type, f.Column, err)
		}
		if s, ok := v.(string); ok && f.Natural != "" {
			if err := m.SetField(f.Natural, filters.NaturalKey(s)); err != nil {
				return fmt.Errorf("set %s.%s: %w", d.Type, f.Natural, err)
			}
		}
	}
	if ch.cfGiven {
		if err := m.SetField(customFieldColumn, ch.cfData); err != nil {
			return err
		}
	}
	if d.Tree {
		return d.applyTree(ctx, tx, m, ch, existing)
	}
	return nil
}

// finalValue is a field's value after the change.
func finalValue(f *Field, ch *change, existing *Row) (any, bool) {
	if v, ok := ch.set[f]; ok {
		return v, true
	}
	if existing != nil && f.col >= 0 {
		return existing.Vals[f.col], false
	}
	return nil, false
}

// checkUnique enforces unique fields and unique-together sets with NetBox's
// messages, before the database's own constraints would answer less kindly.
func (d *Descriptor) checkUnique(ctx context.Context, tx *Tx, ch *change, existing *Row) error {
	var probes []uniqueProbe
	for _, u := range d.Unique {
		touched := existing == nil
		values := make([]any, len(u.Fields))
		skip := false
		given := false // the field of a single-field set is in the request
		for i, name := range u.Fields {
			v, changed := finalValue(d.byName[name], ch, existing)
			touched = touched || changed
			given = changed && len(u.Fields) == 1
			skip = skip || v == nil // NULLs never collide, as in SQL
			values[i] = v
		}
		for _, name := range u.WhenNull {
			v, changed := finalValue(d.byName[name], ch, existing)
			touched = touched || changed
			if v != nil && !given {
				// The condition does not hold for this row. But a field
				// the request gives is checked by DRF's UniqueValidator,
				// whose queryset is the condition's rows whatever this
				// row's values (get_unique_validators filters the
				// queryset by the condition): a tenant "T" in a group is
				// refused while a top-level "T" exists.
				skip = true
			}
		}
		if skip || !touched {
			continue
		}
		key, msg := "__all__", u.Message
		if len(u.Fields) == 1 {
			// DRF's ModelSerializer puts a UniqueValidator on a field
			// that a single-field constraint covers, conditional or not
			// (get_unique_validators): the error is the field's, its
			// message the model field's unique message.
			key = u.Fields[0]
		}
		if msg == "" {
			names := make([]string, len(u.Fields))
			for i, n := range u.Fields {
				names[i] = strings.ReplaceAll(n, "_", " ")
			}
			if len(u.Fields) == 1 {
				msg = fmt.Sprintf("%s with this %s already exists.", d.Verbose, names[0])
			} else {
				msg = fmt.Sprintf("%s with this %s already exists.", capitalize(d.Verbose), titleJoin(names))
			}
		}
		probes = append(probes, uniqueProbe{uniqueSelector(d, u, tx.Dialect, values, true), key, msg})
	}
	probes, err := d.customFieldProbes(tx, ch, probes)
	if err != nil {
		return err
	}
	return d.clashes(ctx, tx, probes, existing)
}

// uniqueProbe is one unique check of a write: the rows holding its values
// (sel), and the error (key, msg) when another row is among them.
type uniqueProbe struct {
	sel      *sql.Selector
	key, msg string
}

// clashes runs the probes of a write in two statements whatever their
// number: their locks (lockUnique, serialising the writers that check the
// same values), then one SELECT of an EXISTS each. A row other than
// existing (nil on a create) found by a probe is its error. Two statements
// rather than two a probe: a bulk of 2 600 tags (name and slug) made 13 000
// round trips on PostgreSQL, now 7 800.
func (d *Descriptor) clashes(ctx context.Context, tx *Tx, probes []uniqueProbe, existing *Row) error {
	if len(probes) == 0 {
		return nil
	}
	sels := make([]*sql.Selector, len(probes))
	for i, p := range probes {
		sels[i] = p.sel
	}
	if err := lockUnique(ctx, tx, sels...); err != nil {
		return err
	}
	q := sql.Dialect(tx.Dialect).Select()
	for _, s := range sels {
		if existing != nil {
			s.Where(sql.NEQ(s.C("id"), existing.ID))
		}
		q.AppendSelectExpr(sql.Exists(s))
	}
	query, args := q.Query()
	rows, err := tx.Store().Q.QueryContext(ctx, query, args...)
	if err != nil {
		return fmt.Errorf("unique check of %s: %w", d.Table, err)
	}
	defer rows.Close()
	found := make([]bool, len(probes))
	dest := make([]any, len(found))
	for i := range found {
		dest[i] = &found[i]
	}
	if !rows.Next() {
		if err := rows.Err(); err != nil {
			return err
		}
		return fmt.Errorf("unique check of %s: no row", d.Table)
	}
	if err := rows.Scan(dest...); err != nil {
		return err
	}
	verr := &ValidationError{}
	for i, p := range probes {
		if found[i] {
			verr.add(p.key, p.msg)
		}
	}
	return verr.orNil()
}

// sentence makes a validator's message read as NetBox's do.
func sentence(s string) string {
	s = capitalize(s)
	if s != "" && !strings.HasSuffix(s, ".") {
		s += "."
	}
	return s
}

func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// titleJoin renders Django's "Parent and Name" list of field names.
func titleJoin(names []string) string {
	for i, n := range names {
		names[i] = capitalize(n)
	}
	if len(names) <= 1 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

// applyTree keeps _depth right and refuses cycles.
func (d *Descriptor) applyTree(ctx context.Context, tx *Tx, m ent.Mutation, ch *change, existing *Row) error {
	pf := d.byName["parent"]
	v, changed := finalValue(pf, ch, existing)
	if existing != nil && !changed {
		return nil
	}
	depth := 0
	if pid, ok := v.(int); ok {
		if existing != nil && pid == existing.ID && d.SelfParent != "" {
			return Invalid("parent", d.SelfParent)
		}
		if existing != nil {
			// Two moves committed side by side (A under B, B under A)
			// would each pass the check below and make a cycle: moves in
			// one tree wait for each other (PostgreSQL; SQLite has one
			// writer). Walks of the tree terminate on a cycle anyway
			// (recursive queries use UNION), but _depth would be wrong.
			if err := lockTree(ctx, tx, d); err != nil {
				return err
			}
			sub, err := d.Subtree(ctx, tx.Store(), []int{existing.ID})
			if err != nil {
				return err
			}
			for _, id := range sub {
				if id == pid {
					return Invalid("parent", "Cannot assign self or child "+d.Verbose+" as parent.")
				}
			}
		}
		parent, err := d.Get(ctx, tx.Store(), pid)
		if err != nil {
			return err
		}
		if parent != nil {
			depth, _ = d.Value(parent, "_depth").(int)
			depth++
		}
	}
	if err := m.SetField("_depth", depth); err != nil {
		return err
	}
	if existing != nil {
		old, _ := d.Value(existing, "_depth").(int)
		if delta := depth - old; delta != 0 {
			sub, err := d.Subtree(ctx, tx.Store(), []int{existing.ID})
			if err != nil {
				return err
			}
			var desc []int
			for _, id := range sub {
				if id != existing.ID {
					desc = append(desc, id)
				}
			}
			for _, chunk := range chunks(desc) {
				if len(chunk) == 0 {
					continue
				}
				args := []any{delta}
				for _, id := range chunk {
					args = append(args, id)
				}
				q := fmt.Sprintf(`UPDATE %s SET "_depth" = "_depth" + %s WHERE id IN (%s)`, quote(d.Table),
					placeholders(tx.Dialect, 1, 1), placeholders(tx.Dialect, 2, len(chunk)))
				if _, err := tx.Client.ExecContext(ctx, q, args...); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// Subtree returns the ids of the given nodes and all their descendants.
func (d *Descriptor) Subtree(ctx context.Context, st Store, ids []int) ([]int, error) {
	var out []int
	for _, chunk := range chunks(ids) {
		args := make([]any, len(chunk))
		for i, id := range chunk {
			args[i] = id
		}
		q := fmt.Sprintf(`WITH RECURSIVE sub(id) AS (SELECT id FROM %[1]s WHERE id IN (%[2]s) `+
			`UNION SELECT n.id FROM %[1]s n JOIN sub ON n.parent_id = sub.id) SELECT id FROM sub`,
			quote(d.Table), placeholders(st.Dialect, 1, len(chunk)))
		rs, err := st.Q.QueryContext(ctx, q, args...)
		if err != nil {
			return nil, err
		}
		for rs.Next() {
			var id int
			if err := rs.Scan(&id); err != nil {
				rs.Close()
				return nil, err
			}
			out = append(out, id)
		}
		rs.Close()
	}
	sort.Ints(out)
	return out, nil
}

// translate maps ent errors that validation did not catch to API errors.
func translate(d *Descriptor, err error) error {
	// Schema hooks and validators report NetBox's messages this way.
	var fe *api.FieldError
	if errors.As(err, &fe) {
		if fe.Index != "" {
			return &ValidationError{Fields: map[string]any{fe.Field: map[string][]string{fe.Index: {fe.Message}}}}
		}
		return Invalid(fe.Field, fe.Message)
	}
	var ve *gen.ValidationError
	if errors.As(err, &ve) {
		// ent wraps its validators' messages in its own ("ent: validator
		// failed for field ..."): the client gets the validator's only.
		msg := ve.Unwrap()
		if inner := errors.Unwrap(msg); inner != nil {
			msg = inner
		}
		return Invalid(ve.Name, sentence(msg.Error()))
	}
	if gen.IsConstraintError(err) {
		msg := err.Error()
		if strings.Contains(strings.ToLower(msg), "foreign key") {
			return Conflict("Unable to delete or update object: other objects depend on it.")
		}
		return Invalid("__all__", fmt.Sprintf("%s violates a uniqueness constraint.", capitalize(d.Verbose)))
	}
	return err
}

// touch is used by writes that change only related rows (tags) so that
// last_updated and the ETag move.
func touch(ctx context.Context, tx *Tx, d *Descriptor, id int) error {
	if !d.Logged {
		return nil
	}
	m := d.NewUpdate(tx.Client, id)
	if err := m.SetField("last_updated", time.Now().UTC().Truncate(time.Microsecond)); err != nil {
		return err
	}
	_, err := tx.Client.Mutate(ctx, m)
	return err
}
