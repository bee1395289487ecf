"use client";

// GroupedBarChart's interactive plot: Recharts, loaded once the reader interacts (interactive.ts).
import { formatFigure, formatParams, qualifierWords } from "@cnibench/format";
import { memo, type RefObject, useEffect, useMemo, useState } from "react";
import {
  BarChart,
  DefaultZIndexes,
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
import { type BarLook, barLook, runsWords } from "./format";
import type { BarGeometry } from "./geometry";
import { Gridlines, Rule, useAxis, valueAxis } from "./rule";
import { type TooltipAt, TooltipBox, VersusLine } from "./tooltip";
import type { BarDatum, ChartPoint } from "./types";

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
  /** Each bar is a change against its pair: the runs' verdict decides how it is drawn (barLook). */
  changes: boolean;
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
        changes={props.changes}
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
 * bar, its whiskers, and Recharts' layout of the axes) as it was. Its props change with the data, the
 * legend and the size, not with the pointer.
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
  // Recharts places the groups along x and the ticks along y; the bars are ours (BarLayer).
  const rows = useMemo(() => data.map((d) => ({ category: d.category })), [data]);
  const yAxis = useAxis(g.yTicks, g.yDomain);
  const maxLines = Math.max(1, ...data.map((d) => d.category.split(" · ").length));
  return (
    <BarChart responsive style={{ width: "100%", height }} data={rows} margin={plotMargin}>
      <Gridlines />
      <XAxis
        dataKey="category"
        stroke="currentColor"
        interval={0}
        height={20 + 14 * maxLines}
        tick={<WrappedTick />}
        label={{ value: props.categoryLabel, position: "insideBottom", offset: -20, fill: "currentColor" }}
      />
      {/* The geometry's domain as it is: no series of Recharts' own to read one from (every value is in it). */}
      <YAxis {...valueAxis(props.yLabel)} {...yAxis} allowDataOverflow />
      <ActiveGroup count={rows.length} onChange={onActive} />
      {g.rules.map((r) => (
        // The key under the legend names the line in full; on the plot, its first words ("NIC 40 Gbit/s").
        <Rule key={r.label} y={r.value} label={r.label.split(" (")[0]} dash="6 3" labelSide={r.side} />
      ))}
      <GroupReferences data={data} />
      <BarLayer
        geometry={g}
        data={data}
        whiskers={whiskers}
        changes={props.changes}
        unit={props.unit}
        onSelect={onSelect}
      />
    </BarChart>
  );
});

// Module-level, as rule.tsx's: a new object on each render would make Recharts lay the chart out again.
const plotMargin = { top: 16, right: 16, bottom: 28, left: 16 };

/** A bar's fill and outline in SVG, by how it is drawn (barLook); the static picture draws the same. */
const barStroke: Record<BarLook, (color: string) => React.SVGProps<SVGRectElement>> = {
  solid: () => ({}),
  qualified: (color) => ({ fillOpacity: 0.35, stroke: color, strokeDasharray: "3 2" }),
  undecided: (color) => ({ fillOpacity: 0.12, stroke: color, strokeWidth: 1.5 }),
};

/** Recharts' widest bar, and the gap between bars (1 px past 8 series, so two dozen stay visible). */
const maxBarWidth = 56;
const barGap = (series: number) => (series > 8 ? 1 : 4);

/**
 * Every bar and whisker of the geometry, in SVG, scaled from its frame onto Recharts' plot area: one
 * element a bar (Recharts drew a component tree each, and laid all of them out again at every
 * legend click), one path of whiskers a series, and one click handler for all of them. A bar keeps
 * at most Recharts' 56 px; narrower bars are drawn closer to their group's centre, as Recharts did.
 */
function BarLayer(props: {
  geometry: BarGeometry;
  /** The groups the geometry draws, in its order. */
  data: BarDatum[];
  whiskers: boolean;
  changes: boolean;
  unit: string;
  onSelect: (selected: Selected) => void;
}) {
  const area = usePlotArea();
  const { geometry: g, data } = props;
  if (!area) return null;
  const [sx, sy] = [area.width / g.plot.width, area.height / g.plot.height];
  const x = (v: number) => area.x + (v - g.plot.left) * sx;
  const y = (v: number) => area.y + (v - g.plot.top) * sy;
  const gap = barGap(g.series.length);
  const slot = (g.groups[0]?.bars[0]?.width ?? 0) * sx;
  const width = Math.max(1, Math.min(maxBarWidth, slot - gap));
  // How far each bar's slot centre moves towards its group's centre when its bar is capped.
  const squeeze = slot > 0 ? Math.min(1, (width + gap) / slot) : 1;
  const bars = g.series.map((s) =>
    g.groups.flatMap((group, i) => {
      const b = group.bars.find((bar) => bar.id === s.id);
      if (!b) return [];
      const centre = x(group.at);
      const mid = centre + (x(b.x) + (b.width * sx) / 2 - centre) * squeeze;
      return [
        {
          group: i,
          mid,
          top: y(b.y),
          height: b.height * sy,
          whisker: b.whisker?.map(y),
          look: barLook(data[i]?.values[s.id], props.changes),
        },
      ];
    }),
  );
  const select = (e: React.MouseEvent<SVGGElement>) => {
    const [group, series] = ((e.target as Element).getAttribute("data-bar") ?? "").split(" ").map(Number);
    const category = data[group ?? -1]?.category;
    const s = g.series[series ?? -1];
    const p = category === undefined || !s ? undefined : pointOf(data, category, s.id);
    if (s && p) props.onSelect({ series: `${s.label} · ${category}`, point: p, unit: props.unit });
  };
  return (
    <ZIndexLayer zIndex={DefaultZIndexes.bar}>
      {/* biome-ignore lint/a11y/noStaticElementInteractions: one handler for every bar; keys pick a group and read it in the tooltip (ActiveGroup), as with Recharts' bars. */}
      <g data-bars="" onClick={select} style={{ cursor: "pointer" }}>
        {g.series.map((s, i) => (
          <g key={s.id} data-series={s.label} fill={s.color}>
            {bars[i]?.map((b) => (
              <rect
                key={b.group}
                data-bar={`${b.group} ${i}`}
                x={b.mid - width / 2}
                y={b.top}
                width={width}
                height={b.height}
                {...barStroke[b.look](s.color)}
              />
            ))}
          </g>
        ))}
        {props.whiskers
          ? bars.map((series, i) => (
              <path
                key={g.series[i]?.id}
                data-whiskers=""
                d={series
                  .flatMap(({ mid, whisker: w }) =>
                    w ? [`M${mid},${w[0]}V${w[1]}M${mid - 3},${w[0]}h6M${mid - 3},${w[1]}h6`] : [],
                  )
                  .join("")}
                stroke="currentColor"
                strokeWidth={1.5}
                fill="none"
                pointerEvents="none"
              />
            ))
          : null}
      </g>
    </ZIndexLayer>
  );
}

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
 * named above the plot over its band's left end (its scenario, "baremetal") where the band is wide
 * enough: on the line itself the name lay over the bars reaching past it.
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
          const name = shortened(d.reference?.scenario ?? "reference", (band * 0.88) / 6 - 2);
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
                <text x={x1} y={plot.y - 4} fill="currentColor" fontSize={10} pointerEvents="none">
                  ╌ {name}
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
