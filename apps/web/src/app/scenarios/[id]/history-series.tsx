// A series' history drawn: its campaigns over time with what changed and where it shifted (HistoryChart),
// and the change points in words. Shared by the scenario page's History section and the charts page's
// History view, both fed by scenarios.history.

import type { HistoryAnnotation, HistoryPoint, HistoryShift } from "@cnibench/charts";
import { verdictStyle } from "@cnibench/charts/format";
import { formatDate, formatFigure, formatPercent, verdictWords } from "@cnibench/format";
import { vocabularyLabel } from "@cnibench/schema";
import { HistoryChart } from "~/app/_charts/deferred";
import { Muted } from "~/app/_ui/text";
import type { HistoryView } from "~/server/routers/history.types";

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

/** The testbed's CNI as people name it ("Cilium"): what the version changes are of. */
function historyCni(view: HistoryView): string {
  const first = view.testbed.scenarios[0];
  return first ? (vocabularyLabel("cniName", first.cni.name) ?? first.cni.name) : "CNI";
}

/**
 * One series' history: the chart (in `data-testid="history-chart"`), or why nothing is drawn, then its
 * change points in words. `unit` is the series' when the view has none (no campaign).
 */
export function HistorySeries(props: {
  view: HistoryView;
  title: string;
  yLabel: string;
  unit: string;
  filename: string;
}) {
  const { view } = props;
  const cni = historyCni(view);
  const unit = view.unit ?? props.unit;
  const { points, annotations, shifts } = chartOf(view, cni);
  const [oldest, latest] = [view.campaigns[0], view.campaigns.at(-1)];
  return (
    <>
      {points.length === 0 ? (
        <Muted>No campaign of this series is readable.</Muted>
      ) : (
        <div data-testid="history-chart">
          <HistoryChart
            title={props.title}
            label={props.title}
            summary={
              oldest && latest
                ? `${view.campaigns.length} ${view.campaigns.length === 1 ? "campaign" : "campaigns"} from ${formatDate(oldest.measuredAt)} to ${formatDate(latest.measuredAt)}${view.totalCampaigns > view.campaigns.length ? ` (the latest of ${view.totalCampaigns})` : ""}`
                : undefined
            }
            points={points}
            annotations={annotations}
            shifts={shifts}
            yLabel={props.yLabel}
            unit={unit}
            filename={props.filename}
          />
        </div>
      )}
      <ChangePoints view={view} cni={cni} unit={unit} />
    </>
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
