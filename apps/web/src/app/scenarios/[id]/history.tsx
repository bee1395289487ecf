// The scenario page's History section: one series (metric and params) followed across the campaigns
// of the scenario's testbed, upgrades included (scenarios.history), drawn over time with what changed
// and where it shifted, the change points in words, and the snippets that embed it elsewhere (the
// charts page's History view of this series).
import type { SearchParams } from "nuqs/server";
import { Muted, Section } from "~/app/_ui/text";
import { api } from "~/trpc/server";
import { EmbedSnippets, historyEmbedHeight, seriesBadgePath } from "../../charts/embed-snippets";
import { chartsHref } from "../../charts/params";
import { chosen, type Group, loadHistoryParams, seriesGroups, seriesOf } from "./history-params";
import { HistorySelect } from "./history-select";
import { HistorySeries } from "./history-series";

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
  const title = `${current.metricLabel} · ${current.label}`;

  // One campaign is one point: a chart of it would fill the first screen and say nothing over time.
  // Folded then, unless a series was asked for in the address.
  const folded = view.campaigns.length <= 1 && asked === null;
  const body = (
    <>
      <Muted>
        This series across the campaigns of the scenario’s testbed
        {view.testbed.scenarios.length > 1
          ? ` (${view.testbed.scenarios.length} scenarios: each CNI version, kernel, node image or Kubernetes version it ran on)`
          : ""}
        : each campaign’s median with the min–max of its runs.
      </Muted>
      <HistorySelect groups={seriesGroups(series)} value={current.key} />
      <HistorySeries
        view={view}
        title={title}
        yLabel={current.metricLabel}
        unit={current.unit}
        filename={`history-${current.metric}-${props.scenarioId}`}
      />
    </>
  );
  if (folded) {
    return (
      <Section title="History" titleId="history-heading" size="lg" className="space-y-3">
        <details data-testid="history-folded">
          <summary className="cursor-pointer text-sm text-zinc-600 dark:text-zinc-400">
            {view.campaigns.length === 0 ? "No campaign yet" : "One campaign so far"}: nothing to follow over time yet.
            Open to see it.
          </summary>
          <div className="mt-3 space-y-3">{body}</div>
        </details>
      </Section>
    );
  }

  return (
    <Section title="History" titleId="history-heading" size="lg" className="space-y-3">
      {body}
      {view.campaigns.length > 0 ? (
        <EmbedSnippets
          path={chartsHref("/charts", {
            view: "history",
            scenario: [props.scenarioId],
            metric: current.metric,
            where: Object.entries(current.params).map(([k, v]) => `${k}=${v}`),
          })}
          title={`${title} over time`}
          height={historyEmbedHeight}
          badge={seriesBadgePath(props.scenarioId, current.metric, current.params)}
        />
      ) : null}
    </Section>
  );
}
