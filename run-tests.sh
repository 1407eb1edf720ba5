#!/usr/bin/env bash
# Runs every test of Levee: unit, concurrency, loader and integration tests.
# Installs what the tests need when it is missing (PostgreSQL for the JDBC integration tests).
set -euo pipefail
cd "$(dirname "$0")"
exec mvn -B -ntp verify "$@"
