package resource_test

import (
	"strings"
	"testing"

	"entgo.io/ent/dialect/sql"

	"github.com/inventory/inventory/ent/resource"
)

// TestIPKindsUseDeclaredColumns: the IP filter kinds compare the columns
// a model declares (api.Model.IP), so Aggregate, IPRange and IPAddress
// reuse them by declaration; a model without the declaration is refused.
func TestIPKindsUseDeclaredColumns(t *testing.T) {
	cols := &resource.IPColumns{Family: "fam_x", Network: "net_x", Broadcast: "bc_x", Length: "len_x"}
	cases := []struct {
		kind, lookup, value string
		uses                []string // the declared columns the predicate compares
	}{
		{"prefix-within", "", "10.0.0.0/8", []string{"fam_x", "net_x", "len_x"}},
		{"prefix-within-include", "", "10.0.0.0/8", []string{"fam_x", "net_x", "len_x"}},
		{"prefix-contains", "", "10.1.2.3", []string{"fam_x", "net_x", "bc_x", "len_x"}},
		{"prefix-contains", "", "10.1.0.0/16", []string{"fam_x", "net_x", "bc_x", "len_x"}},
		{"prefix-exact", "", "10.0.0.0/8", []string{"fam_x", "net_x", "len_x"}},
		{"prefix-mask-length", "gte", "16", []string{"len_x"}},
		{"ip-family", "", "4", []string{"fam_x"}},
	}
	for _, c := range cases {
		t.Run(c.kind+" "+c.value, func(t *testing.T) {
			decl := resource.FilterDecl{Name: "f", Kind: c.kind}
			if f := resource.FilterKinds[c.kind](&resource.Descriptor{}, decl); f != nil {
				t.Fatalf("%s accepted a model without IP columns", c.kind)
			}
			f := resource.FilterKinds[c.kind](&resource.Descriptor{IP: cols}, decl)
			pred, err := f.Func(c.lookup, []string{c.value})
			if err != nil || pred == nil {
				t.Fatalf("predicate: %v", err)
			}
			s := sql.Select("*").From(sql.Table("t"))
			pred(s)
			q, _ := s.Query()
			for _, col := range c.uses {
				if !strings.Contains(q, "`"+col+"`") {
					t.Fatalf("%s does not compare %s: %s", c.kind, col, q)
				}
			}
			for _, prefixCol := range []string{"`family`", "`network`", "`broadcast`", "`prefix_length`"} {
				if strings.Contains(q, prefixCol) {
					t.Fatalf("%s still names Prefix's column %s: %s", c.kind, prefixCol, q)
				}
			}
		})
	}
}
