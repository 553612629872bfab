# syntax=docker/dockerfile:1
# The example capabilities of deploy/k8s (capabilities.yaml): the MCP reference servers and
# supergateway, which serves the stdio ones over Streamable HTTP. Build from this folder:
#   docker build -f deploy/docker/capabilities.Dockerfile -t toolsurface-capabilities:dev deploy/docker/capabilities
# The base: see Dockerfile.
ARG NODE_IMAGE=node:24-bookworm-slim@sha256:a9f5f7c91a432850b2a8a7797adf5eadb6c733ceed61167806cee7ea7fbc29df

FROM ${NODE_IMAGE} AS deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund

FROM ${NODE_IMAGE}
ENV NODE_ENV=production
RUN rm -rf /usr/local/lib/node_modules/npm /usr/local/bin/npm /usr/local/bin/npx /usr/local/bin/yarn /usr/local/bin/yarnpkg /opt/yarn-*
WORKDIR /app
COPY --from=deps /app/node_modules ./node_modules
USER 1000:1000
ENTRYPOINT ["node"]
