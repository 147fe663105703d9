#!/bin/sh
# The container's start: migrate the database, then run the server. With EMBEDDED_SERVICES=1
# Postgres and Redis run inside the container too (scripts/serve.ts; data in DATA_DIR).
# `admin-create …`, `balances …`, `telegram-webhook …`, `backup …` and `restore …` as the command
# run those tools instead (docs/operations.md):
#   docker exec CONTAINER /app/scripts/docker-entrypoint.sh admin-create --username NAME --password PASS
#   docker exec CONTAINER /app/scripts/docker-entrypoint.sh backup > pa.backup
#   docker run --rm -i -v NEW_VOLUME:/app/.data -e EMBEDDED_SERVICES=1 IMAGE restore < pa.backup
set -eu
cd "$(dirname "$0")/.."
case "${1:-}" in
  restore)
    shift
    if [ "${EMBEDDED_SERVICES:-0}" = "1" ]; then
      # A new volume: its Postgres and Redis are started for the restore and stopped after it.
      exec node --import tsx scripts/with-services.ts build/restore.js "$@"
    fi
    exec node build/restore.js "$@"
    ;;
  admin-create | balances | telegram-webhook | backup)
    tool="$1"
    shift
    if [ "${EMBEDDED_SERVICES:-0}" = "1" ]; then
      # The running container's own services (scripts/services.ts: LOCAL_* ports, penny_auction).
      export DATABASE_URL="postgresql://postgres:postgres@127.0.0.1:${LOCAL_PG_PORT:-54329}/penny_auction"
      export REDIS_URL="redis://127.0.0.1:${LOCAL_REDIS_PORT:-63799}/0"
    fi
    exec node "build/$tool.js" "$@"
    ;;
esac
# DEMO_MODE=1 makes the container a declared demo: auctions kept running by the demo keeper and
# the sandbox payments (docs/decisions/048-demo-keeper.md); real payments refuse it.
if [ "${DEMO_MODE:-0}" = "1" ]; then
  export PAYMENT_SANDBOX_DEMO="${PAYMENT_SANDBOX_DEMO:-1}"
fi
if [ "${EMBEDDED_SERVICES:-0}" = "1" ]; then
  # The one-container demo is reached on this machine unless told otherwise; production
  # otherwise requires PUBLIC_ORIGIN (docs/operations.md).
  export PUBLIC_ORIGIN="${PUBLIC_ORIGIN:-http://localhost:${PORT:-3000}}"
  # Node itself runs it (tsx as a loader): the tsx command would stand between the signal and
  # serve.ts and, on a busy machine, kill the server instead of letting it stop cleanly.
  exec node --import tsx scripts/serve.ts
fi
node_modules/.bin/prisma migrate deploy
exec node --max-semi-space-size=64 build/server.js
