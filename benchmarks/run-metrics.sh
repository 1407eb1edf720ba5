#!/usr/bin/env bash
# Runs MetricsHotPath (cases a, b, c at 1 thread) in alternating rounds: each round runs metrics=off
# and metrics=on in two fresh JVMs, off first in odd rounds and on first in even ones, so that the
# load of a shared machine falls on both alike. Then prints, per case, the ratio on/off of each round
# and their median. Usage: benchmarks/run-metrics.sh [ROUNDS] (default 6, about 6 minutes).
# Results: benchmarks/target/metrics/round-N-{off,on}.json, summary.txt.
set -euo pipefail
cd "$(dirname "$0")/.."

rounds="${1:-6}"
mvn -B -q -o -pl benchmarks -am package -DskipTests 2>/dev/null \
  || mvn -B -q -pl benchmarks -am package -DskipTests
out=benchmarks/target/metrics
rm -rf "$out"
mkdir -p "$out"

run() {
  local round="$1" metrics="$2"
  local cmd=(java -jar benchmarks/target/benchmarks.jar 'io.levee.benchmarks.MetricsHotPath.'
    -p "metrics=$metrics" -f 1 -wi 3 -w 1s -i 5 -r 1s -t 1 -prof gc
    -jvmArgsAppend '-Xms512m -Xmx512m' -rf json -rff "$out/round-$round-$metrics.json")
  if [ "$round" = 1 ]; then printf '%q ' "${cmd[@]}" >>"$out/commands.txt"; echo >>"$out/commands.txt"; fi
  "${cmd[@]}" >"$out/round-$round-$metrics.txt"
}

uptime >"$out/load-before.txt"
for round in $(seq 1 "$rounds"); do
  if [ $((round % 2)) = 1 ]; then order="off on"; else order="on off"; fi
  for metrics in $order; do
    run "$round" "$metrics"
    echo "round $round metrics=$metrics done; load: $(cut -d, -f3- /proc/loadavg 2>/dev/null || uptime)"
  done
  uptime >>"$out/load-during.txt"
done
uptime >"$out/load-after.txt"

python3 benchmarks/summarize-metrics.py "$out" | tee "$out/summary.txt"
