# Dispatch Terminal: the server and its board, built ahead of time, on Debian 13 (glibc 2.41) with
# Node 24, where the uWS build for Node 20-25 loads.
#   docker build -t dispatch-terminal .
#   docker run -p 3000:3000 -v dt-data:/data dispatch-terminal   (embedded PostgreSQL in /data)
# compose.yaml runs it with PostgreSQL, Redis and nginx in front (README "Deployment").

FROM node:24-trixie-slim AS base
WORKDIR /app

# Every dependency, then the compiled server and the board bundle (dist/).
FROM base AS build
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build

# What runs it: no tsx, esbuild, preact or type packages.
FROM base AS production-deps
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force

FROM base AS runtime
# HOST: the server listens on loopback unless told otherwise; in a container it must be reached
# from outside. DATA_DIR: server.json for the CLI, and the embedded PostgreSQL when no
# DATABASE_URL is given.
ENV NODE_ENV=production HOST=0.0.0.0 PORT=3000 DATA_DIR=/data
COPY --from=production-deps /app/node_modules ./node_modules
COPY package.json package-lock.json ./
COPY sql ./sql
COPY server/bin ./server/bin
COPY server/build-check.mjs ./server/
COPY --from=build /app/dist ./dist
# The application's files stay root's (read-only to the server); the server writes only /data.
RUN mkdir /data && chown node:node /data
USER node
VOLUME /data
EXPOSE 3000
# Ready: the node listens and reaches its database (503 while it does not). Node's own fetch,
# since the image has no curl, and it speaks HTTP/1.1 (uWS answers no HTTP/1.0 request).
HEALTHCHECK --interval=10s --timeout=3s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + process.env.PORT + '/api/v1/ready').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "server/bin/dispatch-terminal.mjs", "serve"]
