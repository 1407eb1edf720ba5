#!/usr/bin/env bash
# Usage: scripts/ensure-package.sh BINARY PACKAGE [PATH-GIVEN]
# Makes sure a program the integration tests run is on this machine: PATH-GIVEN when it is an
# executable (the LEVEE_* variable that names it), else BINARY on the PATH or in /usr/bin, else
# Debian's PACKAGE installed with apt-get. Used for Prometheus (MetricsIT scrapes the agent with
# it) and Chromium (LivePageIT loads the live page in it headless). A package's own service is kept
# from starting during the install: the tests run their own servers on loopback. Prints the
# binary's path; exits non-zero when it cannot be had.
set -euo pipefail

binary="$1"
package="$2"
given="${3:-}"

find_binary() {
  local p
  for p in "$given" "$(command -v "$binary" 2>/dev/null || true)" "/usr/bin/$binary"; do
    if [[ -n "$p" && -x "$p" ]]; then
      echo "$p"
      return 0
    fi
  done
  return 1
}

if find_binary; then
  exit 0
fi

if [[ "$(id -u)" != 0 ]]; then
  if command -v sudo >/dev/null 2>&1; then
    SUDO=sudo
  else
    echo "ensure-package: $binary is missing and installing it needs root" >&2
    exit 1
  fi
else
  SUDO=
fi

# Keep the package's service (Prometheus' port 9090) from starting; policy-rc.d exit status 101
# means "no".
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

echo "ensure-package: installing Debian's $package package" >&2
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq >&2
$SUDO apt-get install -y -qq --no-install-recommends "$package" >&2

find_binary
