# Shared by run-overload.sh and run-overhead.sh (sourced, from the repository root): builds the
# agent jar and the load benchmark, and decides the CPU pinning.
# SKIP_BUILD=1 reuses the jars already built (a second run on the same commit).
if [ "${SKIP_BUILD:-0}" != 1 ]; then
  mvn -B -q -o -pl agent,benchmarks/load -am package -DskipTests 2>/dev/null \
    || mvn -B -q -pl agent,benchmarks/load -am package -DskipTests
fi
if [ -f agent/target/levee-agent.jar ]; then
  agent=agent/target/levee-agent.jar
else
  agent=$(ls agent/target/levee-agent-*.jar | head -1)
fi
cp="benchmarks/load/target/levee-load-bench.jar:benchmarks/load/target/lib/*"
# On 2 or more CPUs the application gets CPU 0 and the generator and stub CPU 1, so that the load
# generator never competes with the server it measures. PIN=0 turns this off.
pin=()
app_cpus=""
if [ "${PIN:-1}" = 1 ] && command -v taskset >/dev/null && [ "$(nproc)" -ge 2 ]; then
  pin=(taskset -c 1)
  app_cpus=0
fi
