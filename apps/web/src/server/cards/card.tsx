// Link cards: the 1200 × 630 picture Slack, a pull request or a document shows for a shared address
// (Open Graph and Twitter's summary_large_image), drawn by next/og from the answer of the procedure
// the page itself calls. Pure: answers in, elements out (satori's subset of HTML and CSS: every box
// with several children is a flex box; words are positioned boxes, never SVG text, which satori's
// renderer cannot draw). Big type and few words, to read at thumbnail size (a card is often shown
// 400 px wide, a third of its size).
import { barLook } from "@cnibench/charts/format";
import { type BarGeometry, barGeometry, type LineGeometry, lineGeometry } from "@cnibench/charts/geometry";
import type { Better } from "@cnibench/charts/top";
import { formatChange, formatFigure, formatParams, verdictLabel } from "@cnibench/format";
import { vocabularyLabel } from "@cnibench/schema";
import { Children, cloneElement, isValidElement, type ReactElement, type ReactNode } from "react";
import type { z } from "zod";
import type { barsOutputSchema, crossoverOutputSchema } from "../routers/charts.types";
import type { compareOutputSchema } from "../routers/compare.types";
import type { scenarioViewSchema } from "../routers/scenarios.types";
import { badgeColors, significantRows, verdictColor } from "./badge";

export const cardSize = { width: 1200, height: 630 } as const;
/** Rows of figures or verdicts a card lists: more would not read at thumbnail size. */
const cardRows = 4;
/** Groups of bars a card draws: each keeps room for its name under it. */
const cardGroups = 4;

const ink = "#18181b";
const muted = "#52525b";
const rule = "#d4d4d8";
const brand = "#1d4ed8";

// One line, cut with an ellipsis where it meets the card's edge; at most `lines` lines.
const oneLine = { display: "block", overflow: "hidden", whiteSpace: "nowrap", textOverflow: "ellipsis" } as const;
const clamp = (lines: number) => ({ display: "block", lineClamp: lines, overflow: "hidden" }) as const;
/** Past this many characters words are cut before layout, so a long name costs no more than a short one. */
const cut = (text: string, max = 160) => {
  const chars = [...text.replace(/\s+/g, " ").trim()];
  return chars.length > max ? `${chars.slice(0, max - 1).join("")}…` : chars.join("");
};

type FrameProps = { kind: string; title: string; subtitle?: string | null; footer?: string | null; body: ReactNode };

/** The card's frame: cnibench and what this is, the title, a line under it, the body, the sources. */
function frame(p: FrameProps): ReactElement {
  return (
    <div
      style={{
        ...cardSize,
        display: "flex",
        flexDirection: "column",
        padding: "36px 56px 32px",
        background: "#ffffff",
        color: ink,
        fontFamily: "Noto Sans",
        fontSize: 28,
      }}
    >
      <div style={{ display: "flex", alignItems: "center", gap: 20, fontSize: 28, flexShrink: 0 }}>
        <div style={{ display: "block", fontWeight: 700, color: brand }}>cnibench</div>
        <div style={{ ...oneLine, color: muted }}>{p.kind}</div>
      </div>
      <div style={{ ...clamp(2), fontSize: 52, fontWeight: 700, lineHeight: 1.15, marginTop: 14, flexShrink: 0 }}>
        {cut(p.title)}
      </div>
      {p.subtitle ? (
        <div style={{ ...oneLine, fontSize: 30, color: muted, marginTop: 8, flexShrink: 0 }}>{cut(p.subtitle)}</div>
      ) : null}
      <div
        style={{
          display: "flex",
          flexDirection: "column",
          flexGrow: 1,
          minHeight: 0,
          marginTop: 18,
          overflow: "hidden",
        }}
      >
        {p.body}
      </div>
      {p.footer ? (
        <div
          style={{
            ...oneLine,
            fontSize: 24,
            color: muted,
            borderTop: `2px solid ${rule}`,
            paddingTop: 10,
            flexShrink: 0,
          }}
        >
          {cut(p.footer, 200)}
        </div>
      ) : null}
    </div>
  );
}

