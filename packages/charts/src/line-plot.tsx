"use client";

// LineSeriesChart's interactive plot: Recharts, loaded once the reader interacts (interactive.ts).
import { formatCompact, formatFigure, formatNumber, formatParams, qualifierWords } from "@cnibench/format";
import { useMemo, useState } from "react";
import { Area, ComposedChart, ErrorBar, Line, useChartWidth, XAxis, YAxis } from "recharts";
import type { ChartState } from "./chart-frame";
import { runsWords, versusWords } from "./format";
import { niceTicks } from "./geometry";
import { drawableOn, type Scale } from "./line-chart";
import { colorAt, dashAt, type MarkerShape, markerAt, markerPath } from "./palette";
import { Gridlines, Mark, Rule, valueAxis } from "./rule";
import { PointTarget, type TooltipAt, TooltipBox, VersusLine } from "./tooltip";
import type { ChartMarker, ChartPoint, ChartSeries } from "./types";

export default function LinePlot({
  state,
  whiskers,
  height,
  xScale,
  markers,
  joined,
  ...props
}: {
  series: ChartSeries[];
  /** False along a category: points only, no line between them. */
  joined: boolean;
  /** The drawable ones. */
  markers: ChartMarker[];
  xLabel: string;
  yLabel: string;
  unit: string;
  xScale: Scale;
  height: number;
  whiskers: boolean;
  state: ChartState;
}) {
  const { visible, styleOf, setSelected } = state;
  const [hovered, setHovered] = useState<{ series: string; point: ChartPoint; at: TooltipAt } | null>(null);
  // The same arrays until the data or scale change: a new data array also remounts the dots.
  const drawn = useMemo(() => props.series.map((s) => s.points.filter(drawableOn(xScale))), [props.series, xScale]);
  // The static picture's y ticks (geometry.ts), bands and whiskers included: Recharts' own steps of a
  // band's 32,933 read "8.5K, 17K, 25.5K", and the picture would jump when it is replaced.
  const yTicks = useMemo(() => {
    const shown = drawn.filter((_, i) => visible(props.series[i]!.id)).flat();
    const ys = shown.flatMap((p) => [p.y, ...(p.whisker ?? []), ...(p.band ?? [])]);
    return niceTicks(Math.min(0, ...ys), Math.max(0, ...ys));
  }, [drawn, visible, props.series]);
  // Along a category only the measured values are ticks: nothing lies between them. Along a linear
  // scale, the static picture's (0, 10K, 20K, 30K rather than Recharts' 7.5K steps); a log axis keeps Recharts'.
  const xTicks = useMemo(() => {
    const xs = drawn.flat().map((p) => p.x);
    if (!joined) return [...new Set(xs)].sort((a, b) => a - b);
    return xScale === "linear" && xs.length > 0 ? niceTicks(0, Math.max(...xs)) : undefined;
  }, [drawn, joined, xScale]);
  return (
    <>
      <ComposedChart responsive style={{ width: "100%", height }} margin={{ top: 24, right: 24, bottom: 28, left: 16 }}>
        <Gridlines vertical />
        <XAxis
          type="number"
          dataKey="x"
          scale={xScale}
          domain={
            !joined
              ? ["dataMin", "dataMax"]
              : xScale === "log"
                ? ["auto", "auto"]
                : [xTicks?.[0] ?? 0, xTicks?.at(-1) ?? "auto"]
          }
          ticks={xTicks}
          allowDuplicatedCategory={false}
          // Unjoined points (a category) keep off the axes, as the static picture draws them.
          padding={joined ? undefined : { left: 40, right: 40 }}
          tickFormatter={formatCompact}
          stroke="currentColor"
          label={{ value: props.xLabel, position: "insideBottom", offset: -16, fill: "currentColor" }}
        />
        <YAxis
          type="number"
          {...valueAxis(props.yLabel)}
          ticks={yTicks}
          domain={[yTicks[0] ?? 0, yTicks.at(-1) ?? 1]}
        />
        {/* The noise bands under every line, so no band covers another line's points. */}
        {props.series.map((s, i) =>
          visible(s.id) && drawn[i]?.some((p) => p.band) ? (
            <Area
              key={`band-${s.id}`}
              data={drawn[i]}
              dataKey={bandOf}
              type="linear"
              fill={colorAt(styleOf(s.id))}
              fillOpacity={0.12}
              stroke="none"
              isAnimationActive={false}
              activeDot={false}
              dot={false}
              legendType="none"
              tooltipType="none"
            />
          ) : null,
        )}
        {props.series.map((s, i) => {
          if (!visible(s.id)) return null;
          const style = styleOf(s.id);
          return (
            <Line
              key={s.id}
              name={s.label}
              data={drawn[i]}
              dataKey="y"
              stroke={joined ? colorAt(style) : "none"}
              strokeDasharray={dashAt(style)}
              strokeWidth={2}
              isAnimationActive={false}
              dot={(d: { cx?: number; cy?: number; payload?: ChartPoint; index?: number }) => (
                <PointDot
                  key={`${s.id}-${d.index}`}
                  cx={d.cx}
                  cy={d.cy}
                  color={colorAt(style)}
                  shape={markerAt(style)}
                  point={d.payload}
                  label={s.label}
                  unit={props.unit}
                  onSelect={(point) => setSelected({ series: s.label, point, unit: props.unit })}
                  onHover={(at) => setHovered(at && d.payload ? { series: s.label, point: d.payload, at } : null)}
                />
              )}
              // The enlarged dot lies over the point: let the pointer through to it, to hover and pin.
              activeDot={{ r: 6, pointerEvents: "none" }}
            >
              {whiskers ? (
                <ErrorBar
                  dataKey={whiskerOf}
                  width={5}
                  stroke={colorAt(style)}
                  strokeWidth={1.5}
                  isAnimationActive={false}
                />
              ) : null}
            </Line>
          );
        })}
        {markers.map((m) => (
          <Rule key={`line-${m.x}-${m.label}`} x={m.x} dash="4 4" opacity={0.6} />
        ))}
        {markers.map((m, i) => (
          <Mark key={`mark-${m.x}-${m.label}`} x={m.x} y={m.y} label={m.label} below={i % 2 === 1} />
        ))}
      </ComposedChart>
      {hovered ? (
        <TooltipBox at={hovered.at}>
          <PointTooltip series={hovered.series} point={hovered.point} unit={props.unit} />
        </TooltipBox>
      ) : null}
    </>
  );
}

