// A chart's first picture, drawn on the server from the same props as the interactive chart and
// without Recharts, so a page paints its charts before (or without) any chart code: the plot in SVG
// stretched over its box (lines keep their width), the words in HTML around it, so they keep their
// size at any width (a phone's 390 px as a desk's 1440 px) and the box keeps the interactive
// chart's height (nothing moves when that replaces it). No "use client", no hooks: the client
// components draw it until the reader first moves the pointer, taps or presses a key (interactive.ts).

import type { CSSProperties, ReactNode } from "react";
import { type BarLook, barLook } from "./format";
import {
  type BarGeometry,
  type HistoryGeometry,
  type LineGeometry,
  lineHeight,
  shiftWords,
  type Tick,
  pictureUnits as units,
  valueAxisWidth,
} from "./geometry";
import { shiftColor } from "./palette";
import type { BarDatum } from "./types";

const pct = (v: number) => `${v / (units / 100)}%`;

/** What the picture says to a screen reader, and how to get the chart that tells each value. */
const howToInteract = "Move the pointer over the page, tap it or press a key to get the interactive chart.";

/** The box: the plot inside the margins the interactive chart keeps for its axes (rule.tsx's valueAxis). */
function PlotBox(props: {
  alt: string;
  height: number;
  /** The plot's distance from the box's top, right and bottom, in px, as the interactive chart's margins and x axis leave it. */
  inset: { top: number; right: number; bottom: number };
  xLabel: string;
  yLabel: string;
  yTicks: Tick[];
  /** The SVG drawn over the plot, in its 1000 × 1000 units. */
  plot?: ReactNode;
  /** Words placed on the plot or under it, in % of the plot box. */
  words: ReactNode;
}) {
  return (
    <div
      role="img"
      aria-label={`${props.alt} ${howToInteract}`}
      data-static-chart=""
      // Ticks and axis titles in the page's type, as Recharts draws them.
      className="relative"
      style={{ height: props.height }}
    >
      <div className="absolute" style={{ left: 16 + valueAxisWidth, ...props.inset }}>
        <svg
          aria-hidden
          className="absolute inset-0 h-full w-full overflow-visible"
          viewBox={`0 0 ${units} ${units}`}
          preserveAspectRatio="none"
        >
          {props.yTicks.map((t) => (
            <line
              key={t.value}
              x1={0}
              x2={units}
              y1={t.at}
              y2={t.at}
              stroke="currentColor"
              strokeOpacity={0.15}
              strokeDasharray="3 3"
              vectorEffect="non-scaling-stroke"
            />
          ))}
          <path d={`M0,0V${units}H${units}`} fill="none" stroke="currentColor" vectorEffect="non-scaling-stroke" />
          {props.plot}
        </svg>
        {props.yTicks.map((t) => (
          <span
            key={t.value}
            className="absolute -translate-y-1/2 pr-1.5 tabular-nums"
            style={{ right: "100%", top: pct(t.at) }}
          >
            {t.label}
          </span>
        ))}
        {props.words}
        <span
          className="absolute top-1/2 whitespace-nowrap text-center"
          style={{ right: "100%", marginRight: 44, transform: "translate(50%, -50%) rotate(-90deg)" }}
        >
          {props.yLabel}
        </span>
        <span
          className="absolute left-1/2 -translate-x-1/2 whitespace-nowrap"
          style={{ top: "100%", marginTop: props.inset.bottom - 20 }}
        >
          {props.xLabel}
        </span>
      </div>
    </div>
  );
}

const stroke = { vectorEffect: "non-scaling-stroke", fill: "none" } as const;

/** The runs' min–max of each point that has them, as vertical strokes (caps would stretch with the plot). */
const whiskersPath = (points: readonly { x: number; whisker?: readonly [number, number] }[]) =>
  points.flatMap((p) => (p.whisker ? [`M${p.x},${p.whisker[0]}V${p.whisker[1]}`] : [])).join("");

