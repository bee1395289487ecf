"use client";

import { formatFigure, formatParams } from "@cnibench/analysis/format";
import { type ReactNode, useRef, useState } from "react";
import { runsWords } from "./format";
import { colorAt } from "./palette";
import type { ChartPoint } from "./types";

export type Selected = { series: string; point: ChartPoint; unit: string } | null;

/** What a chart shows, as its caller gave it: the frame's title, finding, legend and export name. */
export type ChartAbout = {
  title: string;
  /** The finding in words, next to the chart (e.g. the crossover). */
  summary?: ReactNode;
  filename: string;
  series: { id: string; label: string }[];
};

type Props = {
  about: ChartAbout;
  state: ChartState;
  csv: (string | number | null | undefined)[][];
  /** Some point has min–max whiskers: the legend says what they are. */
  whiskers?: boolean;
  /** What to hover or click: "point" on lines, "bar" on bars. */
  mark: "point" | "bar";
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
      if (kind === "csv") return downloadCsv(props.csv, about.filename);
      const el = svg();
      if (!el) return setError("nothing to export: the chart has not rendered");
      if (kind === "svg") downloadSvg(el, about.filename);
      else await downloadPng(el, about.filename);
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    }
  };

  return (
    <figure className="rounded-lg border border-zinc-200 bg-white p-4 dark:border-zinc-800 dark:bg-zinc-900">
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
      <ul className="mt-3 flex flex-wrap gap-x-3 gap-y-1" aria-label="Series (click to hide or show)">
        {about.series.map((s, i) => {
          const off = state.hidden.has(s.id);
          return (
            <li key={s.id}>
              <button
                type="button"
                aria-pressed={!off}
                onClick={() => state.toggle(s.id)}
                className={`inline-flex items-center gap-1.5 rounded px-1 text-sm ${off ? "text-zinc-400 line-through" : ""} hover:bg-zinc-100 dark:hover:bg-zinc-800`}
              >
                <span
                  aria-hidden
                  className="inline-block h-2.5 w-4 rounded-sm"
                  style={{ background: off ? "#d4d4d8" : colorAt(i) }}
                />
                {s.label}
              </button>
            </li>
          );
        })}
        {props.whiskers ? (
          <li className="inline-flex items-center gap-1.5 px-1 text-sm text-zinc-600 dark:text-zinc-400">
            <svg aria-hidden width="10" height="14" viewBox="0 0 10 14" className="shrink-0">
              <path d="M1 1h8M5 1v12M1 13h8" stroke="currentColor" strokeWidth="1.5" fill="none" />
            </svg>
            whiskers: min–max of n runs
          </li>
        ) : null}
      </ul>
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

/** What a chart's reader changes: series hidden from the legend, and the point kept below it. */
export type ChartState = ReturnType<typeof useChartState>;

export function useChartState() {
  const [hidden, setHidden] = useState<ReadonlySet<string>>(new Set());
  const [selected, setSelected] = useState<Selected>(null);
  const toggle = (id: string) =>
    setHidden((h) => {
      const next = new Set(h);
      if (!next.delete(id)) next.add(id);
      return next;
    });
  return { hidden, toggle, selected, setSelected };
}
