#!/usr/bin/env bash
# The default `system` limit on a real Spring MVC + JPA application: benchmarks/petclinic (owners,
# pets, visits, vets over PostgreSQL through HikariCP) pinned to CPU 0, without the agent and with
# the agent whose rules hold only `system: { exclude: ["/health"], adaptive: {} }`. Each
# application gets a warm-up at 64 connections that is not measured, then wrk (closed loop, on
# CPU 1) plays a mix of the pages (petclinic/pages.lua) at 16, 32 and 64 connections. Then an open-loop
# overload point (the load bench's generator, io.levee.load.bench.OpenLoopPoint): 0.5C, then 2C
# for as long as a closed-loop point, where C is the goodput without the agent at the highest
# connection count of round 1; goodput counts 2xx answers within 1 s. For the agent, the `system`
# limit is read from its /status 5 times a second. About 5 minutes; --quick about 3.
#   benchmarks/run-petclinic.sh                        (30 s warm-up, 20 s per point, 1 round)
#   benchmarks/run-petclinic.sh --quick                (10 s warm-up, 8 s per point)
#   benchmarks/run-petclinic.sh --rounds 3 --connections 16,64 --seconds 30
#   benchmarks/run-petclinic.sh --open-rate 600        (C given, not measured; --open-rate 0: no open loop)
# PostgreSQL: LEVEE_PG_URL/USER/PASSWORD when set, else a throwaway cluster started as run-tests.sh
# does (scripts/test-postgres.sh, port 55432 or the next two), stopped on exit. PIN=0 turns the CPU
# pinning off, SKIP_BUILD=1 reuses the jars already built. Needs wrk (installed with apt if missing).
# Writes benchmarks/target/petclinic/: raw/ (wrk's totals, limit samples, application logs), one
# table per run (run-*.md) and summary.md (goodput with the agent over goodput without, per point).
set -euo pipefail
cd "$(dirname "$0")/.."

warmup=30 seconds=20 rounds=1 connections=16,32,64 open_rate=""
while [[ $# -gt 0 ]]; do
  case "$1" in
    --quick) warmup=10 seconds=8 ;;
    --warmup) warmup="$2"; shift ;;
    --seconds) seconds="$2"; shift ;;
    --rounds) rounds="$2"; shift ;;
    --connections) connections="$2"; shift ;;
    --open-rate) open_rate="$2"; shift ;;
    *) echo "run-petclinic: unknown argument $1" >&2; exit 2 ;;
  esac
  shift
done

if [[ "${SKIP_BUILD:-0}" != 1 ]]; then
  mvn -B -q -o -pl agent,benchmarks/load,benchmarks/petclinic -am package -DskipTests 2>/dev/null \
    || mvn -B -q -pl agent,benchmarks/load,benchmarks/petclinic -am package -DskipTests
fi
agent=agent/target/levee-agent.jar
[[ -f "$agent" ]] || agent=$(ls agent/target/levee-agent-*.jar | head -1)
app=benchmarks/petclinic/target/petclinic.jar
command -v wrk >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk >/dev/null; }

# As load-common.sh: on 2 or more CPUs the application gets CPU 0, and wrk, the limit sampler and
# PostgreSQL get CPU 1.
app_pin=() gen_pin=()
if [[ "${PIN:-1}" == 1 ]] && command -v taskset >/dev/null && [[ "$(nproc)" -ge 2 ]]; then
  app_pin=(taskset -c 0) gen_pin=(taskset -c 1)
fi

out=benchmarks/target/petclinic
rm -rf "$out"
mkdir -p "$out/raw"
app_pid=""
cleanup() {
  [[ -n "$app_pid" ]] && kill "$app_pid" 2>/dev/null && wait "$app_pid" 2>/dev/null
  [[ -n "${pg_started:-}" ]] && pg_stop
  return 0
}
trap cleanup EXIT

