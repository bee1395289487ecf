import "server-only";
import { toCsv } from "@cnibench/schema";
import { TRPCError } from "@trpc/server";
import { api } from "~/trpc/server";

type ScenarioView = Awaited<ReturnType<Awaited<ReturnType<typeof api>>["scenarios"]["byId"]>>;

/** A scenario's view with its whole history for a download route, or a 404 response for an unknown id. */
export async function scenarioForDownload(id: string): Promise<ScenarioView | Response> {
  try {
    return await (await api()).scenarios.byId({ id, history: "all" });
  } catch (error) {
    if (error instanceof TRPCError && error.code === "NOT_FOUND") {
      return Response.json({ error: "not_found", message: `no scenario ${id}` }, { status: 404 });
    }
    throw error;
  }
}

const filename = (view: ScenarioView, ext: string) =>
  `cnibench-${view.scenario.label.replace(/[^\w.-]+/g, "-").toLowerCase()}-${view.scenario.id}.${ext}`;

/** Current figures, one row each, with the published figure and the bundle they come from. */
export function scenarioCsv(view: ScenarioView): Response {
  const bundles = new Map(view.bundles.map((b) => [b.id, b]));
  const rows = view.groups.flatMap((g) =>
    g.rows.map(({ current: f }) => {
      const b = bundles.get(f.bundleId);
      return [
        f.metric,
        JSON.stringify(f.params),
        f.value,
        f.unit,
        f.qualifier ?? "",
        f.low ?? "",
        f.high ?? "",
        f.aggregate ?? "",
        f.samples.join(" "),
        f.publishedValue,
        f.publishedUnit,
        f.measuredAt.toISOString(),
        f.bundleId,
        b?.sourceTitle ?? "",
        b?.sourceUrl ?? "",
      ];
    }),
  );
  const header = [
    "metric",
    "params",
    "value",
    "unit",
    "qualifier",
    "low",
    "high",
    "aggregate",
    "samples",
    "published_value",
    "published_unit",
    "measured_at",
    "bundle_id",
    "source_title",
    "source_url",
  ];
  return new Response(toCsv([header, ...rows]), {
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="${filename(view, "csv")}"`,
    },
  });
}

/** The environment, every current figure with its history, and provenance. */
export function scenarioJson(view: ScenarioView): Response {
  return new Response(JSON.stringify(view, null, 2), {
    headers: {
      "content-type": "application/json; charset=utf-8",
      "content-disposition": `attachment; filename="${filename(view, "json")}"`,
    },
  });
}
