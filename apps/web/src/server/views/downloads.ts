import "server-only";
import { canonicalJson, toCsv } from "@cnibench/schema";
import { TRPCError } from "@trpc/server";
import { api } from "~/trpc/server";
import { evidenceTable } from "./compare-data";

type Caller = Awaited<ReturnType<typeof api>>;
type ScenarioView = Awaited<ReturnType<Caller["scenarios"]["byId"]>>;
type Run = ScenarioView["groups"][number]["rows"][number]["history"][number];
type ComparisonView = Awaited<ReturnType<Caller["compare"]["view"]>>;
type ExploreInput = Parameters<Caller["scenarios"]["explore"]>[0];
type ExploreView = Awaited<ReturnType<Caller["scenarios"]["explore"]>>;

/**
 * What a procedure answers the visitor, for a download route: its refusals become the responses a
 * page gives (404 for what does not exist or the visitor may not read, 400 for a request the page
 * would refuse), so a download is open to exactly whom its page is.
 */
async function forDownload<T>(read: (caller: Caller) => Promise<T>): Promise<T | Response> {
  try {
    return await read(await api());
  } catch (error) {
    if (error instanceof TRPCError && error.code === "NOT_FOUND") {
      return Response.json({ error: "not_found", message: error.message }, { status: 404 });
    }
    if (error instanceof TRPCError && error.code === "BAD_REQUEST") {
      return Response.json({ error: "bad_request", message: error.message }, { status: 400 });
    }
    throw error;
  }
}

/** A scenario's view with its whole history for a download route, or a 404 response for an unknown id. */
export function scenarioForDownload(id: string): Promise<ScenarioView | Response> {
  return forDownload((caller) => caller.scenarios.byId({ id, history: "all" }));
}

const filename = (view: ScenarioView, ext: string) =>
  `cnibench-${view.scenario.label.replace(/[^\w.-]+/g, "-").toLowerCase()}-${view.scenario.id}.${ext}`;

/**
 * Every run of every figure, one row each: a bundle's rounds (samples) one row apiece, else its value;
 * `campaign` and `latest_campaign` tell the current figure's runs from history, and the `figure_…`
 * columns repeat the current figure's summary (n, median, mean, min, max, sd, cv) on each of its rows.
 */
