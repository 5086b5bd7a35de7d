#!/usr/bin/env bash
# Finds a Python 3 for the real-client tests and installs what it lacks from Debian. The SDK's
# models need pydantic 2 (compiled pydantic-core: not in Debian bookworm, whose python3-pydantic is
# 1.10); the machine's Python 3.11 carries it. Its other dependency missing there, websocket-client,
# is pure Python and comes from Debian (python3-websocket). Idempotent; apt is serialised with flock.
# Prints the interpreter's path on its last line, or exits non-zero saying what is missing.
set -euo pipefail

log() { echo "[clients] $*" >&2; }

has_pydantic2() {
  "$1" -c 'import sys, pydantic; sys.exit(0 if int(pydantic.VERSION.split(".")[0]) >= 2 else 1)' >/dev/null 2>&1
}

python=""
for candidate in "${PYTHON:-}" python3 /usr/bin/python3; do
  [ -n "$candidate" ] || continue
  path="$(command -v "$candidate" 2>/dev/null || true)"
  [ -n "$path" ] || continue
  if has_pydantic2 "$path"; then python="$path"; break; fi
done
if [ -z "$python" ]; then
  log "no Python 3 with pydantic 2 found (set PYTHON=...): the Pieces SDK's models need it"
  exit 3
fi

# websocket-client: the interpreter's own, or Debian's (pure Python, found on /usr/lib/python3/dist-packages).
if ! "$python" -c 'import websocket' >/dev/null 2>&1 && ! PYTHONPATH=/usr/lib/python3/dist-packages "$python" -c 'import websocket' >/dev/null 2>&1; then
  sudo_prefix=""
  if [ "$(id -u)" != "0" ]; then sudo_prefix="sudo"; fi
  log "apt: installing python3-websocket"
  $sudo_prefix flock /tmp/satchel-clients-apt.lock sh -c "dpkg -s python3-websocket >/dev/null 2>&1 || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends python3-websocket; }" >&2
fi

echo "$python"
