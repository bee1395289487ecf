"use client";

import { lazy, type ReactNode, Suspense, useCallback, useMemo, useState } from "react";
import { ChartFrame, type KeyLine, useChartState } from "./chart-frame";
import {
  type HistoryAnnotation,
  type HistoryPoint,
  type HistoryShift,
  historyGeometry,
  lineHeight,
  shiftWords,
} from "./geometry";
import { useInteractive } from "./interactive";
import { colorAt } from "./palette";
import { StaticHistoryChart } from "./static-chart";

// Recharts and the plot drawn with it: a chunk of its own, loaded once the reader interacts.
const HistoryPlot = lazy(() => import("./history-plot"));

// A series over time: each campaign a point at its runs' median with min–max whiskers, a dashed
// vertical marker where what the campaigns ran on changed (kernel, CNI version…), a solid one where
// the series shifted (a change point, with its change and verdict), and the mean of each stretch
// between change points as a step. The markers sit between the last campaign before the change and
// the first after it: that is where it happened.

type Props = {
  title: string;
  summary?: ReactNode;
  /** The series in the legend: "TCP throughput · path pod-pod · streams 1". */
  label: string;
  points: HistoryPoint[];
  annotations?: HistoryAnnotation[];
  shifts?: HistoryShift[];
  yLabel: string;
  unit: string;
  filename: string;
  height?: number;
};

export const seriesId = "history";

/** The chart's CSV: a row per campaign, oldest first, with what changed at it and the change point found there. */
export function historyCsv(
  points: readonly HistoryPoint[],
  annotations: readonly HistoryAnnotation[],
  shifts: readonly HistoryShift[],
  unit: string,
): (string | number)[][] {
  return [
    ["campaign", "date", "median", "min", "max", "n", "unit", "annotations", "change_point", "change_percent", "p"],
    ...[...points]
      .sort((a, b) => a.x - b.x)
      .map((p) => {
        const shift = shifts.find((s) => s.x === p.x);
        return [
          p.campaign,
          new Date(p.x).toISOString(),
          p.y,
          p.min,
          p.max,
          p.n,
          unit,
          annotations
            .filter((a) => a.x === p.x)
            .map((a) => a.label)
            .join("; "),
          shift ? shiftWords(shift) : "",
          shift?.changePercent ?? "",
          shift?.p ?? "",
        ];
      }),
  ];
}

/**
 * A series over time: campaigns' medians with min–max whiskers against their dates, what changed
 * (dashed markers) and where the series shifted (solid markers, coloured by verdict), each labelled
 * above the plot; the means between shifts as steps.
 */
const noAnnotations: HistoryAnnotation[] = [];
const noShifts: HistoryShift[] = [];

export function HistoryChart({ height = 360, annotations = noAnnotations, shifts = noShifts, ...props }: Props) {
  const state = useChartState([seriesId], [{ id: seriesId, label: props.label }]);
  const [width, setWidth] = useState(0);
  // The chart's width, to keep the markers' labels apart and the date ticks readable before drawing.
  const measure = useCallback((node: HTMLDivElement | null) => {
    if (!node) return;
    setWidth(node.getBoundingClientRect().width);
    const observer = new ResizeObserver(([entry]) => entry && setWidth(entry.contentRect.width));
    observer.observe(node);
    return () => observer.disconnect();
  }, []);

  const points = props.points;
  // The same arrays until the data or the width change: new ones make Recharts remount the dots,
  // losing the hovered or focused point.
  const g = useMemo(
    () => historyGeometry({ points, annotations, shifts, width }),
    [points, annotations, shifts, width],
  );
  const color = colorAt(state.styleOf(seriesId));
  const keys: KeyLine[] = [
    ...(annotations.length > 0 ? [{ label: "what the campaigns ran on changed", dash: "4 4" }] : []),
    ...(shifts.length > 0
      ? [
          { label: "change point (the series shifted)", dash: "" },
          { label: "mean between change points", dash: "8 3" },
        ]
      : []),
  ];
  const interactive = useInteractive();
  const drawn = state.visible(seriesId);
  const picture = (
    <StaticHistoryChart
      title={props.title}
      yLabel={`${props.yLabel} (${props.unit})`}
      geometry={g}
      points={drawn ? points : []}
      color={color}
      height={height}
    />
  );

  return (
    <ChartFrame
      about={{
        title: props.title,
        summary: props.summary,
        filename: props.filename,
        series: [{ id: seriesId, label: props.label }],
      }}
      state={state}
      csv={() => historyCsv(points, annotations, shifts, props.unit)}
      mark="point"
      whiskers={points.some((p) => p.n > 1)}
      keys={keys}
    >
      <div ref={measure} data-testid="history-plot">
        {interactive ? (
          <Suspense fallback={picture}>
            <HistoryPlot
              points={points}
              geometry={g}
              color={color}
              height={height}
              top={16 + g.rows * lineHeight}
              label={props.label}
              yLabel={props.yLabel}
              unit={props.unit}
              state={state}
            />
          </Suspense>
        ) : (
          picture
        )}
      </div>
    </ChartFrame>
  );
}
