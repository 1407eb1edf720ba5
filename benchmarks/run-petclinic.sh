#!/usr/bin/env bash
# The default `system` limit on a real Spring MVC + JPA application: benchmarks/petclinic (owners,
# pets, visits, vets over PostgreSQL through HikariCP) pinned to CPU 0, once per variant:
#   none     without the agent (the baseline every other variant is divided by)
#   control  without the agent, a second copy: its ratio to none is what the host alone moves
#   nomatch  with the agent and rules that match no request and no statement: instrumentation only
#   monitor  with the agent and levee's rules in monitor mode: the limit decides and counts, and
#            refuses nothing (needs rules without a `settings:` section)
#   levee    with the agent whose rules hold only `system: { exclude: ["/health"], adaptive: {} }`
#   before   levee's rules with another build's agent jar (--before-agent JAR): two builds side by
#            side on the same host in the same minutes
# (--variants, default none,levee). The applications run side by side, each warmed up at 64
# connections (not measured); then, round after round, wrk (closed loop, on CPU 1) plays a mix of
# the pages (petclinic/pages.lua) at 16, 32 and 64 connections against each in turn, the first one
# rotating from point to point, so that the points compared are taken within a minute or two of the
# same host's speed. Each JVM compiles its own code, and two launches of the same application can
# differ by a tenth for as long as they run (control / none shows it), so --launches N stops them
# all after their rounds and starts them afresh, N times. After the rounds of a launch, an
# open-loop overload point for each (the load bench's generator, io.levee.load.bench.OpenLoopPoint):
# 0.5C, then 2C for as long as a closed-loop point, where C is the goodput without the agent at the
# highest connection count of round 1; goodput counts 2xx answers within 1 s; the application's
# backlog is let drain before the next point. For the agent, the `system` limit is read from its
# /status 5 times a second. With the defaults about 2.5 minutes per variant and launch, plus 1.5 per
# variant for each further round; --quick about half.
#   benchmarks/run-petclinic.sh                        (30 s warm-up, 20 s per point, 1 round)
#   benchmarks/run-petclinic.sh --quick                (10 s warm-up, 8 s per point)
#   benchmarks/run-petclinic.sh --rounds 3 --connections 16,64 --seconds 30
#   benchmarks/run-petclinic.sh --open-rate 600        (C given, not measured; --open-rate 0: no open loop)
#   benchmarks/run-petclinic.sh --rules FILE           (levee's rules instead of the default system limit)
#   benchmarks/run-petclinic.sh --variants none,control,nomatch,levee --launches 4 --open-rate 0
#   benchmarks/run-petclinic.sh --variants none,before,levee --before-agent /tmp/old/levee-agent.jar
#   benchmarks/run-petclinic.sh --agent-log debug      (levee's and monitor's log level: at debug,
#                                                       one line per window of the system limit)
# PostgreSQL: LEVEE_PG_URL/USER/PASSWORD when set, else a throwaway cluster started as run-tests.sh
# does (scripts/test-postgres.sh, port 55432 or the next two), stopped on exit. PIN=0 turns the CPU
# pinning off, SKIP_BUILD=1 reuses the jars already built. Needs wrk (installed with apt if missing).
# Writes benchmarks/target/petclinic/: raw/ (wrk's totals, limit samples, application logs), one
# table per run (run-*.md) and summary.md (each variant's goodput over none's, per point, and the
# median of those ratios over the rounds).
set -euo pipefail
cd "$(dirname "$0")/.."

warmup=30 seconds=20 rounds=1 connections=16,32,64 open_rate="" rules_given="" variants_given=none,levee launches=1 agent_log=info before_agent=""
while [[ $# -gt 0 ]]; do
  case "$1" in
    --quick) warmup=10 seconds=8 ;;
    --warmup) warmup="$2"; shift ;;
    --seconds) seconds="$2"; shift ;;
    --rounds) rounds="$2"; shift ;;
    --launches) launches="$2"; shift ;;
    --connections) connections="$2"; shift ;;
    --open-rate) open_rate="$2"; shift ;;
    --rules) rules_given="$2"; shift ;;
    --variants) variants_given="$2"; shift ;;
    --agent-log) agent_log="$2"; shift ;;
    --before-agent) before_agent="$2"; shift ;;
    *) echo "run-petclinic: unknown argument $1" >&2; exit 2 ;;
  esac
  shift
