# photowire worker image. sharp ships its libvips inside its npm package, so no system libvips is needed.
# Node 24, the active LTS (Node 20 is end of life).
FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
COPY bin ./bin
COPY scripts/copyLua.js ./scripts/
RUN npm ci --no-audit --no-fund && npm prune --omit=dev

FROM node:24-bookworm-slim
ENV NODE_ENV=production PHOTOWIRE_DATA_DIR=/data
WORKDIR /app
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY --from=build /app/bin ./bin
COPY web ./web
COPY package.json ./
# The inboxes belong to the user the processes run as: the watcher makes processed/ and failed/ in
# /drop. A host folder mounted over them keeps its own owner: docker-compose's `inboxes` one-shot
# (or `mkdir -p drop import` before the first `up`) sees to that.
RUN mkdir -p /data /drop /import && chown node:node /data /drop /import
USER node
VOLUME ["/data"]
# docker-compose runs `photowire health` as each service's healthcheck (Redis answers, storage reachable).
# The launcher runs itself (its shebang carries the V8 heap flags, see bin/photowire.js).
ENTRYPOINT ["/app/bin/photowire.js"]
CMD ["worker"]
