// Liveness: the process serves requests. It does not touch the database, so a database outage
// makes pods unready (readyz) rather than restarting them.
export const dynamic = "force-dynamic";

export function GET() {
  return Response.json({ status: "ok" });
}
