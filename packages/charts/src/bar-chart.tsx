"use client";

import { lazy, Suspense, useMemo, useRef } from "react";
import { ChartFrame, useChartState } from "./chart-frame";
import { anyWhisker, barLook, undecidedKey } from "./format";
import { barGeometry, pictureFrame, valueAxisWidth } from "./geometry";
import { useInteractive } from "./interactive";
import { barCsv } from "./point-csv";
import { StaticBarChart } from "./static-chart";
import { type Better, barScores, rankByScore } from "./top";
import type { BarDatum, ChartRule, SeriesInfo } from "./types";

const noRules: ChartRule[] = [];

// Recharts and the plot drawn with it: a chunk of its own, loaded once the reader interacts.
const BarPlot = lazy(() => import("./bar-plot"));

type Props = {
  title: string;
  summary?: React.ReactNode;
  /** The bars of each group, in legend order. */
  series: SeriesInfo[];
  data: BarDatum[];
  categoryLabel: string;
  yLabel: string;
  unit: string;
  /** Horizontal lines such as a NIC's line rate. */
  references?: ChartRule[];
  /** Which way the metric is better: with more series than the top, the best by mean rank are drawn first. */
  better?: Better;
  filename: string;
  height?: number;
  /**
   * Each bar is a change against its pair (a setting's cost, with its verdict in `versus`): a bar the
   * runs do not show is drawn hollow, and the key says so.
   */
  changes?: boolean;
};

/**
 * Grouped bars; approximate and bounded figures are drawn pale with a dashed outline. The static
 * picture first (server-rendered), Recharts' once the reader interacts.
 */
export function GroupedBarChart({ height = 340, changes = false, ...props }: Props) {
  // Once per data: each click of the legend or "Show all" renders the chart again (twice with the
  // deferred plot), and ranking, like the CSV's formatted rows, took most of that render.
  const ranked = useMemo(
    () =>
      rankByScore(
        props.series.map((s) => s.id),
        barScores(props.data, props.better),
        "lower",
      ),
    [props.series, props.data, props.better],
  );
  const state = useChartState(ranked, props.series);
  const interactive = useInteractive();
  const scroller = useRef<HTMLDivElement>(null);
  const drawnBars = props.series.filter((s) => state.visible(s.id)).length;
  const whiskers = anyWhisker(props.data.flatMap((d) => Object.values(d.values)));
  const referenceLabels = [...new Set(props.data.flatMap((d) => (d.reference ? [d.reference.label] : [])))];
  const rules = props.references ?? noRules;
  const keys = [
    ...referenceLabels.map((label) => ({
      label: `${label}: no datapath, a line to read bars against, not ranked`,
      dash: "5 3",
    })),
    ...rules.map((r) => ({ label: r.label, dash: "6 3" })),
    ...(changes && props.data.some((d) => Object.values(d.values).some((v) => barLook(v, true) === "undecided"))
      ? [{ label: undecidedKey, dash: "", hollow: true }]
      : []),
  ];
  // The one geometry both pictures draw: the series the legend leaves drawn, in its order and
  // colours, the groups holding their bars, the value axis reaching every line to read them against.
  // The same object until the data or the legend change, so a hover redraws neither picture.
  // biome-ignore lint/correctness/useExhaustiveDependencies: state.drawn is what state.visible reads.
  const geometry = useMemo(
    () =>
      barGeometry({
        series: props.series.filter((s) => state.visible(s.id)).map((s) => ({ ...s, colorIndex: state.styleOf(s.id) })),
        data: props.data,
        references: rules,
        frame: pictureFrame,
        count: Number.POSITIVE_INFINITY,
      }),
    [props.series, props.data, props.better, rules, state.drawn],
  );
  const picture = (
    <StaticBarChart
      title={props.title}
      geometry={geometry}
      data={props.data}
      changes={changes}
      categoryLabel={props.categoryLabel}
      yLabel={props.yLabel}
      height={height}
    />
  );

  return (
    <ChartFrame
      about={props}
      state={state}
      csv={() => barCsv(props.series, props.data, props.unit)}
      mark="bar"
      whiskers={whiskers}
      keys={keys}
      rankedBy={
        props.better === "higher" || props.better === "lower"
          ? `the mean rank of their bars (${props.better} is better)`
          : undefined
      }
    >
      {/* Wide enough for every drawn bar to stay a few pixels wide (all 24 on a phone): it scrolls sideways. */}
      <div ref={scroller} className="overflow-x-auto">
        <div style={{ minWidth: minWidthOf(props.data, drawnBars) }}>
          {interactive ? (
            <Suspense fallback={picture}>
              <BarPlot
                geometry={geometry}
                data={props.data}
                categoryLabel={props.categoryLabel}
                yLabel={props.yLabel}
                unit={props.unit}
                height={height}
                whiskers={whiskers}
                changes={changes}
                scroller={scroller}
                state={state}
              />
            </Suspense>
          ) : (
            picture
          )}
        </div>
      </div>
    </ChartFrame>
  );
}

/**
 * The narrowest the chart is drawn: the value axis and the plot's margins, then each group at least
 * 5 px a bar and 56 px in all, and as wide as the longest line of words under it (11 px type, about
 * 6.5 px a character, and a little room between neighbours), so no two groups' words run into each
 * other. Top 8 bars in 4 short groups fit a phone; more, or longer words, scroll sideways.
 */
function minWidthOf(data: readonly BarDatum[], bars: number): number {
  const longest = Math.max(0, ...data.flatMap((d) => d.category.split(" · ").map((line) => line.length)));
  return valueAxisWidth + 32 + data.length * Math.max(56, bars * 5 + 14, Math.ceil(longest * 6.5) + 12);
}
