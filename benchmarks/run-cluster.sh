#!/usr/bin/env bash
# Cluster rate limit, per-call cost: one thread checking a limit that every call passes, kept in a
# Redis of the script's own (redis-server on a free loopback port, nothing on disk, stopped on
# exit): Bucket4j's Jedis backend and Redisson's RRateLimiter ask it on every call; Levee decides
# from its local share with `scope: cluster` (its settling thread talking to that Redis meanwhile)
# and `scope: local`. Throughput (calls/s) and average time (ns/call, B/call with -prof gc), about
# three minutes; then regenerates the cluster section of docs/BENCHMARKS.md. Arguments, if any,
# replace the default JMH run settings (e.g. `-f 1 -wi 3 -w 2s -i 5 -r 2s`).
# Needs redis-server (Debian's is installed when missing, as run-tests.sh does; $LEVEE_REDIS_SERVER
# names another). Results: benchmarks/target/cluster/{thrpt,avgt}.{json,txt}.
set -euo pipefail
cd "$(dirname "$0")/.."

# SKIP_BUILD=1 reuses what is built (e.g. when run-all.sh has built it once).
if [ -z "${SKIP_BUILD:-}" ]; then
  mvn -B -q -o -pl benchmarks -am package -DskipTests 2>/dev/null \
    || mvn -B -q -pl benchmarks -am package -DskipTests
fi
out=benchmarks/target/cluster
rm -rf "$out"
mkdir -p "$out"

source scripts/test-redis.sh
redis_install
LEVEE_REDIS_PORT="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
REDIS_DIR="$PWD/$out/redis"
trap redis_stop EXIT
redis_start
"$(redis_bin)" --version >"$out/redis-version.txt"

settings=(-f 1 -wi 3 -w 2s -i 5 -r 2s)
if [ "$#" -gt 0 ]; then settings=("$@"); fi
jvm_flags="-Xms512m -Xmx512m -Dlevee.bench.redis=$LEVEE_REDIS_URL"
include='io.levee.benchmarks.ClusterRateLimit.'

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
for mode in thrpt avgt; do
  unit=s profile=()
  if [ "$mode" = avgt ]; then unit=ns profile=(-prof gc); fi
  cmd=(java -jar benchmarks/target/benchmarks.jar "$include" "${settings[@]}" -t 1 -bm "$mode"
    -tu "$unit" "${profile[@]}" -jvmArgsAppend "$jvm_flags" -rf json -rff "$out/$mode.json")
  quoted "${cmd[@]}" >>"$out/commands.txt"
  "${cmd[@]}" | tee "$out/$mode.txt"
done
uptime >"$out/load-after.txt"

python3 benchmarks/format-cluster.py "$out" docs/BENCHMARKS.md
echo "Updated docs/BENCHMARKS.md"
