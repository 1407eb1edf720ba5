#!/usr/bin/env bash
# Start-up with class-data sharing: does an application archive (a dynamic CDS archive, JDK 13+)
# take the agent's start-up cost away? The demo application as in run-startup.sh, rules that match
# no call, first 200 of GET /api/orders, in five cases:
#   none            without the agent, the JDK's default archive only
#   agent           with the agent, as an operator adds it
#   none-cds        without the agent, with an archive of the application's classes
#   agent-cds       with the agent and an archive dumped with it (the agent jar also on -cp, which
#                   the JVM requires of archived classes; the diagnostic AllowArchivingWithJavaAgent
#                   at dump and at run time, without which the JVM refuses such an archive)
#   agent-bcp-cds   as agent-cds, with the bridge (levee-bootstrap.jar, copied out of the agent jar)
#                   on -Xbootclasspath/a, so that the agent does not append it at run time, which
#                   turns sharing off for every class not of the boot loader
# Each archive is dumped by one start that answers two requests and is stopped (-XX:ArchiveClassesAtExit).
#
#   benchmarks/run-startup-cds.sh [ROUNDS]      (default 9 rounds, about 3 minutes)
#
# Prints the median first answer and CPU time per case and the paired differences; writes
# benchmarks/target/startup-cds/ (startup.csv, the archives, the dump logs). Does not edit the docs.
set -euo pipefail
cd "$(dirname "$0")/.."

rounds=${1:-9}
if [ -z "${SKIP_BUILD:-}" ]; then
  mvn -B -q -o -pl agent,demo,benchmarks -am package -DskipTests 2>/dev/null || mvn -B -q -pl agent,demo,benchmarks -am package -DskipTests
fi
out=$PWD/benchmarks/target/startup-cds
rm -rf "$out"
mkdir -p "$out"
agent=$PWD/agent/target/levee-agent.jar
demo=$PWD/demo/target/levee-demo-app.jar
(cd "$out" && unzip -q -o "$agent" levee-bootstrap.jar)
jvm_flags="-Xms64m -Xmx256m -XX:+UseSerialGC"
with_agent="-XX:+UnlockDiagnosticVMOptions -XX:+AllowArchivingWithJavaAgent"
rules="rules=$PWD/benchmarks/startup-no-match.yaml"

free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

# Dumps $out/$1.jsa from one start with the JVM arguments that follow.
dump() {
  local name=$1 port pid
  shift
  port=$(free_port)
  # shellcheck disable=SC2086
  java $jvm_flags -XX:ArchiveClassesAtExit="$out/$name.jsa" "$@" io.levee.demo.app.DemoApp "$port" \
    http://127.0.0.1:9/partner >"$out/dump-$name.log" 2>&1 &
  pid=$!
  for _ in $(seq 1 300); do
    curl -sf -H 'X-Tenant-ID: acme' "http://127.0.0.1:$port/api/orders" >/dev/null && break
    sleep 0.1
  done
  curl -sf -H 'X-Tenant-ID: acme' "http://127.0.0.1:$port/api/orders" >/dev/null
  kill "$pid"
  wait "$pid" || true
  [ -s "$out/$name.jsa" ] || { echo "run-startup-cds: no archive for $name, see $out/dump-$name.log" >&2; exit 1; }
}
# shellcheck disable=SC2086
{
  dump none -cp "$demo"
  dump agent $with_agent "-javaagent:$agent=$rules" -cp "$demo:$agent"
  dump agent-bcp $with_agent "-Xbootclasspath/a:$out/levee-bootstrap.jar" "-javaagent:$agent=$rules" -cp "$demo:$agent"
}

java -cp benchmarks/target/benchmarks.jar io.levee.benchmarks.startup.FirstResponse "$out/startup.csv" "$rounds" \
  /api/orders "X-Tenant-ID: acme" \
  "none=-cp $demo" \
  "agent=-javaagent:$agent=$rules -cp $demo" \
  "none-cds=-XX:SharedArchiveFile=$out/none.jsa -cp $demo" \
  "agent-cds=$with_agent -XX:SharedArchiveFile=$out/agent.jsa -javaagent:$agent=$rules -cp $demo:$agent" \
  "agent-bcp-cds=$with_agent -XX:SharedArchiveFile=$out/agent-bcp.jsa -Xbootclasspath/a:$out/levee-bootstrap.jar -javaagent:$agent=$rules -cp $demo:$agent" \
  -- java $jvm_flags "{case}" io.levee.demo.app.DemoApp "{port}" http://127.0.0.1:9/partner

python3 - "$out/startup.csv" <<'PY'
import collections, csv, statistics, sys
by = collections.defaultdict(dict)
for r in csv.DictReader(open(sys.argv[1])):
    by[r["round"]][r["case"]] = (float(r["first_ms"]), float(r["cpu_ms"]))
print("| case | first 200, median ms | CPU to first 200, median ms |")
print("|---|---:|---:|")
for c in ["none", "agent", "none-cds", "agent-cds", "agent-bcp-cds"]:
    first = [x[c][0] for x in by.values() if c in x]
    cpu = [x[c][1] for x in by.values() if c in x]
    print(f"| {c} | {statistics.median(first):.0f} | {statistics.median(cpu):.0f} |")
print()
print("| added | ms, median of the rounds' differences |")
print("|---|---:|")
for a, b in [("agent", "none"), ("agent-cds", "none-cds"), ("agent-bcp-cds", "none-cds"), ("agent-bcp-cds", "none")]:
    d = [x[a][0] - x[b][0] for x in by.values() if a in x and b in x]
    print(f"| {a} − {b} | {statistics.median(d):+.0f} |")
PY
