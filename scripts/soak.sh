#!/usr/bin/env bash
# The soak test of issue 8 (not part of CI; about N + 2 minutes): builds the agent, the demo and the
# soak (benchmarks/soak), starts the demo application WITHOUT the agent, measures its capacity,
# then keeps it at 70 % of that load for N minutes while the agent is attached, reloaded with other
# rules and detached every minute. Prints and writes a report
# (benchmarks/soak/target/soak-report.md); exits 1 if a request failed because of the agent or if
# heap, threads or classes grew (3: inconclusive, the bare application timed out too on an
# overloaded machine). Needs a JDK 17+ and Maven.
#
#   scripts/soak.sh                  # 30 minutes
#   scripts/soak.sh --minutes 3      # a short run
#   scripts/soak.sh --load 50 --report /tmp/soak.md
#   scripts/soak.sh --probe [--load 70] [--capacity RATE]   # what one attach costs, per 100 ms
set -euo pipefail
cd "$(dirname "$0")/.."

for tool in java mvn; do
  command -v "$tool" >/dev/null || { echo "soak.sh: $tool is missing (install a JDK 17+ and Maven)" >&2; exit 1; }
done
log=$(mktemp -t levee-soak-build.XXXXXX)
echo "Building the agent, the demo and the soak (mvn package -pl agent,benchmarks/soak -am; log: $log)..."
if ! mvn -B -q -ntp package -DskipTests -pl agent,benchmarks/soak -am >"$log" 2>&1; then
  tail -40 "$log" >&2
  echo "soak.sh: the build failed; full log in $log" >&2
  exit 1
fi

main=io.levee.soak.SoakDriver
if [ "${1:-}" = "--probe" ]; then
  main=io.levee.soak.SoakProbe
  shift
fi
# The application runs on the lower half of the cores (AppProcess); the driver, the partner and the
# agent's command line get the upper half, so that neither takes CPU from the other.
pin=()
cores=$(nproc 2>/dev/null || echo 1)
if [ "$cores" -ge 2 ] && command -v taskset >/dev/null; then
  pin=(taskset -c "$((cores / 2))-$((cores - 1))")
fi
# The driver holds every unanswered request (up to 4 000) and runs the partner: a long GC pause in it
# stops the load and the partner's answers, and shows up as the application's latency. A small,
# fixed heap with short pauses, and its GC log next to the report.
jvm=(-Xms1g -Xmx1g -XX:+UseG1GC -XX:MaxGCPauseMillis=20 -Xlog:gc:file=benchmarks/soak/target/soak-driver-gc.log)
exec "${pin[@]}" java "${jvm[@]}" -cp "benchmarks/soak/target/levee-soak.jar:benchmarks/soak/target/lib/*" "$main" "$@"
