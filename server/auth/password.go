package auth

import (
	"crypto/pbkdf2"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"

	"golang.org/x/crypto/argon2"
)

// Password hashing is argon2id (not bcrypt, which silently truncates at
// 72 bytes) with OWASP's minimum profile: 19 MiB, 2 passes, 1 lane, 16-byte
// salt, 32-byte hash — about 20-40 ms per hash, fast enough for tests. The
// parameters are recorded in the PHC-style string, so raising them later
// leaves existing hashes verifiable; NeedsRehash tells the caller when to
// re-hash after a successful login:
//
//	$argon2id$v=19$m=19456,t=2,p=1$<salt, base64 no padding>$<hash>
const (
	argonMemory  = 19 * 1024 // KiB
	argonTime    = 2
	argonThreads = 1
	argonSaltLen = 16
	argonKeyLen  = 32
)

// ErrEmptyPassword: an empty password is refused rather than hashed.
var ErrEmptyPassword = errors.New("auth: empty password")

// HashPassword returns an encoded argon2id hash of pw.
func HashPassword(pw string) (string, error) {
	if pw == "" {
		return "", ErrEmptyPassword
	}
	salt := make([]byte, argonSaltLen)
	rand.Read(salt)
	key := argon2.IDKey([]byte(pw), salt, argonTime, argonMemory, argonThreads, argonKeyLen)
	b64 := base64.RawStdEncoding
	return fmt.Sprintf("$argon2id$v=%d$m=%d,t=%d,p=%d$%s$%s",
		argon2.Version, argonMemory, argonTime, argonThreads, b64.EncodeToString(salt), b64.EncodeToString(key)), nil
}

// CheckPassword reports, in constant time, whether pw matches hash. Besides
// our argon2id strings it accepts Django's "pbkdf2_sha256$<iter>$<salt>$<b64>"
// so users imported from NetBox can log in (then re-hash: NeedsRehash).
// Malformed or empty hashes never match.
func CheckPassword(hash, pw string) bool {
	if pw == "" {
		return false
	}
	if strings.HasPrefix(hash, "pbkdf2_sha256$") {
		return checkDjango(hash, pw)
	}
	p, salt, want, ok := parseArgon(hash)
	if !ok {
		return false
	}
	got := argon2.IDKey([]byte(pw), salt, p.t, p.m, p.p, uint32(len(want)))
	return subtle.ConstantTimeCompare(got, want) == 1
}

// NeedsRehash reports whether hash is not argon2id with the current cost.
func NeedsRehash(hash string) bool {
	p, _, _, ok := parseArgon(hash)
	return !ok || p != (argonParams{argonMemory, argonTime, argonThreads})
}

// DummyHash is a valid hash of a random password. Checking against it when
// the username is unknown (provisioning) keeps the response time the same
// as for a wrong password, so usernames cannot be probed by timing.
var DummyHash = sync.OnceValue(func() string {
	h, _ := HashPassword(NewSecret())
	return h
})

type argonParams struct {
	m, t uint32
	p    uint8
}

func parseArgon(hash string) (p argonParams, salt, key []byte, ok bool) {
	f := strings.Split(hash, "$")
	if len(f) != 6 || f[0] != "" || f[1] != "argon2id" || f[2] != "v="+strconv.Itoa(argon2.Version) {
		return p, nil, nil, false
	}
	var m, t, par uint64
	if n, err := fmt.Sscanf(f[3], "m=%d,t=%d,p=%d", &m, &t, &par); n != 3 || err != nil || f[3] != fmt.Sprintf("m=%d,t=%d,p=%d", m, t, par) {
		return p, nil, nil, false
	}
	// Bound the cost a stored string can demand (1 GiB, 64 passes).
	if m < 8 || m > 1<<20 || t < 1 || t > 64 || par < 1 || par > 255 {
		return p, nil, nil, false
	}
	salt, err1 := base64.RawStdEncoding.DecodeString(f[4])
	key, err2 := base64.RawStdEncoding.DecodeString(f[5])
	if err1 != nil || err2 != nil || len(salt) < 8 || len(key) < 16 || len(key) > 128 {
		return p, nil, nil, false
	}
	return argonParams{uint32(m), uint32(t), uint8(par)}, salt, key, true
}

func checkDjango(hash, pw string) bool {
	f := strings.Split(hash, "$")
	if len(f) != 4 {
		return false
	}
	iter, err := strconv.Atoi(f[1])
	if err != nil || iter < 1 || iter > 10_000_000 {
		return false
	}
	want, err := base64.StdEncoding.DecodeString(f[3])
	if err != nil || len(want) == 0 {
		return false
	}
	got, err := pbkdf2.Key(sha256.New, pw, []byte(f[2]), iter, len(want))
	return err == nil && subtle.ConstantTimeCompare(got, want) == 1
}
