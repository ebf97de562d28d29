package standbytest_test

import (
	stdsql "database/sql"
	"os"
	"testing"

	"github.com/inventory/inventory/ent/db/standbytest"
)

func TestMain(m *testing.M) {
	code := m.Run()
	standbytest.Shutdown()
	os.Exit(code)
}

// The harness's standby streams the primary's writes, refuses its own,
// and comes back after a restart.
func TestHarness(t *testing.T) {
	c := standbytest.Get(t)
	purl, surl := c.Database(t)
	p, err := stdsql.Open("pgx", purl)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	s, err := stdsql.Open("pgx", surl)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, err := p.Exec("CREATE TABLE t (v int); INSERT INTO t VALUES (42)"); err != nil {
		t.Fatal(err)
	}
	c.CatchUp(t)
	var v int
	if err := s.QueryRow("SELECT v FROM t").Scan(&v); err != nil || v != 42 {
		t.Fatalf("standby read %d, %v", v, err)
	}
	if _, err := s.Exec("INSERT INTO t VALUES (1)"); err == nil {
		t.Fatal("the standby accepted a write")
	}
	c.StopStandby(t)
	p.Exec("INSERT INTO t VALUES (43)")
	c.StartStandby(t)
	c.CatchUp(t)
	s.Close() // its connections were ended by the stop
	if s, err = stdsql.Open("pgx", surl); err != nil {
		t.Fatal(err)
	}
	if err := s.QueryRow("SELECT max(v) FROM t").Scan(&v); err != nil || v != 43 {
		t.Fatalf("standby read %d after restart, %v", v, err)
	}
}