/** A row of the body: a coloured figure on the left, what it is of beside it. */
function row(key: string, figure: { text: string; color: string }, title: string, detail: string): ReactElement {
  return (
    <div key={key} style={{ display: "flex", alignItems: "center", gap: 24, height: 86 }}>
      <div
        style={{
          display: "flex",
          justifyContent: "center",
          // One width for every row, so the names beside line up.
          width: 280,
          flexShrink: 0,
          padding: "6px 12px",
          borderRadius: 12,
          background: figure.color,
          color: "#ffffff",
          fontSize: 36,
          fontWeight: 700,
          overflow: "hidden",
        }}
      >
        {cut(figure.text, 14)}
      </div>
      <div style={{ display: "flex", flexDirection: "column", flexShrink: 1, minWidth: 0 }}>
        <div style={{ ...oneLine, fontSize: 32, fontWeight: 700 }}>{cut(title)}</div>
        <div style={{ ...oneLine, fontSize: 26, color: muted }}>{cut(detail)}</div>
      </div>
    </div>
  );
}

const sourcesLine = (sources: readonly string[]): string | null =>
  sources.length > 0 ? `Source: ${[...new Set(sources)].join(" · ")}` : null;

type Comparison = z.output<typeof compareOutputSchema>;

/**
 * A comparison (compare page, permalink): who against whom, and the most significant rows of the first
 * candidate against the baseline (the badge's ranking), each its change coloured by its verdict.
 */
export function comparisonCard(c: Comparison, kind: string): ReactElement {
  const [baseline = "", ...candidates] = c.labels;
  const rows = significantRows(c.rows).slice(0, cardRows);
  return frame({
    kind,
    title: `${candidates.join(", ")} vs ${baseline}`,
    subtitle: candidates.length > 1 ? `Headline rows: ${candidates[0]} vs ${baseline}` : (c.summaries[0] ?? null),
    footer: sourcesLine(c.scenarios.flatMap((s) => s.sources)),
    body:
      rows.length === 0 ? (
        <div style={{ display: "block", color: muted }}>No figure measured on both sides.</div>
      ) : (
        rows.map((r) => {
          const cell = r.cells[1];
          return row(
            r.key,
            { text: formatChange(cell?.delta?.percent ?? 0), color: verdictColor(cell?.verdict) },
            r.label,
            // The verdict first: the params may run past the card's edge.
            [cell?.verdict ? verdictLabel(cell.verdict, cell.indicative) : "", formatParams(r.params, { empty: "" })]
              .filter(Boolean)
              .join(" · "),
          );
        })
      ),
  });
}

type ScenarioView = z.output<typeof scenarioViewSchema>;

/** A scenario: its name, environment, and the current figure of its first few metrics. */
export function scenarioCard(view: ScenarioView): ReactElement {
  const s = view.scenario;
  const label = (kind: "provider" | "cniName" | "cniMode", v: string) => vocabularyLabel(kind, v) ?? v;
  const figures = view.groups.flatMap((g) => (g.rows[0] ? [{ g, r: g.rows[0] }] : [])).slice(0, cardRows);
  return frame({
    kind: "Scenario",
    title: s.label,
    subtitle: [
      `${label("provider", s.provider)} ${s.sku}`,
      `kernel ${s.kernel}`,
      `${label("cniName", s.cni.name)} ${s.cni.version} ${label("cniMode", s.cni.mode)}`,
    ].join(" · "),
    footer: sourcesLine(s.sources),
    body: figures.map(({ g, r }) =>
      row(
        `${g.metric}-${r.summary.n}`,
        {
          text: formatFigure({ value: r.value, unit: g.unit, qualifier: r.runs[0].qualifier }),
          color: badgeColors.label,
        },
        g.label,
        [formatParams(r.params, { empty: "" }), r.summary.n > 1 ? `median of n=${r.summary.n}` : ""]
          .filter(Boolean)
          .join(" · "),
      ),
    ),
  });
}

/** The chart's box inside the card's body, and the legend's width beside it. */
const chartFrame = {
  width: 790,
  height: 318,
  margin: { top: 44, right: 24, bottom: 62, left: 84 },
} as const;
// Satori aligns a box's words by flex, not text-align.
const tickText = { position: "absolute", display: "flex", fontSize: 22, color: muted } as const;
const alignRight = { justifyContent: "flex-end" } as const;
const alignCentre = { justifyContent: "center" } as const;

