package media

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
)

// Store is the media directory.
type Store struct {
	// Root is the directory (MEDIA_ROOT). Several replicas serving one
	// database must share it (README, "Several replicas").
	Root string
	// MaxSize is the largest file accepted, in bytes.
	MaxSize int64
}

// DefaultMaxSize is the default upload limit: 10 MiB.
const DefaultMaxSize = 10 << 20

// invalidChars, after spaces became underscores, is what Django's
// get_valid_filename removes:
// anything but letters, digits (Unicode, as Python's \w), "-", "_", ".".
var invalidChars = regexp.MustCompile(`[^-\p{L}\p{N}_.]`)

// ValidName sanitises a client-given stem for use in a file name; "" when
// nothing usable is left.
func ValidName(s string) string {
	s = invalidChars.ReplaceAllString(strings.ReplaceAll(strings.TrimSpace(s), " ", "_"), "")
	s = strings.Trim(s, ".")
	if s == "" || s == ".." {
		return ""
	}
	if len(s) > 60 {
		s = s[:60]
	}
	return s
}

// abs resolves a relative media name inside Root, refusing anything that
// would leave it.
func (s *Store) abs(rel string) (string, error) {
	if s == nil || s.Root == "" {
		return "", errors.New("media: no media directory configured")
	}
	clean := path.Clean("/" + rel)[1:]
	if clean == "" || clean != rel || strings.Contains(rel, "\\") {
		return "", fmt.Errorf("media: invalid name %q", rel)
	}
	return filepath.Join(s.Root, filepath.FromSlash(clean)), nil
}

// Open opens a stored file by its relative name.
func (s *Store) Open(rel string) (*os.File, error) {
	p, err := s.abs(rel)
	if err != nil {
		return nil, fs.ErrNotExist
	}
	return os.Open(p)
}

// write stores data as dir/base.ext, or, when that name is taken,
// dir/base_<7 random characters>.ext (Django's get_available_name); the
// name is claimed with O_EXCL, so two writers never share one.
func (s *Store) write(dir, base, ext string, data []byte) (string, error) {
	if _, err := s.abs(dir + "/x"); err != nil {
		return "", err
	}
	if err := os.MkdirAll(filepath.Join(s.Root, filepath.FromSlash(dir)), 0o755); err != nil {
		return "", err
	}
	for i := 0; i < 20; i++ {
		name := base
		if i > 0 {
			name += "_" + randomSuffix()
		}
		rel := dir + "/" + name + "." + ext
		p, err := s.abs(rel)
		if err != nil {
			return "", err
		}
		f, err := os.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			return "", err
		}
		_, err = f.Write(data)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			os.Remove(p)
			return "", err
		}
		return rel, nil
	}
	return "", errors.New("media: no free file name")
}

func randomSuffix() string {
	const letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
	b := make([]byte, 7)
	rand.Read(b)
	for i := range b {
		b[i] = letters[int(b[i])%len(letters)]
	}
	return string(b)
}

// Remove deletes a stored file; a missing one is no error.
func (s *Store) Remove(rel string) error {
	p, err := s.abs(rel)
	if err != nil {
		return err
	}
	if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}

// Batch is what one write transaction does to the media directory.
type Batch struct {
	Store   *Store
	mu      sync.Mutex
	written []string // removed on rollback
	doomed  []string // removed on commit
}

type batchKey struct{}

// Begin starts the batch of a write transaction; the caller must Finish it.
func Begin(ctx context.Context, s *Store) (context.Context, *Batch) {
	b := &Batch{Store: s}
	return context.WithValue(ctx, batchKey{}, b), b
}

// From is the batch of the write under way, nil outside one.
func From(ctx context.Context) *Batch {
	b, _ := ctx.Value(batchKey{}).(*Batch)
	return b
}

// Write stores data (see Store.write) as part of the batch.
func (b *Batch) Write(dir, base, ext string, data []byte) (string, error) {
	rel, err := b.Store.write(dir, base, ext, data)
	if err == nil {
		b.mu.Lock()
		b.written = append(b.written, rel)
		b.mu.Unlock()
	}
	return rel, err
}

// Doom marks stored files for removal once the transaction commits (their
// rows are deleted, or point at a new file).
func (b *Batch) Doom(rels ...string) {
	b.mu.Lock()
	b.doomed = append(b.doomed, rels...)
	b.mu.Unlock()
}

// Finish ends the batch: after a commit the doomed files go, after a
// rollback the written ones (nothing of a failed write stays on disk).
// It returns the first removal that failed, for the log: the answer to
// the client stands either way.
func (b *Batch) Finish(committed bool) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	list := b.written
	if committed {
		list = b.doomed
	}
	var first error
	for _, rel := range list {
		if rel == "" {
			continue
		}
		if err := b.Store.Remove(rel); err != nil && first == nil {
			first = err
		}
	}
	b.written, b.doomed = nil, nil
	return first
}
