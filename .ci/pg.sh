#!/usr/bin/env bash
# Start (or stop) a throwaway PostgreSQL server for the test suite.
#
# Usage:
#   eval "$(.ci/pg.sh)"    # start; prints: export INVENTORY_TEST_POSTGRES=...
#   .ci/pg.sh stop         # stop the server started above and delete its data
#   .ci/pg.sh status       # exit 0 if the server started above is running
#   eval "$(.ci/pg.sh standby)"  # a streaming hot standby of the server
#                          # started above (pg_basebackup -R); prints:
#                          # export INVENTORY_TEST_POSTGRES_STANDBY=...
#                          # (make bench measures reads spread over both)
#
# Start does nothing (prints nothing on stdout) when INVENTORY_TEST_POSTGRES
# is already set and reachable. Otherwise it installs PostgreSQL from the
# Debian packages if needed (root only), creates a cluster in a temporary
# directory (trust auth, durability off for speed) listening on 127.0.0.1 on
# a free port (from $INVENTORY_PG_PORT, default 55432, upwards) and prints
# the export line. The export line is the only thing ever written to stdout;
# all diagnostics go to stderr.
#
# The location of the running cluster is recorded in $INVENTORY_PG_STATE
# (default ${TMPDIR:-/tmp}/inventory-ci-pg.state) so that `stop` can find it.
set -euo pipefail

STATE_FILE="${INVENTORY_PG_STATE:-${TMPDIR:-/tmp}/inventory-ci-pg.state}"
FIRST_PORT="${INVENTORY_PG_PORT:-55432}"
PORT_TRIES=50

log() { printf 'pg.sh: %s\n' "$*" >&2; }
die() { log "error: $*"; exit 1; }

# Newest installed server binaries directory, e.g. /usr/lib/postgresql/15/bin.
pg_bindir() {
	local d best="" best_v=-1 v
	for d in /usr/lib/postgresql/*/bin; do
		[ -x "$d/initdb" ] || continue
		v="${d#/usr/lib/postgresql/}"
		v="${v%%/*}"
		v="${v%%.*}"
		case "$v" in '' | *[!0-9]*) continue ;; esac
		if [ "$v" -gt "$best_v" ]; then
			best_v="$v"
			best="$d"
		fi
	done
	if [ -z "$best" ] && command -v initdb >/dev/null 2>&1; then
		best="$(dirname "$(command -v initdb)")"
	fi
	printf '%s' "$best"
}

# Runs a command as the user that owns the cluster: "postgres" when we are
# root (the server refuses to run as root), otherwise the current user.
as_pg() {
	if [ "$(id -u)" -ne 0 ]; then
		"$@"
	elif command -v runuser >/dev/null 2>&1; then
		runuser -u postgres -- "$@"
	else
		local q
		q="$(printf '%q ' "$@")"
		su postgres -s /bin/sh -c "$q"
	fi
}

install_postgres() {
	[ "$(id -u)" -eq 0 ] || die "PostgreSQL server binaries not found and not running as root; install PostgreSQL or set INVENTORY_TEST_POSTGRES"
	command -v apt-get >/dev/null 2>&1 || die "PostgreSQL server binaries not found and apt-get is unavailable"
	export DEBIAN_FRONTEND=noninteractive UCF_FORCE_CONFFOLD=1
	local apt_opts=(-y -q --no-install-recommends -o Dpkg::Options::=--force-confdef -o Dpkg::Options::=--force-confold)
	log "PostgreSQL not installed; installing from Debian packages"
	apt-get update -q >&2 </dev/null
	# Install postgresql-common first and disable the default "main" cluster
	# so the package does not create (and possibly start) a system cluster we
	# don't use.
	apt-get install "${apt_opts[@]}" postgresql-common >&2 </dev/null
	local cc=/etc/postgresql-common/createcluster.conf
	if [ -f "$cc" ]; then
		if grep -Eq '^[#[:space:]]*create_main_cluster' "$cc"; then
			sed -ri 's/^[#[:space:]]*(create_main_cluster)[[:space:]]*=.*$/\1 = false/' "$cc"
		else
			echo 'create_main_cluster = false' >>"$cc"
		fi
	else
		mkdir -p "$(dirname "$cc")"
		echo 'create_main_cluster = false' >"$cc"
	fi
	apt-get install "${apt_opts[@]}" postgresql >&2 </dev/null
	[ -n "$(pg_bindir)" ] || die "PostgreSQL installed but no initdb found under /usr/lib/postgresql/*/bin"
}

