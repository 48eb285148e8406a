# photowire worker image. sharp ships its libvips inside its npm package, so no system libvips is needed.
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
COPY bin ./bin
RUN npm ci --no-audit --no-fund && npm prune --omit=dev

FROM node:20-bookworm-slim
ENV NODE_ENV=production PHOTOWIRE_DATA_DIR=/data
WORKDIR /app
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY --from=build /app/bin ./bin
COPY web ./web
COPY package.json ./
RUN mkdir -p /data /drop && chown -R node:node /data /drop
USER node
VOLUME ["/data"]
ENTRYPOINT ["node", "/app/bin/photowire.js"]
CMD ["worker"]
