# Sourced by run-tests.sh: a private, throwaway PostgreSQL cluster for the JDBC integration tests.
# Listens on 127.0.0.1:$LEVEE_PG_PORT only, trusts loopback, lives in a fixed folder that every run
# wipes first (so a run killed earlier leaves nothing that breaks the next one).

LEVEE_PG_PORT="${LEVEE_PG_PORT:-55432}"
PG_DIR="${TMPDIR:-/tmp}/levee-pg-$LEVEE_PG_PORT"

pg_bin() { ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1; }

# Runs a command as the postgres user when we are root (initdb refuses root), else as ourselves.
as_pg() { if [[ $EUID -eq 0 ]]; then runuser -u postgres -- "$@"; else "$@"; fi; }

pg_install() {
  [[ -n "$(pg_bin)" ]] && return 0
  echo "run-tests: installing PostgreSQL" >&2
  local sudo=""; [[ $EUID -eq 0 ]] || sudo="sudo"
  $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq postgresql >/dev/null
}

pg_stop() {
  [[ -f "$PG_DIR/data/postmaster.pid" ]] && as_pg "$(pg_bin)/pg_ctl" -D "$PG_DIR/data" -m immediate stop >/dev/null 2>&1
  rm -rf "$PG_DIR"
}

# Starts the cluster, creates database and user `levee`, exports LEVEE_PG_URL/USER/PASSWORD.
pg_start() {
  local bin; bin="$(pg_bin)"
  pg_stop
  mkdir -p "$PG_DIR"
  [[ $EUID -eq 0 ]] && chown postgres: "$PG_DIR"
  as_pg "$bin/initdb" -D "$PG_DIR/data" -U postgres --auth=trust --no-sync >"$PG_DIR/initdb.log" 2>&1 || {
    cat "$PG_DIR/initdb.log" >&2; return 1; }
  as_pg "$bin/pg_ctl" -D "$PG_DIR/data" -l "$PG_DIR/server.log" -w \
    -o "-c listen_addresses=127.0.0.1 -p $LEVEE_PG_PORT -k $PG_DIR -c fsync=off" start >/dev/null || {
    cat "$PG_DIR/server.log" >&2; return 1; }
  "$bin/psql" -q -h 127.0.0.1 -p "$LEVEE_PG_PORT" -U postgres -d postgres \
    -c "CREATE USER levee PASSWORD 'levee'" -c "CREATE DATABASE levee OWNER levee" >/dev/null || return 1
  export LEVEE_PG_URL="jdbc:postgresql://127.0.0.1:$LEVEE_PG_PORT/levee"
  export LEVEE_PG_USER=levee LEVEE_PG_PASSWORD=levee
  echo "run-tests: PostgreSQL on 127.0.0.1:$LEVEE_PG_PORT ($PG_DIR)" >&2
}

# An outage of a running cluster: stops the server (fast shutdown, as an operator would), keeps the
# data folder, so that pg_resume brings the same database back.
pg_halt() {
  as_pg "$(pg_bin)/pg_ctl" -D "$PG_DIR/data" -m fast -w stop >/dev/null
}

# Starts the cluster pg_start created and pg_halt stopped, waiting until it accepts connections.
pg_resume() {
  as_pg "$(pg_bin)/pg_ctl" -D "$PG_DIR/data" -l "$PG_DIR/server.log" -w \
    -o "-c listen_addresses=127.0.0.1 -p $LEVEE_PG_PORT -k $PG_DIR -c fsync=off" start >/dev/null || {
    cat "$PG_DIR/server.log" >&2; return 1; }
}
