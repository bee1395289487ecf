"use client";

// LineSeriesChart's interactive plot: Recharts, loaded once the reader interacts (interactive.ts).
import { formatFigure, formatNumber, formatParams, qualifierWords } from "@cnibench/format";
import { memo, useMemo, useState } from "react";
import { Area, ComposedChart, ErrorBar, Line, useChartWidth, XAxis, YAxis } from "recharts";
import type { ChartState, Selected } from "./chart-frame";
import { runsWords, versusWords } from "./format";
import { drawableOn, type LineGeometry } from "./geometry";
import { type MarkerShape, markerAt, markerPath } from "./palette";
import { Gridlines, Mark, Rule, useAxis, valueAxis } from "./rule";
import { PointTarget, type TooltipAt, TooltipBox, VersusLine } from "./tooltip";
import type { ChartPoint, ChartSeries } from "./types";

/** What the plot draws: the same for the plot and for its lines, which the pointer does not change. */
type PlotProps = {
  series: ChartSeries[];
  /** Which series are drawn, in which order and style, and the axes: as the static picture draws them. */
  geometry: LineGeometry;
  /** False along a category: points only, no line between them. */
  joined: boolean;
  xLabel: string;
  yLabel: string;
  unit: string;
  height: number;
  whiskers: boolean;
};

export default function LinePlot({ state, ...props }: PlotProps & { state: ChartState }) {
  const [hovered, setHovered] = useState<Hovered | null>(null);
  return (
    <>
      <Lines {...props} onHover={setHovered} onSelect={state.setSelected} />
      {hovered ? (
        <TooltipBox at={hovered.at}>
          <PointTooltip series={hovered.series} point={hovered.point} unit={props.unit} />
        </TooltipBox>
      ) : null}
    </>
  );
}

type Hovered = { series: string; point: ChartPoint; at: TooltipAt };

/**
 * The chart itself, apart from the tooltip: a hover changes the tooltip only, and leaves this (every
 * line, its dots and whiskers, and Recharts' layout of them) as it was. Its props change with the
 * data, the legend and the size, not with the pointer.
 */
const Lines = memo(function Lines({
  geometry: g,
  whiskers,
  height,
  joined,
  onHover: setHovered,
  onSelect: setSelected,
  ...props
}: PlotProps & {
  onHover: (hovered: Hovered | null) => void;
  onSelect: (selected: Selected) => void;
}) {
  // The same arrays until the data or scale change: a new data array also remounts the dots.
  const drawn = useMemo(() => {
    const byId = new Map(props.series.map((s) => [s.id, s]));
    return new Map(g.lines.map((l) => [l.id, (byId.get(l.id)?.points ?? []).filter(drawableOn(g.xScale))] as const));
  }, [props.series, g]);
  const xAxis = useAxis(g.xTicks, g.xDomain);
  const yAxis = useAxis(g.yTicks, g.yDomain);
  return (
    <ComposedChart responsive style={{ width: "100%", height }} margin={{ top: 24, right: 24, bottom: 28, left: 16 }}>
      <Gridlines vertical />
      <XAxis
        type="number"
        dataKey="x"
        scale={g.xScale}
        {...xAxis}
        allowDuplicatedCategory={false}
        stroke="currentColor"
        label={{ value: props.xLabel, position: "insideBottom", offset: -16, fill: "currentColor" }}
      />
      <YAxis type="number" {...valueAxis(props.yLabel)} {...yAxis} />
      {/* The noise bands under every line, so no band covers another line's points. */}
      {g.lines.map((l) =>
        l.band ? (
          <Area
            key={`band-${l.id}`}
            data={drawn.get(l.id)}
            dataKey={bandOf}
            type="linear"
            fill={l.color}
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
      {g.lines.map((s) => {
        const { style } = s;
        return (
          <Line
            key={s.id}
            name={s.label}
            data={drawn.get(s.id)}
            dataKey="y"
            stroke={joined ? s.color : "none"}
            strokeDasharray={s.dash}
            strokeWidth={2}
            isAnimationActive={false}
            dot={(d: { cx?: number; cy?: number; payload?: ChartPoint; index?: number }) => (
              <PointDot
                key={`${s.id}-${d.index}`}
                cx={d.cx}
                cy={d.cy}
                color={s.color}
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
              <ErrorBar dataKey={whiskerOf} width={5} stroke={s.color} strokeWidth={1.5} isAnimationActive={false} />
            ) : null}
          </Line>
        );
      })}
      {g.markers.map(({ value: m }) => (
        <Rule key={`line-${m.x}-${m.label}`} x={m.x} dash="4 4" opacity={0.6} />
      ))}
      {g.markers.map(({ value: m }, i) => (
        <Mark key={`mark-${m.x}-${m.label}`} x={m.x} y={m.y} label={m.label} below={i % 2 === 1} />
      ))}
    </ComposedChart>
  );
});

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
