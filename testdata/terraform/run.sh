#!/usr/bin/env bash
# Runs the Terraform NetBox provider's own acceptance tests for its wireless
# and VPN resources and data sources (provider/, from
# e-breuninger/terraform-provider-netbox; see README.md) against a running
# inventory server, as the provider's `make testacc` runs them against a
# NetBox container.
#
# Usage: testdata/terraform/run.sh BASE_URL [TOKEN]
#
# TOKEN defaults to the v1 token `make run` and server/servertest create
# (0123456789abcdef0123456789abcdef01234567). The tests give every object a
# random name, so the server need not be fresh.
#
# Needs: go (builds the provider's test binary; its modules come from the Go
# module proxy, and the build cache makes later runs quick) and the terraform
# CLI, $TF_ACC_TERRAFORM_PATH or terraform on PATH (.ci/run builds one with
# testdata/terraform/build-terraform.sh). server/clientsuites_test.go (TestTerraformProvider) runs this
# script on both databases.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
url="${1:?usage: $0 BASE_URL [TOKEN]}"
token="${2:-0123456789abcdef0123456789abcdef01234567}"

terraform="${TF_ACC_TERRAFORM_PATH:-$(command -v terraform || true)}"
[ -x "$terraform" ] || { echo "no terraform CLI: set TF_ACC_TERRAFORM_PATH or put terraform on PATH" >&2; exit 2; }

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

echo "== build the provider's tests"
# The provider is its own module (testdata is outside this module's ./...).
# Only the build tags of this repository are dropped from GOFLAGS.
(cd "$here/provider" && GOFLAGS="${GOFLAGS:-}" && GOFLAGS="${GOFLAGS//-tags=sqlite_fts5/}" go test -c -o "$work/netbox.test" ./netbox)

echo "== $(TF_CLI_CONFIG_FILE=/dev/null "$terraform" version | head -n 1)"
# Every wireless and VPN test of the provider: 6 wireless LAN (group)
# resource tests, 3 tunnel (group, termination) resource tests, 3 data
# source tests. NETBOX_VERSION is what the provider's tests compare against
# for version-gated steps (NetBox 4.6.8 is what this service answers as).
cd "$here/provider/netbox"
TF_ACC=1 \
	TF_ACC_TERRAFORM_PATH="$terraform" \
	TF_IN_AUTOMATION=1 \
	CHECKPOINT_DISABLE=1 \
	TF_CLI_CONFIG_FILE=/dev/null \
	NETBOX_SERVER_URL="$url" \
	NETBOX_API_TOKEN="$token" \
	NETBOX_VERSION=v4.6.8 \
	TMPDIR="$work" \
	"$work/netbox.test" -test.v -test.count=1 -test.parallel=2 -test.timeout=10m \
	-test.run '^(TestAccNetboxWireless|TestAccNetboxVpn|TestAccNetboxTunnel)'
