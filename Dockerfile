# Vigil's image: the server, its models and the dashboard, run as a non-root user with its data
# in the /data volume. Embedded defaults (SQLite, files, in-process workers) unless DATABASE_URL,
# REDIS_URL and BLOB_URL say otherwise; ROLE=api or worker for a scaled-out set (compose.yaml).
#
#   podman build -t vigil .              # or docker build
#   podman run -p 8080:8080 -v vigil-data:/data vigil
#
# BASE is any Debian 12 image with Node 20 and npm. deploy/build-image.sh makes one from
# Debian's archive (debootstrap) on machines that cannot pull from a registry.
ARG BASE=docker.io/library/node:20-bookworm-slim

FROM ${BASE} AS build
# better-sqlite3 compiles where its prebuilt binary cannot be downloaded.
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json .npmrc tsconfig.json tsconfig.build.json ./
COPY bin bin
COPY src src
ENV ONNXRUNTIME_NODE_INSTALL=skip
# `prepare` compiles src to dist; then the development packages go.
RUN npm ci --no-audit --no-fund && npm prune --omit=dev --no-audit --no-fund

FROM ${BASE}
RUN useradd --system --uid 10001 --user-group --home-dir /data --no-create-home vigil \
    && mkdir -p /data && chown vigil:vigil /data
WORKDIR /app
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules node_modules
COPY --from=build /app/dist dist
COPY bin bin
COPY src/web src/web
COPY models models
ENV NODE_ENV=production DATA_DIR=/data PORT=8080 HOST=0.0.0.0
USER vigil
VOLUME /data
EXPOSE 8080
# /healthz answers while the process serves; /readyz also checks the database (and Redis).
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||8080)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
ENTRYPOINT ["node", "bin/vigil.js"]
CMD ["serve"]
