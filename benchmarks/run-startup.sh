#!/usr/bin/env bash
# Start-up: JVM start to the first successful answer of the demo application (Tomcat 9, javax
# servlets, H2; demo/src/main/java/io/levee/demo/app), without the agent, with the agent and rules
# that match no call, and with the agent and the demo's rules (demo/rules.yaml). The first request,
# GET /api/orders, runs a servlet, a DriverManager connection and a prepared query, so it pays for
# instrumenting each of those classes as the application loads them. Several starts per case, in
# rotating order after one discarded warm-up round (about two minutes with the default 9 rounds);
# then regenerates the start-up section of docs/BENCHMARKS.md.
#
#   benchmarks/run-startup.sh [ROUNDS]
#
# Results: benchmarks/target/startup/startup.csv (one row per start) and logs/ (each start's output).
set -euo pipefail
cd "$(dirname "$0")/.."

rounds=${1:-9}
# SKIP_BUILD=1 reuses what is built (e.g. when run-all.sh has built it once).
if [ -z "${SKIP_BUILD:-}" ]; then
  mvn -B -q -o -pl agent,demo,benchmarks -am package -DskipTests 2>/dev/null || mvn -B -q -pl agent,demo,benchmarks -am package -DskipTests
fi
out=benchmarks/target/startup
rm -rf "$out"
mkdir -p "$out"

agent=agent/target/levee-agent.jar
jvm_flags="-Xms64m -Xmx256m -XX:+UseSerialGC"
cases=(
  "none="
  "agent-no-match=-javaagent:$agent=rules=benchmarks/startup-no-match.yaml"
  "agent-demo-rules=-javaagent:$agent=rules=demo/rules.yaml"
)
app=(java $jvm_flags "{case}" -cp demo/target/levee-demo-app.jar io.levee.demo.app.DemoApp "{port}"
  http://127.0.0.1:9/partner)
cmd=(java -cp benchmarks/target/benchmarks.jar io.levee.benchmarks.startup.FirstResponse
  "$out/startup.csv" "$rounds" /api/orders "X-Tenant-ID: acme" "${cases[@]}" -- "${app[@]}")

{
  echo "${app[*]}"
  for c in "${cases[@]}"; do echo "  ${c%%=*}: {case} = ${c#*=}"; done
  echo "poller: ${cmd[*]:0:4} $out/startup.csv $rounds /api/orders 'X-Tenant-ID: acme' CASES -- APP"
} >"$out/commands.txt"
uptime >"$out/load-before.txt"
java -version 2>"$out/java-version.txt"
"${cmd[@]}"
uptime >"$out/load-after.txt"

python3 benchmarks/format-startup.py "$out" docs/BENCHMARKS.md
echo "Updated docs/BENCHMARKS.md"
