package server_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/inventory/inventory/server/servertest"
)

// The client suites are the acceptance tests of two NetBox clients, run
// unchanged against a real HTTP server on every database by the scripts
// under testdata/ (their README.md files say where the tests come from):
// the Terraform provider's wireless and VPN tests and the Ansible
// collection's netbox_wireless_*, netbox_tunnel* and netbox_l2vpn* module
// tests (issue 34). Without their tools they are skipped locally and fail
// in CI (CI=true), where .ci/run installs the tools.

// TestTerraformProvider runs testdata/terraform/run.sh: the 12 wireless
// and VPN acceptance tests of e-breuninger/terraform-provider-netbox
// (resources and data sources for wireless LANs and their groups, tunnels,
// tunnel groups and terminations), each a terraform plan/apply/refresh/
// import/destroy cycle through the provider's go-netbox client.
func TestTerraformProvider(t *testing.T) {
	t.Parallel()
	requireTool(t, "go", "the Go toolchain builds the provider's tests")
	if p := os.Getenv("TF_ACC_TERRAFORM_PATH"); p == "" {
		requireTool(t, "terraform", "build it with testdata/terraform/build-terraform.sh, or set TF_ACC_TERRAFORM_PATH")
	}
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		runClientScript(t, 10*time.Minute, "../testdata/terraform/run.sh", e.URL())
	})
}

// TestAnsibleCollection runs testdata/ansible/run.sh: the collection's seed
// (netbox-deploy.py) and its integration tasks for netbox_wireless_lan,
// netbox_wireless_lan_group, netbox_wireless_link, netbox_l2vpn,
// netbox_l2vpn_termination, netbox_tunnel and netbox_tunnel_group (create,
// idempotent re-run, update with diff, delete), which assert ids the seed
// gave out on a fresh database as NetBox gives them.
//
// The server runs with its defaults: netbox_wireless_link looks its link
// up by interface_a and interface_b, which NetBox ignores (its filter set
// has only the _id forms) and which are served here as filters by id, so
// the lookup finds the link under FILTER_UNKNOWN=guard.
func TestAnsibleCollection(t *testing.T) {
	t.Parallel()
	requireTool(t, "ansible-playbook", "pip install -r testdata/ansible/requirements.txt")
	pythonWith(t, "pynetbox")
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		runClientScript(t, 10*time.Minute, "../testdata/ansible/run.sh", e.URL())
	})
}

// requireTool skips (locally) or fails (in CI) when name is not on PATH.
func requireTool(t *testing.T, name, hint string) {
	t.Helper()
	if _, err := exec.LookPath(name); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("%s not on PATH: %s (.ci/run installs it)", name, hint)
		}
		t.Skipf("%s not on PATH: %s", name, hint)
	}
}

// runClientScript runs a client suite's script against the server at url,
// logging its output line by line, and fails the test when it fails or
// outlives timeout (or the test's deadline).
func runClientScript(t *testing.T, timeout time.Duration, script string, args ...string) {
	t.Helper()
	if d, ok := t.Deadline(); ok && time.Until(d)-10*time.Second < timeout {
		timeout = time.Until(d) - 10*time.Second
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	path, err := filepath.Abs(script)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.CommandContext(ctx, path, args...)
	cmd.Env = append(os.Environ(), "PYTHONUNBUFFERED=1", "PYTHONDONTWRITEBYTECODE=1")
	out := &lineLogger{t: t}
	cmd.Stdout, cmd.Stderr = out, out
	// The script's children (terraform, the provider's test binary,
	// ansible's workers) go with it on a timeout: the script leads its own
	// process group and the whole group is killed.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 5 * time.Second
	err = cmd.Run()
	out.flush()
	switch {
	case ctx.Err() != nil:
		t.Fatalf("%s timed out after %v (output above)", script, timeout)
	case err != nil:
		t.Fatalf("%s %v: %v (output above)", script, args, err)
	}
}
