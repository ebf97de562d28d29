package server

import "context"

// What the external tests (package server_test) reach inside a Server.

// HoldListRows takes the whole of Config.ListRowsInFlight, so that every
// list build waits until release: a test can gather requests in a flight
// (coalesce.go) before any of them reads.
func (s *Server) HoldListRows() (release func()) {
	n := int64(s.cfg.ListRowsInFlight)
	if err := s.listRows.Acquire(context.Background(), n); err != nil {
		panic(err)
	}
	return func() { s.listRows.Release(n) }
}

// ListFlights returns the number of requests in each list build in
// progress, by key.
func (s *Server) ListFlights() map[string]int {
	s.flights.mu.Lock()
	defer s.flights.mu.Unlock()
	out := map[string]int{}
	for k, f := range s.flights.m {
		out[k] = f.refs
	}
	return out
}

// ListsShared is the count of list requests answered with another's build.
func (s *Server) ListsShared() uint64 { return s.flights.shared.Load() }
