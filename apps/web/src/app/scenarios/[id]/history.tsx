// The scenario page's History section: one series (metric and params) followed across the campaigns
// of the scenario's testbed, upgrades included (scenarios.history), drawn over time with what changed
// and where it shifted, and the change points in words.
import { formatDate, formatFigure, formatParams, formatPercent, verdictWords } from "@cnibench/analysis/format";
import { type HistoryAnnotation, HistoryChart, type HistoryPoint, type HistoryShift } from "@cnibench/charts";
import { verdictStyle } from "@cnibench/charts/format";
import { vocabularyLabel } from "@cnibench/schema";
import { NuqsAdapter } from "nuqs/adapters/next/app";
import type { SearchParams } from "nuqs/server";
import { Muted, Section } from "~/app/_ui/text";
import type { HistoryView } from "~/server/routers/history.types";
import { api } from "~/trpc/server";
import { loadHistoryParams, seriesKey } from "./history-params";
import { HistorySelect, type SeriesOption } from "./history-select";

type Params = Record<string, string | number | boolean>;

/** The scenario's figures as its page has them: by metric, a row per params with its campaigns' runs. */
type Group = {
  metric: string;
  label: string;
  unit: string;
  rows: { params: Params; runs: { campaign: string }[]; history: { campaign: string }[] }[];
};

type Series = SeriesOption & { metric: string; params: Params; metricLabel: string; unit: string; campaigns: number };

/** Every series of the scenario, with how many of its campaigns the page knows of. */
function seriesOf(groups: readonly Group[]): Series[] {
  return groups.flatMap((g) =>
    g.rows.map((r) => ({
      key: seriesKey(g.metric, r.params),
      label: formatParams(r.params, { empty: "no params" }),
      group: g.label,
      metric: g.metric,
      params: r.params,
      metricLabel: g.label,
      unit: g.unit,
      campaigns: new Set([...r.runs, ...r.history].map((f) => f.campaign)).size,
    })),
  );
}

/** The series asked for in the URL, else the one with the most campaigns (the first of those). */
function chosen(series: readonly Series[], asked: string | null): Series | undefined {
  const found = asked === null ? undefined : series.find((s) => s.key === asked);
  return (
    found ??
    series.reduce<Series | undefined>((best, s) => (!best || s.campaigns > best.campaigns ? s : best), undefined)
  );
}

/** A p value as the sentences give it: 5.6e−7, 0.012; below double precision's reach, < 1e−16. */
const formatP = (p: number): string =>
  p < 1e-16 ? "< 1e−16" : (p < 0.001 ? p.toExponential(1) : p.toFixed(3)).replace("-", "−");

type Change = { key: string; before: string | number | boolean | null; after: string | number | boolean | null };

/** A change of what the campaigns ran on, in words: "kernel 6.1.0 → 6.8.0", "Cilium 1.15 → 1.16". */
function changeWords(change: Change, cni: string): string {
  const name: Record<string, string> = {
    cniVersion: cni,
    kernel: "kernel",
    os: "node image",
    kubernetesVersion: "Kubernetes",
  };
  return `${name[change.key] ?? change.key} ${String(change.before ?? "none")} → ${String(change.after ?? "none")}`;
}

/** The chart's points, markers and change points from the procedure's view. */
function chartOf(view: HistoryView, cni: string) {
  const points: HistoryPoint[] = view.campaigns.map((c) => ({
    campaign: c.campaign,
    x: c.x,
    y: c.y,
    min: c.min,
    max: c.max,
    n: c.n,
    ranOn: `${cni} ${c.annotations.cniVersion} · kernel ${c.annotations.kernel} · ${c.annotations.os} · Kubernetes ${c.annotations.kubernetesVersion}`,
    links: c.bundleIds
      .slice(0, 3)
      .map((id) => ({ label: `bundle ${id}`, href: `/scenarios/${c.scenarioId}#bundle-${id}` })),
  }));
  const annotations: HistoryAnnotation[] = view.annotations.map((a) => ({ x: a.x, label: changeWords(a, cni) }));
  const shifts: HistoryShift[] = view.changePoints.map((c) => ({
    x: c.x,
    changePercent: c.changePercent,
    verdict: c.verdict,
    p: c.p,
  }));
  return { points, annotations, shifts };
}

