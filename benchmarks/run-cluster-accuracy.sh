#!/usr/bin/env bash
# Cluster rate limit, accuracy (issue 26): fleets of 3 and then 6 JVMs (integration-tests' QuotaApp,
# each with the packaged agent) share `rate: 300/s, burst: 30, scope: cluster` with `sync: 100ms`
# through a redis-server of the harness's own, calling a local partner that counts per second what
# it receives. Three scenarios per fleet, 1.5 R offered: even, skewed (all on one instance) and
# moving (from one instance to another halfway); 3 s idle, 5 s warm-up and 30 s measured each,
# about five minutes in all. Arguments are passed on to the harness
# (integration-tests/src/test/java/io/levee/it/cluster/ClusterAccuracyBenchmark.java), e.g.
#   benchmarks/run-cluster-accuracy.sh --instances 3 --scenarios moving --warm-up 2 --seconds 6
# Writes benchmarks/target/cluster-accuracy/ (a CSV per scenario, summary.csv, console.txt, the
# instances' logs under work/), docs/img/cluster-accuracy-{3,6}.png and the cluster-accuracy section
# of docs/BENCHMARKS.md. Needs redis-server (Debian's is installed when missing, as run-tests.sh
# does; $LEVEE_REDIS_SERVER names another).
set -euo pipefail
cd "$(dirname "$0")/.."

# SKIP_BUILD=1 reuses what is built (the agent jar and the integration tests' classes).
if [ -z "${SKIP_BUILD:-}" ]; then
  mvn -B -q -o -pl integration-tests -am package -DskipTests 2>/dev/null \
    || mvn -B -q -pl integration-tests -am package -DskipTests
fi
out=benchmarks/target/cluster-accuracy
rm -rf "$out"
mkdir -p "$out" docs/img

source scripts/test-redis.sh
redis_install
LEVEE_REDIS_SERVER="$(redis_bin)"
export LEVEE_REDIS_SERVER
"$LEVEE_REDIS_SERVER" --version >"$out/redis-version.txt"
java -version 2>"$out/jdk.txt"

testkit=$(ls testkit/target/levee-testkit-*.jar | grep -v -- '-sources' | head -1)
it=integration-tests/target
cp="$it/test-classes:$testkit:$(cat "$it/app-classpath.txt")"
cmd=(java -Xmx512m -Djava.awt.headless=true
  -Dlevee.agent.jar=agent/target/levee-agent.jar -Dlevee.root=.
  -Dlevee.app.classpath="$it/app-classpath.txt" -Dlevee.test.classes="$it/test-classes"
  -Dlevee.work.dir="$out/work"
  io.levee.it.cluster.ClusterAccuracyBenchmark --out "$out" --img docs/img "$@")
# The class path is long and the same every run: the recorded command names it, not its entries.
echo "java -cp <integration-tests' test class path> ${cmd[*]:1}" >"$out/command.txt"

# The load average every 5 s during the run: the fleet shares the machine with whatever else runs.
(while true; do echo "$(date +%T) $(cut -d' ' -f1-3 /proc/loadavg)"; sleep 5; done) >"$out/load-during.txt" &
sampler=$!
trap 'kill "$sampler" 2>/dev/null || true' EXIT
uptime >"$out/load-before.txt"
"${cmd[0]}" -cp "$cp" "${cmd[@]:1}" | tee "$out/console.txt"
uptime >"$out/load-after.txt"

python3 benchmarks/format-cluster-accuracy.py "$out" docs/BENCHMARKS.md
echo "Updated docs/BENCHMARKS.md"
