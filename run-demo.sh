#!/usr/bin/env bash
# Builds the Levee agent and the demo, then plays the demo end to end (about two minutes):
# a Tomcat 9 application with H2 and a pricing partner, overloaded five ways, protected by the
# agent with demo/rules.yaml. Needs a JDK 17+ and Maven.
#
#   ./run-demo.sh              # with the agent
#   ./run-demo.sh --attach     # start the application bare, then attach the agent at run time
#   ./run-demo.sh --no-agent   # the same load, unprotected, to compare
#   ./run-demo.sh --plain      # never redraw the table in place
set -euo pipefail
cd "$(dirname "$0")"

for tool in java mvn; do
  command -v "$tool" >/dev/null || { echo "run-demo.sh: $tool is missing (install a JDK 17+ and Maven)" >&2; exit 1; }
done
version=$(java -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.specification.version = //p')
if [ "${version%%.*}" -lt 17 ] 2>/dev/null; then
  echo "run-demo.sh: the demo needs Java 17 or later; java is $version" >&2
  exit 1
fi

started=$(date +%s)
log=$(mktemp -t levee-demo-build.XXXXXX)
echo "Building the agent and the demo (mvn package -pl agent,demo -am; log: $log)..."
if ! mvn -B -q -ntp package -DskipTests -pl agent,demo -am >"$log" 2>&1; then
  tail -40 "$log" >&2
  echo "run-demo.sh: the build failed; full log in $log" >&2
  exit 1
fi
echo "Built in $(( $(date +%s) - started ))s."
echo

exec java -cp "demo/target/levee-demo.jar:demo/target/driver-lib/*" io.levee.demo.driver.DemoDriver "$@"
