package rawsql

import (
	"reflect"
	"testing"
)

func TestArgs(t *testing.T) {
	for _, tc := range []struct {
		pg   bool
		want string
	}{
		{false, "a = ? AND b IN (?, ?, ?)"},
		{true, "a = $1 AND b IN ($2, $3, $4)"},
	} {
		a := &Args{PG: tc.pg}
		got := "a = " + a.P("x") + " AND b IN (" + In(a, []int{1, 2, 3}) + ")"
		if got != tc.want || !reflect.DeepEqual(a.List, []any{"x", 1, 2, 3}) {
			t.Errorf("pg=%v: got %q %v; want %q [x 1 2 3]", tc.pg, got, a.List, tc.want)
		}
	}
}

func TestChunks(t *testing.T) {
	for _, n := range []int{0, 1, ChunkSize, ChunkSize + 1, 3*ChunkSize - 1} {
		ids := make([]int, n)
		for i := range ids {
			ids[i] = i
		}
		var seen []int
		calls := 0
		if err := Chunks(ids, func(c []int) error {
			if len(c) == 0 || len(c) > ChunkSize {
				t.Fatalf("n=%d: chunk of %d", n, len(c))
			}
			calls++
			seen = append(seen, c...)
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		if want := (n + ChunkSize - 1) / ChunkSize; calls != want || len(seen) != n || (n > 0 && seen[n-1] != n-1) {
			t.Errorf("n=%d: %d calls, %d ids; want %d calls, all ids in order", n, calls, len(seen), want)
		}
	}
}