/** Ticks, gridlines and axis words of a chart's geometry, as positioned boxes and an SVG. */
function axes(
  g: { plot: LineGeometry["plot"]; yTicks: LineGeometry["yTicks"]; xTicks?: LineGeometry["xTicks"] },
  words: { x?: string; y: string },
): ReactNode[] {
  const { plot } = g;
  return [
    ...g.yTicks.map((t) => (
      <div key={`y${t.value}`} style={{ ...tickText, ...alignRight, left: 0, width: plot.left - 10, top: t.at - 15 }}>
        {t.label}
      </div>
    )),
    ...(g.xTicks ?? []).map((t) => (
      <div
        key={`x${t.value}`}
        style={{ ...tickText, ...alignCentre, left: t.at - 50, width: 100, top: plot.top + plot.height + 2 }}
      >
        {t.label}
      </div>
    )),
    <div key="yword" style={{ ...tickText, ...oneLine, position: "absolute", left: 0, top: 0, width: 600 }}>
      {cut(words.y, 60)}
    </div>,
    words.x ? (
      <div
        key="xword"
        style={{
          ...tickText,
          ...alignRight,
          left: plot.left,
          width: plot.width,
          top: plot.top + plot.height + 30,
        }}
      >
        {cut(words.x, 60)}
      </div>
    ) : null,
  ];
}

const gridlines = (g: { plot: LineGeometry["plot"]; yTicks: LineGeometry["yTicks"] }): ReactNode[] =>
  g.yTicks.map((t) => (
    <path
      key={`grid${t.value}`}
      d={`M${g.plot.left},${t.at}H${g.plot.left + g.plot.width}`}
      stroke={t.value === 0 ? muted : rule}
      strokeWidth={t.value === 0 ? 2 : 1}
    />
  ));

/** The legend: a swatch and a name per drawn series, and how many more there are. */
function legend(
  series: readonly { id: string; label: string; color: string }[],
  hidden: number,
  hollow = false,
): ReactElement {
  return (
    <div style={{ display: "flex", flexDirection: "column", gap: 4, width: 282, paddingTop: 22 }}>
      {series.map((s) => (
        <div key={s.id} style={{ display: "flex", alignItems: "center", gap: 10 }}>
          <div
            style={{ display: "block", width: 22, height: 22, borderRadius: 4, background: s.color, flexShrink: 0 }}
          />
          <div style={{ ...oneLine, fontSize: 24 }}>{cut(s.label, 60)}</div>
        </div>
      ))}
      {hidden > 0 ? <div style={{ display: "block", fontSize: 22, color: muted }}>{`+${hidden} more`}</div> : null}
      {hollow ? (
        <div style={{ display: "flex", alignItems: "center", gap: 10, color: muted }}>
          <div style={{ display: "block", width: 22, height: 22, border: `3px solid ${muted}`, flexShrink: 0 }} />
          <div style={{ display: "block", fontSize: 20 }}>hollow: the runs do not show it</div>
        </div>
      ) : null}
    </div>
  );
}

function chartBody(picture: ReactNode[], words: ReactNode[], side: ReactElement): ReactElement {
  return (
    <div style={{ display: "flex", gap: 16 }}>
      <div style={{ display: "flex", position: "relative", width: chartFrame.width, height: chartFrame.height }}>
        <svg
          width={chartFrame.width}
          height={chartFrame.height}
          viewBox={`0 0 ${chartFrame.width} ${chartFrame.height}`}
          // A picture inside a PNG: the card's words say what it shows.
          aria-hidden="true"
          style={{ position: "absolute", left: 0, top: 0 }}
        >
          {picture}
        </svg>
        {words}
      </div>
      {side}
    </div>
  );
}

type Crossover = z.output<typeof crossoverOutputSchema>;

/**
 * The crossover chart: the top lines (the charts page's rule), its axes with their units, the
 * crossovers as dashed rules with their labels, and the first crossover sentence under the title.
 */
export function crossoverCard(
  data: Crossover,
  words: { title: string; x: string; y: string; better: Better; xScale: "linear" | "log" },
): ReactElement {
  const g = lineGeometry({
    series: data.series,
    markers: data.markers,
    frame: chartFrame,
    better: words.better,
    xScale: words.xScale,
  });
  const bottom = g.plot.top + g.plot.height;
  return frame({
    kind: "Chart",
    title: words.title,
    subtitle: data.sentences[0] ?? "No line overtakes another within the measured range.",
    footer: sourcesLine(data.series.flatMap((s) => s.points.flatMap((p) => (p.sourceTitle ? [p.sourceTitle] : [])))),
    body: chartBody(
      [
        ...gridlines(g),
        ...g.markers.map((m) => (
          <path
            key={`m${m.x}${m.label}`}
            d={`M${m.x},${g.plot.top}V${bottom}`}
            stroke={muted}
            strokeWidth={2}
            strokeDasharray="6 6"
          />
        )),
        ...g.lines.map((l) => (
          <path
            key={l.id}
            d={l.path}
            fill="none"
            stroke={l.color}
            strokeWidth={5}
            strokeDasharray={l.dash || undefined}
            strokeLinejoin="round"
          />
        )),
        ...g.lines.flatMap((l) =>
          l.points.map((p) => <circle key={`${l.id}${p.x}`} cx={p.x} cy={p.y} r={6} fill={l.color} />),
        ),
      ],
      [
        ...axes(g, words),
        // Crossover labels sit along the top of the plot, alternating rows so two close ones do not overlap.
        ...g.markers.map((m, i) => (
          <div
            key={`ml${m.x}${m.label}`}
            style={{
              ...tickText,
              left: m.x + 6,
              top: g.plot.top + 2 + (i % 2) * 28,
              fontWeight: 700,
              color: ink,
              background: "rgba(255,255,255,0.85)",
            }}
          >
            {cut(m.label, 20)}
          </div>
        )),
      ],
      legend(g.lines, g.hidden),
    ),
  });
}

