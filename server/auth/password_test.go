package auth

import (
	"strings"
	"testing"
)

func TestPasswords(t *testing.T) {
	long := strings.Repeat("x", 100) // beyond bcrypt's 72 bytes
	h1, err := HashPassword("correct horse")
	if err != nil || !strings.HasPrefix(h1, "$argon2id$v=19$m=19456,t=2,p=1$") {
		t.Fatalf("HashPassword = %q, %v", h1, err)
	}
	h2, _ := HashPassword("correct horse")
	if h1 == h2 {
		t.Fatal("hashes must be salted")
	}
	hLong, _ := HashPassword(long)
	if _, err := HashPassword(""); err != ErrEmptyPassword {
		t.Fatalf("empty password: %v", err)
	}
	// Django pbkdf2_sha256, from Python:
	// base64(hashlib.pbkdf2_hmac("sha256", b"correct horse", b"saltsalt1234", 1000))
	django := "pbkdf2_sha256$1000$saltsalt1234$vCowWi1dB0WkHn96blKCnL2OG83kjxRxvy4fTd6Hm28="

	tests := []struct {
		name, hash, pw string
		want           bool
	}{
		{"match", h1, "correct horse", true},
		{"other salt matches", h2, "correct horse", true},
		{"wrong", h1, "correct horsE", false},
		{"empty pw", h1, "", false},
		{"long password fully significant", hLong, long, true},
		{"long password last byte differs", hLong, long[:99] + "y", false},
		{"empty hash", "", "correct horse", false},
		{"garbage", "$argon2id$v=19$m=19456,t=2,p=1$!!$!!", "correct horse", false},
		{"wrong version", strings.Replace(h1, "v=19", "v=16", 1), "correct horse", false},
		{"trailing junk in params", strings.Replace(h1, "p=1$", "p=1x$", 1), "correct horse", false},
		{"absurd memory refused", strings.Replace(h1, "m=19456", "m=99999999", 1), "correct horse", false},
		{"argon2i not accepted", strings.Replace(h1, "argon2id", "argon2i", 1), "correct horse", false},
		{"django match", django, "correct horse", true},
		{"django wrong", django, "correct horses", false},
		{"django malformed", "pbkdf2_sha256$x$salt$abc", "correct horse", false},
	}
	for _, tt := range tests {
		if got := CheckPassword(tt.hash, tt.pw); got != tt.want {
			t.Errorf("%s: CheckPassword = %v", tt.name, got)
		}
	}
	if NeedsRehash(h1) || !NeedsRehash(django) || !NeedsRehash(strings.Replace(h1, "t=2", "t=1", 1)) {
		t.Error("NeedsRehash wrong")
	}
	if CheckPassword(DummyHash(), "anything") || DummyHash() != DummyHash() {
		t.Error("DummyHash must be a stable hash of an unguessable password")
	}
}
