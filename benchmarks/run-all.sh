#!/usr/bin/env bash
# Every benchmark of docs/BENCHMARKS.md in sequence, each regenerating its own section: hot path,
# cluster rate limit (per-call cost, then accuracy), instrumentation, start-up, whole-application
# overhead, overload (about 60 minutes on 2 cores).
# A script that is not in this checkout is skipped with a note.
set -uo pipefail
cd "$(dirname "$0")/.."
failed=()
for script in run-hotpath.sh run-cluster.sh run-cluster-accuracy.sh run-instrumentation.sh run-startup.sh run-overhead.sh run-overload.sh; do
  if [ ! -x "benchmarks/$script" ]; then
    echo "== benchmarks/$script: not in this checkout, skipped"
    continue
  fi
  echo "== benchmarks/$script"
  "benchmarks/$script" || failed+=("$script")
done
if [ "${#failed[@]}" -gt 0 ]; then
  echo "failed: ${failed[*]}"
  exit 1
fi
