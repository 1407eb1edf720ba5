#!/usr/bin/env bash
# Runs every test of Levee: unit, concurrency, loader and integration tests.
# Installs what the tests need when it is missing and starts it for the run:
#   - PostgreSQL (apt), as a throwaway cluster on 127.0.0.1:55432 (or 55433, 55434 when that port is
#     taken), stopped on exit. If it cannot be had, the PostgreSQL tests fail; LEVEE_SKIP_PG=1 skips
#     them on purpose instead.
#   - MariaDB (apt, Debian's mariadb-server), as a throwaway server on 127.0.0.1:53306 (or 53307, 53308
#     when that port is taken) with a data folder of its own owned by the mysql user, stopped on exit,
#     for the JDBC corpus (MariaDB's driver and MySQL Connector/J). If it cannot be had, those tests
#     fail; LEVEE_SKIP_MARIADB=1 leaves them out on purpose instead.
#   - Redis (apt, Debian's redis-server), as a throwaway server on 127.0.0.1:56379 (or 56380, 56381
#     when that port is taken) that keeps nothing on disk, stopped on exit, for the cluster rate limits;
#     tests that stop or kill Redis fork their own servers from the same binary. If it cannot be had,
#     those tests fail; LEVEE_SKIP_REDIS=1 skips them on purpose instead.
#   - Prometheus (apt, scripts/ensure-package.sh, with promtool) for MetricsIT, which runs its own
#     server on loopback with the alert rules of docs/monitoring and checks them with promtool;
#     LEVEE_SKIP_PROMETHEUS=1 skips those tests on purpose instead.
#   - Chromium (apt, scripts/ensure-package.sh) for LivePageIT, which loads the endpoint's live page
#     in it headless; LEVEE_SKIP_CHROMIUM=1 skips that test on purpose instead.
#   - a JDK 25 ($JAVA25_HOME or /usr/lib/jvm/*25*) for the JDK 25 variants; without one they fail;
#     LEVEE_SKIP_JDK25=1 skips them on purpose instead.
# At the end it prints the tests run, failed and skipped per module, every skip's reason, and the
# run's duration (scripts/TestSummary.java); it exits with Maven's status. On a 2-core machine a
# run takes 13 to 20 minutes, the integration tests most of it.
# Extra arguments go to Maven, e.g. ./run-tests.sh -pl integration-tests -am -Dit.test=Jdk17HttpIT -Dtest=none -Dsurefire.failIfNoSpecifiedTests=false
set -euo pipefail
cd "$(dirname "$0")"
source scripts/test-postgres.sh
source scripts/test-mariadb.sh
source scripts/test-redis.sh

stop_servers() {
  [[ "${LEVEE_SKIP_PG:-}" == 1 ]] || pg_stop
  [[ "${LEVEE_SKIP_MARIADB:-}" == 1 ]] || mariadb_stop
  [[ "${LEVEE_SKIP_REDIS:-}" == 1 ]] || redis_stop
}
trap stop_servers EXIT

if [[ "${LEVEE_SKIP_PG:-}" != 1 ]]; then
  pg_started=""
  if pg_install; then
    # A busy machine may hold the port (a client connection's ephemeral port): try the next two.
    for pg_port in "$LEVEE_PG_PORT" $((LEVEE_PG_PORT + 1)) $((LEVEE_PG_PORT + 2)); do
      LEVEE_PG_PORT=$pg_port PG_DIR="${TMPDIR:-/tmp}/levee-pg-$pg_port"
      if pg_start; then pg_started=1; break; fi
      pg_stop
    done
  fi
  if [[ -z "$pg_started" ]]; then
    echo "run-tests: WARNING: no PostgreSQL; its integration tests will fail (LEVEE_SKIP_PG=1 skips them)" >&2
  fi
fi

if [[ "${LEVEE_SKIP_MARIADB:-}" != 1 ]]; then
  mariadb_started=""
  if mariadb_install; then
    for mariadb_port in "$LEVEE_MARIADB_PORT" $((LEVEE_MARIADB_PORT + 1)) $((LEVEE_MARIADB_PORT + 2)); do
      LEVEE_MARIADB_PORT=$mariadb_port MARIADB_DIR="${TMPDIR:-/tmp}/levee-mariadb-$mariadb_port"
      if mariadb_start; then mariadb_started=1; break; fi
      mariadb_stop
    done
  fi
  if [[ -z "$mariadb_started" ]]; then
    echo "run-tests: WARNING: no MariaDB; its JDBC corpus tests will fail (LEVEE_SKIP_MARIADB=1 skips them)" >&2
  fi
fi

if [[ "${LEVEE_SKIP_REDIS:-}" != 1 ]]; then
  redis_started=""
  if redis_install; then
    for redis_port in "$LEVEE_REDIS_PORT" $((LEVEE_REDIS_PORT + 1)) $((LEVEE_REDIS_PORT + 2)); do
      LEVEE_REDIS_PORT=$redis_port REDIS_DIR="${TMPDIR:-/tmp}/levee-redis-$redis_port"
      if redis_start; then redis_started=1; break; fi
      redis_stop
    done
  fi
  if [[ -z "$redis_started" ]]; then
    echo "run-tests: WARNING: no Redis; its cluster rate-limit tests will fail (LEVEE_SKIP_REDIS=1 skips them)" >&2
  fi
fi

if [[ "${LEVEE_SKIP_PROMETHEUS:-}" != 1 ]]; then
  if prometheus_bin="$(scripts/ensure-package.sh prometheus prometheus "${LEVEE_PROMETHEUS:-}")"; then
    export LEVEE_PROMETHEUS="$prometheus_bin"
  else
    echo "run-tests: WARNING: no Prometheus; MetricsIT will fail (LEVEE_SKIP_PROMETHEUS=1 skips it)" >&2
  fi
fi

if [[ "${LEVEE_SKIP_CHROMIUM:-}" != 1 ]]; then
  if chromium_bin="$(scripts/ensure-package.sh chromium chromium "${LEVEE_CHROMIUM:-}")"; then
    export LEVEE_CHROMIUM="$chromium_bin"
  else
    echo "run-tests: WARNING: no Chromium; LivePageIT will fail (LEVEE_SKIP_CHROMIUM=1 skips it)" >&2
  fi
fi

for jdk in "${JAVA25_HOME:-}" /usr/lib/jvm/*25*; do
  if [[ -n "$jdk" && -x "$jdk/bin/java" ]] && grep -q 'JAVA_VERSION="25' "$jdk/release" 2>/dev/null; then
    export LEVEE_JDK25_HOME="$jdk"
    break
  fi
done

started=$(date +%s)
marker="$(mktemp)"
set +e
mvn -B -ntp verify "$@"
status=$?
set -e
java scripts/TestSummary.java "$marker" $(($(date +%s) - started)) || echo "run-tests: no summary (see above)" >&2
rm -f "$marker"
exit "$status"
