# Build: compile TypeScript with the dev dependencies.
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
COPY scripts ./scripts
COPY openapi ./openapi
COPY asyncapi ./asyncapi
# Compiles to dist/ and puts the OpenAPI descriptions next to dist/src, where the server reads them.
RUN npm run build

# Run: production dependencies and the compiled output only.
FROM node:20-bookworm-slim
ENV NODE_ENV=production DATA_DIR=/data PORT=3000
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force
COPY --from=build /app/dist ./dist
RUN mkdir -p /data && chown node:node /data
USER node
EXPOSE 3000
# `--role api` or `--role worker` (appended by the orchestrator) split the process.
ENTRYPOINT ["node", "dist/src/main.js"]