export async function HistorySection(props: {
  scenarioId: string;
  groups: readonly Group[];
  searchParams: Promise<SearchParams>;
}) {
  const series = seriesOf(props.groups);
  const { history: asked } = await loadHistoryParams(props.searchParams);
  const current = chosen(series, asked);
  if (!current) return null;
  const view = await (await api()).scenarios.history({
    scenarioId: props.scenarioId,
    metric: current.metric,
    params: current.params,
  });
  const first = view.testbed.scenarios[0];
  const cni = first ? (vocabularyLabel("cniName", first.cni.name) ?? first.cni.name) : "CNI";
  const unit = view.unit ?? current.unit;
  const { points, annotations, shifts } = chartOf(view, cni);
  const [oldest, latest] = [view.campaigns[0], view.campaigns.at(-1)];
  const title = `${current.metricLabel} · ${current.label}`;

  return (
    <Section title="History" titleId="history-heading" size="lg" className="space-y-3">
      <Muted>
        This series across the campaigns of the scenario’s testbed
        {view.testbed.scenarios.length > 1
          ? ` (${view.testbed.scenarios.length} scenarios: each CNI version, kernel, node image or Kubernetes version it ran on)`
          : ""}
        : each campaign’s median with the min–max of its runs.
      </Muted>
      {/* The page's one piece of URL state kept by nuqs: its adapter here, as the explorer's and the guide's. */}
      <NuqsAdapter>
        <HistorySelect options={series.map(({ key, label, group }) => ({ key, label, group }))} value={current.key} />
      </NuqsAdapter>
      {points.length === 0 ? (
        <Muted>No campaign of this series is readable.</Muted>
      ) : (
        <div data-testid="history-chart">
          <HistoryChart
            title={title}
            label={title}
            summary={
              oldest && latest
                ? `${view.campaigns.length} ${view.campaigns.length === 1 ? "campaign" : "campaigns"} from ${formatDate(oldest.measuredAt)} to ${formatDate(latest.measuredAt)}${view.totalCampaigns > view.campaigns.length ? ` (the latest of ${view.totalCampaigns})` : ""}`
                : undefined
            }
            points={points}
            annotations={annotations}
            shifts={shifts}
            yLabel={current.metricLabel}
            unit={unit}
            filename={`history-${current.metric}-${props.scenarioId}`}
          />
        </div>
      )}
      <ChangePoints view={view} cni={cni} unit={unit} />
    </Section>
  );
}

/** The change points in words, or why there are none. */
function ChangePoints({ view, cni, unit }: { view: HistoryView; cni: string; unit: string }) {
  if (view.changePointsReason) return <Muted data-testid="history-reason">{view.changePointsReason}</Muted>;
  if (view.changePoints.length === 0) {
    return (
      <Muted data-testid="history-change-points">
        No change point: the series did not shift across its {view.campaigns.length} campaigns.
      </Muted>
    );
  }
  return (
    <div>
      <h3 className="text-sm font-semibold">Change points</h3>
      <ul className="mt-1 space-y-1 text-sm" data-testid="history-change-points">
        {view.changePoints.map((c) => (
          <li key={c.index}>
            From {formatDate(c.measuredAt)}
            {c.annotations.length > 0 ? ` (${c.annotations.map((a) => changeWords(a, cni)).join(", ")})` : ""}:{" "}
            {c.changePercent === null ? "" : `${formatPercent(c.changePercent)}, `}
            <span className={`rounded px-1 ${verdictStyle[c.verdict]}`}>{verdictWords[c.verdict]}</span>, p{" "}
            {formatP(c.p)}
            <span className="text-zinc-600 dark:text-zinc-400">
              {" "}
              · mean {formatFigure({ value: c.before.mean, unit })} over {c.before.campaigns} campaigns, then{" "}
              {formatFigure({ value: c.after.mean, unit })} over {c.after.campaigns}
              {c.marginPercent === null ? "" : ` (margin ±${c.marginPercent} %)`}
            </span>
          </li>
        ))}
      </ul>
    </div>
  );
}
