package session

import (
	"testing"
	"time"
)

// TestLimiter: a key is refused once it reached Max failures within the
// window, until its oldest counted failure leaves it; keys are counted
// apart; Reset forgets one key only.
func TestLimiter(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	at := func(min int) time.Time { return t0.Add(time.Duration(min) * time.Minute) }
	type step struct {
		fail    []string // keys failing at this minute
		reset   string
		check   []string
		blocked bool
		wait    time.Duration
	}
	for _, c := range []struct {
		name  string
		steps map[int]step
	}{
		{"below the maximum", map[int]step{0: {fail: []string{"u"}}, 1: {fail: []string{"u"}}, 2: {check: []string{"u"}}}},
		{"at the maximum", map[int]step{0: {fail: []string{"u"}}, 1: {fail: []string{"u"}}, 2: {fail: []string{"u"}},
			3: {check: []string{"u"}, blocked: true, wait: 7 * time.Minute}}},
		{"window slides", map[int]step{0: {fail: []string{"u"}}, 1: {fail: []string{"u"}}, 2: {fail: []string{"u"}},
			5: {check: []string{"u"}, blocked: true, wait: 5 * time.Minute}, 10: {check: []string{"u"}}}},
		{"keys apart", map[int]step{0: {fail: []string{"u", "a"}}, 1: {fail: []string{"v", "a"}}, 2: {fail: []string{"w", "a"}},
			3: {check: []string{"u"}}, 4: {check: []string{"x", "a"}, blocked: true, wait: 6 * time.Minute}}},
		{"reset", map[int]step{0: {fail: []string{"u", "a"}}, 1: {fail: []string{"u", "a"}}, 2: {fail: []string{"u", "a"}},
			3: {reset: "u", check: []string{"u"}}, 4: {check: []string{"a"}, blocked: true, wait: 6 * time.Minute}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			l := &Limiter{Max: 3, Window: 10 * time.Minute}
			for m := 0; m <= 20; m++ {
				s, ok := c.steps[m]
				if !ok {
					continue
				}
				if s.reset != "" {
					l.Reset(s.reset)
				}
				if s.check != nil {
					blocked, wait := l.Blocked(at(m), s.check...)
					if blocked != s.blocked || wait != s.wait {
						t.Errorf("minute %d %v: blocked %v wait %v, want %v %v", m, s.check, blocked, wait, s.blocked, s.wait)
					}
				}
				if s.fail != nil {
					l.Fail(at(m), s.fail...)
				}
			}
		})
	}
}
