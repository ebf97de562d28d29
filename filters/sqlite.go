package filters

import (
	stdsql "database/sql"
	"fmt"
	"regexp"
	"strings"
	"sync"
	"time"

	sqlite3 "github.com/mattn/go-sqlite3"
)

// SQLiteDriver is the database/sql driver name registered by RegisterSQLite.
const SQLiteDriver = "sqlite3_inventory"

var registerOnce sync.Once

// RegisterSQLite registers SQLiteDriver: go-sqlite3 plus the SQL functions the
// filter predicates need on SQLite. Safe to call any number of times.
//
//   - regexp(pattern, value): backs `value REGEXP pattern` (Go RE2: linear time,
//     so a hostile pattern cannot stall the database).
//   - inventory_lower(text): Unicode lower case; SQLite's LOWER folds ASCII
//     only, PostgreSQL's LOWER folds Unicode, and the i* lookups must agree.
//   - inventory_ts(text): a stored date/time in any layout the driver writes
//     (or ISO 8601) as a fixed-width UTC string, so that text comparison is
//     time comparison whatever offset or precision a row was stored with.
func RegisterSQLite() {
	registerOnce.Do(func() {
		stdsql.Register(SQLiteDriver, &sqlite3.SQLiteDriver{
			ConnectHook: func(c *sqlite3.SQLiteConn) error {
				if err := c.RegisterFunc("regexp", sqliteRegexp, true); err != nil {
					return err
				}
				if err := c.RegisterFunc("inventory_lower", sqliteLower, true); err != nil {
					return err
				}
				return c.RegisterFunc("inventory_ts", sqliteTS, true)
			},
		})
	})
}

// reCache keeps compiled patterns for the life of a few queries; it is reset
// when full because patterns come from clients and must not grow memory.
var reCache = struct {
	sync.Mutex
	m map[string]*regexp.Regexp
}{m: map[string]*regexp.Regexp{}}

func sqliteRegexp(pattern string, value any) (bool, error) {
	var s string
	switch v := value.(type) {
	case nil:
		return false, nil
	case []byte: // go-sqlite3 passes NULL as a nil []byte
		if v == nil {
			return false, nil
		}
		s = string(v)
	case string:
		s = v
	default:
		s = fmt.Sprint(v)
	}
	reCache.Lock()
	re, ok := reCache.m[pattern]
	reCache.Unlock()
	if !ok {
		var err error
		if re, err = regexp.Compile(pattern); err != nil {
			return false, err
		}
		reCache.Lock()
		if len(reCache.m) > 256 {
			reCache.m = map[string]*regexp.Regexp{}
		}
		reCache.m[pattern] = re
		reCache.Unlock()
	}
	return re.MatchString(s), nil
}

func sqliteLower(v any) any {
	switch s := v.(type) {
	case string:
		return strings.ToLower(s)
	case []byte:
		if s != nil {
			return strings.ToLower(string(s))
		}
	}
	return v
}

// tsLayout is the canonical, fixed-width, sortable form used on SQLite.
const tsLayout = "2006-01-02 15:04:05.000000000"

func canonTS(t time.Time) string { return t.UTC().Format(tsLayout) }

// storedLayouts are the layouts go-sqlite3 writes (Z07:00 also accepts ±hh:mm)
// and ISO 8601 as written by JSON encoders (custom field values).
var storedLayouts = []string{
	"2006-01-02 15:04:05.999999999Z07:00", "2006-01-02T15:04:05.999999999Z07:00",
	"2006-01-02 15:04:05.999999999", "2006-01-02T15:04:05.999999999",
	"2006-01-02 15:04", "2006-01-02T15:04", "2006-01-02",
}

func sqliteTS(v any) any {
	var s string
	switch x := v.(type) {
	case string:
		s = x
	case []byte:
		if x == nil {
			return nil
		}
		s = string(x)
	default:
		return v
	}
	for _, l := range storedLayouts {
		if t, err := time.Parse(l, s); err == nil {
			return canonTS(t)
		}
	}
	return s
}
