"use client";

import { lazy, Suspense, useMemo } from "react";
import { ChartFrame, useChartState } from "./chart-frame";
import { anyWhisker } from "./format";
import { drawableOn, lineGeometry, pictureFrame } from "./geometry";
import { useInteractive } from "./interactive";
import { lineCsv } from "./point-csv";
import { StaticLineChart } from "./static-chart";
import { type Better, lineScores, rankByScore } from "./top";
import type { ChartMarker, ChartSeries } from "./types";

type Scale = "linear" | "log";

// Recharts and the plot drawn with it: a chunk of its own, loaded once the reader interacts.
const LinePlot = lazy(() => import("./line-plot"));

type Props = {
  title: string;
  summary?: React.ReactNode;
  series: ChartSeries[];
  markers?: ChartMarker[];
  xLabel: string;
  yLabel: string;
  /** Unit of the y values, for tooltips and the selected point. */
  unit: string;
  xScale?: Scale;
  /** False along a category (streams, message size): each series' points are not joined. */
  joined?: boolean;
  /** What the shaded band around each line is, for the key; no band is drawn without it. */
  band?: string;
  /** Which way the metric is better: with more lines than the top, the best at the largest x are drawn first. */
  better?: Better;
  filename: string;
  height?: number;
};

/**
 * Lines over a numeric x (e.g. Service count), one per scenario, with labelled markers (crossovers).
 * Qualified figures are drawn hollow; on a log axis, x ≤ 0 (a baseline) cannot be drawn and is said so.
 * The static picture first (server-rendered), Recharts' once the reader interacts.
 */
export function LineSeriesChart({ xScale = "linear", height = 380, joined = true, ...props }: Props) {
  // Once per data, as GroupedBarChart's: not at every click of the legend.
  const ranked = useMemo(
    () =>
      rankByScore(
        props.series.map((s) => s.id),
        lineScores(props.series),
        props.better,
      ),
    [props.series, props.better],
  );
  const state = useChartState(ranked, props.series);
  const interactive = useInteractive();
  const drawable = drawableOn(xScale);
  const dropped = props.series.some((s) => s.points.some((p) => !drawable(p)));
  const whiskers = anyWhisker(props.series.flatMap((s) => s.points.filter(drawable)));
  // A band joins a line's points: none along a category, none where no point has one.
  const band = joined && props.series.some((s) => s.points.some((p) => p.band)) ? props.band : undefined;
  // The one geometry both pictures draw: the series the legend leaves drawn, each in the style it
  // has there, with the axes' domains and ticks. The same object until the data or the legend
  // change, so a hover redraws neither picture.
  // biome-ignore lint/correctness/useExhaustiveDependencies: state.drawn is what state.visible reads.
  const geometry = useMemo(
    () =>
      lineGeometry({
        series: props.series
          .filter((s) => state.visible(s.id))
          .map((s) => ({
            ...s,
            colorIndex: state.styleOf(s.id),
            points: band ? s.points : s.points.map(withoutBand),
          })),
        markers: props.markers,
        frame: pictureFrame,
        xScale,
        count: Number.POSITIVE_INFINITY,
        unjoined: !joined,
      }),
    [props.series, props.better, props.markers, band, joined, xScale, state.drawn],
  );
  const picture = (
    <StaticLineChart
      title={props.title}
      geometry={geometry}
      joined={joined}
      xLabel={props.xLabel}
      yLabel={props.yLabel}
      height={height}
    />
  );

  return (
    <ChartFrame
      about={props}
      state={state}
      csv={() => lineCsv(props.series, props.unit)}
      mark="point"
      whiskers={whiskers}
      band={band}
      rankedBy={rankedBy(props.better, props.xLabel)}
    >
      {interactive ? (
        <Suspense fallback={picture}>
          <LinePlot
            series={props.series}
            geometry={geometry}
            joined={joined}
            xLabel={props.xLabel}
            yLabel={props.yLabel}
            unit={props.unit}
            height={height}
            whiskers={whiskers}
            state={state}
          />
        </Suspense>
      ) : (
        picture
      )}
      {dropped ? (
        <p className="text-xs text-zinc-500">
          A logarithmic axis cannot show x = 0: the baseline points are left out; the lines start at the first step.
        </p>
      ) : null}
    </ChartFrame>
  );
}

const withoutBand = <P extends { band?: unknown }>({ band: _band, ...p }: P): Omit<P, "band"> => p;

/** What the top lines are the best by, in the legend's words. */
const rankedBy = (better: Better | undefined, xLabel: string): string | undefined =>
  better === "higher" || better === "lower" ? `the value at the largest ${xLabel} (${better} is better)` : undefined;
