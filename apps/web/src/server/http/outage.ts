import "server-only";
import { databaseReady } from "@cnibench/db";
import { db } from "../trpc/db";
import { freshFor } from "../views/fresh-for";

/** Seconds a client is asked to wait before retrying while the database is unreachable (as the ingest API). */
export const RETRY_AFTER_SECONDS = 5;

/**
 * How long a probe's answer stands for every page request after it: at most one `SELECT 1` a second
 * per process, instead of one per page. A page requested in the second after PostgreSQL went away
 * fails as the outage began; one requested in the second after it came back still gets the 503 page,
 * which reloads itself.
 */
const PROBE_FRESH_MS = 1_000;

/**
 * True when PostgreSQL answered a trivial query within CNIBENCH_DB_TIMEOUT_MS, at most PROBE_FRESH_MS
 * ago. Requests arriving while a probe runs share it, so a burst of page loads during an outage waits
 * on one query.
 */
export const databaseAnswers = freshFor(PROBE_FRESH_MS, () => databaseReady(db()));

/**
 * The page a browser gets instead of a view while the database is unreachable: status 503 with
 * Retry-After, readable without scripts, and reloading itself after that many seconds, so it turns
 * back into the view once PostgreSQL is back.
 */
export function unavailablePage(): Response {
  return plainPage(
    503,
    "Database unavailable",
    `<h1>The database is unavailable</h1>
<p>cnibench cannot reach its PostgreSQL database right now, so this page cannot be shown. Nothing is lost:
this page tries again by itself every ${RETRY_AFTER_SECONDS} seconds and shows the view as soon as the
database is back.</p>
<p><a href="">Try again now</a></p>`,
    { "retry-after": String(RETRY_AFTER_SECONDS) },
    `<meta http-equiv="refresh" content="${RETRY_AFTER_SECONDS}">`,
  );
}

/**
 * The answer to an address no view can read (proxy.ts): for the API routes, JSON in tRPC's error
 * shape (what its clients parse); for pages and downloads, a page saying why.
 */
export function refusedAddress(path: string, status: number, message: string): Response {
  if (!path.startsWith("/api/")) return refusedAddressPage(status, message);
  const code = status === 404 ? "NOT_FOUND" : "BAD_REQUEST";
  return Response.json(
    { error: { message, code: status === 404 ? -32004 : -32600, data: { code, httpStatus: status } } },
    { status, headers: { "cache-control": "no-store" } },
  );
}

function refusedAddressPage(status: number, message: string): Response {
  const title = status === 404 ? "Page not found" : "Bad address";
  return plainPage(
    status,
    title,
    `<h1>${title}</h1>\n<p>${escapeHtml(message)} Start from the <a href="/">explorer</a>.</p>`,
  );
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** A page that needs neither the database nor scripts (the layout's pages need both). */
function plainPage(
  status: number,
  title: string,
  body: string,
  headers: Record<string, string> = {},
  head = "",
): Response {
  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
${head}
<title>${title} · cnibench</title>
<style>
body { font: 16px/1.5 system-ui, sans-serif; margin: 0; background: #fafafa; color: #18181b; }
main { max-width: 34rem; margin: 15vh auto; padding: 2rem; border: 1px dashed #d4d4d8; border-radius: .5rem; }
h1 { font-size: 1.25rem; margin: 0 0 .5rem; }
a { color: #1d4ed8; }
@media (prefers-color-scheme: dark) { body { background: #09090b; color: #f4f4f5; } main { border-color: #3f3f46; } a { color: #60a5fa; } }
</style>
</head>
<body>
<main>
${body}
</main>
</body>
</html>
`;
  return new Response(html, {
    status,
    headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-store", ...headers },
  });
}