done
read -r -a all_variants <<<"${variants_given//,/ }"
[[ "${all_variants[0]}" == none ]] || { echo "run-petclinic: --variants must start with none" >&2; exit 2; }
for variant in "${all_variants[@]}"; do
  case "$variant" in none | control | nomatch | monitor | levee | before) ;; *) echo "run-petclinic: unknown variant $variant" >&2; exit 2 ;; esac
done
if [[ " ${all_variants[*]} " == *" before "* && ! -f "$before_agent" ]]; then
  echo "run-petclinic: the before variant needs --before-agent JAR" >&2; exit 2
fi

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
declare -A app_pid=() app_port=() status_port=()
cleanup() {
  local pid
  for pid in "${app_pid[@]}"; do { kill "$pid" && wait "$pid"; } 2>/dev/null || true; done
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
if [[ -n "$rules_given" ]]; then
  cp "$rules_given" "$rules"
else
  printf 'version: 1\nsystem:\n  exclude: ["/health"]\n  adaptive: {}\n' >"$rules"
fi
if [[ " ${all_variants[*]} " == *" monitor "* ]]; then
  grep -q '^settings:' "$rules" && { echo "run-petclinic: the monitor variant needs rules without settings:" >&2; exit 2; }
  { echo 'version: 1'; echo 'settings: { mode: monitor }'; grep -v '^version:' "$rules"; } >"$out/monitor.yaml"
fi
# Every hook is woven and runs (servlet requests, statements), but no resource matches.
cat >"$out/no-match.yaml" <<'YAML'
version: 1
resources:
  - name: other-pages
    match:
      servlet: { paths: ["/nowhere/**"] }
    concurrency: { max: 10000 }
  - name: other-database
    match:
      jdbc: { urls: ["jdbc:postgresql://db.invalid/*"] }
    concurrency: { max: 10000 }
YAML
jvm=(-Xms512m -Xmx512m -XX:+UseSerialGC)

# Starts the application as variant $1 on a free port, waits until /health answers.
start_app() {
  local port opts=() log="$out/raw/app-$1.log"
  port=$(free_port)
  case "$1" in
    levee) opts=("-javaagent:$agent=rules=$rules,http=127.0.0.1:${status_port[levee]},log=$agent_log") ;;
    before) opts=("-javaagent:$before_agent=rules=$rules,http=127.0.0.1:${status_port[before]},log=$agent_log") ;;
    monitor) opts=("-javaagent:$agent=rules=$out/monitor.yaml,http=127.0.0.1:${status_port[monitor]},log=$agent_log") ;;
    nomatch) opts=("-javaagent:$agent=rules=$out/no-match.yaml") ;;
  esac
  "${app_pin[@]}" java "${jvm[@]}" "${opts[@]}" -jar "$app" --server.port="$port" >"$log" 2>&1 &
  app_pid[$1]=$! app_port[$1]=$port
  for _ in $(seq 1 600); do
    curl -sf "http://127.0.0.1:$port/health" >/dev/null && return 0
    kill -0 "${app_pid[$1]}" 2>/dev/null || { echo "run-petclinic: the application exited, see $log" >&2; exit 1; }
    sleep 0.2
  done
  echo "run-petclinic: the application did not answer, see $log" >&2
  exit 1
}

