#!/usr/bin/env bash
# The overload benchmark of issue 7: calibrates the capacity C of /cpu without protection, then plays
# the step (0.5C -> 2C -> 0.5C), slow-downstream and three retry-storm scenarios (once after 0-50 ms,
# exponential back-off with jitter, immediate retries) against every contender
# (none, static limit, Netflix concurrency-limits Gradient2 default and tuned, Sentinel CPU 0.8, Levee
# system), 3 runs each, and the priorities scenario (a critical/normal/sheddable mix at 2C) by Levee
# with and without priorities, about 55 minutes on 2 cores. Arguments are passed on, e.g.
#   benchmarks/run-overload.sh --quick                   (1 run, shorter phases, about 8 minutes)
#   benchmarks/run-overload.sh --contender levee,none --scenario step --runs 5 --capacity 420
#   benchmarks/run-overload.sh --contender levee --levee-rules my-rules.yaml   (Levee with other rules)
# Writes benchmarks/load/target/overload/ (per-second CSVs, logs), docs/img/overload-*.png and the
# overload section of docs/BENCHMARKS.md.
set -euo pipefail
cd "$(dirname "$0")/.."
source benchmarks/load-common.sh
out=benchmarks/load/target/overload
# C1 only: C2 compiles in bursts for minutes as new paths (rejects, retries, timeouts) get hot, and
# on the generator's one CPU each burst delays the sends and reads it is timing.
gen_jvm+=(-XX:TieredStopAtLevel=1)
rm -rf "$out"
mkdir -p "$out"
cmd=("${pin[@]}" java "${gen_jvm[@]}" -Dsun.net.httpserver.nodelay=true -cp "$cp" io.levee.load.bench.OverloadBench --agent "$agent" --app-cpus "$app_cpus" --out "$out" --img docs/img "$@")
"${cmd[@]}" --command "${cmd[*]}" | tee "$out/console.txt"
python3 benchmarks/splice-section.py overload "$out/section.md" docs/BENCHMARKS.md
echo "Updated docs/BENCHMARKS.md"
