#!/bin/sh
# The container's start: migrate the database, then run the server. With EMBEDDED_SERVICES=1
# Postgres and Redis run inside the container too (scripts/serve.ts; data in DATA_DIR).
set -eu
cd "$(dirname "$0")/.."
# DEMO_MODE=1 makes the container a declared demo: auctions kept running by the demo keeper and
# the sandbox payments (docs/decisions/048-demo-keeper.md); real payments refuse it.
if [ "${DEMO_MODE:-0}" = "1" ]; then
  export PAYMENT_SANDBOX_DEMO="${PAYMENT_SANDBOX_DEMO:-1}"
fi
if [ "${EMBEDDED_SERVICES:-0}" = "1" ]; then
  # The one-container demo is reached on this machine unless told otherwise; production
  # otherwise requires PUBLIC_ORIGIN (docs/operations.md).
  export PUBLIC_ORIGIN="${PUBLIC_ORIGIN:-http://localhost:${PORT:-3000}}"
  exec node_modules/.bin/tsx scripts/serve.ts
fi
node_modules/.bin/prisma migrate deploy
exec node --max-semi-space-size=64 build/server.js
