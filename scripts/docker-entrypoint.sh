#!/bin/sh
# The container's start: migrate the database, then run the server. With EMBEDDED_SERVICES=1
# Postgres and Redis run inside the container too (scripts/serve.ts; data in DATA_DIR).
set -eu
cd "$(dirname "$0")/.."
if [ "${EMBEDDED_SERVICES:-0}" = "1" ]; then
  # The one-container demo is reached on this machine unless told otherwise; production
  # otherwise requires PUBLIC_ORIGIN (docs/operations.md).
  export PUBLIC_ORIGIN="${PUBLIC_ORIGIN:-http://localhost:${PORT:-3000}}"
  exec node_modules/.bin/tsx scripts/serve.ts
fi
node_modules/.bin/prisma migrate deploy
exec node --max-semi-space-size=64 build/server.js