/** A point's band as a range Area wants it: its low and high values. */
const bandOf = (p: ChartPoint): [number, number] | undefined => (p.band ? [p.band[0], p.band[1]] : undefined);

/** A point's whisker as ErrorBar wants it: distances below and above its value; none for a single run. */
const whiskerOf = (p: ChartPoint): [number, number] | undefined =>
  p.whisker ? [p.y - p.whisker[0], p.whisker[1] - p.y] : undefined;

function PointDot(props: {
  cx?: number;
  cy?: number;
  color: string;
  shape: MarkerShape;
  point?: ChartPoint;
  label: string;
  unit: string;
  onSelect: (p: ChartPoint) => void;
  /** Where the point is while it is under the pointer or has the keyboard focus; null when it leaves. */
  onHover: (at: TooltipAt | null) => void;
}) {
  const width = useChartWidth() ?? 0;
  const { cx, cy, point } = props;
  if (cx === undefined || cy === undefined || !point) return null;
  const qualified = Boolean(point.qualifier);
  const describe = `${props.label}: ${formatFigure({ value: point.y, unit: props.unit, qualifier: point.qualifier ?? null, low: point.low ?? null, high: point.high ?? null })} at ${formatNumber(point.x)}${point.versus ? `; ${versusWords(point.versus)}` : ""}`;
  return (
    <g>
      <path
        d={markerPath(props.shape, cx, cy, 4)}
        fill={qualified ? "var(--chart-bg, white)" : props.color}
        stroke={props.color}
        strokeWidth={qualified ? 1.5 : 1}
        strokeDasharray={qualified ? "2 2" : undefined}
        pointerEvents="none"
      />
      {/* The target to hover, click or focus: a little larger than the marker, invisible but for a focus ring. */}
      <PointTarget
        at={{ x: cx, y: cy, width }}
        label={describe}
        onSelect={() => props.onSelect(point)}
        onHover={props.onHover}
      />
    </g>
  );
}

/** What a hovered point says: its series, the figure as published, its params, and the verdict against the baseline. */
function PointTooltip(props: { series: string; point: ChartPoint; unit: string }) {
  const { point } = props;
  return (
    <>
      <div className="font-medium">{props.series}</div>
      <div className="tabular-nums">
        {formatFigure({
          value: point.y,
          unit: props.unit,
          qualifier: point.qualifier ?? null,
          low: point.low ?? null,
          high: point.high ?? null,
        })}
      </div>
      {point.qualifier ? <div className="text-zinc-500">{qualifierWords[point.qualifier]}</div> : null}
      {runsWords(point) ? <div className="text-zinc-500">{runsWords(point)}</div> : null}
      {point.band && !point.whisker ? (
        <div className="text-zinc-500">
          band (margin): {formatNumber(point.band[0])}–{formatNumber(point.band[1])} {props.unit}
        </div>
      ) : null}
      {point.params ? <div className="text-zinc-500">{formatParams(point.params)}</div> : null}
      {point.versus ? <VersusLine versus={point.versus} /> : null}
    </>
  );
}
