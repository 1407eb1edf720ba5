#!/usr/bin/env bash
# Makes sure a Prometheus server binary is on this machine for the metrics integration test
# (MetricsIT scrapes the agent's /metrics with it): Debian's `prometheus` package, installed when
# missing. The package's own service is kept from starting during the install: the test runs its
# own server on loopback with a generated config. Prints the binary's path; exits non-zero when it
# cannot be had.
set -euo pipefail

find_prometheus() {
  local p
  for p in "${LEVEE_PROMETHEUS:-}" "$(command -v prometheus 2>/dev/null || true)" /usr/bin/prometheus; do
    if [[ -n "$p" && -x "$p" ]]; then
      echo "$p"
      return 0
    fi
  done
  return 1
}

if find_prometheus; then
  exit 0
fi

if [[ "$(id -u)" != 0 ]]; then
  if command -v sudo >/dev/null 2>&1; then
    SUDO=sudo
  else
    echo "ensure-prometheus: prometheus is missing and installing it needs root" >&2
    exit 1
  fi
else
  SUDO=
fi

# Keep the package's service (port 9090) from starting; policy-rc.d exit status 101 means "no".
policy=/usr/sbin/policy-rc.d
created_policy=0
if [[ ! -e "$policy" ]]; then
  printf '#!/bin/sh\nexit 101\n' | $SUDO tee "$policy" >/dev/null
  $SUDO chmod +x "$policy"
  created_policy=1
fi
cleanup() {
  if [[ "$created_policy" == 1 ]]; then
    $SUDO rm -f "$policy"
  fi
}
trap cleanup EXIT

echo "ensure-prometheus: installing Debian's prometheus package" >&2
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq >&2
$SUDO apt-get install -y -qq --no-install-recommends prometheus >&2

find_prometheus
