#!/usr/bin/env bash
# The e-mail tests (crates/oware-server/tests/mail.rs) against a real SMTP server on the loopback:
# aiosmtpd, in a venv of its own. Without aiosmtpd those tests only say that they were skipped;
# here it is installed, and OWARE_REQUIRE_AIOSMTPD=1 makes its absence a failure.
set -euo pipefail
cd "$(dirname "$0")/../.."

. scripts/lib/mail-venv.sh
ensure_mail_venv
OWARE_PYTHON=$MAIL_PYTHON OWARE_REQUIRE_AIOSMTPD=1 \
  cargo test --release --locked -p oware-server --test mail
