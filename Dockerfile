# syntax=docker/dockerfile:1
# Csomagküldő: one image for either store — embedded SQLite in the /data volume (one
# container), or PostgreSQL with DATABASE_URL (any number of containers). docs/operations.md.
#
#   docker build -t csomagkuldo .
#   docker run -d --name csomagkuldo -p 3000:3000 -v csomagkuldo-data:/data \
#     -e PUBLIC_URL=https://csomag.example.hu -e DEMO_DATA=0 csomagkuldo
#
# Reviewed, not build-tested where it was written (no Docker daemon there): each stage's commands
# and the runtime layout were run on Debian 12 with Node 20.20 and 24.22 instead. Node 24 LTS: Node
# 20 gets no security fixes since 30 April 2026 (docs/operations.md).

ARG NODE_IMAGE=node:24-bookworm-slim

# better-sqlite3 has no prebuilt binary for every platform (or offline): node-gyp compiles it.
FROM ${NODE_IMAGE} AS toolchain
RUN apt-get update \
  && apt-get install -y --no-install-recommends python3 make g++ \
  && rm -rf /var/lib/apt/lists/*
# Compile against the headers the image ships instead of downloading them.
ENV npm_config_nodedir=/usr/local
WORKDIR /app
COPY package.json package-lock.json ./
COPY domain/package.json domain/
COPY server/package.json server/
COPY web/package.json web/

# Build stage: every workspace with its dev dependencies, then the web app and the server bundle.
FROM toolchain AS build
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build

# What server/dist loads at run time: server/build.mjs bundles our own code (server, domain) and
# keeps every package in server/package.json "dependencies" external, loaded from node_modules.
# Nothing else — no web, dev or test packages.
FROM toolchain AS runtime-deps
RUN npm ci --omit=dev --workspace=server --no-audit --no-fund \
  && rm -rf node_modules/@csomag

FROM ${NODE_IMAGE}
ENV NODE_ENV=production \
  HOST=0.0.0.0 \
  PORT=3000 \
  DATA_DIR=/data
WORKDIR /app
# "type": "module" in both package.json files makes dist/*.js ES modules; the server finds the web
# build at ../../web/dist from server/dist/main.js (WEB_DIST's default).
COPY --from=build /app/package.json ./
COPY --from=build /app/server/package.json server/
COPY --from=runtime-deps /app/node_modules node_modules
COPY --from=build /app/server/dist server/dist
COPY --from=build /app/web/dist web/dist
# The official image's unprivileged "node" user (uid 1000) owns only the data folder.
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME /data
EXPOSE 3000
# main.ts drains on SIGTERM (readiness 503, streams ended, in-flight requests finished) within
# SHUTDOWN_TIMEOUT; give `docker stop -t` more than that (the default 10 s equals the default).
STOPSIGNAL SIGTERM
# Slim images have no curl: ask with Node's own fetch. Liveness only; load balancers use /api/ready.
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.PORT}/api/health`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "server/dist/main.js"]