export function scenarioCsv(view: ScenarioView): Response {
  const bundles = new Map(view.bundles.map((b) => [b.id, b]));
  const rows = view.groups.flatMap((g) =>
    g.rows.flatMap((row) => {
      const d = row.summary.distribution;
      const figure = [
        row.summary.n,
        d?.median ?? row.value,
        d?.mean ?? row.value,
        d?.min ?? row.value,
        d?.max ?? row.value,
        d?.sd ?? "",
        d?.cv ?? "",
      ];
      const lines = (latest: "yes" | "no") => (f: Run) => {
        const b = bundles.get(f.bundleId);
        const rounds: [number | "", number][] =
          f.samples.length > 0 ? f.samples.map((v, i) => [i + 1, v]) : [["", f.value]];
        return rounds.map(([round, run]) => [
          g.metric,
          JSON.stringify(row.params),
          run,
          f.unit,
          round,
          f.value,
          f.qualifier ?? "",
          f.low ?? "",
          f.high ?? "",
          f.aggregate ?? "",
          f.publishedValue,
          f.publishedUnit,
          f.measuredAt.toISOString(),
          f.bundleId,
          f.campaign,
          latest,
          ...figure,
          b?.sourceTitle ?? "",
          b?.sourceUrl ?? "",
        ]);
      };
      return [...row.runs.flatMap(lines("yes")), ...row.history.flatMap(lines("no"))];
    }),
  );
  const header = [
    "metric",
    "params",
    "value",
    "unit",
    "round",
    "bundle_value",
    "qualifier",
    "low",
    "high",
    "aggregate",
    "published_value",
    "published_unit",
    "measured_at",
    "bundle_id",
    "campaign",
    "latest_campaign",
    "figure_n",
    "figure_median",
    "figure_mean",
    "figure_min",
    "figure_max",
    "figure_sd",
    "figure_cv",
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

/**
 * The download as it has always read: each run whole, with its scenario, metric, params and source
 * (which the answer leaves to its row and its bundle), and each row's newest run as `current` too.
 */
function wholeRuns(view: ScenarioView) {
  const bundles = new Map(view.bundles.map((b) => [b.id, b]));
  return {
    ...view,
    groups: view.groups.map(({ rows, ...g }) => ({
      ...g,
      rows: rows.map(({ params, value, summary, warnings, runs, history, olderRuns }) => {
        const whole = ({ id, bundleId, measuredAt, campaign, ...figure }: Run) => ({
          id,
          scenarioId: view.scenario.id,
          bundleId,
          metric: g.metric,
          params,
          ...figure,
          paramsKey: canonicalJson(params),
          measuredAt,
          sourceTitle: bundles.get(bundleId)?.sourceTitle ?? null,
          sourceUrl: bundles.get(bundleId)?.sourceUrl ?? null,
          campaign,
        });
        const current = whole(runs[0]);
        return {
          params,
          current,
          value,
          summary,
          warnings,
          runs: runs.map(whole),
          history: history.map(whole),
          olderRuns,
        };
      }),
    })),
  };
}

/** The environment, every figure with its summary, its latest campaign's runs and its history, and provenance. */
export function scenarioJson(view: ScenarioView): Response {
  return new Response(JSON.stringify(wholeRuns(view), null, 2), {
    headers: {
      "content-type": "application/json; charset=utf-8",
      "content-disposition": `attachment; filename="${filename(view, "json")}"`,
    },
  });
}

/**
 * A comparison as the compare page computes it, for a download route: the visitor reads what the page
 * would show them (scenarios they may not read are left out), else a 404 when fewer than 2 remain, or a
 * 400 for a request the page would refuse (too many scenarios).
 */
export async function comparisonForDownload(
  scenarioIds: string[],
  margins: Record<string, number>,
): Promise<ComparisonView | Response> {
  const data = await forDownload((caller) => caller.compare.view({ scenarioIds, margins }));
  if (data instanceof Response || data.scenarios.length >= 2) return data;
  return Response.json({ error: "not_found", message: "fewer than 2 of these scenarios exist" }, { status: 404 });
}

/**
 * A permalink's comparison as its page shows it (the pinned bundles, the margins it was shared with),
 * for a download route, or a 404 response wherever the page is a 404 (unknown, or private to the visitor).
 */
export async function permalinkForDownload(slug: string): Promise<ComparisonView | Response> {
  const link = await forDownload((caller) => caller.compare.permalink({ slug }));
  return link instanceof Response ? link : link.comparison;
}

/**
 * The evidence of every verdict, one row per (figure, candidate): what the compare page shows under its
 * badges, in numbers. The file is named by the scenarios compared unless `name` says otherwise.
 */
export function comparisonCsv(
  data: ComparisonView,
  name = `cnibench-compare-${data.scenarios.map((s) => s.id).join("-")}.csv`,
): Response {
  return new Response(toCsv(evidenceTable(data.labels, data.rows)), {
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="${name}"`,
    },
  });
}

/** The explorer's answer for a download route: what the page shows this visitor (their readable scenarios). */
export function exploreForDownload(input: ExploreInput): Promise<ExploreView | Response> {
  return forDownload((caller) => caller.scenarios.explore(input));
}

/**
 * The explorer's table as the page filters and sorts it, every page of it: one row per scenario, its
 * environment, its CNI settings (all of them as JSON; `distinguishing`, the ones the table shows), and
 * per chosen column the figure the table shows (its latest campaign's median), unit and runs.
 */
export function exploreCsv(view: ExploreView, rows: readonly ExploreView["scenarios"][number][]): Response {
  const header = [
    "id",
    "name",
    "provider",
    "sku",
    "kernel",
    "kubernetes",
    "cni",
    "cni_version",
    "mode",
    "kube_proxy",
    "settings",
    "distinguishing",
    ...view.columns.flatMap((c) => [`${c.key}_value`, `${c.key}_unit`, `${c.key}_n`]),
  ];
  const body = rows.map((s) => [
    s.id,
    s.label,
    s.provider,
    s.sku,
    s.kernel,
    s.kubernetesVersion,
    s.cni.name,
    s.cni.version,
    s.cni.mode,
    s.cni.kubeProxy,
    JSON.stringify(s.cni.settings),
    s.differingSettings.join("; "),
    ...view.columns.flatMap((c) => {
      const f = s.keyFigures[c.key];
      return f ? [f.summary.distribution?.median ?? f.value, f.unit, f.summary.n] : ["", "", ""];
    }),
  ]);
  return new Response(toCsv([header, ...body]), {
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": 'attachment; filename="cnibench-explore.csv"',
    },
  });
}
