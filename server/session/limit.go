package session

import (
	"sync"
	"time"
)

// Limiter counts failed logins per key (a username, a client address) in
// a sliding window and refuses a key that reached its maximum until its
// oldest failure leaves the window. Guessing a password is then slow
// whichever way it is spread: many passwords for one user, or one
// password for many users from one address.
//
// The counts live in the process, not the database: a failed login
// writes nothing (a flood of them cannot fill a table or hold SQLite's
// writer), at the price that N replicas allow N times the attempts,
// still a fixed small number per window.
type Limiter struct {
	// Max failures per key within Window; Max <= 0 limits nothing.
	Max    int
	Window time.Duration

	mu    sync.Mutex
	fails map[string][]time.Time
}

// maxKeys bounds the memory an attacker can make the limiter use: past
// it, keys whose failures all left the window are dropped.
const maxKeys = 100_000

// Blocked reports whether any of keys is at its maximum at now, and when
// the first of them frees up.
func (l *Limiter) Blocked(now time.Time, keys ...string) (bool, time.Duration) {
	if l.Max <= 0 {
		return false, 0
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	var wait time.Duration
	for _, k := range keys {
		f := l.recent(k, now)
		if len(f) >= l.Max {
			if w := f[len(f)-l.Max].Add(l.Window).Sub(now); w > wait {
				wait = w
			}
		}
	}
	return wait > 0, wait
}

// Fail records a failed login under every key.
func (l *Limiter) Fail(now time.Time, keys ...string) {
	if l.Max <= 0 {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.fails == nil {
		l.fails = map[string][]time.Time{}
	}
	if len(l.fails) >= maxKeys {
		for k := range l.fails {
			if len(l.recent(k, now)) == 0 {
				delete(l.fails, k)
			}
		}
	}
	for _, k := range keys {
		f := append(l.recent(k, now), now)
		if len(f) > l.Max {
			f = f[len(f)-l.Max:]
		}
		l.fails[k] = f
	}
}

// Reset forgets a key's failures (a user who logged in).
func (l *Limiter) Reset(key string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	delete(l.fails, key)
}

// recent drops the failures of k outside the window and returns the rest.
func (l *Limiter) recent(k string, now time.Time) []time.Time {
	f := l.fails[k]
	i := 0
	for i < len(f) && !f[i].After(now.Add(-l.Window)) {
		i++
	}
	f = f[i:]
	if len(f) == 0 {
		delete(l.fails, k)
		return nil
	}
	l.fails[k] = f
	return f
}
