package hookguard

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
)

// ErrCAFile is the one answer for any refused CA file path: it does not
// say whether the file exists, so the API cannot probe the file system.
var ErrCAFile = errors.New("must be a readable file in the directory configured for webhook CA files")

// ErrCAFilesDisabled is returned when no CA directory is configured.
var ErrCAFilesDisabled = errors.New("CA files are disabled: the operator has not configured a directory for them (INVENTORY_WEBHOOK_CA_DIR)")

// CAFile checks that path names a readable regular file inside dir, after
// resolving symbolic links on both (so neither "../" nor a link leads out).
func CAFile(dir, path string) error {
	if dir == "" {
		return ErrCAFilesDisabled
	}
	if !filepath.IsAbs(path) {
		return ErrCAFile
	}
	root, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return ErrCAFile
	}
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		return ErrCAFile
	}
	rel, err := filepath.Rel(root, real)
	if err != nil || rel == "." || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || filepath.IsAbs(rel) {
		return ErrCAFile
	}
	f, err := os.Open(real)
	if err != nil {
		return ErrCAFile
	}
	defer f.Close()
	if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() {
		return ErrCAFile
	}
	return nil
}
