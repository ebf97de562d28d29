package choicesets

import (
	"bytes"
	"compress/gzip"
	"embed"
	"fmt"
	"io"
	"sort"
	"strings"
	"sync"
)

//go:generate go run ./gen -iata $NETBOX/netbox/extras/data/iata.py -iso3166 $NETBOX/netbox/extras/data/iso_3166.py -unlocode $UNLOCODE_ZIP -out .

//go:embed *.txt.gz
var files embed.FS

// Choice is one (value, label) pair of a set.
type Choice struct{ Value, Label string }

// Names are the base sets, by NetBox's key, with their data file.
var Names = map[string]string{"IATA": "iata", "ISO_3166": "iso_3166", "UN_LOCODE": "un_locode"}

type set struct {
	once    sync.Once
	choices []Choice
	err     error
	// lower holds the lower-cased values and labels for ?q= searches,
	// built on the first search.
	lowerOnce sync.Once
	lower     []Choice
}

var sets = func() map[string]*set {
	m := map[string]*set{}
	for name := range Names {
		m[name] = &set{}
	}
	return m
}()

// Get returns the choices of base set name, sorted by value; nil for a
// name that is not a base set. The slice is shared: callers must not
// modify it.
func Get(name string) []Choice {
	s := sets[name]
	if s == nil {
		return nil
	}
	s.once.Do(func() { s.choices, s.err = load(Names[name]) })
	if s.err != nil {
		// The data is embedded and checked by the tests: a decode
		// failure is a broken build, not a runtime condition.
		panic(s.err)
	}
	return s.choices
}

// Count is the number of choices of base set name (0 for none).
func Count(name string) int { return len(Get(name)) }

// Has reports whether value is a choice of base set name.
func Has(name, value string) bool {
	cs := Get(name)
	i := sort.Search(len(cs), func(i int) bool { return cs[i].Value >= value })
	return i < len(cs) && cs[i].Value == value
}

// Lower returns Get(name) with values and labels lower-cased (same
// indexes), for case-insensitive searches without per-request work.
func Lower(name string) []Choice {
	cs := Get(name)
	s := sets[name]
	if s == nil {
		return nil
	}
	s.lowerOnce.Do(func() {
		s.lower = make([]Choice, len(cs))
		for i, c := range cs {
			s.lower[i] = Choice{strings.ToLower(c.Value), strings.ToLower(c.Label)}
		}
	})
	return s.lower
}

// load decodes one data file (written by ./gen): a line per choice,
// "value\x1fX" for the label "value (X)", else "value\tlabel". Labels are
// cut from one buffer, so a set costs two allocations plus its slice.
func load(file string) ([]Choice, error) {
	raw, err := files.ReadFile(file + ".txt.gz")
	if err != nil {
		return nil, err
	}
	zr, err := gzip.NewReader(bytes.NewReader(raw))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	data, err := io.ReadAll(zr)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	text := string(data)
	n := strings.Count(text, "\n")
	out := make([]Choice, 0, n)
	var labels strings.Builder
	labels.Grow(len(text) + 3*n) // short lines gain " (" and ")" back
	type span struct{ start, end int }
	spans := make([]span, 0, n)
	for line := range strings.Lines(text) {
		line = strings.TrimSuffix(line, "\n")
		start := labels.Len()
		if v, x, ok := strings.Cut(line, "\x1f"); ok {
			labels.WriteString(v)
			labels.WriteString(" (")
			labels.WriteString(x)
			labels.WriteString(")")
			out = append(out, Choice{Value: v})
		} else if v, l, ok := strings.Cut(line, "\t"); ok {
			labels.WriteString(l)
			out = append(out, Choice{Value: v})
		} else {
			return nil, fmt.Errorf("%s: bad line %q", file, line)
		}
		spans = append(spans, span{start, labels.Len()})
	}
	all := labels.String()
	for i, sp := range spans {
		out[i].Label = all[sp.start:sp.end]
	}
	return out, nil
}