# Exit status 0 if something accepts TCP connections on 127.0.0.1:$1.
port_in_use() {
	(exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
}

# Exit status 0 if the DSN in $1 accepts connections (and, when psql is
# available, accepts a query).
dsn_reachable() {
	local dsn="$1" bindir psql_bin="" isready_bin=""
	bindir="$(pg_bindir)"
	if command -v psql >/dev/null 2>&1; then
		psql_bin="$(command -v psql)"
	elif [ -n "$bindir" ] && [ -x "$bindir/psql" ]; then
		psql_bin="$bindir/psql"
	fi
	if [ -n "$psql_bin" ]; then
		PGCONNECT_TIMEOUT=5 "$psql_bin" "$dsn" -XAtqc 'select 1' >/dev/null 2>&1 </dev/null
		return
	fi
	if command -v pg_isready >/dev/null 2>&1; then
		isready_bin="$(command -v pg_isready)"
	elif [ -n "$bindir" ] && [ -x "$bindir/pg_isready" ]; then
		isready_bin="$bindir/pg_isready"
	fi
	if [ -n "$isready_bin" ]; then
		"$isready_bin" -q -t 5 -d "$dsn" >/dev/null 2>&1
		return
	fi
	# No client tools at all: best effort TCP check on host:port of a URL DSN.
	local hostport host port
	hostport="$(printf '%s' "$dsn" | sed -nE 's#^postgres(ql)?://([^@/]*@)?([^/?]*).*#\3#p')"
	[ -n "$hostport" ] || return 1
	host="${hostport%:*}"
	port="${hostport##*:}"
	[ "$host" != "$hostport" ] || port=5432
	host="${host#[}"
	host="${host%]}"
	timeout 5 bash -c "exec 3<>/dev/tcp/$host/$port" 2>/dev/null
}

# Reads the state file into DIR, PORT and DSN. Returns 1 if there is none.
read_state() {
	[ -f "$STATE_FILE" ] || return 1
	DIR="$(sed -n 's/^dir=//p' "$STATE_FILE")"
	PORT="$(sed -n 's/^port=//p' "$STATE_FILE")"
	DSN="$(sed -n 's/^dsn=//p' "$STATE_FILE")"
	BINDIR="$(sed -n 's/^bindir=//p' "$STATE_FILE")"
	[ -n "$DIR" ] && [ -n "$PORT" ] && [ -n "$DSN" ]
}

print_export() {
	case "$1" in
	*"'"*) printf 'export INVENTORY_TEST_POSTGRES=%q\n' "$1" ;;
	*) printf "export INVENTORY_TEST_POSTGRES='%s'\n" "$1" ;;
	esac
}

