#!/usr/bin/env bash
# Builds the terraform CLI the provider's acceptance tests drive, from the
# Go module proxy (releases.hashicorp.com, where hc-install would fetch it,
# need not be reachable).
#
# Usage: testdata/terraform/build-terraform.sh OUTPUT_BINARY
#
# `go install github.com/hashicorp/terraform@VERSION` refuses: terraform's
# go.mod replaces its remote-state backends (azurerm, consul, cos, gcs,
# kubernetes, oci, oss, pg, s3) and internal/legacy with nested modules that
# the proxy's module zip leaves out. So the module is copied out of the
# module cache and built without those nine backends; the tests keep their
# state in local files (the "local" backend, which stays, as do "http",
# "inmem", "remote" and "cloud"). About 4 minutes of compiling on 2 cores,
# once: .ci/run keeps the binary.
set -euo pipefail

version=v1.13.3
out="${1:?usage: $0 OUTPUT_BINARY}"
case "$out" in /*) ;; *) out="$PWD/$out" ;; esac

src="$(GOFLAGS=-mod=mod go mod download -json "github.com/hashicorp/terraform@$version" |
	sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')"
[ -d "$src" ] || { echo "go mod download github.com/hashicorp/terraform@$version gave no directory" >&2; exit 1; }

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cp -r "$src" "$work/terraform"
chmod -R u+w "$work/terraform"
cd "$work/terraform"

backends='azure|consul|cos|gcs|kubernetes|oci|oss|pg|s3'
sed -i -E "/^[[:space:]]*github.com\/hashicorp\/terraform\/internal\/(backend\/remote-state\/($backends)|legacy) v/d; /^replace github.com\/hashicorp\/terraform\/internal\//d" go.mod
sed -i -E '/backend(Azure|Consul|Cos|GCS|Kubernetes|OCI|OSS|Pg|S3)[ .]/d' internal/backend/init/init.go
if grep -qE "internal/backend/remote-state/($backends)\"|internal/legacy\"" internal/backend/init/init.go go.mod; then
	echo "terraform $version: the backend list changed; update $0" >&2
	exit 1
fi

# -mod=mod: go.sum loses the dropped modules' lines on the way; dev=no
# makes `terraform version` say v1.13.3 rather than v1.13.3-dev.
GOFLAGS=-mod=mod go build -trimpath -ldflags '-X github.com/hashicorp/terraform/version.dev=no' -o "$out" .
TF_CLI_CONFIG_FILE=/dev/null "$out" version | head -n 1
