"use client";

import { useMemo } from "react";
import { usePlotArea, useXAxisScale, useXAxisTicks, useYAxisScale, useYAxisTicks } from "recharts";
import { valueAxisWidth } from "./geometry";

// Module-level: Recharts compares props shallowly, and a nested object new on each render makes it
// recompute the chart and remount the dots, losing the hovered or focused point.
const centred = { textAnchor: "middle" } as const;

/**
 * An axis as its chart's geometry (geometry.ts) gives it, spread on <XAxis> or <YAxis>: its ends, its
 * ticks and their words, never Recharts' own; the same arrays until the geometry changes.
 */
export function useAxis(ticks: readonly { value: number; label: string }[], domain: readonly [number, number]) {
  return useMemo(() => {
    const labels = new Map(ticks.map((t) => [t.value, t.label]));
    return {
      domain: [domain[0], domain[1]] as [number, number],
      ticks: ticks.map((t) => t.value),
      tickFormatter: (v: number) => labels.get(v) ?? "",
    };
  }, [ticks, domain]);
}

/** The value axis every chart draws: its width and the label turned along it (spread on <YAxis>). */
export function valueAxis(label: string) {
  return {
    stroke: "currentColor",
    width: valueAxisWidth,
    label: { value: label, angle: -90, position: "insideLeft", offset: 4, fill: "currentColor", style: centred },
  } as const;
}

/** Whether a pixel position lies on the plot (half a pixel of rounding either side). */
const inside = (v: number | undefined, from: number, size: number): v is number =>
  v !== undefined && Number.isFinite(v) && v >= from - 0.5 && v <= from + size + 0.5;

/**
 * A dashed line across the plot at a value of x (a crossover) or of y (a NIC's line rate), with an
 * optional label at its top right. Drawn from the axes' scales rather than with Recharts'
 * ReferenceLine, which was one more module on every chart page (issue 12's 250 kB budget). Like
 * ReferenceLine by default, a value outside the axis is not drawn.
 */
export function Rule(props: {
  x?: number;
  y?: number;
  label?: string;
  dash: string;
  opacity?: number;
  /** Where the label sits; neighbouring rules alternate sides so their labels never print over each other. */
  labelSide?: "right" | "left";
}) {
  const plot = usePlotArea();
  const xScale = useXAxisScale();
  const yScale = useYAxisScale();
  if (!plot) return null;
  const line = { stroke: "currentColor", strokeDasharray: props.dash, strokeOpacity: props.opacity ?? 1 };
  if (props.x !== undefined) {
    const x = xScale?.(props.x);
    if (!inside(x, plot.x, plot.width)) return null;
    return <line x1={x} x2={x} y1={plot.y} y2={plot.y + plot.height} {...line} />;
  }
  const y = props.y === undefined ? undefined : yScale?.(props.y);
  if (!inside(y, plot.y, plot.height)) return null;
  return (
    <g>
      <line x1={plot.x} x2={plot.x + plot.width} y1={y} y2={y} {...line} />
      {props.label ? (
        <text
          x={props.labelSide === "left" ? plot.x + 4 : plot.x + plot.width - 4}
          y={y - 6}
          textAnchor={props.labelSide === "left" ? "start" : "end"}
          fill="currentColor"
          fontSize={12}
        >
          {props.label}
        </text>
      ) : null}
    </g>
  );
}

/**
 * A labelled ring at a point of the plot (where one line overtakes another); the label sits above
 * it, or below to keep clear of a neighbour's. In place of Recharts' ReferenceDot, as for Rule.
 */
export function Mark(props: { x: number; y: number; label: string; below?: boolean }) {
  const plot = usePlotArea();
  const cx = useXAxisScale()?.(props.x);
  const cy = useYAxisScale()?.(props.y);
  if (!plot || !inside(cx, plot.x, plot.width) || !inside(cy, plot.y, plot.height)) return null;
  return (
    <g data-mark="">
      <circle cx={cx} cy={cy} r={6} fill="none" stroke="currentColor" strokeWidth={2} />
      <text
        x={cx}
        y={props.below ? cy + 20 : cy - 12}
        textAnchor="middle"
        fill="currentColor"
        fontSize={12}
        fontWeight={600}
      >
        {props.label}
      </text>
    </g>
  );
}

/**
 * Faint dashed lines at the y axis's ticks (and the x axis's, with `vertical`), for the same reason
 * as Rule: CartesianGrid is a larger module than these few lines.
 */
export function Gridlines(props: { vertical?: boolean }) {
  const plot = usePlotArea();
  const xTicks = useXAxisTicks();
  const yTicks = useYAxisTicks();
  if (!plot) return null;
  const line = { stroke: "currentColor", strokeDasharray: "3 3", strokeOpacity: 0.15 };
  return (
    <g>
      {yTicks?.map((t) => (
        <line
          key={`y${t.coordinate}`}
          x1={plot.x}
          x2={plot.x + plot.width}
          y1={t.coordinate}
          y2={t.coordinate}
          {...line}
        />
      ))}
      {props.vertical
        ? xTicks?.map((t) => (
            <line
              key={`x${t.coordinate}`}
              x1={t.coordinate}
              x2={t.coordinate}
              y1={plot.y}
              y2={plot.y + plot.height}
              {...line}
            />
          ))
        : null}
    </g>
  );
}
