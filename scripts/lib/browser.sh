# Sourced by the browser suites in scripts/test.d: installs what they need when it is missing
# (Debian's chromium, never a downloaded browser; Node.js; playwright-core from the npm registry, in
# $node_dir) and defines apt_install and wait_port.

# Installs Debian packages, as root or through sudo.
apt_install() {
  local sudo
  sudo=$([ "$(id -u)" = 0 ] || echo sudo)
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "$@" >/dev/null
}

if ! command -v chromium >/dev/null; then apt_install chromium; fi
if ! command -v node >/dev/null; then apt_install nodejs npm; fi
node_dir=${E2E_NODE_DIR:-${TMPDIR:-/tmp}/oware-e2e-node}
if [ ! -d "$node_dir/node_modules/playwright-core" ]; then
  mkdir -p "$node_dir"
  (cd "$node_dir" && npm install --silent --no-audit --no-fund playwright-core@1 >/dev/null)
fi

# Waits up to 10 s for something to listen on $1:$2; 1 if nothing does.
wait_port() {
  for _ in $(seq 100); do
    if (exec 3<>"/dev/tcp/$1/$2") 2>/dev/null; then return 0; fi
    sleep 0.1
  done
  return 1
}
