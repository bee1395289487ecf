import { databaseReady } from "@cnibench/db";
import { db } from "~/server/trpc/db";

// Readiness: PostgreSQL answers. 503 with Retry-After otherwise, like the ingest API's /readyz.
export const dynamic = "force-dynamic";

export async function GET() {
  if (await databaseReady(db())) return Response.json({ status: "ready" });
  return Response.json(
    { status: "unavailable", reason: "database unreachable" },
    { status: 503, headers: { "retry-after": "5" } },
  );
}
