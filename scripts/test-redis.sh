# Sourced by run-tests.sh: a private, throwaway Redis server for the cluster rate-limit tests.
# Listens on 127.0.0.1:$LEVEE_REDIS_PORT only, keeps nothing on disk (no RDB, no AOF), lives in a fixed
# folder that every run wipes first (so a run killed earlier leaves nothing that breaks the next one).
# Tests that stop, restart or kill Redis fork servers of their own from the same binary
# ($LEVEE_REDIS_SERVER): this one is shared by the tests running meanwhile.

LEVEE_REDIS_PORT="${LEVEE_REDIS_PORT:-56379}"
REDIS_DIR="${TMPDIR:-/tmp}/levee-redis-$LEVEE_REDIS_PORT"

redis_bin() {
  local bin
  for bin in "${LEVEE_REDIS_SERVER:-}" "$(command -v redis-server 2>/dev/null)" /usr/bin/redis-server; do
    if [[ -n "$bin" && -x "$bin" ]]; then
      echo "$bin"
      return 0
    fi
  done
  return 1
}

# Debian's redis-server; its own service (port 6379) is kept from starting during the install
# (policy-rc.d exit status 101 means "no"). A subshell, so that its trap stays out of run-tests.sh.
redis_install() {
  redis_bin >/dev/null && return 0
  echo "run-tests: installing Redis" >&2
  (
    sudo=""; [[ $EUID -eq 0 ]] || sudo="sudo"
    policy=/usr/sbin/policy-rc.d
    if [[ ! -e "$policy" ]]; then
      printf '#!/bin/sh\nexit 101\n' | $sudo tee "$policy" >/dev/null && $sudo chmod +x "$policy"
      trap '$sudo rm -f "$policy"' EXIT
    fi
    $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq redis-server >/dev/null
  ) && redis_bin >/dev/null
}

redis_stop() {
  local pid_file="$REDIS_DIR/redis.pid"
  if [[ -f "$pid_file" ]]; then
    local pid; pid="$(cat "$pid_file")"
    # `|| true`: run-tests.sh runs this under `set -e`, and a server already gone is no error here.
    kill "$pid" 2>/dev/null || true
    for _ in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$pid" 2>/dev/null || true
  fi
  rm -rf "$REDIS_DIR"
}

# True when a Redis server on 127.0.0.1:$1 answers PING (bash's /dev/tcp: no redis-cli needed).
redis_ping() {
  local reply=""
  {
    exec 3<>"/dev/tcp/127.0.0.1/$1" || return 1
    printf 'PING\r\n' >&3
    read -r -t 1 reply <&3 || true
    exec 3>&-
  } 2>/dev/null
  [[ "$reply" == "+PONG"* ]]
}

# Starts the server, exports LEVEE_REDIS_URL and LEVEE_REDIS_SERVER.
redis_start() {
  local bin; bin="$(redis_bin)" || return 1
  redis_stop
  mkdir -p "$REDIS_DIR"
  "$bin" --bind 127.0.0.1 --port "$LEVEE_REDIS_PORT" --save "" --appendonly no --dir "$REDIS_DIR" \
    --pidfile "$REDIS_DIR/redis.pid" --logfile "$REDIS_DIR/server.log" --daemonize no \
    </dev/null >/dev/null 2>&1 &
  local server=$! ready=""
  for _ in $(seq 1 100); do
    kill -0 "$server" 2>/dev/null || break  # it gave up, e.g. on a port that is taken
    # Its pid file is written once it listens: a PONG without it could be another server's.
    if [[ "$(cat "$REDIS_DIR/redis.pid" 2>/dev/null)" == "$server" ]] && redis_ping "$LEVEE_REDIS_PORT"; then
      ready=1; break
    fi
    sleep 0.1
  done
  if [[ -z "$ready" ]]; then
    cat "$REDIS_DIR/server.log" >&2 2>/dev/null || true
    kill "$server" 2>/dev/null || true
    return 1
  fi
  export LEVEE_REDIS_URL="redis://127.0.0.1:$LEVEE_REDIS_PORT/0"
  export LEVEE_REDIS_SERVER="$bin"
  echo "run-tests: Redis on 127.0.0.1:$LEVEE_REDIS_PORT ($REDIS_DIR)" >&2
}
