package choicesets

import "testing"

// TestSets: each embedded set decodes to its source's size, sorted with
// unique values, with labels as NetBox writes them (tabs and quotes of
// NetBox's IATA list kept).
func TestSets(t *testing.T) {
	for _, tc := range []struct {
		name   string
		count  int
		checks []Choice
	}{
		{"IATA", 9765, []Choice{{"AAA", "AAA (Anaa, PF)"},
			{"AAC", "AAC (El Arish International Airport, Muhafazat Shamal Sina', EG)"},
			{"SDZ", "SDZ (Shetland Islands\tMetropolitan Area, GB)"}}},
		{"ISO_3166", 249, []Choice{{"AD", "AD (Andorra)"}, {"ZW", "ZW (Zimbabwe)"}}},
		{"UN_LOCODE", 115770, []Choice{{"ADALV", "ADALV (Andorra la Vella, AD)"},
			{"MUPEY", "MUPEY (Pointe d\u2019Esny, MU)"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cs := Get(tc.name)
			if len(cs) != tc.count || Count(tc.name) != tc.count {
				t.Fatalf("%d choices, want %d", len(cs), tc.count)
			}
			for i := 1; i < len(cs); i++ {
				if cs[i-1].Value >= cs[i].Value {
					t.Fatalf("%q before %q", cs[i-1].Value, cs[i].Value)
				}
			}
			for _, want := range tc.checks {
				if !Has(tc.name, want.Value) {
					t.Errorf("Has(%q) false", want.Value)
				}
				found := false
				for _, c := range cs {
					found = found || c == want
				}
				if !found {
					t.Errorf("%q missing", want)
				}
			}
			low := Lower(tc.name)
			if len(low) != len(cs) || low[0].Value == cs[0].Value {
				t.Errorf("Lower: %d entries, first %q", len(low), low[0])
			}
			for _, v := range []string{"", "aaa", "ZZZZZZ", cs[0].Value + " "} {
				if Has(tc.name, v) {
					t.Errorf("Has(%q) true", v)
				}
			}
		})
	}
	if Get("NOPE") != nil || Count("NOPE") != 0 || Has("NOPE", "AD") || Lower("NOPE") != nil {
		t.Error("unknown set has choices")
	}
}
