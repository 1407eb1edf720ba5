# Sourced by run-tests.sh: a private, throwaway MariaDB server for the JDBC corpus tests (the MariaDB
# driver and MySQL Connector/J). Listens on 127.0.0.1:$LEVEE_MARIADB_PORT only (no socket anyone else
# uses), lives in a fixed folder that every run wipes first (so a run killed earlier leaves nothing
# that breaks the next one). The data folder belongs to the `mysql` user, never root: mariadbd
# refuses to run as root without being told to, and a root-owned server is not what anyone deploys.

LEVEE_MARIADB_PORT="${LEVEE_MARIADB_PORT:-53306}"
MARIADB_DIR="${TMPDIR:-/tmp}/levee-mariadb-$LEVEE_MARIADB_PORT"

# Runs a command as the mysql user when we are root, else as ourselves.
as_mysql() { if [[ $EUID -eq 0 ]]; then runuser -u mysql -- "$@"; else "$@"; fi; }

mariadb_install() {
  command -v mariadbd >/dev/null && command -v mariadb-install-db >/dev/null && return 0
  echo "run-tests: installing MariaDB" >&2
  local sudo=""; [[ $EUID -eq 0 ]] || sudo="sudo"
  $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq mariadb-server >/dev/null
}

mariadb_stop() {
  local pid_file="$MARIADB_DIR/mariadb.pid"
  if [[ -f "$pid_file" ]]; then
    local pid; pid="$(cat "$pid_file")"
    # `|| true`: run-tests.sh runs this under `set -e`, and a server already gone is no error here.
    kill "$pid" 2>/dev/null || true
    # A clean shutdown takes a moment; the folder goes only once the server has let go of it.
    for _ in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$pid" 2>/dev/null || true
  fi
  rm -rf "$MARIADB_DIR"
}

# Starts the server, creates database and user `levee`, exports LEVEE_MARIADB_URL/USER/PASSWORD.
mariadb_start() {
  mariadb_stop
  mkdir -p "$MARIADB_DIR"
  [[ $EUID -eq 0 ]] && chown mysql: "$MARIADB_DIR"
  as_mysql mariadb-install-db --no-defaults --datadir="$MARIADB_DIR/data" --auth-root-authentication-method=socket \
    --skip-test-db >"$MARIADB_DIR/install.log" 2>&1 || { cat "$MARIADB_DIR/install.log" >&2; return 1; }
  # --no-defaults: nothing from /etc/mysql; flushing relaxed as for PostgreSQL's fsync=off.
  as_mysql mariadbd --no-defaults --datadir="$MARIADB_DIR/data" --socket="$MARIADB_DIR/mariadb.sock" \
    --pid-file="$MARIADB_DIR/mariadb.pid" --log-error="$MARIADB_DIR/server.log" \
    --bind-address=127.0.0.1 --port="$LEVEE_MARIADB_PORT" --skip-name-resolve \
    --innodb-flush-log-at-trx-commit=0 --innodb-doublewrite=0 --innodb-buffer-pool-size=64M \
    </dev/null >/dev/null 2>&1 &
  local server=$! ready=""
  for _ in $(seq 1 300); do
    kill -0 "$server" 2>/dev/null || break  # it gave up, e.g. on a port that is taken
    if as_mysql mariadb-admin --no-defaults --socket="$MARIADB_DIR/mariadb.sock" -u mysql ping >/dev/null 2>&1; then
      ready=1; break
    fi
    sleep 0.1
  done
  [[ -n "$ready" ]] || { cat "$MARIADB_DIR/server.log" >&2; return 1; }
  as_mysql mariadb --no-defaults --socket="$MARIADB_DIR/mariadb.sock" -u mysql -e \
    "CREATE USER 'levee'@'127.0.0.1' IDENTIFIED BY 'levee'; CREATE DATABASE levee;
     GRANT ALL ON levee.* TO 'levee'@'127.0.0.1';" || return 1
  export LEVEE_MARIADB_URL="jdbc:mariadb://127.0.0.1:$LEVEE_MARIADB_PORT/levee"
  export LEVEE_MARIADB_USER=levee LEVEE_MARIADB_PASSWORD=levee
  echo "run-tests: MariaDB on 127.0.0.1:$LEVEE_MARIADB_PORT ($MARIADB_DIR)" >&2
}
