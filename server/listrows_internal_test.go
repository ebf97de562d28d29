package server

import (
	"context"
	"errors"
	"testing"

	"golang.org/x/sync/semaphore"
)

// reserveRows: a page takes its limit's rows (all of the bound when larger
// or unlimited); a request that cannot fit waits, and leaves the queue when
// it ends; released rows serve the next.
func TestReserveRows(t *testing.T) {
	s := &Server{cfg: Config{ListRowsInFlight: 100}, listRows: semaphore.NewWeighted(100)}
	ctx := context.Background()
	// room tells whether n more rows would fit now.
	room := func(n int64) bool {
		if s.listRows.TryAcquire(n) {
			s.listRows.Release(n)
			return true
		}
		return false
	}
	for _, limit := range []int{1000, 0, 100} {
		release, err := s.reserveRows(ctx, limit)
		if err != nil {
			t.Fatalf("limit %d: %v", limit, err)
		}
		if room(1) {
			t.Errorf("limit %d should hold the whole bound", limit)
		}
		release()
	}
	r60, err := s.reserveRows(ctx, 60)
	if err != nil {
		t.Fatal(err)
	}
	if !room(40) || room(41) {
		t.Error("a page of 60 should leave exactly 40 rows")
	}
	// A request that does not fit waits until its context ends.
	waiting, cancel := context.WithCancel(ctx)
	done := make(chan error)
	go func() {
		_, err := s.reserveRows(waiting, 50)
		done <- err
	}()
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("waiting request: %v, want context.Canceled", err)
	}
	r60()
	if !room(100) {
		t.Error("released rows are not free again")
	}
	release, err := (&Server{}).reserveRows(ctx, 1000)
	if err != nil {
		t.Fatalf("no bound: %v", err)
	}
	release()
}
