"use client";

// GroupedBarChart's interactive plot: Recharts, loaded once the reader interacts (interactive.ts).
import { formatFigure, formatParams, qualifierWords } from "@cnibench/format";
import { memo, type RefObject, useEffect, useMemo, useState } from "react";
import {
  Bar,
  BarChart,
  Cell,
  DefaultZIndexes,
  ErrorBar,
  useActiveTooltipCoordinate,
  useActiveTooltipLabel,
  useChartWidth,
  useIsTooltipActive,
  usePlotArea,
  useYAxisScale,
  XAxis,
  YAxis,
  ZIndexLayer,
} from "recharts";
import type { ChartState, Selected } from "./chart-frame";
import { runsWords } from "./format";
import type { BarGeometry } from "./geometry";
import { Gridlines, Rule, useAxis, valueAxis } from "./rule";
import { type TooltipAt, TooltipBox, VersusLine } from "./tooltip";
import type { BarDatum, ChartPoint } from "./types";

type Row = { category: string } & Record<string, number | string | undefined>;

/** What the plot draws: the same for the plot and for its bars, which the pointer does not change. */
type PlotProps = {
  /** Which series are drawn, in which order and colour, which groups, and the value axis: as the static picture draws them. */
  geometry: BarGeometry;
  /** The groups: all of them given to the plot, those drawn given to its bars. */
  data: BarDatum[];
  categoryLabel: string;
  yLabel: string;
  unit: string;
  height: number;
  whiskers: boolean;
};

export default function BarPlot({
  state,
  geometry: g,
  whiskers,
  height,
  scroller,
  ...props
}: PlotProps & {
  /** The box that scrolls the chart sideways, to place the tooltip in view. */
  scroller: RefObject<HTMLDivElement | null>;
  state: ChartState;
}) {
  const [active, setActive] = useState<{ category: string; at: TooltipAt } | null>(null);
  // The groups the geometry draws (those holding a drawn bar), in its order.
  const data = useMemo(() => {
    const byCategory = new Map(props.data.map((d) => [d.category, d]));
    return g.groups.flatMap((group) => byCategory.get(group.category) ?? []);
  }, [props.data, g]);
  const point = (category: string, id: string) => pointOf(data, category, id);
  return (
    <>
      <Bars
        geometry={g}
        data={data}
        categoryLabel={props.categoryLabel}
        yLabel={props.yLabel}
        unit={props.unit}
        height={height}
        whiskers={whiskers}
        onActive={setActive}
        onSelect={state.setSelected}
      />
      {active ? (
        <TooltipBox at={inView(active.at, scroller.current)}>
          <div className="font-medium">{active.category}</div>
          {(() => {
            const r = data.find((d) => d.category === active.category)?.reference;
            return r ? (
              <div className="tabular-nums text-zinc-500">
                ╌ {r.label}: {formatFigure({ value: r.y, unit: props.unit, qualifier: null, low: null, high: null })}
              </div>
            ) : null;
          })()}
          {g.series.map((s) => {
            const p = point(active.category, s.id);
            if (!p) return null;
            return (
              <div key={s.id} className="tabular-nums">
                <span style={{ color: s.color }}>■</span> {s.label}:{" "}
                {formatFigure({
                  value: p.y,
                  unit: props.unit,
                  qualifier: p.qualifier ?? null,
                  low: p.low ?? null,
                  high: p.high ?? null,
                })}
                {p.qualifier ? <span className="text-zinc-500"> ({qualifierWords[p.qualifier]})</span> : null}
                {runsWords(p) ? <span className="text-zinc-500"> · {runsWords(p)}</span> : null}
                {p.params ? <span className="text-zinc-500"> · {formatParams(p.params)}</span> : null}
                {p.versus ? (
                  <div className="pl-3">
                    <VersusLine versus={p.versus} />
                  </div>
                ) : null}
              </div>
            );
          })}
        </TooltipBox>
      ) : null}
    </>
  );
}

/** A group's bar of a series as a point, for the tooltip and the selected point. */
function pointOf(data: readonly BarDatum[], category: string, id: string): ChartPoint | undefined {
  const v = data.find((d) => d.category === category)?.values[id];
  return v && { ...v, x: 0 };
}

/**
 * The chart itself, apart from the tooltip: a hover changes the tooltip only, and leaves this (every
 * bar, its cells and whiskers, and Recharts' layout of them) as it was. Its props change with the
 * data, the legend and the size, not with the pointer.
 */
