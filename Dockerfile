# One image per app, built from this one file: `--target ingest-api`, `--target web`, `--target migrate`.
FROM node:20-bookworm-slim AS deps
WORKDIR /app
ENV NEXT_TELEMETRY_DISABLED=1 CHECKPOINT_DISABLE=1
COPY . .
RUN npm ci --no-audit --no-fund

FROM deps AS migrate
USER node
CMD ["npm", "run", "db:migrate"]

FROM deps AS ingest-api
USER node
EXPOSE 4000
CMD ["node", "--import", "tsx", "apps/ingest-api/src/main.ts"]

FROM deps AS web
RUN cd apps/web && npx next build
USER node
EXPOSE 3000
CMD ["sh", "-c", "cd apps/web && exec npx next start -p ${CNIBENCH_WEB_PORT:-3000} -H ${CNIBENCH_HOST:-0.0.0.0}"]
