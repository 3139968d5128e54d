#!/usr/bin/env bash
# Install the named Debian packages, as the test scripts need them:
#   scripts/install-debian.sh WHO PKG...
# with apt-get when run as root and BHEMU_NO_INSTALL is not 1; otherwise say what is missing
# (prefixed with WHO) and exit 1. Does nothing without packages.
set -euo pipefail
who="$1"; shift
[ $# -gt 0 ] || exit 0
if [ "${BHEMU_NO_INSTALL:-0}" != 1 ] && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "$who: installing $*" >&2
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null
else
  echo "$who: missing $* (Debian packages); install them or run as root" >&2
  exit 1
fi
