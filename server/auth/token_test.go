package auth

import (
	"errors"
	"strings"
	"testing"
	"time"
)

var (
	pepperA = strings.Repeat("A", 50)
	pepperB = strings.Repeat("b", 60)
)

func TestPeppersValidate(t *testing.T) {
	tests := []struct {
		name string
		p    Peppers
		ok   bool
	}{
		{"empty is valid", Peppers{}, true},
		{"nil is valid", nil, true},
		{"ok", Peppers{0: pepperA, 32767: pepperB}, true},
		{"negative id", Peppers{-1: pepperA}, false},
		{"id too big", Peppers{32768: pepperA}, false},
		{"49 chars", Peppers{1: pepperA[:49]}, false},
		{"50 multibyte chars counted as characters", Peppers{1: strings.Repeat("é", 50)}, true},
	}
	for _, tt := range tests {
		if err := tt.p.Validate(); (err == nil) != tt.ok {
			t.Errorf("%s: Validate() = %v", tt.name, err)
		}
	}
}

func TestPeppersNewest(t *testing.T) {
	if _, _, ok := (Peppers{}).Newest(); ok {
		t.Fatal("empty set has a newest pepper")
	}
	id, p, ok := Peppers{0: pepperA, 7: pepperB, 3: pepperA}.Newest()
	if !ok || id != 7 || p != pepperB {
		t.Fatalf("Newest = %d %q %v", id, p, ok)
	}
	id, _, ok = Peppers{0: pepperA}.Newest()
	if !ok || id != 0 {
		t.Fatalf("id 0 must be usable: %d %v", id, ok)
	}
}

func TestGeneration(t *testing.T) {
	for _, tt := range []struct {
		f func() string
		n int
	}{{NewKey, 12}, {NewSecret, 40}} {
		seen := map[string]bool{}
		for range 200 {
			s := tt.f()
			if len(s) != tt.n || strings.Trim(s, alphabet) != "" {
				t.Fatalf("bad value %q", s)
			}
			if seen[s] {
				t.Fatalf("duplicate %q", s)
			}
			seen[s] = true
		}
	}
	// Every alphabet character appears and none dominates (no modulo bias:
	// with bias, the first 8 characters would be ~25% more frequent).
	counts := map[rune]int{}
	const n = 62 * 2000
	s := randomString(n)
	for _, c := range s {
		counts[c]++
	}
	if len(counts) != 62 {
		t.Fatalf("%d distinct characters", len(counts))
	}
	for c, k := range counts {
		if k < 1700 || k > 2300 {
			t.Errorf("character %q drawn %d times (expected ~2000)", c, k)
		}
	}
}

func TestDigestAndVerify(t *testing.T) {
	// Reference value from Python: hmac.new(b"p"*50, b"abc", sha256).hexdigest()
	pep := strings.Repeat("p", 50)
	want := "5ea208819d3319e3b29345b222304f5c658c9753003912df7df6e5bd6e1d0726"
	if got := Digest(pep, "abc"); got != want {
		t.Fatalf("Digest = %s", got)
	}
	secret := NewSecret()
	d := Digest(pepperA, secret)
	tests := []struct {
		name                      string
		pepper, plaintext, digest string
		ok                        bool
	}{
		{"match", pepperA, secret, d, true},
		{"upper-case hex", pepperA, secret, strings.ToUpper(d), true},
		{"wrong pepper", pepperB, secret, d, false},
		{"missing pepper", "", secret, d, false},
		{"wrong secret", pepperA, secret + "x", d, false},
		{"truncated digest", pepperA, secret, d[:62], false},
		{"not hex", pepperA, secret, strings.Repeat("z", 64), false},
		{"empty digest", pepperA, secret, "", false},
		{"v1 lookup digest is not a v2 digest", pepperA, secret, V1Lookup(pepperA, secret), false},
	}
	for _, tt := range tests {
		if got := Verify(tt.pepper, tt.plaintext, tt.digest); got != tt.ok {
			t.Errorf("%s: Verify = %v", tt.name, got)
		}
	}
}

func TestV1Lookups(t *testing.T) {
	p := Peppers{1: pepperA, 5: pepperB}
	plain := NewSecret()
	id, d, err := p.NewTokenDigest(1, plain)
	if err != nil || id != 5 || d != V1Lookup(pepperB, plain) {
		t.Fatalf("NewTokenDigest(1) = %d %s %v", id, d, err)
	}
	c := p.V1Lookups(plain)
	if len(c) != 2 || c[0] != (PepperDigest{5, d}) || c[1] != (PepperDigest{1, V1Lookup(pepperA, plain)}) {
		t.Fatalf("V1Lookups = %+v", c)
	}
	if V1Lookup(pepperA, plain) == V1Lookup(pepperB, plain) || len(d) != 64 {
		t.Fatal("lookup digest must depend on the pepper")
	}
	id, d, err = p.NewTokenDigest(2, plain)
	if err != nil || id != 5 || !Verify(pepperB, plain, d) {
		t.Fatalf("NewTokenDigest(2) = %d %s %v", id, d, err)
	}
	for v, want := range map[int]Error{1: ErrNoPeppersV1, 2: ErrNoPeppers} {
		var e Error
		if _, _, err := (Peppers{}).NewTokenDigest(v, plain); !errors.Is(err, ErrNoPepper) || !errors.As(err, &e) || e != want {
			t.Errorf("v%d without peppers: %v", v, err)
		}
	}
}

func TestDisplay(t *testing.T) {
	plain := "abcdefghijklmnopqrstuvwxyz0123456789WXYZ"
	stars := strings.Repeat("*", 34)
	tests := []struct {
		version    int
		key, input string
		want       string
	}{
		{2, "AbCdEfGhIjKl", "", "AbCdEfGhIjKl"},
		{1, "", plain, stars + "89WXYZ"},
		{1, "", Last6(plain), stars + "89WXYZ"},
	}
	for _, tt := range tests {
		if got := Display(tt.version, tt.key, tt.input); got != tt.want {
			t.Errorf("Display(%d, %q, %q) = %q", tt.version, tt.key, tt.input, got)
		}
	}
	if len(Display(1, "", plain)) != 40 {
		t.Error("v1 display must be 40 characters")
	}
	if got := BearerValue("k", "s"); got != "svc_k.s" {
		t.Errorf("BearerValue = %q", got)
	}
	if c, _ := ParseAuthorization("Bearer " + BearerValue("key", plain)); c != (Credential{2, "key", plain}) {
		t.Errorf("round trip = %+v", c)
	}
}

func TestExpiredAndLastUsed(t *testing.T) {
	now := time.Date(2025, 1, 1, 12, 0, 0, 0, time.UTC)
	at := func(d time.Duration) *time.Time { x := now.Add(d); return &x }
	for _, tt := range []struct {
		expires *time.Time
		want    bool
	}{{nil, false}, {at(time.Nanosecond), false}, {at(0), true}, {at(-time.Second), true}} {
		if got := Expired(tt.expires, now); got != tt.want {
			t.Errorf("Expired(%v) = %v", tt.expires, got)
		}
	}
	for _, tt := range []struct {
		last *time.Time
		want bool
	}{{nil, true}, {at(-60 * time.Second), false}, {at(-61 * time.Second), true}, {at(-time.Second), false}} {
		if got := LastUsedStale(tt.last, now); got != tt.want {
			t.Errorf("LastUsedStale(%v) = %v", tt.last, got)
		}
	}
}