/** Lines over a numeric x as LineSeriesChart draws them, from its geometry on the picture's frame: crossovers labelled. */
export function StaticLineChart(props: {
  title: string;
  /** lineGeometry on `pictureFrame`. */
  geometry: LineGeometry;
  xLabel: string;
  yLabel: string;
  /** False along a category: each series' points are drawn, not joined, and no band between them. */
  joined?: boolean;
  height?: number;
}) {
  const g = props.geometry;
  const alt = `${props.title}: ${props.yLabel} by ${props.xLabel}, ${props.joined === false ? "points" : "a line"} each for ${g.lines.map((l) => l.label).join(", ")}${g.hidden ? ` (and ${g.hidden} more, not drawn)` : ""}.${g.markers.length ? ` Marked: ${g.markers.map((m) => m.label).join(", ")}.` : ""}`;
  return (
    <PlotBox
      alt={alt}
      height={props.height ?? 380}
      inset={{ top: 24, right: 24, bottom: 58 }}
      xLabel={props.xLabel}
      yLabel={props.yLabel}
      yTicks={g.yTicks}
      plot={
        <>
          {g.markers.map((m) => (
            <line
              key={`rule-${m.x}-${m.label}`}
              x1={m.x}
              x2={m.x}
              y1={0}
              y2={units}
              stroke="currentColor"
              strokeOpacity={0.6}
              strokeDasharray="4 4"
              {...stroke}
            />
          ))}
          {g.lines.map((l) => (
            <g key={l.id} data-series={l.label} stroke={l.color}>
              {l.band && props.joined !== false ? (
                <path data-band="" d={l.band} fill={l.color} fillOpacity={0.12} stroke="none" />
              ) : null}
              {props.joined === false ? null : (
                <path d={l.path} strokeWidth={2} strokeDasharray={l.dash || undefined} {...stroke} />
              )}
              {l.points.some((p) => p.whisker) ? (
                <path data-whiskers="" d={whiskersPath(l.points)} strokeWidth={1.5} {...stroke} />
              ) : null}
              {/* A zero-length segment with a round cap: a dot that stays round however the plot is stretched. */}
              <path
                d={l.points.map((p) => `M${p.x},${p.y}h0`).join("")}
                strokeWidth={7}
                strokeLinecap="round"
                {...stroke}
              />
            </g>
          ))}
        </>
      }
      words={
        <>
          {g.xTicks.map((t) => (
            <span
              key={t.value}
              className="absolute -translate-x-1/2 pt-1 tabular-nums"
              style={{ left: pct(t.at), top: "100%" }}
            >
              {t.label}
            </span>
          ))}
          {g.markers.map((m) => (
            // The ring around the crossing, in HTML: a circle in the stretched SVG would be an ellipse.
            <span
              key={`ring-${m.x}-${m.label}`}
              className="absolute h-3 w-3 -translate-x-1/2 -translate-y-1/2 rounded-full border-2 border-current"
              style={{ left: pct(m.x), top: pct(m.y) }}
            />
          ))}
          {g.markers.map((m, i) => (
            <span
              key={`mark-${m.x}-${m.label}`}
              data-mark=""
              className="absolute -translate-x-1/2 whitespace-nowrap text-xs font-semibold"
              // Above the point, or below it for every other marker, to keep clear of a neighbour's label.
              style={{ left: pct(m.x), top: pct(m.y), marginTop: i % 2 === 1 ? 8 : -26 }}
            >
              {m.label}
            </span>
          ))}
        </>
      }
    />
  );
}

/** A bar's box in HTML, as bar-plot.tsx draws it in SVG (barLook). */
const barBox: Record<BarLook, (color: string) => CSSProperties> = {
  solid: (color) => ({ background: color }),
  qualified: (color) => ({ background: color, opacity: 0.35, outline: `1px dashed ${color}` }),
  undecided: (color) => ({
    background: `color-mix(in srgb, ${color} 12%, transparent)`,
    outline: `1.5px solid ${color}`,
    outlineOffset: "-0.75px",
  }),
};

