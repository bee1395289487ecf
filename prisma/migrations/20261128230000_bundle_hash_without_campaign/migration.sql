-- A bundle's campaign groups runs, it is not what was measured (docs/design.md, campaigns): content
-- hashes leave it out from now on, so the same run uploaded again in another campaign (a subset of an
-- import, another archive, another name) is "already there" instead of stored twice.
-- No semicolon inside a comment: the schema engine splits the script at each one, comments included.

-- Hashes of bundles naming a campaign were computed with it. SQL cannot recompute them (canonical JSON,
-- RFC 8785): the prefix marks every scenario for the data step migrateDatabase runs next
-- (packages/db/src/rekey.ts), which computes the new hashes, keeps the first-stored copy of a run
-- stored twice (its campaign with it) and deletes the later ones, in one transaction.
UPDATE "Scenario" SET "key" = 'rekey:' || "key";
