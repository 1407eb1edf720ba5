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
# The generator's heap: a young generation larger than a step or slow-io run allocates, emptied
# before each run (Harness.measure), so that the generator does not pause for a collection
# while it measures. Its default on one CPU, a serial collector with a small young generation,
# paused it 40-120 ms every few seconds, and each pause showed as a burst of late sends. The heap
# is touched at start and backed by huge pages where the kernel allows (madvise): without them, the
# generator, which shares its CPU with the stub, fell behind in 3 of 7 slow-io runs (send lag p99
# 40-230 ms), and the application behind it queued; with them, in none of 6.
gen_jvm=(-Xms4g -Xmx4g -Xmn3g -XX:+UseTransparentHugePages -XX:+AlwaysPreTouch)
# On 2 or more CPUs the application gets CPU 0 and the generator and stub CPU 1, so that the load
# generator never competes with the server it measures. PIN=0 turns this off.
pin=()
app_cpus=""
if [ "${PIN:-1}" = 1 ] && command -v taskset >/dev/null && [ "$(nproc)" -ge 2 ]; then
  pin=(taskset -c 1)
  app_cpus=0
fi
