#!/usr/bin/env bash
# The server behind a real Caddy (Debian's package), as docs/hosting.md sets it up: `tls internal`
# on the loopback, `oware serve --public-url https://... --trusted-proxy 127.0.0.1`, and a friend
# game played through it over HTTPS and WSS by two headless Chromiums, each reaching Caddy from an
# address of its own (127.0.0.2 and 127.0.0.3, through a forward proxy of the test's that binds
# them). Checks that the seat cookie is Secure, that HSTS
# is sent, that the invitation carries the public URL, and that the per-address limits count each
# browser's address (from X-Forwarded-For), not the proxy's. Screenshots go to $E2E_OUT.
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$(pwd)

. scripts/lib/browser.sh
if ! command -v caddy >/dev/null; then apt_install caddy; fi

cargo build --release --locked -p oware-cli
. scripts/lib/target-dir.sh
oware=$(oware_binary)
work=$(mktemp -d)
export E2E_OUT=${E2E_OUT:-$work/screenshots}
mkdir -p "$E2E_OUT"
port=$((20000 + RANDOM % 10000))
https_port=$((30000 + RANDOM % 10000))
public="https://oware.test:$https_port"

# Caddy's state (its internal CA above all) lives in the temporary folder, and it touches nothing
# of the machine's: no admin endpoint, no CA installed in the system's trust store, no port 80.
cat >"$work/Caddyfile" <<CADDY
{
	admin off
	skip_install_trust
	auto_https disable_redirects
	http_port $((https_port + 1))
	https_port $https_port
	storage file_system $work/caddy
}

$public {
	bind 127.0.0.1
	tls internal
	reverse_proxy 127.0.0.1:$port
}
CADDY
HOME=$work XDG_DATA_HOME=$work/data XDG_CONFIG_HOME=$work/config \
  caddy run --config "$work/Caddyfile" --adapter caddyfile >"$work/caddy.log" 2>&1 &
caddy=$!
# Few WebSockets per address, for the test to reach the limit.
per_address=3
"$oware" serve --no-egtb --addr "127.0.0.1:$port" --data "$work/e2e.sqlite" \
  --public-url "$public" --trusted-proxy 127.0.0.1 --max-connections-per-address "$per_address" \
  >"$work/server.log" 2>&1 &
server=$!
cleanup() {
  kill "$server" "$caddy" 2>/dev/null || true
  wait "$server" "$caddy" 2>/dev/null || true
}
trap cleanup EXIT
wait_port 127.0.0.1 "$port" || { echo "the server did not start:"; cat "$work/server.log"; exit 1; }
wait_port 127.0.0.1 "$https_port" || { echo "Caddy did not start:"; cat "$work/caddy.log"; exit 1; }

status=0
NODE_PATH="$node_dir/node_modules" E2E_URL="$public" E2E_ADDRESSES="127.0.0.2 127.0.0.3" \
  E2E_SOCKETS_PER_ADDRESS=$per_address timeout 120 node "$root/scripts/web-e2e/caddy.js" || status=$?
if [ "$status" != 0 ]; then
  echo "caddy test failed; server log:"; tail -n 50 "$work/server.log"
  echo "Caddy's log:"; tail -n 50 "$work/caddy.log"
  echo "screenshots in $E2E_OUT"
fi
exit "$status"