/** Grouped bars as GroupedBarChart draws them, from its geometry on the picture's frame: references across their groups. */
export function StaticBarChart(props: {
  title: string;
  /** barGeometry on `pictureFrame`. */
  geometry: BarGeometry;
  /** The chart's data, for its qualifiers and verdicts. */
  data: readonly BarDatum[];
  /** Each bar is a change against its pair (barLook). */
  changes?: boolean;
  categoryLabel: string;
  yLabel: string;
  height?: number;
}) {
  const g = props.geometry;
  const band = units / Math.max(1, g.groups.length);
  const lines = Math.max(1, ...props.data.map((d) => d.category.split(" · ").length));
  const alt = `${props.title}: ${props.yLabel} by ${props.categoryLabel} (${g.groups.map((x) => x.category).join("; ")}), a bar each for ${g.series.map((s) => s.label).join(", ")}${g.hidden ? ` (and ${g.hidden} more, not drawn)` : ""}.`;
  return (
    <PlotBox
      alt={alt}
      height={props.height ?? 340}
      inset={{ top: 16, right: 16, bottom: 48 + 14 * lines }}
      xLabel={props.categoryLabel}
      yLabel={props.yLabel}
      yTicks={g.yTicks}
      // Bars in HTML: a bar keeps Recharts' 56 px at most and 4 px apart (1 px beyond 8) at any width.
      plot={null}
      words={
        <>
          {g.groups.map((group, i) => (
            <div
              key={`bars-${group.category}`}
              className={`absolute inset-y-0 flex justify-center ${g.series.length > 8 ? "gap-px" : "gap-1"}`}
              style={{ left: pct(band * i + band * 0.1), width: pct(band * 0.8) }}
            >
              {group.bars.map((b) => {
                const look = barLook(props.data[i]?.values[b.id], props.changes ?? false);
                return (
                  <div key={b.id} data-series={b.label} className="relative max-w-14 flex-1">
                    <div
                      className="absolute inset-x-0"
                      style={{
                        top: pct(b.y),
                        height: pct(b.height),
                        ...barBox[look](b.color),
                      }}
                    />
                    {b.whisker ? (
                      <div
                        data-whisker=""
                        className="absolute left-1/2 w-1.5 -translate-x-1/2 border-x-0 border-y-[1.5px] border-current"
                        style={{ top: pct(b.whisker[0]), height: pct(b.whisker[1] - b.whisker[0]) }}
                      >
                        <div className="mx-auto h-full w-[1.5px] bg-current" />
                      </div>
                    ) : null}
                  </div>
                );
              })}
            </div>
          ))}
          {g.groups.map((group, i) =>
            group.reference ? (
              <div
                key={`reference-${group.category}`}
                className="absolute border-t-2 border-dashed border-current"
                style={{ top: pct(group.reference.y), left: pct(band * i + band * 0.06), width: pct(band * 0.88) }}
              />
            ) : null,
          )}
          {g.rules.map((r) => (
            <div
              key={r.label}
              className="absolute inset-x-0 border-t border-dashed border-current"
              style={{ top: pct(r.y) }}
            >
              <span
                data-rule-label=""
                className={`absolute bottom-full pb-0.5 ${r.side === "left" ? "left-1" : "right-1"}`}
              >
                {r.label.split(" (")[0]}
              </span>
            </div>
          ))}
          {g.groups.map((group) => (
            <span
              key={group.category}
              className="absolute -translate-x-1/2 pt-1 text-center text-[11px] leading-[13px]"
              style={{ left: pct(group.at), top: "100%", width: pct(band) }}
            >
              {group.category.split(" · ").map((line) => (
                <span key={line} className="block">
                  {line}
                </span>
              ))}
            </span>
          ))}
        </>
      }
    />
  );
}

/**
 * A series over time as HistoryChart draws it: campaigns' medians with min–max whiskers against their
 * dates, a rule where what they ran on changed (dashed) or the series shifted (solid), and the means
 * between shifts; axes, rules, labels and steps from the chart's geometry, as Recharts is given them.
 */
