package filters

import (
	"context"
	stdsql "database/sql"
	"errors"
	"fmt"
	"net/url"
	"os"
	"reflect"
	"strings"
	"testing"
	"time"

	"entgo.io/ent/dialect"
	"entgo.io/ent/dialect/sql"
	_ "github.com/jackc/pgx/v5/stdlib"
)

// testDB is one database the suite runs on: SQLite always, PostgreSQL when
// INVENTORY_TEST_POSTGRES holds a DSN (in a throwaway schema).
type testDB struct {
	name, dialect string
	db            *stdsql.DB
}

func openDBs(t *testing.T) []testDB {
	t.Helper()
	RegisterSQLite()
	RegisterSQLite() // idempotent
	lite, err := stdsql.Open(SQLiteDriver, "file:filters_test?mode=memory&cache=private")
	if err != nil {
		t.Fatal(err)
	}
	lite.SetMaxOpenConns(1) // one in-memory database
	t.Cleanup(func() { lite.Close() })
	dbs := []testDB{{"sqlite", dialect.SQLite, lite}}
	dsn := os.Getenv("INVENTORY_TEST_POSTGRES")
	if dsn == "" {
		t.Log("INVENTORY_TEST_POSTGRES not set: PostgreSQL skipped")
	} else {
		admin, err := stdsql.Open("pgx", dsn)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { admin.Close() })
		schema := fmt.Sprintf("filters_test_%d_%d", os.Getpid(), time.Now().UnixNano())
		if _, err := admin.Exec("CREATE SCHEMA " + schema); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { admin.Exec("DROP SCHEMA " + schema + " CASCADE") })
		sep := "?"
		if strings.Contains(dsn, "?") {
			sep = "&"
		}
		pg, err := stdsql.Open("pgx", dsn+sep+"search_path="+schema)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { pg.Close() })
		dbs = append(dbs, testDB{"postgres", dialect.Postgres, pg})
	}
	for _, d := range dbs {
		seed(t, d)
	}
	return dbs
}

func seed(t *testing.T, d testDB) {
	t.Helper()
	types := map[string]string{"real": "REAL", "ts": "DATETIME", "json": "JSON"}
	if d.dialect == dialect.Postgres {
		types = map[string]string{"real": "DOUBLE PRECISION", "ts": "TIMESTAMPTZ", "json": "JSONB"}
	}
	ddl := []string{
		"CREATE TABLE regions (id INTEGER PRIMARY KEY, name TEXT NOT NULL, slug TEXT NOT NULL, parent_id INTEGER NULL)",
		"CREATE TABLE tenants (id INTEGER PRIMARY KEY, name TEXT NOT NULL, slug TEXT NOT NULL, region_id INTEGER NULL, rank INTEGER NULL)",
		"CREATE TABLE tags (id INTEGER PRIMARY KEY, slug TEXT NOT NULL)",
		"CREATE TABLE tagged (id INTEGER PRIMARY KEY, tag_id INTEGER NOT NULL, object_type TEXT NOT NULL, object_id INTEGER NOT NULL)",
		"CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT NULL, status TEXT NOT NULL, count INTEGER NULL, weight " + types["real"] +
			" NULL, active BOOLEAN NOT NULL, created " + types["ts"] + " NULL, installed DATE NULL, tenant_id INTEGER NULL, region_id INTEGER NULL, cfd " +
			types["json"] + " NULL)",
	}
	for _, s := range ddl {
		if _, err := d.db.Exec(s); err != nil {
			t.Fatalf("%s: %v", d.name, err)
		}
	}
	ins := func(table string, cols []string, rows ...[]any) {
		for _, r := range rows {
			q, args := sql.Dialect(d.dialect).Insert(table).Columns(cols...).Values(r...).Query()
			if _, err := d.db.Exec(q, args...); err != nil {
				t.Fatalf("%s: %s: %v", d.name, q, err)
			}
		}
	}
	ins("regions", []string{"id", "name", "slug", "parent_id"},
		[]any{1, "Europe", "europe", nil}, []any{2, "Germany", "germany", 1}, []any{3, "Berlin", "berlin", 2}, []any{4, "Asia", "asia", nil})
	// Tenants have a region and a rank for the Through filters: One in
	// Berlin (under Germany, Europe), Two in Asia, Three nowhere.
	ins("tenants", []string{"id", "name", "slug", "region_id", "rank"},
		[]any{1, "One", "t-one", 3, 5}, []any{2, "Two", "t-two", 4, nil}, []any{3, "Three", "t-three", nil, 1})
	ins("tags", []string{"id", "slug"}, []any{1, "red"}, []any{2, "blue"}, []any{3, "green"})
	ins("tagged", []string{"id", "tag_id", "object_type", "object_id"},
		[]any{1, 1, "test.item", 1}, []any{2, 2, "test.item", 1}, []any{3, 1, "test.item", 2}, []any{4, 2, "test.item", 3},
		[]any{5, 1, "test.other", 4}) // another model's object 4: must not count
	utc := func(s string) time.Time { t, _ := time.Parse("2006-01-02 15:04:05.999999", s); return t }
	day := func(s string) time.Time { t, _ := time.Parse("2006-01-02", s); return t }
	plus2 := time.Date(2002, 1, 1, 0, 0, 0, 0, time.FixedZone("", 2*3600)) // 2001-12-31 22:00 UTC
	ins("items", []string{"id", "name", "status", "count", "weight", "active", "created", "installed", "tenant_id", "region_id", "cfd"},
		[]any{1, "Alpha", "active", 10, 1.5, true, utc("2001-02-03 01:02:03"), day("2020-01-01"), 1, 2,
			`{"txt":"Hello World","txte":"Hello","num":5,"dec":1.25,"flag":true,"day":"2021-05-01","when":"2021-05-01T10:00:00+00:00","sel":"a","ms":["a","b"],"obj":1,"mobj":[1,2],"js":{"a":1}}`},
		[]any{2, "beta", "planned", 20, 2.5, false, utc("2001-02-03 01:02:03.000004"), day("2020-06-01"), 2, 3,
			`{"txt":"hello there","txte":"hello","num":7,"dec":2.5,"flag":false,"day":"2021-06-01","when":"2021-05-01T12:00:00+02:00","sel":"b","ms":["c"],"obj":2,"mobj":[3]}`},
		[]any{3, "Gamma_100%", "active", nil, nil, true, nil, nil, nil, 1, `{"txt":"","num":null,"ms":[],"mobj":[]}`},
		[]any{4, nil, "retired", 30, 3.0, false, plus2, nil, 1, nil, nil},
		[]any{5, "", "active", 0, 0.0, true, utc("2001-02-03 00:00:00"), day("2020-01-01"), nil, 4, `{}`},
		[]any{6, "ALPHA-2", "planned", -5, -1.5, false, utc("2001-02-04 00:00:00"), day("2021-01-01"), 3, 2,
			`{"txt":"50%_off","txte":"HELLO","num":-1,"dec":-0.5,"flag":null,"day":"2020-01-01","when":"2021-05-01T10:00:00Z","sel":"a","ms":["b"],"obj":1,"mobj":[2]}`},
	)
}

