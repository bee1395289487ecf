-- One delivery in flight per webhook across every ingest-api process (issue 44): the worker that
-- claims a webhook's due delivery holds the webhook until then, and the others skip it (claimed with
-- FOR UPDATE SKIP LOCKED, packages/db webhooks.ts). A worker that dies mid-post lets go when it ends.

ALTER TABLE "Webhook" ADD COLUMN "sendingUntil" TIMESTAMP(3);
