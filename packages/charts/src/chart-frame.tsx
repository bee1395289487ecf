"use client";

import { formatFigure, formatParams } from "@cnibench/format";
import { createContext, type ReactNode, useContext, useDeferredValue, useMemo, useRef, useState } from "react";
import { runsWords } from "./format";
import { colorAt, dashAt, markerAt, markerPath } from "./palette";
import { inScope, scopeWords, topCount } from "./top";
import type { ChartPoint, SeriesInfo } from "./types";

export type Selected = { series: string; point: ChartPoint; unit: string } | null;

/** What a chart shows, as its caller gave it: the frame's title, finding, legend and export name. */
type ChartAbout = {
  title: string;
  /** The finding in words, next to the chart (e.g. the crossover). */
  summary?: ReactNode;
  filename: string;
  series: SeriesInfo[];
};

/**
 * A line drawn to read the chart against (a reference, a NIC's line rate), as the legend keys it; or,
 * `hollow`, how bars the runs do not show are drawn.
 */
export type KeyLine = { label: string; dash: string; hollow?: boolean };

type Props = {
  about: ChartAbout;
  state: ChartState;
  /** The chart's rows for its CSV export, built when the reader asks for them (every figure formatted). */
  csv: () => (string | number | null | undefined)[][];
  /** Some point has min–max whiskers: the legend says what they are. */
  whiskers?: boolean;
  /** What the shaded band around each line is ("Shaded: each line's runs, min–max"); absent when none is drawn. */
  band?: string;
  /** What to hover or click: "point" on lines, "bar" on bars. */
  mark: "point" | "bar";
  /** Lines drawn across the chart to read it against, keyed below the series. */
  keys?: KeyLine[];
  /** What "the best" means when only the top series are drawn: "mean rank of their bars, higher is better". */
  rankedBy?: string;
  children: ReactNode;
};

const button =
  "rounded border border-zinc-300 px-2 py-0.5 text-xs hover:bg-zinc-100 focus-visible:outline-2 focus-visible:outline-blue-600 dark:border-zinc-700 dark:hover:bg-zinc-800";

