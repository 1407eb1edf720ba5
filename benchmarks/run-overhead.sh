#!/usr/bin/env bash
# Whole-application overhead (issue 7, part 2): /page (one H2 query, one local HTTP call) on Tomcat 9
# under an open-loop constant rate below capacity, without the agent, with the agent and no rules,
# and with the agent and rules that admit everything; 5 alternating rounds (60 s warm-up, 60 s measured), about 32 minutes.
# Arguments are passed on (--rate N, --runs ROUNDS, --quick).
# Writes benchmarks/load/target/overhead/ and the overhead section of docs/BENCHMARKS.md.
set -euo pipefail
cd "$(dirname "$0")/.."
source benchmarks/load-common.sh
out=benchmarks/load/target/overhead
rm -rf "$out"
mkdir -p "$out"
runs=(--runs 5)
for a in "$@"; do [[ "$a" == --runs ]] && runs=(); done
cmd=("${pin[@]}" java "${gen_jvm[@]}" -Dsun.net.httpserver.nodelay=true -cp "$cp" io.levee.load.bench.OverheadBench --agent "$agent" --app-cpus "$app_cpus" --out "$out" "${runs[@]}" "$@")
"${cmd[@]}" --command "${cmd[*]}" | tee "$out/console.txt"
python3 benchmarks/splice-section.py overhead "$out/section.md" docs/BENCHMARKS.md
echo "Updated docs/BENCHMARKS.md"
