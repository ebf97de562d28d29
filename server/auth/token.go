package auth

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"
	"unicode/utf8"
)

// Token formats (BEHAVIOUR.md §3.2).
const (
	// Prefix is what we hand out for v2 tokens: "svc_<key>.<secret>".
	Prefix = "svc_"
	// LegacyPrefix is NetBox's v2 prefix, still accepted so that tokens and
	// client configs written for NetBox keep working.
	LegacyPrefix = "nbt_"

	KeyLength    = 12 // v2 key
	SecretLength = 40 // generated v1 and v2 plaintext; NetBox requires exactly 40 for v1
	Last6Length  = 6  // v1 display suffix

	MaxPepperID     = 32767
	MinPepperLength = 50

	// LastUsedInterval: last_used is rewritten only when older than this.
	LastUsedInterval = 60 * time.Second
)

// Peppers is API_TOKEN_PEPPERS: pepper id → pepper. A JSON object such as
// {"1": "…"} decodes into it directly.
type Peppers map[int]string

// Validate reports the first invalid entry (NetBox refuses to start on
// these). An empty set is valid: the caller should warn that tokens cannot
// be created or used.
func (p Peppers) Validate() error {
	ids := make([]int, 0, len(p))
	for id := range p {
		ids = append(ids, id)
	}
	sort.Ints(ids)
	for _, id := range ids {
		if id < 0 || id > MaxPepperID {
			return fmt.Errorf("API_TOKEN_PEPPERS: invalid pepper id %d (must be 0-%d)", id, MaxPepperID)
		}
		// NetBox counts characters, not bytes.
		if n := utf8.RuneCountInString(p[id]); n < MinPepperLength {
			return fmt.Errorf("API_TOKEN_PEPPERS: pepper %d is too short (%d characters, need at least %d)", id, n, MinPepperLength)
		}
	}
	return nil
}

// Newest returns the highest-numbered pepper, which every new token uses.
// Rotation is "add a higher id, re-issue, then drop the old one".
func (p Peppers) Newest() (id int, pepper string, ok bool) {
	id = -1
	for k := range p {
		if k > id {
			id = k
		}
	}
	if id < 0 {
		return 0, "", false
	}
	return id, p[id], true
}

const alphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"

// NewKey returns a random v2 token key.
func NewKey() string { return randomString(KeyLength) }

// NewSecret returns a random token plaintext (v1 or v2).
func NewSecret() string { return randomString(SecretLength) }

// randomString draws from alphabet by rejection sampling: bytes ≥ 248
// (= 4·62) are discarded so every character is equally likely.
func randomString(n int) string {
	out := make([]byte, 0, n)
	buf := make([]byte, n+n/8+4) // ~3% of bytes get rejected
	for len(out) < n {
		rand.Read(buf) // never fails since Go 1.24
		for _, b := range buf {
			if b < 248 && len(out) < n {
				out = append(out, alphabet[b%62])
			}
		}
	}
	return string(out)
}

// Digest is NetBox's v2 hmac_digest: lowercase hex HMAC-SHA256 keyed with
// the pepper over the bare secret (no prefix, no key). Kept byte-compatible
// so digests imported from NetBox verify here.
func Digest(pepper, plaintext string) string {
	m := hmac.New(sha256.New, []byte(pepper))
	m.Write([]byte(plaintext))
	return hex.EncodeToString(m.Sum(nil))
}

// v1Domain separates v1 lookup digests from v2 digests: the same string
// hashed as v1 and as v2 never yields the same value.
const v1Domain = "inventory/token-v1\x00"

// V1Lookup is how we store a v1 token (NetBox stores the plaintext). Store
// it together with the pepper id used (the newest at creation time) and the
// plaintext's last six characters (Last6) for display. A v1 request carries
// no key, so the middleware finds the token by equality on this digest;
// during pepper rotation it tries every configured pepper (V1Lookups). The
// database comparison need not be constant-time: the digest is keyed, so
// timing reveals nothing about the plaintext.
func V1Lookup(pepper, plaintext string) string {
	return Digest(pepper, v1Domain+plaintext)
}

// PepperDigest is one candidate for a v1 lookup.
type PepperDigest struct {
	PepperID int
	Digest   string
}

// V1Lookups returns the v1 lookup digest under every configured pepper,
// newest first; match a stored token on (pepper_id, digest).
func (p Peppers) V1Lookups(plaintext string) []PepperDigest {
	out := make([]PepperDigest, 0, len(p))
	for id, pepper := range p {
		out = append(out, PepperDigest{id, V1Lookup(pepper, plaintext)})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].PepperID > out[j].PepperID })
	return out
}

// Verify reports in constant time whether plaintext matches a stored v2
// digest. Upper-case hex is accepted; malformed digests never match.
// An empty pepper (pepper id no longer configured) never matches, like NetBox.
func Verify(pepper, plaintext, digest string) bool {
	want, err := hex.DecodeString(digest)
	if err != nil || pepper == "" || len(want) != sha256.Size {
		return false
	}
	m := hmac.New(sha256.New, []byte(pepper))
	m.Write([]byte(plaintext))
	return hmac.Equal(m.Sum(nil), want)
}

// Last6 returns what to store for a v1 token's display at creation time,
// since the plaintext itself is never stored.
func Last6(plaintext string) string {
	if len(plaintext) <= Last6Length {
		return plaintext
	}
	return plaintext[len(plaintext)-Last6Length:]
}

// Display is the token's "display" field: the key for v2; for v1, 34 '*'
// followed by the last six plaintext characters (40 in all). Pass either
// the plaintext or the stored Last6 value.
func Display(version int, key, plaintextOrLast6 string) string {
	if version == 2 {
		return key
	}
	return strings.Repeat("*", SecretLength-Last6Length) + Last6(plaintextOrLast6)
}

// BearerValue is the header credential a client sends for a v2 token.
func BearerValue(key, secret string) string { return Prefix + key + "." + secret }

// Expired reports whether a token with this expiry is no longer valid at
// now. A token expiring exactly now is expired (NetBox: valid iff now < expires).
func Expired(expires *time.Time, now time.Time) bool {
	return expires != nil && !now.Before(*expires)
}

// LastUsedStale reports whether last_used should be rewritten: it is unset
// or more than LastUsedInterval old. (Skip the write in maintenance mode.)
func LastUsedStale(lastUsed *time.Time, now time.Time) bool {
	return lastUsed == nil || now.Sub(*lastUsed) > LastUsedInterval
}

// ErrNoPepper is returned by NewTokenDigest when no peppers are configured;
// callers answer 400 with ErrNoPeppers or ErrNoPeppersV1.
var ErrNoPepper = errors.New("auth: no API_TOKEN_PEPPERS configured")

// NewTokenDigest computes what to store for a new token of the given
// version: the newest pepper's id and the digest (Digest for v2, V1Lookup
// for v1).
func (p Peppers) NewTokenDigest(version int, plaintext string) (pepperID int, digest string, err error) {
	id, pepper, ok := p.Newest()
	if !ok {
		if version == 1 {
			return 0, "", fmt.Errorf("%w: %w", ErrNoPepper, ErrNoPeppersV1)
		}
		return 0, "", fmt.Errorf("%w: %w", ErrNoPepper, ErrNoPeppers)
	}
	if version == 1 {
		return id, V1Lookup(pepper, plaintext), nil
	}
	return id, Digest(pepper, plaintext), nil
}