cmd_start() {
	if [ -n "${INVENTORY_TEST_POSTGRES:-}" ]; then
		if dsn_reachable "$INVENTORY_TEST_POSTGRES"; then
			log "INVENTORY_TEST_POSTGRES is set and reachable; not starting a server"
			return 0
		fi
		log "warning: INVENTORY_TEST_POSTGRES is set but not reachable; starting a throwaway server instead"
	fi

	# Reuse a server started earlier by this script if it is still up.
	local DIR PORT DSN BINDIR
	if [ -f "$STATE_FILE" ]; then
		if read_state && [ -x "$BINDIR/pg_isready" ] &&
			"$BINDIR/pg_isready" -q -h 127.0.0.1 -p "$PORT" -t 5 >/dev/null 2>&1; then
			log "reusing running server in $DIR (port $PORT)"
			print_export "$DSN"
			return 0
		fi
		log "stale state file $STATE_FILE; cleaning up"
		cmd_stop
	fi

	BINDIR="$(pg_bindir)"
	if [ -z "$BINDIR" ]; then
		install_postgres
		BINDIR="$(pg_bindir)"
	fi
	log "using PostgreSQL binaries in $BINDIR ($("$BINDIR/postgres" --version))"

	if [ "$(id -u)" -eq 0 ]; then
		getent passwd postgres >/dev/null || die "user 'postgres' does not exist (it is created by the postgresql-common package)"
	fi

	DIR="$(mktemp -d "${TMPDIR:-/tmp}/inventory-pg.XXXXXX")"
	chmod 0755 "$DIR"
	if [ "$(id -u)" -eq 0 ]; then
		chown postgres: "$DIR"
	fi
	# Record the directory right away so that `stop` can clean up even if
	# anything below fails.
	printf 'dir=%s\nport=\ndsn=\nbindir=%s\n' "$DIR" "$BINDIR" >"$STATE_FILE"

	log "initdb in $DIR/data"
	# Run from $DIR: the postgres user may not be able to access the cwd.
	(cd "$DIR" && as_pg "$BINDIR/initdb" -D "$DIR/data" -U postgres -A trust -E UTF8 --locale=C --no-sync >&2) ||
		die "initdb failed"

	cat >>"$DIR/data/postgresql.conf" <<EOF

# Added by .ci/pg.sh: throwaway test server, durability off for speed.
listen_addresses = '127.0.0.1'
unix_socket_directories = '$DIR'
fsync = off
synchronous_commit = off
full_page_writes = off
max_connections = 200
max_parallel_workers_per_gather = 0
logging_collector = off
EOF

	local port="$FIRST_PORT" i started=""
	for ((i = 0; i < PORT_TRIES; i++, port++)); do
		if port_in_use "$port"; then
			log "port $port is in use; trying $((port + 1))"
			continue
		fi
		log "starting server on 127.0.0.1:$port"
		if (cd "$DIR" && as_pg "$BINDIR/pg_ctl" -D "$DIR/data" -l "$DIR/postgres.log" -o "-p $port" -w -t 60 start >&2); then
			started=1
			break
		fi
		log "server failed to start on port $port; log tail:"
		tail -n 20 "$DIR/postgres.log" >&2 || true
		# Make sure nothing is left running before trying the next port.
		(cd "$DIR" && as_pg "$BINDIR/pg_ctl" -D "$DIR/data" -m immediate -w stop >/dev/null 2>&1) || true
	done
	[ -n "$started" ] || die "could not start PostgreSQL (tried ports $FIRST_PORT..$((FIRST_PORT + PORT_TRIES - 1)))"
	PORT="$port"
	DSN="postgres://postgres@127.0.0.1:$PORT/postgres?sslmode=disable"
	printf 'dir=%s\nport=%s\ndsn=%s\nbindir=%s\n' "$DIR" "$PORT" "$DSN" "$BINDIR" >"$STATE_FILE"

	local ready=""
	for ((i = 0; i < 60; i++)); do
		if "$BINDIR/pg_isready" -q -h 127.0.0.1 -p "$PORT" -d postgres -U postgres -t 2 >/dev/null 2>&1; then
			ready=1
			break
		fi
		sleep 1
	done
	if [ -z "$ready" ]; then
		tail -n 50 "$DIR/postgres.log" >&2 || true
		die "server on port $PORT did not become ready"
	fi
	log "ready: $DSN (data and log in $DIR)"
	print_export "$DSN"
}

