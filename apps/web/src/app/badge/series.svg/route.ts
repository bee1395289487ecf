import { seriesBadge } from "~/server/cards/badge";
import { parseWhere } from "../../charts/params";
import { badgeResponse, refusal } from "../respond";

/**
 * /badge/series.svg?scenario=<id>&metric=<m>&<param>=<value>…: a series' latest campaign (its median
 * and runs) as a badge, to whom the scenario opens (404 to anyone else). Every other query parameter
 * is one of the series' params, typed as the charts' `where` is (numbers and booleans as stored).
 * A series of a public workspace reads the same to everyone, so caches may keep it whoever asked.
 */
export async function GET(req: Request) {
  const query = new URL(req.url).searchParams;
  const scenarioId = query.get("scenario");
  const metric = query.get("metric");
  if (!scenarioId || !metric) return refusal(400);
  const entries = [...query].filter(([k]) => k !== "scenario" && k !== "metric");
  if (entries.length > 20) return refusal(400);
  const params = parseWhere(entries.map(([k, v]) => `${k}=${v}`));
  return badgeResponse(
    (caller) => caller.scenarios.history({ scenarioId, metric, params }),
    (series) => ({ badge: seriesBadge(series), isPublic: series.testbed.visibility === "public" }),
  );
}
