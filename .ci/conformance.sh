#!/usr/bin/env bash
# make conformance: schemathesis (pinned in testdata/openapi/requirements.txt)
# against a live server built from this tree, on a fresh SQLite database and,
# when INVENTORY_TEST_POSTGRES is set, on a fresh PostgreSQL database; every
# check, a bounded number of examples per operation. Fails on any finding.
#
# Environment: CONFORMANCE_VENV (the Python venv, created when missing;
# default .venv-conformance), CONFORMANCE_EXAMPLES (examples per operation,
# default 10), CONFORMANCE_ARGS (extra schemathesis arguments, e.g.
# "--include-path-regex /api/dcim/sites/" to fuzz a part).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

venv="${CONFORMANCE_VENV:-.venv-conformance}"
examples="${CONFORMANCE_EXAMPLES:-10}"
token=0123456789abcdef0123456789abcdef01234567
if [ ! -x "$venv/bin/schemathesis" ]; then
	python3 -m venv "$venv"
	"$venv/bin/pip" install -q -r testdata/openapi/requirements.txt
fi
go build -o bin/inventory ./cmd/inventory

work="$(mktemp -d)"
pid=""
cleanup() {
	if [ -n "$pid" ]; then kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; fi
	rm -rf "$work"
}
trap cleanup EXIT

# fuzz NAME DATABASE: serve DATABASE on a free port and run schemathesis.
fuzz() {
	local name="$1" database="$2" port
	port="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
	export INVENTORY_DATA_DIR="$work/$name" INVENTORY_DATABASE="$database" INVENTORY_LISTEN="127.0.0.1:$port"
	mkdir -p "$INVENTORY_DATA_DIR"
	./bin/inventory createsuperuser --username admin --password admin --token "$token" --if-not-exists
	./bin/inventory serve >"$work/$name.log" 2>&1 &
	pid=$!
	for _ in $(seq 100); do
		curl -fs "http://127.0.0.1:$port/api/status/" -H "Authorization: Token $token" >/dev/null && break
		sleep 0.1
	done
	echo "==> schemathesis on $name (http://127.0.0.1:$port)"
	# positive_data_acceptance is left out: a schema-valid body still
	# names related objects that do not exist, or repeats a unique name,
	# and the server rightly answers 400 (declared in the document).
	# Changing or deleting users and tokens is left out: the fuzzer would
	# disable the admin's own token (or delete the admin) and every later
	# request would be a 403; the Go test (servertest.CheckOpenAPI) covers
	# those operations.
	# The document as served, fetched once (building it takes a few
	# seconds on first request, past the fuzzer's loading timeout).
	curl -fsS --max-time 300 "http://127.0.0.1:$port/api/schema/?format=json" -o "$work/$name.json"
	# 412 rejects a request as well as a 400 does: a write whose If-Match
	# names another version is refused before its body is read (NetBox
	# 4.6 checks If-Match before validating, as RFC 9110 §13.2.2 orders
	# preconditions before the content), so an invalid body sent with a
	# stale If-Match is answered 412. negative_data_rejection's default
	# list lacks 412; the statuses below are that list plus 412.
	cat >"$work/schemathesis.toml" <<-'EOF'
		[checks.negative_data_rejection]
		expected-statuses = [400, 401, 403, 404, 405, 406, 409, 412, 415, 422, 428, 429, "5xx"]
	EOF
	"$venv/bin/schemathesis" --config-file "$work/schemathesis.toml" run "$work/$name.json" --url "http://127.0.0.1:$port" \
		--header "Authorization: Token $token" \
		--checks all --exclude-checks positive_data_acceptance \
		--exclude-operation-id-regex '^users_(tokens|users)_(update|partial_update|destroy|bulk_update|bulk_partial_update|bulk_destroy)$' \
		--max-examples "$examples" --workers 1 --seed 1 --no-color \
		${CONFORMANCE_ARGS:-} || failed="$failed $name"
	kill "$pid"
	wait "$pid" 2>/dev/null || true
	pid=""
}

# Findings on SQLite do not skip PostgreSQL: both databases are fuzzed,
# then the run fails if either had findings.
failed=""
fuzz sqlite "$work/sqlite.db"
if [ -n "${INVENTORY_TEST_POSTGRES:-}" ]; then
	name="inv_conformance_$$"
	psql "$INVENTORY_TEST_POSTGRES" -qc "CREATE DATABASE $name"
	trap 'cleanup; psql "$INVENTORY_TEST_POSTGRES" -qc "DROP DATABASE IF EXISTS $name WITH (FORCE)"' EXIT
	fuzz postgres "$(python3 -c 'import sys, urllib.parse as u; p=u.urlsplit(sys.argv[1]); print(u.urlunsplit(p._replace(path="/"+sys.argv[2])))' "$INVENTORY_TEST_POSTGRES" "$name")"
else
	echo 'conformance: INVENTORY_TEST_POSTGRES not set; PostgreSQL skipped'
fi
if [ -n "$failed" ]; then
	echo "conformance: findings on:$failed" >&2
	exit 1
fi