# A hot standby of the server started by cmd_start, in $DIR/standby on the
# next free port: pg_basebackup -R copies the cluster and configures it to
# stream from the primary. Reused when it is running already.
cmd_standby() {
	local DIR PORT DSN BINDIR sport i started=""
	read_state || die "no server started by this script ($STATE_FILE); run .ci/pg.sh first (a standby of INVENTORY_TEST_POSTGRES's own server is not made)"
	if [ -f "$DIR/standby.port" ]; then
		sport="$(cat "$DIR/standby.port")"
		if "$BINDIR/pg_isready" -q -h 127.0.0.1 -p "$sport" -t 5 >/dev/null 2>&1; then
			log "reusing running standby on port $sport"
			print_standby "$sport"
			return 0
		fi
	fi
	if ! [ -d "$DIR/standby" ]; then
		log "pg_basebackup -R into $DIR/standby"
		(cd "$DIR" && as_pg "$BINDIR/pg_basebackup" -D "$DIR/standby" -R -X stream -c fast \
			-h 127.0.0.1 -p "$PORT" -U postgres --no-sync >&2) || die "pg_basebackup failed"
	fi
	sport=$((PORT + 1))
	for ((i = 0; i < PORT_TRIES; i++, sport++)); do
		port_in_use "$sport" && continue
		log "starting the standby on 127.0.0.1:$sport"
		if (cd "$DIR" && as_pg "$BINDIR/pg_ctl" -D "$DIR/standby" -l "$DIR/standby.log" -o "-p $sport" -w -t 60 start >&2); then
			started=1
			break
		fi
		tail -n 20 "$DIR/standby.log" >&2 || true
		(cd "$DIR" && as_pg "$BINDIR/pg_ctl" -D "$DIR/standby" -m immediate -w stop >/dev/null 2>&1) || true
	done
	[ -n "$started" ] || die "could not start the standby"
	echo "$sport" >"$DIR/standby.port"
	print_standby "$sport"
}

print_standby() {
	printf "export INVENTORY_TEST_POSTGRES_STANDBY='postgres://postgres@127.0.0.1:%s/postgres?sslmode=disable'\n" "$1"
}

cmd_stop() {
	local DIR PORT DSN BINDIR
	if ! [ -f "$STATE_FILE" ]; then
		log "no server recorded in $STATE_FILE; nothing to stop"
		return 0
	fi
	read_state || true
	if [ -n "${DIR:-}" ] && [ -f "$DIR/standby/postmaster.pid" ]; then
		[ -n "${BINDIR:-}" ] || BINDIR="$(pg_bindir)"
		log "stopping the standby in $DIR/standby"
		(cd "$DIR" && as_pg "$BINDIR/pg_ctl" -D "$DIR/standby" -m fast -w -t 30 stop >&2) || true
	fi
	if [ -n "${DIR:-}" ] && [ -d "$DIR/data" ]; then
		[ -n "${BINDIR:-}" ] || BINDIR="$(pg_bindir)"
		if [ -f "$DIR/data/postmaster.pid" ]; then
			log "stopping server in $DIR"
			if ! (cd "$DIR" && as_pg "$BINDIR/pg_ctl" -D "$DIR/data" -m fast -w -t 30 stop >&2); then
				local pid
				pid="$(head -n 1 "$DIR/data/postmaster.pid" 2>/dev/null || true)"
				case "$pid" in
				'' | *[!0-9]*) ;;
				*)
					log "pg_ctl stop failed; killing postmaster $pid"
					kill -QUIT "$pid" 2>/dev/null || true
					sleep 1
					;;
				esac
			fi
		fi
	fi
	case "${DIR:-}" in
	"${TMPDIR:-/tmp}"/inventory-pg.*) rm -rf -- "$DIR" ;;
	'') ;;
	*) log "not removing unexpected directory $DIR" ;;
	esac
	rm -f -- "$STATE_FILE"
	log "stopped"
}

cmd_status() {
	local DIR PORT DSN BINDIR
	if read_state && [ -x "$BINDIR/pg_isready" ] &&
		"$BINDIR/pg_isready" -q -h 127.0.0.1 -p "$PORT" -t 5 >/dev/null 2>&1; then
		log "running: $DSN (data and log in $DIR)"
		return 0
	fi
	log "not running"
	return 1
}

case "${1:-start}" in
start) cmd_start ;;
stop) cmd_stop ;;
status) cmd_status ;;
standby) cmd_standby ;;
-h | --help | help) sed -n '2,23p' "$0" | sed 's/^# \{0,1\}//' >&2 ;;
*) die "unknown command '$1' (want start, stop, status or standby)" ;;
esac
