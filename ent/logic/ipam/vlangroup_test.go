package ipam

import (
	"errors"
	"testing"

	"github.com/inventory/inventory/ent/schema/api"
)

func TestVIDRangesTotal(t *testing.T) {
	for _, tc := range []struct {
		name   string
		ranges [][]int
		total  int
		msg    string // the vid_ranges error, "" when valid
	}{
		{"default", [][]int{{1, 4094}}, 4094, ""},
		{"empty", nil, 0, ""},
		{"two unsorted", [][]int{{100, 199}, {10, 19}}, 110, ""},
		{"single id", [][]int{{7, 7}}, 1, ""},
		{"not a pair", [][]int{{1, 2, 3}}, 0, "Ranges must be specified in the form (lower, upper)."},
		{"below min", [][]int{{0, 10}}, 0, "Starting VLAN ID in range (0) cannot be less than 1"},
		{"above max", [][]int{{10, 4095}}, 0, "Ending VLAN ID in range (4095) cannot exceed 4094"},
		{"reversed", [][]int{{20, 10}}, 0, "Ending VLAN ID in range must be greater than or equal to the starting VLAN ID (20-10)"},
		{"overlap", [][]int{{10, 20}, {20, 30}}, 0, "Ranges cannot overlap."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			total, err := VIDRangesTotal(tc.ranges)
			if tc.msg == "" {
				if err != nil || total != tc.total {
					t.Fatalf("got %d, %v; want %d, nil", total, err, tc.total)
				}
				return
			}
			var fe *api.FieldError
			if !errors.As(err, &fe) || fe.Field != "vid_ranges" || fe.Message != tc.msg {
				t.Fatalf("got %#v; want vid_ranges error %q", err, tc.msg)
			}
		})
	}
}
