# Quiz Night in a container: `docker compose up -d` (compose.yaml puts Caddy with automatic HTTPS in
# front), or on its own: `docker build -t quiz-night . && docker run -p 3000:3000 -v quiz-data:/data quiz-night`.
# The database, its rate-limit companion and the session secret live in the /data volume: back that up.
# tests/integration/container.test.ts checks the files and scripts named here exist.
ARG NODE_VERSION=24

# Production dependencies only; build tools in case a native module (better-sqlite3) has no prebuilt binary.
FROM node:${NODE_VERSION}-bookworm-slim AS dependencies
RUN apt-get update \
  && apt-get install -y --no-install-recommends python3 make g++ \
  && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund

# Everything, to build the client, the Remix server bundle, the service worker and the server (build/).
FROM dependencies AS build
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build

FROM node:${NODE_VERSION}-bookworm-slim AS runtime
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATABASE_PATH=/data/quiz.sqlite
WORKDIR /app
COPY --from=dependencies /app/node_modules ./node_modules
COPY --from=build /app/build ./build
COPY package.json ./
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME /data
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# SIGTERM (docker stop) saves the games and closes the sockets within 8 s, inside Docker's 10 s grace period.
STOPSIGNAL SIGTERM
CMD ["node", "--enable-source-maps", "build/node/server.js"]