func testSpec() *Spec {
	return &Spec{
		Table: "items",
		Filters: []*Filter{
			{Name: "id", Kind: Integer, Column: "id"},
			{Name: "name", Kind: String, Column: "name", Nullable: true},
			{Name: "status", Kind: Choice, Column: "status", Choices: []string{"active", "planned", "retired"}},
			{Name: "count", Kind: Integer, Column: "count"},
			{Name: "weight", Kind: Decimal, Column: "weight"},
			{Name: "active", Kind: Boolean, Column: "active"},
			{Name: "created", Kind: DateTime, Column: "created"},
			{Name: "installed", Kind: Date, Column: "installed"},
			{Name: "tenant_id", Kind: ForeignID, Column: "tenant_id", RelTable: "tenants"},
			{Name: "tenant", Kind: ForeignAttr, Column: "tenant_id", RelTable: "tenants", RelColumn: "slug"},
			{Name: "region_id", Kind: TreeID, Column: "region_id", RelTable: "regions", RelParent: "parent_id"},
			{Name: "region", Kind: TreeAttr, Column: "region_id", RelTable: "regions", RelColumn: "slug", RelParent: "parent_id"},
			{Name: "tag", Kind: TagSlug},
			{Name: "tag_id", Kind: TagID},
			// Through the tenant (items 1, 4 → One; 2 → Two; 6 → Three; 3, 5 none).
			{Name: "tenant_region_id", Kind: TreeID, Column: "tenant_id", RelTable: "regions", RelParent: "parent_id",
				Through: &Through{"tenants", "region_id"}},
			{Name: "tenant_region", Kind: TreeAttr, Column: "tenant_id", RelTable: "regions", RelColumn: "slug", RelParent: "parent_id",
				Through: &Through{"tenants", "region_id"}},
			{Name: "tenant_direct_region", Kind: ForeignAttr, Column: "tenant_id", RelTable: "regions", RelColumn: "slug",
				Through: &Through{"tenants", "region_id"}},
			{Name: "tenant_direct_region_id", Kind: ForeignID, Column: "tenant_id", RelTable: "regions",
				Through: &Through{"tenants", "region_id"}},
			{Name: "tenant_rank", Kind: Integer, Column: "tenant_id", Through: &Through{"tenants", "rank"}},
			{Name: "tenant_name", Kind: String, Column: "tenant_id", Nullable: true, Through: &Through{"tenants", "name"}},
			// Two relations away: the parent of the tenant's region.
			{Name: "tenant_region_parent_id", Kind: ForeignID, Column: "tenant_id", RelTable: "regions",
				Through: &Through{"tenants", "region_id"}, Beyond: []Through{{"regions", "parent_id"}}},
			{Name: "tenant_region_parent", Kind: TreeAttr, Column: "tenant_id", RelTable: "regions", RelColumn: "slug",
				RelParent: "parent_id", Through: &Through{"tenants", "region_id"}, Beyond: []Through{{"regions", "parent_id"}}},
			// Into: rows of another table pointing at the item through a
			// generic relation (the tagged rows of test.item), and a hop
			// from the item's own FK column.
			{Name: "tagged_with", Kind: ForeignID, RelTable: "tags",
				Into: []Hop{{Table: "tagged", Key: "object_id", TypeColumn: "object_type", Type: "test.item", Column: "tag_id"}}},
			{Name: "tenant_in_region_id", Kind: TreeID, Column: "tenant_id", RelTable: "regions", RelParent: "parent_id",
				Into: []Hop{{Table: "tenants", Key: "id", Column: "region_id"}}},
			{Name: "q", Kind: Custom, Func: func(lookup string, values []string) (func(*sql.Selector), error) {
				if values[0] == "bad" {
					return nil, errors.New("Enter a valid UUID.")
				}
				return func(s *sql.Selector) { s.Where(sql.ContainsFold(s.C("name"), values[0])) }, nil
			}},
			{Name: "search", Kind: Custom, Func: Search("name", "status")},
		},
		Ordering: map[string]string{"id": "id", "name": "name", "status": "status", "count": "count", "created": "created"},
		Default:  []string{"name"},
		TagTable: "tagged", TagsTable: "tags", ObjectType: "test.item",
		CustomFields: func(context.Context) ([]CustomField, error) {
			return []CustomField{
				{"txt", "text", "loose"}, {"txte", "text", "exact"}, {"num", "integer", "loose"}, {"dec", "decimal", "loose"},
				{"flag", "boolean", "loose"}, {"day", "date", "loose"}, {"when", "datetime", "loose"}, {"sel", "select", "exact"},
				{"ms", "multiselect", "loose"}, {"obj", "object", "loose"}, {"mobj", "multiobject", "loose"},
				{"js", "json", "loose"}, {"off", "text", "disabled"},
			}, nil
		},
		CustomFieldColumn: "cfd",
	}
}

