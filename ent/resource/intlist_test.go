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

// TestParseTagList: a row's tags as either database aggregates them
// (tagsExpr), as text or bytes, and none.
func TestParseTagList(t *testing.T) {
	for _, tc := range []struct {
		in   any
		want []int
		bad  bool
	}{
		{nil, nil, false},
		{"3,7", []int{3, 7}, false},
		{"{3,7}", []int{3, 7}, false},
		{[]byte("{12}"), []int{12}, false},
		{"{}", nil, false},
		{"{3,,7}", nil, true},
		{int64(3), nil, true},
	} {
		got, err := parseTagList(nil, tc.in)
		if (err != nil) != tc.bad {
			t.Errorf("parseTagList(%#v): error %v, want error %v", tc.in, err, tc.bad)
		} else if !tc.bad && !slices.Equal(got, tc.want) {
			t.Errorf("parseTagList(%#v) = %v, want %v", tc.in, got, tc.want)
		}
	}
}
