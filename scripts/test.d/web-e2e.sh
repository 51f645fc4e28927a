#!/usr/bin/env bash
# End-to-end tests of the web app in a real headless Chromium (Debian's package, never a
# downloaded browser), driven by Node's playwright-core: a full game against the computer and its
# rematch, friend games between two browser contexts (waiting for the friend, a reload that
# resumes, takebacks, draws, rematch, resignation), the analysis board, the puzzle page, light and
# dark colours, e-mail in a correspondence game through a real SMTP server on the loopback
# (aiosmtpd: the confirmation link, the move's mail, its unsubscribe page), and every page in every
# language at desktop and phone widths (no sideways scroll, a board nearly as wide as the phone).
# Screenshots go to $E2E_OUT (on failure too).
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$(pwd)

. scripts/lib/browser.sh

cargo build --release --locked -p oware-cli
. scripts/lib/target-dir.sh
. scripts/lib/mail-venv.sh
ensure_mail_venv
oware=$(oware_binary)
work=$(mktemp -d)
export E2E_OUT=${E2E_OUT:-$work/screenshots}
export E2E_MAIL_DIR=$work/mail
mkdir -p "$E2E_OUT"
server=
sink=
cleanup() {
  for pid in $server $sink; do kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; done
}
trap cleanup EXIT
# The SMTP server the mails go to: it says its port on its first line.
"$MAIL_PYTHON" scripts/lib/smtp-sink.py "$E2E_MAIL_DIR" >"$work/smtp.port" 2>"$work/smtp.log" &
sink=$!
for _ in $(seq 100); do
  [ -s "$work/smtp.port" ] && break
  sleep 0.1
done
smtp_port=$(head -n 1 "$work/smtp.port")
port=$((20000 + RANDOM % 20000))
# --no-egtb: the tests need no endgame databases, and must not build them in the user's data
# directory.
"$oware" serve --no-egtb --addr "127.0.0.1:$port" --data "$work/e2e.sqlite" --movetime 50 \
  --public-url "http://127.0.0.1:$port" --smtp "smtp://127.0.0.1:$smtp_port" \
  --mail-from "Oware <oware@example.org>" >"$work/server.log" 2>&1 &
server=$!
wait_port 127.0.0.1 "$port" || { echo "the server did not start:"; cat "$work/server.log"; exit 1; }

status=0
NODE_PATH="$node_dir/node_modules" E2E_URL="http://127.0.0.1:$port" \
  timeout 300 node "$root/scripts/web-e2e/e2e.js" || status=$?
if [ "$status" != 0 ]; then
  echo "web-e2e failed; server log:"; tail -n 50 "$work/server.log"
  echo "screenshots in $E2E_OUT"
fi
exit "$status"
