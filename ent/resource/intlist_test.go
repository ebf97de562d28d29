package resource

import (
	"slices"
	"testing"
)

// TestAppendIntList: the lists loadTags reads its assignments from, and
// what it refuses rather than misreads.
func TestAppendIntList(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []int
		bad  bool
	}{
		{"", nil, false},
		{"7", []int{7}, false},
		{"1,20,3", []int{1, 20, 3}, false},
		{"1,,2", nil, true},
		{"1,", nil, true},
		{",1", nil, true},
		{"1:2", nil, true},
		{"-1", nil, true},
		{"1.5", nil, true},
	} {
		got, err := appendIntList(nil, []byte(tc.in))
		if (err != nil) != tc.bad {
			t.Errorf("appendIntList(%q): error %v, want error %v", tc.in, err, tc.bad)
		} else if !tc.bad && !slices.Equal(got, tc.want) {
			t.Errorf("appendIntList(%q) = %v, want %v", tc.in, got, tc.want)
		}
	}
}