var all = []int64{1, 2, 3, 4, 5, 6}

func ids(v ...int64) []int64 { return append([]int64{}, v...) }

func msg(k, m string) Errors { return Errors{k: {m}} }

func choice(k, v string) Errors {
	return msg(k, "Select a valid choice. "+v+" is not one of the available choices.")
}

type filterCase struct {
	q    string
	want []int64
	err  Errors
	mode Unknown // FILTER_UNKNOWN; default Strict
}

var filterCases = []filterCase{
	// String: exact is case-sensitive, OR within, null means IS NULL.
	{q: "name=Alpha", want: ids(1)},
	{q: "name=alpha", want: ids()},
	{q: "name=Alpha&name=beta", want: ids(1, 2)},
	{q: "name=null", want: ids(4)},
	{q: "name=", want: all},
	{q: "name__n=Alpha", want: ids(2, 3, 4, 5, 6)},
	{q: "name__n=Alpha&name__n=beta", want: ids(3, 4, 5, 6)},
	{q: "name__n=null", want: ids(1, 2, 3, 5, 6)},
	{q: "name__ic=alpha", want: ids(1, 6)},
	{q: "name__ic=ALP&name__ic=eta", want: ids(1, 2, 6)},
	{q: "name__nic=alpha", want: ids(2, 3, 4, 5)},
	{q: "name__ic=%25", want: ids(3)},
	{q: "name__ic=_", want: ids(3)},
	{q: `name__ic=\`, want: ids()},
	{q: "name__isw=al", want: ids(1, 6)},
	{q: "name__nisw=al", want: ids(2, 3, 4, 5)},
	{q: "name__iew=HA", want: ids(1)},
	{q: "name__niew=ha", want: ids(2, 3, 4, 5, 6)},
	{q: "name__ie=ALPHA", want: ids(1)},
	{q: "name__nie=alpha", want: ids(2, 3, 4, 5, 6)},
	{q: "name__empty=true", want: ids(4, 5)},
	{q: "name__empty=false", want: ids(1, 2, 3, 6)},
	{q: "name__empty=maybe", err: msg("name__empty", "“maybe” value must be either True or False.")},
	{q: "name__regex=^[A-Z]", want: ids(1, 3, 6)},
	{q: "name__regex=^a", want: ids()},
	{q: "name__iregex=^a", want: ids(1, 6)},
	{q: "name__iregex=a$&name__regex=^b", want: ids(2)}, // different params AND
	{q: "name__regex=(", err: msg("name__regex", "Enter a valid regular expression.")},
	{q: "name=%ff", err: msg("name", "Enter a valid value: the text is not valid UTF-8.")},
	{q: "name__ic=%ED%A0%80", err: msg("name__ic", "Enter a valid value: the text is not valid UTF-8.")},
	{q: "count__empty=1", want: ids(3)},
	{q: "count__empty=asdf", err: msg("count__empty", "“asdf” value must be either True or False.")},
	// Choice
	{q: "status=active", want: ids(1, 3, 5)},
	{q: "status=active&status=planned", want: ids(1, 2, 3, 5, 6)},
	{q: "status__n=active", want: ids(2, 4, 6)},
	{q: "status__ie=active", want: ids(1, 3, 5)},
	{q: "status=bogus", err: choice("status", "bogus")},
	{q: "status=null", err: choice("status", "null")},
	{q: "status__empty=false", want: all},
	// Integer / Decimal
	{q: "id=1&id=2", want: ids(1, 2)},
	{q: "id__gte=5", want: ids(5, 6)},
	{q: "count=10", want: ids(1)},
	{q: "count=10.0", want: ids(1)},
	{q: "count=10&count=20", want: ids(1, 2)},
	{q: "count__gt=10", want: ids(2, 4)},
	{q: "count__gte=10", want: ids(1, 2, 4)},
	{q: "count__lt=0", want: ids(6)},
	{q: "count__lte=0", want: ids(5, 6)},
	{q: "count__n=10", want: ids(2, 3, 4, 5, 6)},
	{q: "count__empty=true", want: ids(3)},
	{q: "count__empty=false", want: ids(1, 2, 4, 5, 6)},
	{q: "count=abc", err: msg("count", "Enter a whole number.")},
	{q: "count=null", err: msg("count", "Enter a whole number.")},
	{q: "count__gt=1.5", err: msg("count__gt", "Enter a whole number.")},
	{q: "weight=1.5", want: ids(1)},
	{q: "weight__gt=2", want: ids(2, 4)},
	{q: "weight__lt=0", want: ids(6)},
	{q: "weight__empty=true", want: ids(3)},
	{q: "weight=x", err: msg("weight", "Enter a number.")},
	// Boolean never errors.
	{q: "active=true", want: ids(1, 3, 5)},
	{q: "active=False", want: ids(2, 4, 6)},
	{q: "active=1", want: ids(1, 3, 5)},
	{q: "active=yes", err: msg("active", "“yes” value must be either True or False.")},
	{q: "active=true&active=0", want: ids(2, 4, 6)},
	// DateTime / Date
	{q: "created=2001-02-03T01:02:03Z", want: ids(1)},
	{q: "created=2001-02-03 01:02:03.000004", want: ids(2)},
	{q: "created=2001-02-03", want: ids(5)},
	{q: "created__gt=2001-02-03 01:02:03", want: ids(2, 4, 6)},
	{q: "created__lt=2001-02-03T01:02:03Z", want: ids(5)},
	{q: "created__gte=2001-12-31T23:00:00%2B01:00", want: ids(4)},
	{q: "created__lte=2001-02-03", want: ids(5)},
	{q: "created__n=2001-02-03", want: ids(1, 2, 3, 4, 6)},
	{q: "created__empty=true", want: ids(3)},
	{q: "created=nope", err: msg("created", "Enter a valid date/time.")},
	{q: "installed=2020-01-01", want: ids(1, 5)},
	{q: "installed__gt=2020-01-01", want: ids(2, 6)},
	{q: "installed__n=2020-01-01", want: ids(2, 3, 4, 6)},
	{q: "installed__empty=true", want: ids(3, 4)},
	{q: "installed=06/01/2020", want: ids(2)},
	{q: "installed=2020-13-01", err: msg("installed", "Enter a valid date.")},
	// Foreign keys
	{q: "tenant_id=1", want: ids(1, 4)},
	{q: "tenant_id=null", want: ids(3, 5)},
	{q: "tenant_id=1&tenant_id=null", want: ids(1, 3, 4, 5)},
	{q: "tenant_id__n=1", want: ids(2, 3, 5, 6)},
	{q: "tenant_id__n=null", want: ids(1, 2, 4, 6)},
	{q: "tenant_id=abc", err: msg("tenant_id", "“abc” is not a valid value.")},
	{q: "tenant_id=99", err: choice("tenant_id", "99")},
	{q: "tenant=t-one", want: ids(1, 4)},
	{q: "tenant=t-one&tenant=t-three", want: ids(1, 4, 6)},
	{q: "tenant=null", want: ids(3, 5)},
	{q: "tenant__n=t-one", want: ids(2, 3, 5, 6)},
	{q: "tenant=T-ONE", err: choice("tenant", "T-ONE")},
	{q: "tenant=t-one&tenant=nope", err: choice("tenant", "nope")},
	// Trees
	{q: "region_id=1", want: ids(1, 2, 3, 6)},
	{q: "region_id=2", want: ids(1, 2, 6)},
	{q: "region_id=3&region_id=4", want: ids(2, 5)},
	{q: "region_id=null", want: ids(4)},
	{q: "region_id__n=2", want: ids(3, 4, 5)},
	{q: "region_id=99", err: choice("region_id", "99")},
	{q: "region=europe", want: ids(1, 2, 3, 6)},
	{q: "region=germany&region=asia", want: ids(1, 2, 5, 6)},
	{q: "region__n=europe", want: ids(4, 5)},
	{q: "region=nope", err: choice("region", "nope")},
	// Tags: AND, any (OR), n (NOR)
	{q: "tag=red", want: ids(1, 2)},
	{q: "tag=red&tag=blue", want: ids(1)},
	{q: "tag=green", want: ids()},
	{q: "tag__any=red&tag__any=blue", want: ids(1, 2, 3)},
	{q: "tag__n=red", want: ids(3, 4, 5, 6)},
	{q: "tag__n=red&tag__n=blue", want: ids(4, 5, 6)},
	{q: "tag=nope", err: choice("tag", "nope")},
	{q: "tag_id=1", want: ids(1, 2)},
	{q: "tag_id=1&tag_id=2", want: ids(1)},
	{q: "tag_id__any=1&tag_id__any=2", want: ids(1, 2, 3)},
	{q: "tag_id__n=2", want: ids(2, 4, 5, 6)},
	{q: "tag_id=x", err: msg("tag_id", "“x” is not a valid value.")},
	{q: "tag_id=99", err: choice("tag_id", "99")},
	// Custom, combinations, strictness
	{q: "q=ALP", want: ids(1, 6)},
	{q: "q=bad", err: msg("q", "Enter a valid UUID.")},
	{q: "q=", want: all},
	{q: "search=ALP", want: ids(1, 6)},
	{q: "search=plan", want: ids(2, 6)},
	{q: "search=x&search=TIR", want: ids(4)},
	{q: "search=%20", want: all},
	{q: "status=active&tenant_id=1", want: ids(1)},
	{q: "status=active&tag=blue&region=europe", want: ids(1, 3)},
	{q: "limit=5&offset=1&ordering=name&brief=1", want: all},
	{q: "foo=1", err: msg("foo", "Unknown filter parameter.")},
	{q: "foo=1", want: all, mode: Ignore},
	{q: "foo=", err: msg("foo", "Unknown filter parameter.")},
	{q: "name__bogus=1", err: msg("name__bogus", `Unknown filter parameter: "name" does not support the lookup "bogus".`)},
	{q: "active__n=1", err: msg("active__n", `Unknown filter parameter: "active" does not support the lookup "n".`)},
	{q: "count=x&status=bad&name=Alpha", err: Errors{"count": {"Enter a whole number."}, "status": {"Select a valid choice. bad is not one of the available choices."}}},
	// Custom fields
	{q: "cf_txt=hello", want: ids(1, 2)},
	{q: "cf_txt=HELLO W", want: ids(1)},
	{q: "cf_txt=%25", want: ids(6)},
	{q: "cf_txt=null", want: ids(4, 5)},
	{q: "cf_txt__ic=x", err: msg("cf_txt__ic", `Unknown filter parameter: "cf_txt" does not support the lookup "ic".`)},
	{q: "cf_txte=hello", want: ids(2)},
	{q: "cf_txte__ie=hello", want: ids(1, 2, 6)},
	{q: "cf_txte__n=hello", want: ids(1, 3, 4, 5, 6)},
	{q: "cf_txte__isw=HE", want: ids(1, 2, 6)},
	{q: "cf_txte__regex=^H", want: ids(1, 6)},
	{q: "cf_txte__empty=true", want: ids(3, 4, 5)},
	{q: "cf_txte__empty=false", want: ids(1, 2, 6)},
	{q: "cf_sel__empty=true", want: ids(3, 4, 5)},
	{q: "cf_txt__empty=true", err: msg("cf_txt__empty", `Unknown filter parameter: "cf_txt" does not support the lookup "empty".`)},
	{q: "cf_num=5", want: ids(1)},
	{q: "cf_num=5&cf_num=7", want: ids(1, 2)},
	{q: "cf_num__gt=0", want: ids(1, 2)},
	{q: "cf_num__lt=0", want: ids(6)},
	{q: "cf_num__n=5", want: ids(2, 3, 4, 5, 6)},
	{q: "cf_num=null", want: ids(3, 4, 5)},
	{q: "cf_num__empty=true", want: ids(3, 4, 5)},
	{q: "cf_num__empty=false", want: ids(1, 2, 6)},
	{q: "cf_num=x", err: msg("cf_num", "Enter a whole number.")},
	{q: "cf_dec=1.25", want: ids(1)},
	{q: "cf_dec__gte=1.25", want: ids(1, 2)},
	{q: "cf_dec=abc", err: msg("cf_dec", "Enter a number.")},
	{q: "cf_flag=true", want: ids(1)},
	{q: "cf_flag=false", want: ids(2)},
	{q: "cf_flag=maybe", err: msg("cf_flag", "“maybe” value must be either True or False.")},
	{q: "cf_day=2021-05-01", want: ids(1)},
	{q: "cf_day__gt=2021-01-01", want: ids(1, 2)},
	{q: "cf_day__lt=2021-01-01", want: ids(6)},
	{q: "cf_day=2021-99-01", err: msg("cf_day", "Enter a valid date.")},
	{q: "cf_when=2021-05-01T10:00:00Z", want: ids(1, 2, 6)},
	{q: "cf_when__gt=2021-05-01 10:00", want: ids()},
	{q: "cf_when__gte=2021-05-01T09:00:00Z", want: ids(1, 2, 6)},
	{q: "cf_when=bad", err: msg("cf_when", "Enter a valid date/time.")},
	{q: "cf_sel=a", want: ids(1, 6)},
	{q: "cf_sel__n=a", want: ids(2, 3, 4, 5)},
	{q: "cf_sel__ic=A", want: ids(1, 6)},
	{q: "cf_ms=a", want: ids(1)},
	{q: "cf_ms=b", want: ids(1, 6)},
	{q: "cf_ms=b&cf_ms=c", want: ids(1, 2, 6)},
	{q: "cf_ms=null", want: ids(4, 5)},
	{q: "cf_obj=1", want: ids(1, 6)},
	{q: "cf_obj__n=1", want: ids(2, 3, 4, 5)},
	{q: "cf_mobj=2", want: ids(1, 6)},
	{q: "cf_mobj=3", want: ids(2)},
	{q: "cf_mobj__n=2", want: ids(2, 3, 4, 5)},
	{q: "cf_mobj__gt=2", want: ids(2)},
	{q: "cf_mobj__empty=true", want: ids(3, 4, 5)},
	{q: "cf_js=1", err: msg("cf_js", "Unknown filter parameter.")},
	{q: "cf_off=1&cf_off__n=2", want: all},
	{q: "cf_nope=1", err: msg("cf_nope", "Unknown filter parameter.")},
	{q: "cf_nope=1", want: all, mode: Ignore},
	// Guard: unknown parameters are ignored next to a known filter with
	// a value, refused when they are all there is.
	{q: "foo=1", err: msg("foo", "Unknown filter parameter."), mode: Guard},
	{q: "foo=1&name=", err: msg("foo", "Unknown filter parameter."), mode: Guard},
	{q: "foo=1&name__bogus=2&limit=1", err: Errors{"foo": {"Unknown filter parameter."}, "name__bogus": {`Unknown filter parameter: "name" does not support the lookup "bogus".`}}, mode: Guard},
	{q: "foo=1&name=Alpha", want: ids(1), mode: Guard},
	{q: "foo=1&count=x", err: msg("count", "Enter a whole number."), mode: Guard},
	{q: "foo=1&count=x", err: msg("count", "Enter a whole number."), mode: Ignore},
	{q: "foo=1&count=x", err: Errors{"foo": {"Unknown filter parameter."}, "count": {"Enter a whole number."}}},
	{q: "cf_off=1", want: all, mode: Guard},
	// Bounded values: length and count.
	{q: "name__ic=" + strings.Repeat("a", MaxValueLength), want: ids()},
	{q: "name__ic=" + strings.Repeat("é", MaxValueLength+1), err: msg("name__ic", "Ensure this value has at most 1000 characters.")},
	{q: "q=" + strings.Repeat("a", 50000), err: msg("q", "Ensure this value has at most 1000 characters.")},
	{q: "name__regex=" + strings.Repeat("(a", 600), err: msg("name__regex", "Ensure this value has at most 1000 characters.")},
	{q: strings.Repeat("id=1&", MaxValues) + "id=1", err: msg("id", "Ensure this parameter has at most 500 values.")},
	{q: strings.Repeat("name__ic=a&", MaxValues-1) + "name__ic=b", want: ids(1, 2, 3, 6)},
	{q: "foo=\x00", want: all, mode: Ignore},

	// Through: the predicate applies to the tenant's column.
	{q: "tenant_region=europe", want: ids(1, 4)},
	{q: "tenant_region_id=2", want: ids(1, 4)},
	{q: "tenant_region_id=4&tenant_region_id=3", want: ids(1, 2, 4)},
	{q: "tenant_region=asia", want: ids(2)},
	{q: "tenant_region__n=europe", want: ids(2, 3, 5, 6)},
	{q: "tenant_region_id__n=1&tenant_region_id__n=4", want: ids(3, 5, 6)},
	{q: "tenant_region=null", want: ids(3, 5, 6)}, // no tenant, or a tenant without region
	{q: "tenant_region__n=null", want: ids(1, 2, 4)},
	{q: "tenant_region=nope", err: choice("tenant_region", "nope")},
	{q: "tenant_region_id=99", err: choice("tenant_region_id", "99")},
	{q: "tenant_region_id=abc", err: msg("tenant_region_id", "“abc” is not a valid value.")},
	{q: "tenant_region__ic=eu", err: msg("tenant_region__ic", `Unknown filter parameter: "tenant_region" does not support the lookup "ic".`)},
	{q: "tenant_direct_region=berlin", want: ids(1, 4)},
	{q: "tenant_direct_region=europe", want: ids()}, // not a tree filter
	{q: "tenant_direct_region_id=4", want: ids(2)},
	{q: "tenant_direct_region_id=null&tenant_direct_region_id=3", want: ids(1, 3, 4, 5, 6)},
	{q: "tenant_rank=5", want: ids(1, 4)},
	{q: "tenant_rank__gte=1", want: ids(1, 4, 6)},
	{q: "tenant_rank__lt=5", want: ids(6)},
	{q: "tenant_rank__n=5", want: ids(2, 3, 5, 6)},
	{q: "tenant_rank__empty=true", want: ids(2, 3, 5)},
	{q: "tenant_rank__empty=false", want: ids(1, 4, 6)},
	{q: "tenant_rank=null", err: msg("tenant_rank", "Enter a whole number.")},
	{q: "tenant_name__ic=T", want: ids(2, 6)},
	{q: "tenant_name=null", want: ids(3, 5)},
	{q: "tenant_name__nie=one", want: ids(2, 3, 5, 6)},
	{q: "tenant_name__empty=true", want: ids(3, 5)},

	// Into: item 1 has tags 1 and 2, item 2 tag 1, item 3 tag 2; tag 1
	// on another model's object 4 does not count.
	{q: "tagged_with=1", want: ids(1, 2)},
	{q: "tagged_with=1&tagged_with=2", want: ids(1, 2, 3)},
	{q: "tagged_with__n=1", want: ids(3, 4, 5, 6)},
	{q: "tagged_with=null", want: ids(4, 5, 6)},
	{q: "tagged_with=null&tagged_with=2", want: ids(1, 3, 4, 5, 6)},
	{q: "tagged_with=99", err: choice("tagged_with", "99")},
	{q: "tagged_with=abc", err: msg("tagged_with", "“abc” is not a valid value.")},
	{q: "tenant_in_region_id=1", want: ids(1, 4)},
	{q: "tenant_in_region_id=4", want: ids(2)},
	{q: "tenant_in_region_id__n=1", want: ids(2, 3, 5, 6)},

	// Beyond: tenant → region → its parent (One's Berlin is below
	// Germany, Two's Asia has none, Three has no region).
	{q: "tenant_region_parent_id=2", want: ids(1, 4)},
	{q: "tenant_region_parent_id__n=2", want: ids(2, 3, 5, 6)},
	{q: "tenant_region_parent_id=null", want: ids(2, 3, 5, 6)},
	{q: "tenant_region_parent=europe", want: ids(1, 4)},
	{q: "tenant_region_parent=asia", want: ids()},
	{q: "tenant_region_parent=nope", err: choice("tenant_region_parent", "nope")},
}

// list runs the filters against items (optionally under an alias) and
// returns the matching ids in id order.
func list(ctx context.Context, d testDB, spec *Spec, q url.Values, mode Unknown, alias string, order []OrderTerm) ([]int64, error) {
	preds, err := spec.Apply(ctx, q, Options{Unknown: mode, Reserved: Reserved, Dialect: d.dialect, Exec: d.db})
	if err != nil {
		return nil, err
	}
	t := sql.Table("items")
	if alias != "" {
		t.As(alias)
	}
	sel := sql.Dialect(d.dialect).Select().From(t)
	sel.Select(sel.C("id"))
	for _, p := range preds {
		p(sel)
	}
	if order == nil {
		order = []OrderTerm{{Column: "id"}}
	}
	ApplyOrder(sel, order)
	query, args := sel.Query()
	rows, err := d.db.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, fmt.Errorf("%s %v: %w", query, args, err)
	}
	defer rows.Close()
	out := []int64{}
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		out = append(out, id)
	}
	return out, rows.Err()
}

func TestFilters(t *testing.T) {
	ctx := context.Background()
	spec := testSpec()
	for _, d := range openDBs(t) {
		for _, alias := range []string{"", "x1"} {
			for _, c := range filterCases {
				q, err := url.ParseQuery(c.q)
				if err != nil {
					t.Fatal(err)
				}
				mode := c.mode
				if mode == "" {
					mode = Strict
				}
				got, err := list(ctx, d, spec, q, mode, alias, nil)
				var fe Errors
				switch {
				case c.err != nil:
					if !errors.As(err, &fe) || !reflect.DeepEqual(fe, c.err) {
						t.Errorf("%s alias=%q %s: error = %v, want %v", d.name, alias, c.q, err, c.err)
					}
				case err != nil:
					t.Errorf("%s alias=%q %s: %v", d.name, alias, c.q, err)
				case !reflect.DeepEqual(got, c.want):
					t.Errorf("%s alias=%q %s: got %v, want %v", d.name, alias, c.q, got, c.want)
				}
			}
		}
	}
}

func TestOrdering(t *testing.T) {
	ctx := context.Background()
	spec := testSpec()
	cases := []struct {
		param string
		want  []int64
	}{
		// byte order: "" < "ALPHA-2" < "Alpha" < "Gamma_100%" < "beta"; NULL last ascending.
		{"name", ids(5, 6, 1, 3, 2, 4)},
		{"-name", ids(4, 2, 3, 1, 6, 5)},
		{"count", ids(6, 5, 1, 2, 4, 3)},
		{"-count", ids(3, 4, 2, 1, 5, 6)},
		{"status,-id", ids(5, 3, 1, 6, 2, 4)},
		{"-created", ids(3, 4, 6, 2, 1, 5)},
		{"bogus,-count", ids(3, 4, 2, 1, 5, 6)},
		{"bogus", ids(5, 6, 1, 3, 2, 4)},
		{"", ids(5, 6, 1, 3, 2, 4)},
	}
	for _, d := range openDBs(t) {
		for _, alias := range []string{"", "o"} {
			for _, c := range cases {
				got, err := list(ctx, d, spec, nil, Strict, alias, spec.Order(c.param))
				if err != nil || !reflect.DeepEqual(got, c.want) {
					t.Errorf("%s alias=%q ordering=%s: got %v %v, want %v", d.name, alias, c.param, got, err, c.want)
				}
			}
		}
	}
}

func TestOrderTerms(t *testing.T) {
	spec := testSpec()
	spec.Text = []string{"created"}
	got := spec.Order("-name, count,name,nope,-created")
	want := []OrderTerm{{"name", true, true}, {"count", false, false}, {"created", true, true}, {"id", false, false}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	spec.Default = []string{"-created", "id"}
	if got := spec.Order(""); !reflect.DeepEqual(got, []OrderTerm{{"created", true, true}, {"id", false, false}}) {
		t.Fatalf("default: got %v", got)
	}
	sel := sql.Dialect(dialect.Postgres).Select("id").From(sql.Table("items").As("t"))
	ApplyOrder(sel, spec.Order("-name"))
	if q, _ := sel.Query(); !strings.HasSuffix(q, `ORDER BY "t"."name" COLLATE "C" DESC NULLS FIRST, "t"."id" ASC NULLS LAST`) {
		t.Fatalf("postgres order: %s", q)
	}
}

// TestRender checks placeholders and quoting without a database.
func TestRender(t *testing.T) {
	spec := testSpec()
	q, _ := url.ParseQuery("name__ic=a%25&count__gt=1&cf_num__lt=3&created=2001-02-03")
	preds, err := spec.Apply(context.Background(), q, Options{Unknown: Strict, Dialect: dialect.Postgres})
	if err != nil {
		t.Fatal(err)
	}
	sel := sql.Dialect(dialect.Postgres).Select("id").From(sql.Table("items").As("i"))
	for _, p := range preds {
		p(sel)
	}
	query, args := sel.Query()
	// The pattern is a constant on PostgreSQL (pgLiteral): its backslash
	// escapes the % of the value.
	for _, s := range []string{`LOWER("i"."name") LIKE E'%a\\%%' ESCAPE '\'`, `"i"."count" > $`, `("i"."cfd")::jsonb ->> 'num'`, `$3`} {
		if !strings.Contains(query, s) {
			t.Errorf("missing %q in %s", s, query)
		}
	}
	if strings.Contains(query, "?") || len(args) != 3 {
		t.Errorf("placeholders: %s %v", query, args)
	}
	if _, err := spec.Apply(context.Background(), url.Values{"tag": {"red"}}, Options{}); err == nil || errors.As(err, new(Errors)) {
		t.Errorf("tag without Exec: want an internal error, got %v", err)
	}
}