export function StaticHistoryChart(props: {
  title: string;
  yLabel: string;
  geometry: HistoryGeometry;
  /** The campaigns drawn: none when the legend hides the series (nor its steps). */
  points: readonly { x: number; y: number; min: number; max: number }[];
  color: string;
  height: number;
}) {
  const g = props.geometry;
  const [[d0, d1], [y0, y1]] = [g.xDomain, g.yDomain];
  const x = (v: number) => ((v - d0) / (d1 - d0 || 1)) * units;
  const y = (v: number) => units - ((v - y0) / (y1 - y0 || 1)) * units;
  const sorted = [...props.points].sort((a, b) => a.x - b.x);
  const steps = sorted.length > 0 ? g.steps : [];
  const rules = g.groups.map((r) => ({
    x: r.x,
    solid: Boolean(r.shift),
    row: r.row,
    before: r.before,
    lines: [
      ...r.annotations.map((text) => ({ text, color: undefined })),
      ...(r.shift ? [{ text: shiftWords(r.shift), color: shiftColor(r.shift.verdict) }] : []),
    ],
  }));
  const alt = `${props.title}: ${props.yLabel} of ${props.points.length} campaigns over time${rules.length ? `; marked: ${rules.map((r) => r.lines.map((l) => l.text).join(", ")).join("; ")}` : ""}.`;
  return (
    <PlotBox
      alt={alt}
      height={props.height}
      inset={{ top: 16 + g.rows * lineHeight, right: 24, bottom: 58 }}
      xLabel="Campaign date (UTC)"
      yLabel={props.yLabel}
      yTicks={g.yTicks.map((t) => ({ ...t, at: y(t.value) }))}
      plot={
        <>
          {rules.map((r) => (
            <line
              key={`rule-${r.x}`}
              x1={x(r.x)}
              x2={x(r.x)}
              y1={0}
              y2={units}
              stroke="currentColor"
              strokeOpacity={r.solid ? 0.9 : 0.6}
              strokeDasharray={r.solid ? undefined : "4 4"}
              {...stroke}
            />
          ))}
          <g data-series={props.title} stroke={props.color}>
            {steps.map((s) => (
              <path
                key={`step-${s.from}`}
                d={`M${x(s.from)},${y(s.mean)}H${x(s.to)}`}
                strokeDasharray="8 3"
                strokeOpacity={0.7}
                strokeWidth={1.5}
                {...stroke}
              />
            ))}
            <path
              d={sorted.map((p, i) => `${i === 0 ? "M" : "L"}${x(p.x)},${y(p.y)}`).join("")}
              strokeWidth={2}
              {...stroke}
            />
            <path d={sorted.map((p) => `M${x(p.x)},${y(p.min)}V${y(p.max)}`).join("")} strokeWidth={1.5} {...stroke} />
            <path
              d={sorted.map((p) => `M${x(p.x)},${y(p.y)}h0`).join("")}
              strokeWidth={8}
              strokeLinecap="round"
              {...stroke}
            />
          </g>
        </>
      }
      words={
        <>
          {g.xTicks.map((t) => (
            <span
              key={t.value}
              className="absolute -translate-x-1/2 whitespace-nowrap pt-1"
              style={{ left: `${x(t.value) / 10}%`, top: "100%" }}
            >
              {t.label}
            </span>
          ))}
          {rules.map((r) => {
            // Beside its rule, or before it near the right edge, as stackLabels decided for both pictures.
            const { before } = r;
            return (
              <span
                key={`labels-${r.x}`}
                data-marker=""
                className={`absolute whitespace-nowrap text-xs ${before ? "-translate-x-full pr-1 text-right" : "pl-1"}`}
                style={{
                  left: pct(x(r.x)),
                  bottom: "100%",
                  marginBottom: 4 + (g.rows - r.row - r.lines.length) * lineHeight,
                }}
              >
                {r.lines.map((l) => (
                  <span
                    key={l.text}
                    className="block leading-[14px]"
                    style={l.color ? { color: l.color, fontWeight: 600 } : undefined}
                  >
                    {l.text}
                  </span>
                ))}
              </span>
            );
          })}
        </>
      }
    />
  );
}
