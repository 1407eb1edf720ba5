#!/usr/bin/env bash
# What the instrumentation costs a call: JMH's InstrumentedCalls (one HttpURLConnection GET to a
# local server, one prepared H2 query), ClientCalls (one GET through each other HTTP client Levee
# weaves) and MethodCalls (an application method a method resource names) in three runs, each its own forked JVM: without the agent,
# with the agent and rules that match neither call, with the agent and rules that admit both. About
# eight minutes; then regenerates the instrumentation section of docs/BENCHMARKS.md. Arguments, if
# any, replace the default JMH run settings (e.g. `-f 2 -wi 5 -w 2s -i 10 -r 2s`); `-prof gc` is on.
#
# The forks run from benchmarks/target/classes and target/instrumentation-lib (JMH, H2, the HTTP clients), never from
# benchmarks.jar, which holds Levee's classes: the agent must come only from its own jar.
# Results: benchmarks/target/instrumentation/{none,agent-no-match,agent-admit}.{json,txt}.
set -euo pipefail
cd "$(dirname "$0")/.."

# SKIP_BUILD=1 reuses what is built (e.g. when run-all.sh has built it once).
if [ -z "${SKIP_BUILD:-}" ]; then
  mvn -B -q -o -pl agent,benchmarks -am package -DskipTests 2>/dev/null || mvn -B -q -pl agent,benchmarks -am package -DskipTests
fi
out=benchmarks/target/instrumentation
rm -rf "$out"
mkdir -p "$out"

cat >"$out/no-match.yaml" <<'YAML'
version: 1
resources:
  - name: other-partner
    match:
      http: { urls: ["http://partner.invalid/**"] }
    concurrency: { max: 10000 }
  - name: other-database
    match:
      jdbc: { urls: ["jdbc:postgresql://db.invalid/*"] }
    concurrency: { max: 10000 }
  - name: other-service
    match:
      method: { class: benchmarkapp.Inventory }
    concurrency: { max: 10000 }
YAML
cat >"$out/admit.yaml" <<'YAML'
version: 1
resources:
  - name: local-server
    match:
      http: { urls: ["http://127.0.0.1:*/bench/**"] }
    concurrency: { max: 10000 }
  - name: bench-database
    match:
      jdbc: { urls: ["jdbc:h2:mem:bench"] }
    concurrency: { max: 10000 }
  - name: price-book
    match:
      method: { class: benchmarkapp.PriceBook, methods: [price] }
    concurrency: { max: 10000 }
YAML

settings=(-f 1 -wi 3 -w 2s -i 8 -r 2s)
if [ "$#" -gt 0 ]; then settings=("$@"); fi
agent=agent/target/levee-agent.jar
# Without nodelay the JDK's HTTP server waits for a delayed ACK (~40 ms) on every keep-alive answer.
jvm_flags="-Xms512m -Xmx512m -Dsun.net.httpserver.nodelay=true"
cp="benchmarks/target/classes:benchmarks/target/instrumentation-lib/*"
cases=(
  "none="
  "agent-no-match=-javaagent:$agent=rules=$out/no-match.yaml"
  "agent-admit=-javaagent:$agent=rules=$out/admit.yaml"
)

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
for c in "${cases[@]}"; do
  name=${c%%=*}
  flags="$jvm_flags ${c#*=}"
  cmd=(java -cp "$cp" org.openjdk.jmh.Main 'io.levee.benchmarks.instrumentation.'
    "${settings[@]}" -prof gc -t 1 -jvmArgsAppend "${flags% }" -rf json -rff "$out/$name.json")
  quoted "${cmd[@]}" >>"$out/commands.txt"
  "${cmd[@]}" | tee "$out/$name.txt"
done
uptime >"$out/load-after.txt"

python3 benchmarks/format-instrumentation.py "$out" docs/BENCHMARKS.md
echo "Updated docs/BENCHMARKS.md"
