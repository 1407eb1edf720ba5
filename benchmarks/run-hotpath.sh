#!/usr/bin/env bash
# Runs the hot-path benchmarks (Levee and its parts, Resilience4j, Sentinel, no protection) at 1 and
# 2 threads with settings sized for a 2-core machine (about five minutes), then regenerates the tables of
# docs/BENCHMARKS.md from the JSON results. Arguments, if any, replace the default JMH run settings
# (e.g. `-f 1 -wi 5 -w 2s -i 10 -r 2s`); `-prof gc` is always on.
# Results: benchmarks/target/hotpath/threads-{1,2}.{json,txt}.
set -euo pipefail
cd "$(dirname "$0")/.."

mvn -B -q -o -pl benchmarks -am package -DskipTests 2>/dev/null \
  || mvn -B -q -pl benchmarks -am package -DskipTests
out=benchmarks/target/hotpath
rm -rf "$out"
mkdir -p "$out"

settings=(-f 1 -wi 3 -w 1s -i 5 -r 1s)
if [ "$#" -gt 0 ]; then settings=("$@"); fi
jvm_flags="-Xms512m -Xmx512m -Dcsp.sentinel.log.dir=$out/sentinel-logs"
include='io.levee.benchmarks.(NoProtection|LeveeHotPath|Resilience4jHotPath|SentinelHotPath|HotPathParts).'

quoted() {
  local arg
  for arg in "$@"; do
    case "$arg" in
      *[!A-Za-z0-9_./=:-]*) printf "'%s' " "$arg" ;;
      *) printf '%s ' "$arg" ;;
    esac
  done
  echo
}

uptime >"$out/load-before.txt"
for threads in 1 2; do
  cmd=(java -jar benchmarks/target/benchmarks.jar "$include" "${settings[@]}" -prof gc
    -t "$threads" -jvmArgsAppend "$jvm_flags" -rf json -rff "$out/threads-$threads.json")
  quoted "${cmd[@]}" >>"$out/commands.txt"
  "${cmd[@]}" | tee "$out/threads-$threads.txt"
done
uptime >"$out/load-after.txt"

python3 benchmarks/format-hotpath.py "$out" docs/BENCHMARKS.md
echo "Updated docs/BENCHMARKS.md"
