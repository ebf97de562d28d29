package datasources

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
	githttp "github.com/go-git/go-git/v5/plumbing/transport/http"

	"github.com/inventory/inventory/ent/logic/core"
)

// file is one file a source holds, by its slash-separated path relative
// to the source's root.
type file struct {
	Path string
	Data []byte
}

// collector applies the ignore rules and the limits while a source is
// read.
type collector struct {
	cfg   Config
	rules []string
	files []file
	total int64
}

// ignored is NetBox's DataSource._ignore: dot files, and files whose name
// matches a rule (fnmatch patterns, one per line; "[!...]" negates).
func (c *collector) ignored(name string) bool {
	if strings.HasPrefix(name, ".") {
		return true
	}
	for _, r := range c.rules {
		if ok, err := path.Match(r, name); err == nil && ok {
			return true
		}
	}
	return false
}

func newCollector(cfg Config, ignoreRules string) *collector {
	c := &collector{cfg: cfg}
	for _, line := range strings.Split(ignoreRules, "\n") {
		line = strings.TrimSuffix(line, "\r")
		if line == "" {
			continue
		}
		c.rules = append(c.rules, strings.ReplaceAll(line, "[!", "[^"))
	}
	return c
}

// hiddenDir is NetBox's _walk rule: a directory whose path relative to
// the root starts with a dot is skipped (".git", ".github").
func hiddenDir(rel string) bool { return strings.HasPrefix(rel, ".") }

// want checks a file's size against the limits before it is read.
func (c *collector) want(rel string, size int64) error {
	if len(c.files) >= c.cfg.MaxFiles {
		return fmt.Errorf("the source holds more than %d files (the data source file limit)", c.cfg.MaxFiles)
	}
	if size > c.cfg.MaxFileSize {
		return fmt.Errorf("%s is %d bytes, more than the %d bytes a data file may have", rel, size, c.cfg.MaxFileSize)
	}
	if c.total+size > c.cfg.MaxTotalSize {
		return fmt.Errorf("the source's files exceed %d bytes together (the data source size limit)", c.cfg.MaxTotalSize)
	}
	return nil
}

func (c *collector) add(rel string, data []byte) error {
	if err := c.want(rel, int64(len(data))); err != nil {
		return err
	}
	c.total += int64(len(data))
	c.files = append(c.files, file{Path: rel, Data: data})
	return nil
}

// fetchLocal reads a directory below the root. Symbolic links are not
// followed (one could lead out of the root); the directory itself must
// resolve below the root too.
func fetchLocal(ctx context.Context, cfg Config, dir string, c *collector) error {
	real, err := belowRoot(cfg, dir)
	if err != nil {
		return err
	}
	shown := shownPath(cfg, dir)
	st, err := os.Stat(real)
	if err != nil {
		return fmt.Errorf("cannot read %s: %w", shown, unwrapPath(err))
	}
	if !st.IsDir() {
		return fmt.Errorf("%s is not a directory", shown)
	}
	return filepath.WalkDir(real, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			rel, _ := filepath.Rel(real, p)
			return fmt.Errorf("cannot read %s: %w", filepath.ToSlash(rel), unwrapPath(err))
		}
		if ctx.Err() != nil {
			return fmt.Errorf("reading the directory took longer than %s", cfg.FetchTimeout)
		}
		rel, _ := filepath.Rel(real, p)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if p != real && hiddenDir(rel) {
				return fs.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() || c.ignored(d.Name()) {
			return nil // symbolic links, devices, sockets, ignored files
		}
		info, err := d.Info()
		if err != nil {
			return fmt.Errorf("cannot read %s: %w", rel, unwrapPath(err))
		}
		if err := c.want(rel, info.Size()); err != nil {
			return err
		}
		data, err := readLimited(p, cfg.MaxFileSize)
		if err != nil {
			return fmt.Errorf("cannot read %s: %w", rel, err)
		}
		return c.add(rel, data)
	})
}

func readLimited(p string, limit int64) ([]byte, error) {
	f, err := os.Open(p)
	if err != nil {
		return nil, unwrapPath(err)
	}
	defer f.Close()
	// One byte more than the limit: a file that grew meanwhile fails.
	return io.ReadAll(io.LimitReader(f, limit+1))
}

