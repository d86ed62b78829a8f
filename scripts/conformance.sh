#!/usr/bin/env bash
# scripts/conformance.sh [RESULTS_DIR] — the official MCP conformance suite (`--suite all`) against this
# server as users run it: the built CLI serving a fresh copy of examples/vault with a random key, reached
# through scripts/auth-proxy.mjs (the suite cannot send a bearer header; the key goes to the proxy in a
# file, never on a command line). Prints a table (scripts/conformance-table.mjs), one row per scenario,
# saying which scenarios call fixture tools, resources or prompts of the suite's own test server.
# The suite (and Node 22, which it needs) come from the npm registry into $REAL_CLIENTS_CACHE
# (default ~/.cache/real-mcp-clients, shared with ../shared/tools/real-clients.sh); about 60 MB.
# Exit status: 0 when every scenario that needs no fixture passes.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cache=${REAL_CLIENTS_CACHE:-$HOME/.cache/real-mcp-clients}
suite_version=${CONFORMANCE_VERSION:-0.1.16}   # the version ../shared/tools/real-clients.sh pins
suite_dir=conformance${CONFORMANCE_VERSION:+-$CONFORMANCE_VERSION}
work=$(mktemp -d)
out=${1:-$work/results}
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; wait 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT

install() { # dir spec...
  local d=$cache/$1; shift
  [ -f "$d/.ok" ] && return 0
  mkdir -p "$d" && (cd "$d" && { [ -f package.json ] || echo '{"private":true}' > package.json; } && npm install --no-audit --no-fund --loglevel=error "$@" >/dev/null) && touch "$d/.ok"
}
install node22 node@22
install "$suite_dir" "@modelcontextprotocol/conformance@$suite_version"
node22=$cache/node22/node_modules/.bin/node
suite=$cache/$suite_dir/node_modules/@modelcontextprotocol/conformance/dist/index.js

node -e "import('$root/scripts/build-if-needed.mjs').then((m) => m.buildIfNeeded('$root'))"
mkdir -p "$work/vault"
(cd "$root/examples/vault" && tar --exclude='./.obsidian/plugins' -cf - .) | (cd "$work/vault" && tar -xf -)
umask 077
node -e "process.stdout.write('vmcp_' + require('node:crypto').randomBytes(32).toString('base64url'))" > "$work/key"

VAULT_MCP_TOKEN=$(cat "$work/key") node "$root/dist/cli.js" serve --vault "$work/vault" --port 0 --data-dir "$work/data" \
  --cache-dir "$work/cache" --models-dir "$work/models" > "$work/serve.log" 2>&1 &
pids+=($!)
for _ in $(seq 1 300); do grep -qs 'listening on' "$work/serve.log" && break; sleep 0.1; done
url=$(grep -o 'listening on http://[^ ]*' "$work/serve.log" | cut -d' ' -f3)
[ -n "$url" ] || { cat "$work/serve.log"; echo "the server did not start"; exit 1; }
origin=${url%/mcp}

node "$root/scripts/auth-proxy.mjs" 0 "$origin" --key-file "$work/key" > "$work/proxy.log" 2>&1 &
pids+=($!)
for _ in $(seq 1 100); do grep -qs 'auth proxy on' "$work/proxy.log" && break; sleep 0.1; done
proxy=$(grep -o 'auth proxy on [0-9.:]*' "$work/proxy.log" | cut -d' ' -f4)
[ -n "$proxy" ] || { cat "$work/proxy.log"; echo "the proxy did not start"; exit 1; }

echo "conformance $suite_version --suite all against $url (through the auth proxy at http://$proxy/mcp)"
mkdir -p "$out"
"$node22" "$suite" server --url "http://$proxy/mcp" --suite all -o "$out" > "$work/suite.log" 2>&1 || true
node "$root/scripts/conformance-table.mjs" "$out"