type Bars = z.output<typeof barsOutputSchema>[number];

/** A bar view's first chart (the view's headline figure): its top series' bars per group, with their unit. */
export function barsCard(
  chart: Bars,
  words: { title: string; better: Better; scope: string; changes: boolean },
): ReactElement {
  const g: BarGeometry = barGeometry({
    data: chart.data,
    series: chart.series,
    frame: chartFrame,
    better: words.better,
    groups: cardGroups,
  });
  const band = g.plot.width / Math.max(1, g.groups.length);
  const hollow = (category: string, id: string) =>
    barLook(chart.data.find((d) => d.category === category)?.values[id], words.changes) === "undecided";
  return frame({
    kind: "Chart",
    title: words.title,
    subtitle: g.groups.length < chart.data.length ? `${words.scope} · first ${g.groups.length} groups` : words.scope,
    footer: sourcesLine(
      chart.data.flatMap((d) => Object.values(d.values).flatMap((v) => (v?.sourceTitle ? [v.sourceTitle] : []))),
    ),
    body: chartBody(
      [
        ...gridlines(g),
        ...g.groups.flatMap((gr) =>
          gr.bars.map((b) => (
            <path
              key={`${gr.category}${b.id}`}
              d={`M${b.x},${b.y}h${b.width}v${b.height}h${-b.width}Z`}
              fill={b.color}
              // As the page draws a change the runs do not show: hollow (barLook).
              {...(hollow(gr.category, b.id) ? { fillOpacity: 0.12, stroke: b.color, strokeWidth: 3 } : {})}
            />
          )),
        ),
        ...g.groups.flatMap((gr) =>
          gr.reference
            ? [
                <path
                  key={`ref${gr.category}`}
                  d={`M${gr.at - band / 2},${gr.reference.y}h${band}`}
                  stroke={ink}
                  strokeWidth={3}
                  strokeDasharray="8 6"
                />,
              ]
            : [],
        ),
      ],
      [
        ...axes(g, { y: chart.unit }),
        ...g.groups.map((gr) => (
          <div
            key={`c${gr.category}`}
            style={{
              ...tickText,
              ...alignCentre,
              left: gr.at - band / 2 + 4,
              width: band - 8,
              top: g.plot.top + g.plot.height + 2,
              // Two lines at most: a group is named by its params ("path pod-pod · streams 8").
              maxHeight: 58,
              overflow: "hidden",
              textAlign: "center",
              lineHeight: 1.2,
              fontSize: 20,
            }}
          >
            {cut(gr.category, 40)}
          </div>
        )),
      ],
      legend(
        g.series,
        g.hidden,
        g.groups.some((gr) => gr.bars.some((b) => hollow(gr.category, b.id))),
      ),
    ),
  });
}

/** A card for what has no picture of its own (the history view): its title and scope. */
export function plainCard(kind: string, title: string, subtitle: string): ReactElement {
  return frame({ kind, title, subtitle, body: null });
}

/** Every word a card draws, to choose its fonts by. */
export function textOf(node: ReactNode): string {
  if (typeof node === "string" || typeof node === "number") return String(node);
  if (Array.isArray(node)) return node.map(textOf).join("");
  if (isValidElement<{ children?: ReactNode }>(node)) return textOf(node.props.children);
  return "";
}

/** The same card with each word passed through `f` (to leave out characters no font has). */
export function mapText(node: ReactNode, f: (text: string) => string): ReactNode {
  if (typeof node === "string") return f(node);
  if (Array.isArray(node)) return node.map((n) => mapText(n, f));
  if (isValidElement<{ children?: ReactNode }>(node) && node.props.children !== undefined) {
    return cloneElement(node, undefined, ...Children.toArray(node.props.children).map((n) => mapText(n, f)));
  }
  return node;
}
