import { facetKeys, resolveBetter } from "@cnibench/analysis";
import { barsCard, crossoverCard, plainCard } from "~/server/cards/card";
import { crossoverAxisWords, crossoverValueLabel, drawsChanges, viewTitle } from "~/server/views/chart-views";
import { chartScope, crossoverInput, loadChartParams } from "../../charts/params";
import { cardResponse } from "../respond";

/**
 * /card/charts.png?<the charts page's query>: the view's chart as a link card, from the procedure the
 * page calls with the same scope; a chart with nothing to draw (nothing matches, or the scenarios are
 * private to someone else) is a 404. The history view has no one picture: its card is its title.
 */
export async function GET(req: Request) {
  const params = loadChartParams(new URL(req.url).searchParams);
  const scope = chartScope(params);
  const scopeWords = facetKeys.flatMap((k) => params[k] ?? []).join(" · ") || "All scenarios";
  if (params.view === "history") {
    return cardResponse(
      async () => null,
      () => plainCard("Chart", viewTitle("history"), scopeWords),
    );
  }
  if (params.view === "crossover") {
    return cardResponse(
      (caller) => caller.charts.crossover(crossoverInput(params)),
      (data) =>
        data.series.length === 0
          ? null
          : crossoverCard(data, {
              title: `${data.title} by ${crossoverAxisWords(data.xParam)}`,
              x: `${crossoverAxisWords(data.xParam)} (count)`,
              y: crossoverValueLabel(params.y, data),
              better: resolveBetter(data.metric),
              xScale: params.scale,
            }),
    );
  }
  const view = params.view;
  return cardResponse(
    (caller) => caller.charts.bars({ ...scope, view, percentile: params.percentile }),
    ([first]) =>
      first
        ? barsCard(first, {
            // The charts page's titles: a latency chart names its percentile, an overhead is a cost.
            title:
              view === "latency" && first.metric !== "pod.rtt" ? `${first.title}, ${params.percentile}` : first.title,
            better: view === "overheads" ? "lower" : resolveBetter(first.metric),
            scope: `${viewTitle(view)} · ${scopeWords}`,
            changes: drawsChanges(view),
          })
        : null,
  );
}