# Waits (at most a minute) until the application $1 uses less than a tenth of a CPU over a second:
# an overloaded application goes on serving its backlog after the load stops, on the CPU the other
# one is measured on.
settle() {
  local pid=${app_pid[$1]} before after
  for _ in $(seq 1 60); do
    before=$(awk '{print $14 + $15}' "/proc/$pid/stat")
    sleep 1
    after=$(awk '{print $14 + $15}' "/proc/$pid/stat")
    (( after - before < $(getconf CLK_TCK) / 10 )) && return 0
  done
  return 0
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

# Starts every variant, warms each up at 64 connections, then lets each settle.
start_all() {
  local variant
  status_port=([levee]=$(free_port) [monitor]=$(free_port) [before]=$(free_port))
  for variant in "${all_variants[@]}"; do
    start_app "$variant"
    load 64 "$warmup" "${app_port[$variant]}" >/dev/null
  done
  for variant in "${all_variants[@]}"; do settle "$variant"; done
}

stop_all() {
  local variant
  for variant in "${!app_pid[@]}"; do
    { kill "${app_pid[$variant]}" && wait "${app_pid[$variant]}"; } 2>/dev/null || true
    mv "$out/raw/app-$variant.log" "$out/raw/app-$variant-l$launch.log"
  done
  app_pid=()
}

# The variants in turn, starting with the $1-th (modulo their number).
rotated() {
  local n=${#all_variants[@]} i
  for ((i = 0; i < n; i++)); do echo "${all_variants[(i + $1) % n]}"; done
}

# One point of variant $1 in round $2 at $3 connections.
closed_point() {
  local base="$out/raw/$1-r$2-c$3" sampler=""
  if [[ -n "${status_port[$1]:-}" ]]; then
    "${gen_pin[@]}" python3 benchmarks/petclinic-report.py sample "http://127.0.0.1:${status_port[$1]}/status" "$base-limit.txt" "$(date +%s%3N)" &
    sampler=$!
  fi
  load "$3" "$seconds" "${app_port[$1]}" | tail -1 >"$base.json"
  [[ -n "$sampler" ]] && kill "$sampler" && wait "$sampler" 2>/dev/null || true
  echo "run-petclinic: $1 round $2, $3 connections: $(cat "$base.json")"
}

open_point() {
  local base="$out/raw/$1-r$2-open" sampler=""
  if [[ -n "${status_port[$1]:-}" ]]; then
    (sleep "$open_warm"; exec "${gen_pin[@]}" timeout "$seconds" python3 benchmarks/petclinic-report.py sample "http://127.0.0.1:${status_port[$1]}/status" "$base-limit.txt" "$(date +%s%3N)") &
    sampler=$!
  fi
  open_loop "${app_port[$1]}" | tail -1 >"$base.json"
  [[ -n "$sampler" ]] && wait "$sampler" 2>/dev/null || true
  echo "run-petclinic: $1 round $2, open loop at $open_rate/s: $(cat "$base.json")"
  settle "$1"
}

echo "run-petclinic: warm-up ${warmup}s, ${seconds}s per point at ${connections} connections, $rounds round(s) in each of $launches launch(es)"
# Rounds are numbered across launches; raw/launches.txt says which launch each belongs to. Which
# application goes first rotates from point to point and from round to round.
turn=0 round=0
for launch in $(seq 1 "$launches"); do
  start_all
  first=$((round + 1))
  for _ in $(seq 1 "$rounds"); do
    round=$((round + 1))
    echo "$round $launch" >>"$out/raw/launches.txt"
    for c in ${connections//,/ }; do
      for variant in $(rotated $((turn++))); do closed_point "$variant" "$round" "$c"; done
    done
  done
  if [[ -z "$open_rate" ]]; then
    # 2C, C the goodput without the agent at the highest connection count in the first round.
    open_rate=$(python3 -c "import json,sys; w = json.load(open(sys.argv[1])); print(round(2 * (w['requests'] - w['non2xx']) / (w['duration_us'] / 1e6)))" "$out/raw/none-r1-c${connections##*,}.json" 2>/dev/null || true)
  fi
  if [[ -n "$open_rate" && "$open_rate" != 0 ]]; then
    echo "$open_rate" >"$out/raw/open-rate.txt"
    for r in $(seq "$first" "$round"); do
      for variant in $(rotated $((r - 1))); do open_point "$variant" "$r"; done
    done
  fi
  stop_all
done
{
  echo "- Machine: $(nproc) CPUs, $(uname -sr); load average before the report: $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "- Java: $(java -version 2>&1 | head -1)"
  echo "- Application JVM: \`${jvm[*]}\`${app_pin:+, pinned with \`${app_pin[*]}\`}; wrk, the sampler and PostgreSQL ${gen_pin:+pinned with \`${gen_pin[*]}\`}"
  echo "- Variants: ${all_variants[*]}; warm-up ${warmup} s at 64 connections, then ${seconds} s per point; levee's rules: \`$(tr '\n' ' ' <"$rules")\`"
  if [[ -n "$open_rate" && "$open_rate" != 0 ]]; then
    echo "- Open loop: ${open_warm} s at $open_rate/4 requests/s, then ${seconds} s at $open_rate requests/s (2C), ${#open_paths[@]} pages sharing the rate"
  fi
} >"$out/run.md"
cat "$out/run.md"
python3 benchmarks/petclinic-report.py report "$out"
