#!/usr/bin/env bash
# Finds a Python 3 for the real-client tests and installs what it lacks from Debian. The SDK's
# models need pydantic 2 (compiled pydantic-core: not in Debian bookworm, whose python3-pydantic is
# 1.10); the machine's Python 3.11 carries it. The pure-Python dependencies it lacks come from
# Debian packages. Idempotent; apt is serialised with flock.
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

# Pure-Python dependencies: the interpreter's own, or Debian's (found on /usr/lib/python3/dist-packages).
# module:package pairs; the SDK needs websocket-client, the CLI the others too.
missing=()
for pair in websocket:python3-websocket rich:python3-rich platformdirs:python3-platformdirs sentry_sdk:python3-sentry-sdk \
  pyperclip:python3-pyperclip httpx:python3-httpx prompt_toolkit:python3-prompt-toolkit yaml:python3-yaml \
  dateutil:python3-dateutil urllib3:python3-urllib3 typing_extensions:python3-typing-extensions; do
  module="${pair%%:*}"
  package="${pair##*:}"
  if ! "$python" -c "import $module" >/dev/null 2>&1 && ! PYTHONPATH=/usr/lib/python3/dist-packages "$python" -c "import $module" >/dev/null 2>&1; then
    missing+=("$package")
  fi
done
if [ "${#missing[@]}" -gt 0 ]; then
  sudo_prefix=""
  if [ "$(id -u)" != "0" ]; then sudo_prefix="sudo"; fi
  log "apt: installing ${missing[*]}"
  # apt is shared by every process on the machine; serialise our use of it.
  $sudo_prefix flock /tmp/satchel-clients-apt.lock sh -c "apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends ${missing[*]}" >&2
fi

echo "$python"