if [[ -z "${LEVEE_PG_URL:-}" ]]; then
  source scripts/test-postgres.sh
  pg_started=""
  pg_install
  for pg_port in "$LEVEE_PG_PORT" $((LEVEE_PG_PORT + 1)) $((LEVEE_PG_PORT + 2)); do
    LEVEE_PG_PORT=$pg_port PG_DIR="${TMPDIR:-/tmp}/levee-pg-$pg_port"
    if pg_start; then pg_started=1; break; fi
    pg_stop
  done
  [[ -n "$pg_started" ]] || { echo "run-petclinic: no PostgreSQL" >&2; exit 1; }
  # Backends are forked by the postmaster and inherit its CPU.
  [[ ${#gen_pin[@]} -gt 0 ]] && taskset -a -p -c 1 "$(head -1 "$PG_DIR/data/postmaster.pid")" >/dev/null
fi
export LEVEE_PG_URL LEVEE_PG_USER LEVEE_PG_PASSWORD

free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
rules="$out/rules.yaml"
printf 'version: 1\nsystem:\n  exclude: ["/health"]\n  adaptive: {}\n' >"$rules"
jvm=(-Xms512m -Xmx512m -XX:+UseSerialGC)

# Starts the application ($1: none or levee), waits until /health answers.
start_app() {
  local port=$2 opts=()
  [[ "$1" == levee ]] && opts=("-javaagent:$agent=rules=$rules,http=127.0.0.1:$status_port")
  "${app_pin[@]}" java "${jvm[@]}" "${opts[@]}" -jar "$app" --server.port="$port" >"$3" 2>&1 &
  app_pid=$!
  for _ in $(seq 1 600); do
    curl -sf "http://127.0.0.1:$port/health" >/dev/null && return 0
    kill -0 "$app_pid" 2>/dev/null || { echo "run-petclinic: the application exited, see $3" >&2; exit 1; }
    sleep 0.2
  done
  echo "run-petclinic: the application did not answer, see $3" >&2
  exit 1
}

load() { "${gen_pin[@]}" wrk -t1 -c"$1" -d"$2"s -s benchmarks/petclinic/pages.lua "http://127.0.0.1:$3"; }

# The open-loop mix: the closed loop's shares (40 % list, 25 % search, 25 % owner, 10 % vets) over
# fixed pages, one generator stream each.
open_paths=(/owners?page=3 /owners?page=41 /owners?page=77 /owners?page=102 /owners?page=138
  /owners?page=170 /owners?page=203 /owners?page=241 /owners/search?lastName=Ma
  /owners/search?lastName=Wi /owners/search?lastName=Ha /owners/search?lastName=Br
  /owners/search?lastName=Sc /owners/42 /owners/777 /owners/1234 /owners/2500 /owners/4711 /vets /vets)
open_warm=$((warmup < 10 ? warmup : 10))
open_loop() {
  "${gen_pin[@]}" java -Xms1g -Xmx1g -Xmn768m -cp "benchmarks/load/target/levee-load-bench.jar:benchmarks/load/target/lib/*" \
    io.levee.load.bench.OpenLoopPoint "http://127.0.0.1:$1" "$(python3 -c "print($open_rate / 4)")" "$open_warm" \
    "$(python3 -c "print($open_rate)")" "$seconds" 1000 "${open_paths[@]}"
}

echo "run-petclinic: warm-up ${warmup}s, ${seconds}s per point at ${connections} connections, $rounds round(s)"
for round in $(seq 1 "$rounds"); do
  variants=(none levee)
  (( round % 2 == 0 )) && variants=(levee none)
  for variant in "${variants[@]}"; do
    port=$(free_port) status_port=$(free_port)
    start_app "$variant" "$port" "$out/raw/app-$variant-r$round.log"
    load 64 "$warmup" "$port" >/dev/null
    for c in ${connections//,/ }; do
      base="$out/raw/$variant-r$round-c$c"
      sampler=""
      if [[ "$variant" == levee ]]; then
        "${gen_pin[@]}" python3 benchmarks/petclinic-report.py sample "http://127.0.0.1:$status_port/status" "$base-limit.txt" &
        sampler=$!
      fi
      load "$c" "$seconds" "$port" | tail -1 >"$base.json"
      [[ -n "$sampler" ]] && kill "$sampler" && wait "$sampler" 2>/dev/null || true
      echo "run-petclinic: $variant round $round, $c connections: $(cat "$base.json")"
    done
    if [[ -z "$open_rate" ]]; then
      # 2C, C the goodput without the agent at the highest connection count.
      open_rate=$(python3 -c "import json,sys; w = json.load(open(sys.argv[1])); print(round(2 * (w['requests'] - w['non2xx']) / (w['duration_us'] / 1e6)))" "$out/raw/none-r1-c${connections##*,}.json" 2>/dev/null || true)
    fi
    if [[ -n "$open_rate" && "$open_rate" != 0 ]]; then
      base="$out/raw/$variant-r$round-open"
      sampler=""
      if [[ "$variant" == levee ]]; then
        (sleep "$open_warm"; exec "${gen_pin[@]}" timeout "$seconds" python3 benchmarks/petclinic-report.py sample "http://127.0.0.1:$status_port/status" "$base-limit.txt") &
        sampler=$!
      fi
      echo "$open_rate" >"$out/raw/open-rate.txt"
      open_loop "$port" | tail -1 >"$base.json"
      [[ -n "$sampler" ]] && wait "$sampler" 2>/dev/null || true
      echo "run-petclinic: $variant round $round, open loop at $open_rate/s: $(cat "$base.json")"
    fi
    kill "$app_pid" && wait "$app_pid" 2>/dev/null || true
    app_pid=""
  done
done
{
  echo "- Machine: $(nproc) CPUs, $(uname -sr); load average before the report: $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "- Java: $(java -version 2>&1 | head -1)"
  echo "- Application JVM: \`${jvm[*]}\`${app_pin:+, pinned with \`${app_pin[*]}\`}; wrk, the sampler and PostgreSQL ${gen_pin:+pinned with \`${gen_pin[*]}\`}"
  echo "- Warm-up ${warmup} s at 64 connections, then ${seconds} s per point; rules: \`$(tr '\n' ' ' <"$rules")\`"
  if [[ -n "$open_rate" && "$open_rate" != 0 ]]; then
    echo "- Open loop: ${open_warm} s at $open_rate/4 requests/s, then ${seconds} s at $open_rate requests/s (2C), ${#open_paths[@]} pages sharing the rate"
  fi
} >"$out/run.md"
cat "$out/run.md"
python3 benchmarks/petclinic-report.py report "$out"
