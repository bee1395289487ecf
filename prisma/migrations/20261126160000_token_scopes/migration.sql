-- A token's scope: upload (every token so far, and the default) or read, which reads a workspace's
-- data (its metrics feed, GET routes) and is refused every upload, import, gate and delete.
-- No semicolon inside a comment: the schema engine splits the script at each one, comments included.
CREATE TYPE "TokenScope" AS ENUM ('upload', 'read');

ALTER TABLE "ApiToken" ADD COLUMN "scope" "TokenScope" NOT NULL DEFAULT 'upload';
