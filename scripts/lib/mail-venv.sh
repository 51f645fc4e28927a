# Sourced by scripts/test.d/mail.sh and scripts/test.d/web-e2e.sh: a venv at mail-venv in cargo's
# target directory (target/, or CARGO_TARGET_DIR) with a pinned aiosmtpd, the real SMTP server on
# the loopback that the mail tests send to (scripts/lib/smtp-sink.py). Defines MAIL_PYTHON (the
# venv's python) and the function ensure_mail_venv; honours PYTHON (default python3).

. scripts/lib/target-dir.sh
AIOSMTPD_VERSION=1.4.6
MAIL_VENV=$TARGET/mail-venv
MAIL_PYTHON=$MAIL_VENV/bin/python
PYTHON="${PYTHON:-python3}"

ensure_mail_venv() {
  if "$MAIL_PYTHON" -c "from importlib.metadata import version; import sys; \
sys.exit(version('aiosmtpd') != '$AIOSMTPD_VERSION')" 2>/dev/null; then
    return
  fi
  if ! command -v "$PYTHON" >/dev/null || ! "$PYTHON" -c 'import venv, ensurepip' 2>/dev/null; then
    echo "installing python3 and python3-venv with apt-get"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3 python3-venv >/dev/null
    PYTHON=python3
  fi
  echo "installing aiosmtpd==$AIOSMTPD_VERSION into $MAIL_VENV"
  rm -rf "$MAIL_VENV"
  "$PYTHON" -m venv "$MAIL_VENV"
  "$MAIL_PYTHON" -m pip install --quiet --disable-pip-version-check "aiosmtpd==$AIOSMTPD_VERSION"
}
