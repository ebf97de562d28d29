package filters

import (
	"slices"
	"sort"
	"testing"
)

func TestNaturalKey(t *testing.T) {
	want := []string{"Site", "site 1", "Site 1", "Site 1a", "Site 2", "Site 10", "site9", "site10", "site010x", "Site 99999999999999999999", "Z", "z1", "z01b"}
	got := slices.Clone(want)
	sort.Slice(got, func(i, j int) bool { return NaturalKey(got[i]) < NaturalKey(got[j]) })
	// site010x: 10 by value, after site10 by the tie on the rest.
	exp := []string{"Site", "site 1", "Site 1", "Site 1a", "Site 2", "Site 10", "Site 99999999999999999999", "site9", "site10", "site010x", "Z", "z1", "z01b"}
	if !slices.Equal(got, exp) {
		t.Errorf("natural order:\n got %q\nwant %q", got, exp)
	}
	if k := NaturalKey("a0"); k != "a00000000000000000000\x01A00000000000000000000" {
		t.Errorf("NaturalKey(a0) = %q", k)
	}
}
