package main

import (
	"errors"
	"flag"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// What a newcomer meets on the command line (issue 36): --help is not an
// error, a command run away from the data directory does not make a new
// empty database there, and a taken port names the setting to change.
func TestFirstRunCommandLine(t *testing.T) {
	t.Run("help", func(t *testing.T) {
		for _, args := range [][]string{{"serve", "--help"}, {"migrate", "-h"}, {"createsuperuser", "--help"},
			{"user", "list", "--help"}, {"permission", "grant", "-h"}, {"webhooks", "list", "--help"}, {"worker", "-h"}} {
			if err := run(args); !errors.Is(err, flag.ErrHelp) {
				t.Errorf("%q: %v, want the help (exit status 0)", args, err)
			}
		}
	})
	t.Run("no database", func(t *testing.T) {
		for _, args := range [][]string{{"user", "list"}, {"permission", "grant", "--name", "n", "--users", "x", "--object-types", "dcim.site", "--actions", "view"},
			{"webhooks", "list"}, {"user", "create", "--username", "u", "--password", "p"}} {
			dir := filepath.Join(t.TempDir(), "data")
			err := run(append(args, "--data-dir", dir))
			if err == nil || !strings.Contains(err.Error(), "no database at "+filepath.Join(dir, "inventory.db")) || !strings.Contains(err.Error(), "--data-dir") {
				t.Errorf("%q: %v, want the missing database named", args, err)
			}
			if _, err := os.Stat(dir); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("%q: the data directory was created (%v)", args, err)
			}
		}
	})
	t.Run("port taken", func(t *testing.T) {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		defer ln.Close()
		_, err = listenOn(ln.Addr().String(), "--listen", "INVENTORY_LISTEN", "make run LISTEN=127.0.0.1:8010")
		if err == nil {
			t.Fatal("listened twice on one port")
		}
		for _, w := range []string{ln.Addr().String(), "--listen", "INVENTORY_LISTEN", "make run LISTEN="} {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%v: does not name %s", err, w)
			}
		}
	})
}