/** Title, finding, legend that toggles series, the chart, the selected point, and exports. */
export function ChartFrame({ about, state, ...props }: Props) {
  const ref = useRef<HTMLDivElement>(null);
  const [error, setError] = useState<string | null>(null);
  const svg = () => ref.current?.querySelector<SVGSVGElement>("svg.recharts-surface") ?? null;
  const exportAs = async (kind: "png" | "svg" | "csv") => {
    try {
      setError(null);
      // The exporters (CSV writer, SVG serialiser, PNG rasteriser) load on the first click, not with the page.
      const { downloadCsv, downloadPng, downloadSvg } = await import("./export");
      if (kind === "csv") return downloadCsv(props.csv(), about.filename);
      const el = svg();
      if (!el) return setError("nothing to export: the chart has not rendered");
      if (kind === "svg") downloadSvg(el, about.filename);
      else await downloadPng(el, about.filename);
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    }
  };

  return (
    <figure className="min-w-0 rounded-lg border border-zinc-200 bg-white p-4 dark:border-zinc-800 dark:bg-zinc-900">
      <figcaption className="flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0">
          <h2 className="font-semibold">{about.title}</h2>
          {about.summary ? <div className="mt-1 text-sm text-zinc-700 dark:text-zinc-300">{about.summary}</div> : null}
        </div>
        <fieldset className="flex items-center gap-1">
          <legend className="sr-only">Export</legend>
          <button type="button" className={button} onClick={() => void exportAs("png")}>
            PNG
          </button>
          <button type="button" className={button} onClick={() => void exportAs("svg")}>
            SVG
          </button>
          <button type="button" className={button} onClick={() => void exportAs("csv")}>
            CSV
          </button>
        </fieldset>
      </figcaption>
      {error ? (
        <p role="alert" className="mt-2 text-sm text-red-700 dark:text-red-400">
          {error}
        </p>
      ) : null}
      <Legend about={about} state={state} mark={props.mark} rankedBy={props.rankedBy} />
      {props.whiskers || props.band || props.keys?.length ? (
        <ul className="mt-1 flex flex-wrap gap-x-3 gap-y-0.5 text-xs text-zinc-600 dark:text-zinc-400" aria-label="Key">
          {props.keys?.map((k) => (
            <li key={k.label} className="inline-flex items-center gap-1.5">
              {k.hollow ? (
                <svg aria-hidden width="12" height="12" viewBox="0 0 12 12" className="shrink-0">
                  <rect
                    x="0.75"
                    y="0.75"
                    width="10.5"
                    height="10.5"
                    fill="currentColor"
                    fillOpacity="0.12"
                    stroke="currentColor"
                    strokeWidth="1.5"
                  />
                </svg>
              ) : (
                <svg aria-hidden width="18" height="8" viewBox="0 0 18 8" className="shrink-0">
                  <path d="M0 4h18" stroke="currentColor" strokeWidth="2" strokeDasharray={k.dash} />
                </svg>
              )}
              {k.label}
            </li>
          ))}
          {props.whiskers ? (
            <li className="inline-flex items-center gap-1.5">
              <svg aria-hidden width="10" height="14" viewBox="0 0 10 14" className="shrink-0">
                <path d="M1 1h8M5 1v12M1 13h8" stroke="currentColor" strokeWidth="1.5" fill="none" />
              </svg>
              whiskers: min–max of n runs
            </li>
          ) : null}
          {props.band ? (
            <li className="inline-flex items-center gap-1.5">
              <svg aria-hidden width="18" height="10" viewBox="0 0 18 10" className="shrink-0">
                <rect width="18" height="10" fill="currentColor" fillOpacity="0.2" />
              </svg>
              {props.band}
            </li>
          ) : null}
        </ul>
      ) : null}
      <div ref={ref} className="relative mt-2 text-zinc-600 dark:text-zinc-400">
        {props.children}
      </div>
      <div className="mt-2 min-h-10 text-sm" aria-live="polite">
        {state.selected ? (
          <p>
            <span className="font-medium">{state.selected.series}</span>:{" "}
            {formatFigure({
              value: state.selected.point.y,
              unit: state.selected.unit,
              qualifier: state.selected.point.qualifier ?? null,
              low: state.selected.point.low ?? null,
              high: state.selected.point.high ?? null,
            })}
            {runsWords(state.selected.point) ? ` (${runsWords(state.selected.point)})` : ""}
            {state.selected.point.params ? ` · ${formatParams(state.selected.point.params)}` : ""}
            {state.selected.point.links?.map((l) => (
              <span key={l.href}>
                {" · "}
                <a href={l.href} className="text-blue-700 hover:underline dark:text-blue-400">
                  {l.label}
                </a>
              </span>
            ))}
          </p>
        ) : (
          <p className="text-zinc-500">
            Hover a {props.mark} for its exact value; click it to keep it here with links to its bundle and source.
          </p>
        )}
      </div>
    </figure>
  );
}

/**
 * Whether a page's charts draw all their series or only the top ones, shared by every chart inside
 * it and kept where the page wants it (its address); each chart keeps its own without one.
 */
export const ShowAllContext = createContext<{ all: boolean; setAll: (all: boolean) => void } | null>(null);

/** What a chart's reader changes: series hidden from the legend, all series or the top, the point kept below. */
export type ChartState = ReturnType<typeof useChartState>;

/**
 * `ranked`: the series ids best first (rankByScore), of which the top `topCount` are drawn until all
 * are asked for. `series`: the chart's, for their colorIndex.
 */
export function useChartState(ranked: readonly string[], series: readonly SeriesInfo[]) {
  const shared = useContext(ShowAllContext);
  const [ownAll, setOwnAll] = useState(false);
  const all = shared ? shared.all : ownAll;
  const setAll = shared ? shared.setAll : setOwnAll;
  const key = ranked.join("\u0000");
  // biome-ignore lint/correctness/useExhaustiveDependencies: the ids' contents, not the array's identity.
  const shown = useMemo(() => inScope(ranked, all), [key, all]);
  const [hidden, setHidden] = useState<ReadonlySet<string>>(new Set());
  const [selected, setSelected] = useState<Selected>(null);
  const toggle = (id: string) =>
    setHidden((h) => {
      const next = new Set(h);
      if (!next.delete(id)) next.add(id);
      return next;
    });
  // The plot follows the legend a render behind, at a transition's priority: a click paints its
  // button at once, and the plots' new layout (on every chart of the page for "Show all") comes after
  // without holding that paint (issue 46: the click answered only once every plot was laid out).
  const drawn = useDeferredValue(useMemo(() => ({ shown, hidden }), [shown, hidden]));
  /** Drawn: in scope (the top, or all) and not hidden from the legend, as the plot has caught up with them. */
  const visible = (id: string) => drawn.shown.has(id) && !drawn.hidden.has(id);
  const style = styleIndexes(ranked, series);
  /** A series' colour, marker and dash (palette.ts): by its colorIndex, else its rank. */
  const styleOf = (id: string): number => style.get(id) ?? 0;
  return {
    hidden,
    toggle,
    selected,
    setSelected,
    all,
    setAll,
    shown,
    drawn,
    visible,
    styleOf,
    ranked,
    total: ranked.length,
  };
}