const Bars = memo(function Bars({
  geometry: g,
  data,
  whiskers,
  height,
  onActive,
  onSelect,
  ...props
}: PlotProps & {
  onActive: (active: { category: string; at: TooltipAt } | null) => void;
  onSelect: (selected: Selected) => void;
}) {
  const rows: Row[] = data.map((d) => ({
    category: d.category,
    ...Object.fromEntries(Object.entries(d.values).map(([id, v]) => [id, v?.y])),
  }));
  // Whiskers as ErrorBar wants them: distances below and above the bar's value; none for a single run.
  const whiskerOf = (row: Row, id: string): [number, number] | undefined => {
    const v = pointOf(data, String(row.category), id);
    return v?.whisker ? [v.y - v.whisker[0], v.whisker[1] - v.y] : undefined;
  };
  const yAxis = useAxis(g.yTicks, g.yDomain);
  const maxLines = Math.max(1, ...data.map((d) => d.category.split(" · ").length));
  return (
    <BarChart
      responsive
      style={{ width: "100%", height }}
      data={rows}
      // Recharts' 4 px between bars would leave two dozen bars a pixel each.
      barGap={g.series.length > 8 ? 1 : 4}
      margin={{ top: 16, right: 16, bottom: 28, left: 16 }}
    >
      <Gridlines />
      <XAxis
        dataKey="category"
        stroke="currentColor"
        interval={0}
        height={20 + 14 * maxLines}
        tick={<WrappedTick />}
        label={{ value: props.categoryLabel, position: "insideBottom", offset: -20, fill: "currentColor" }}
      />
      <YAxis {...valueAxis(props.yLabel)} {...yAxis} />
      <ActiveGroup count={rows.length} onChange={onActive} />
      {g.rules.map((r) => (
        // The key under the legend names the line in full; on the plot, its first words ("NIC 40 Gbit/s").
        <Rule key={r.label} y={r.value} label={r.label.split(" (")[0]} dash="6 3" labelSide={r.side} />
      ))}
      <GroupReferences data={data} />
      {g.series.map((s) => {
        const { color } = s;
        return (
          <Bar
            key={s.id}
            dataKey={s.id}
            name={s.label}
            fill={color}
            isAnimationActive={false}
            maxBarSize={56}
            onClick={(d: { payload?: Row }) => {
              const category = d.payload?.category;
              const p = category === undefined ? undefined : pointOf(data, category, s.id);
              if (p) onSelect({ series: `${s.label} · ${category}`, point: p, unit: props.unit });
            }}
            style={{ cursor: "pointer" }}
          >
            {data.map((d) => {
              const qualified = Boolean(d.values[s.id]?.qualifier);
              return (
                <Cell
                  key={d.category}
                  fillOpacity={qualified ? 0.35 : 1}
                  stroke={qualified ? color : undefined}
                  strokeDasharray={qualified ? "3 2" : undefined}
                />
              );
            })}
            {whiskers ? (
              <ErrorBar
                dataKey={(row: Row) => whiskerOf(row, s.id)}
                width={6}
                stroke="currentColor"
                strokeWidth={1.5}
                isAnimationActive={false}
              />
            ) : null}
          </Bar>
        );
      })}
    </BarChart>
  );
});

/**
 * The group under the pointer, or picked with the arrow keys once the chart has the focus: draws a
 * band behind its bars, as Recharts' Tooltip cursor did, and reports the group and where it is to
 * the chart, whose tooltip is HTML outside the SVG, out of reach of these hooks.
 */
function ActiveGroup(props: { count: number; onChange: (active: { category: string; at: TooltipAt } | null) => void }) {
  const shown = useIsTooltipActive();
  const label = useActiveTooltipLabel();
  const at = useActiveTooltipCoordinate();
  const plot = usePlotArea();
  const width = useChartWidth() ?? 0;
  const category = shown && label !== undefined ? String(label) : undefined;
  const { onChange } = props;
  const [x, y] = [at?.x, at?.y];
  useEffect(() => {
    onChange(category === undefined || x === undefined || y === undefined ? null : { category, at: { x, y, width } });
  }, [onChange, category, x, y, width]);
  if (category === undefined || x === undefined || !plot) return null;
  const band = plot.width / props.count;
  return (
    <ZIndexLayer zIndex={DefaultZIndexes.cursorRectangle}>
      <rect
        x={x - band / 2}
        y={plot.y + 0.5}
        width={band}
        height={plot.height - 1}
        fill="currentColor"
        fillOpacity={0.06}
        pointerEvents="none"
      />
    </ZIndexLayer>
  );
}

/** Where a point of the (maybe scrolled) chart is in the frame the tooltip is placed in. */
const inView = (at: TooltipAt, scroller: HTMLDivElement | null): TooltipAt =>
  scroller ? { x: at.x - scroller.scrollLeft, y: at.y, width: scroller.clientWidth } : at;

/**
 * Each group's reference, a dashed line across the group's band (groups split the plot evenly),
 * named above its left end (its scenario, "baremetal") where the band is wide enough.
 */
function GroupReferences(props: { data: BarDatum[] }) {
  const plot = usePlotArea();
  const yScale = useYAxisScale();
  if (!plot || !yScale) return null;
  const band = plot.width / Math.max(1, props.data.length);
  return (
    <ZIndexLayer zIndex={DefaultZIndexes.line}>
      <g data-reference="">
        {props.data.map((d, i) => {
          const y = d.reference ? yScale(d.reference.y) : undefined;
          if (y === undefined || !Number.isFinite(y)) return null;
          const x1 = plot.x + band * i + band * 0.06;
          const name = shortened(d.reference?.scenario ?? "reference", (band * 0.88) / 6);
          return (
            <g key={d.category}>
              <line
                x1={x1}
                x2={plot.x + band * (i + 1) - band * 0.06}
                y1={y}
                y2={y}
                stroke="currentColor"
                strokeWidth={2}
                strokeDasharray="5 3"
              />
              {name ? (
                <text x={x1} y={y - 4} fill="currentColor" fontSize={10} pointerEvents="none">
                  {name}
                </text>
              ) : null}
            </g>
          );
        })}
      </g>
    </ZIndexLayer>
  );
}

/** A name cut to `room` characters with an ellipsis; nothing when even three do not fit. */
function shortened(name: string, room: number): string {
  const max = Math.floor(room);
  if (max < 3) return "";
  return name.length <= max ? name : `${name.slice(0, max - 1)}…`;
}

/** Category ticks broken at " · " so long params stay legible under narrow groups. */
function WrappedTick(props: { x?: number; y?: number; payload?: { value?: string } }) {
  const lines = String(props.payload?.value ?? "").split(" · ");
  return (
    <text x={props.x} y={props.y} textAnchor="middle" fill="currentColor" fontSize={11}>
      {lines.map((line, i) => (
        <tspan key={line} x={props.x} dy={i === 0 ? 12 : 13}>
          {line}
        </tspan>
      ))}
    </text>
  );
}