// unwrapPath drops the path of an *fs.PathError (the message names it).
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// fetchGit reads the tree of a repository's branch (its HEAD when no
// branch parameter is given): opened in place when it is on the server's
// disk (below the root), else cloned (depth 1, no checkout) into a
// temporary directory through the guarded HTTP client.
func (e *Engine) fetchGit(ctx context.Context, t core.Target, params map[string]any, c *collector) error {
	branch, _ := params["branch"].(string)
	var repo *git.Repository
	if t.Path != "" {
		real, err := belowRoot(e.cfg, t.Path)
		if err != nil {
			return err
		}
		if repo, err = git.PlainOpen(real); err != nil {
			return fmt.Errorf("%s is not a git repository: %w", shownPath(e.cfg, t.Path), err)
		}
	} else {
		tmp, err := os.MkdirTemp("", "inventory-datasource-*")
		if err != nil {
			return err
		}
		defer os.RemoveAll(tmp)
		opts := &git.CloneOptions{URL: t.URL.String(), Depth: 1, SingleBranch: true, NoCheckout: true, Tags: git.NoTags}
		if branch != "" {
			opts.ReferenceName = plumbing.NewBranchReferenceName(branch)
		}
		user, _ := params["username"].(string)
		pass, _ := params["password"].(string)
		if user != "" || pass != "" {
			opts.Auth = &githttp.BasicAuth{Username: user, Password: pass}
		}
		repo, err = git.PlainCloneContext(ctx, tmp, true, opts)
		if err != nil {
			if ctx.Err() != nil {
				return fmt.Errorf("cloning took longer than %s", e.cfg.FetchTimeout)
			}
			return fmt.Errorf("cannot clone %s: %w", t.URL.Redacted(), err)
		}
	}
	return readTree(ctx, e.cfg, repo, branch, c)
}

func readTree(ctx context.Context, cfg Config, repo *git.Repository, branch string, c *collector) error {
	var ref *plumbing.Reference
	var err error
	if branch != "" {
		ref, err = repo.Reference(plumbing.NewBranchReferenceName(branch), true)
	} else {
		ref, err = repo.Head()
	}
	if err != nil {
		return fmt.Errorf("the repository has no branch %q: %w", branch, err)
	}
	commit, err := repo.CommitObject(ref.Hash())
	if err != nil {
		return fmt.Errorf("cannot read the commit %s: %w", ref.Hash(), err)
	}
	tree, err := commit.Tree()
	if err != nil {
		return fmt.Errorf("cannot read the tree of %s: %w", ref.Hash(), err)
	}
	return tree.Files().ForEach(func(f *object.File) error {
		if ctx.Err() != nil {
			return fmt.Errorf("reading the repository took longer than %s", cfg.FetchTimeout)
		}
		dir, name := path.Split(f.Name)
		if hiddenDir(dir) || f.Mode != filemode.Regular && f.Mode != filemode.Executable || c.ignored(name) {
			return nil
		}
		if err := c.want(f.Name, f.Size); err != nil {
			return err
		}
		r, err := f.Reader()
		if err != nil {
			return fmt.Errorf("cannot read %s: %w", f.Name, err)
		}
		defer r.Close()
		data, err := io.ReadAll(io.LimitReader(r, cfg.MaxFileSize+1))
		if err != nil {
			return fmt.Errorf("cannot read %s: %w", f.Name, err)
		}
		return c.add(f.Name, data)
	})
}

// belowRoot resolves dir's symbolic links and checks it is still below
// the root.
func belowRoot(cfg Config, dir string) (string, error) {
	root, err := filepath.EvalSymlinks(cfg.Root)
	if err != nil {
		return "", fmt.Errorf("the data sources root cannot be read: %w", unwrapPath(err))
	}
	shown := shownPath(cfg, dir)
	real, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return "", fmt.Errorf("cannot read %s: %w", shown, unwrapPath(err))
	}
	if !core.Within(root, real) {
		return "", fmt.Errorf("%s leads out of the data sources root", shown)
	}
	return real, nil
}

// shownPath is how errors name a path: relative to the root (the
// server's layout is not told to API users).
func shownPath(cfg Config, p string) string {
	rel, err := filepath.Rel(filepath.Clean(cfg.Root), p)
	if err != nil || strings.HasPrefix(rel, "..") {
		return filepath.Base(p)
	}
	return filepath.ToSlash(rel)
}
