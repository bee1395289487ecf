"use client";

import { lazy, Suspense } from "react";
import { ChartFrame, useChartState } from "./chart-frame";
import { anyWhisker } from "./format";
import { useInteractive } from "./interactive";
import { lineCsv } from "./point-csv";
import { StaticLineChart } from "./static-chart";
import { type Better, lineScores, rankByScore } from "./top";
import type { ChartMarker, ChartSeries } from "./types";

export type Scale = "linear" | "log";

/** Whether a point can be drawn: a log axis has no x ≤ 0. */
export const drawableOn = (xScale: Scale) => (p: { x: number }) => xScale === "linear" || p.x > 0;

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
  const ranked = rankByScore(
    props.series.map((s) => s.id),
    lineScores(props.series),
    props.better,
  );
  const state = useChartState(ranked, props.series);
  const interactive = useInteractive();
  const drawable = drawableOn(xScale);
  const dropped = props.series.some((s) => s.points.some((p) => !drawable(p)));
  const markers = (props.markers ?? []).filter(drawable);
  const whiskers = anyWhisker(props.series.flatMap((s) => s.points.filter(drawable)));
  // A band joins a line's points: none along a category, none where no point has one.
  const band = joined && props.series.some((s) => s.points.some((p) => p.band)) ? props.band : undefined;
  const series = band ? props.series : props.series.map((s) => ({ ...s, points: s.points.map(withoutBand) }));
  const picture = (
    <StaticLineChart
      title={props.title}
      // The series the legend leaves drawn, each in the style it has there.
      series={series.filter((s) => state.visible(s.id)).map((s) => ({ ...s, colorIndex: state.styleOf(s.id) }))}
      count={Number.POSITIVE_INFINITY}
      joined={joined}
      markers={markers}
      xLabel={props.xLabel}
      yLabel={props.yLabel}
      xScale={xScale}
      height={height}
    />
  );

  return (
    <ChartFrame
      about={props}
      state={state}
      csv={lineCsv(props.series, props.unit)}
      mark="point"
      whiskers={whiskers}
      band={band}
      rankedBy={rankedBy(props.better, props.xLabel)}
    >
      {interactive ? (
        <Suspense fallback={picture}>
          <LinePlot
            series={series}
            joined={joined}
            markers={markers}
            xLabel={props.xLabel}
            yLabel={props.yLabel}
            unit={props.unit}
            xScale={xScale}
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