/**
 * Each series' place in the palette: the colorIndex its page gave it (one colour per scenario across
 * the page's charts), else its rank, so the top series drawn first take the palette's first, most
 * distinct colours, and keep them when all are shown.
 */
function styleIndexes(ranked: readonly string[], series: readonly SeriesInfo[]): Map<string, number> {
  const given = new Map(series.flatMap((s) => (s.colorIndex === undefined ? [] : [[s.id, s.colorIndex] as const])));
  return new Map(ranked.map((id, i) => [id, given.get(id) ?? i]));
}

/**
 * The series' toggles, compact: small type, wrapping, and scrolling past a few lines so two dozen
 * setups never fill a phone's screen; each a button with the series' colour (and marker on lines).
 * With more series than the top, a button shows all of them or the top again.
 */
function Legend(props: { about: ChartAbout; state: ChartState; mark: "point" | "bar"; rankedBy?: string }) {
  const { about, state } = props;
  const crowded = state.total > topCount;
  return (
    <div className="mt-3">
      <ul
        className="flex max-h-32 flex-wrap gap-x-2 gap-y-0.5 overflow-y-auto text-xs sm:max-h-40 sm:text-sm"
        aria-label="Series (click to hide or show)"
      >
        {about.series.map((s) => {
          if (!state.shown.has(s.id)) return null;
          const off = state.hidden.has(s.id);
          return (
            <li key={s.id} className="min-w-0 max-w-full">
              <button
                type="button"
                aria-pressed={!off}
                onClick={() => state.toggle(s.id)}
                className={`inline-flex max-w-full items-center gap-1.5 rounded px-1 text-left focus-visible:outline-2 focus-visible:outline-blue-600 ${off ? "text-zinc-400 line-through" : ""} hover:bg-zinc-100 dark:hover:bg-zinc-800`}
              >
                <Swatch index={state.styleOf(s.id)} mark={props.mark} off={off} />
                <span className="min-w-0 break-words">{s.label}</span>
              </button>
            </li>
          );
        })}
      </ul>
      {crowded ? (
        <p className="mt-1 flex flex-wrap items-center gap-x-2 text-xs text-zinc-600 dark:text-zinc-400">
          <span>
            {state.all
              ? `All ${state.total} series.`
              : scopeWords(
                  state.ranked,
                  state.shown,
                  (id) => about.series.find((s) => s.id === id)?.label ?? id,
                  props.rankedBy,
                )}
          </span>
          <button type="button" className={button} onClick={() => state.setAll(!state.all)}>
            {state.all ? `Show ${topCount} (best and worst)` : `Show all ${state.total}`}
          </button>
        </p>
      ) : null}
    </div>
  );
}

/** A series' colour in the legend: a bar's fill, or a line's dash with its marker. */
function Swatch(props: { index: number; mark: "point" | "bar"; off: boolean }) {
  const color = props.off ? "#a1a1aa" : colorAt(props.index);
  if (props.mark === "bar") {
    return <span aria-hidden className="inline-block h-2.5 w-3.5 shrink-0 rounded-sm" style={{ background: color }} />;
  }
  return (
    <svg aria-hidden width="22" height="12" viewBox="0 0 22 12" className="shrink-0">
      <path d="M1 6h20" stroke={color} strokeWidth="2" strokeDasharray={dashAt(props.index)} />
      <path d={markerPath(markerAt(props.index), 11, 6, 3.5)} fill={color} stroke={color} strokeWidth="1" />
    </svg>
  );
}
