import { formatChange, verdictLabel } from "@cnibench/format";
import type { ReactNode } from "react";
import { verdictStyle } from "./format";
import type { Versus } from "./types";

/** A point of the chart, in its pixels, and the chart's width. */
export type TooltipAt = { x: number; y: number; width: number };

/**
 * A tooltip beside a point, on the side with more room, in HTML over the chart (ChartFrame's chart
 * box is its positioned parent), so the SVG does not clip it and exports never contain it.
 * Hand-made rather than Recharts' Tooltip, which weighs about 7 kB gzipped on every chart page.
 */
export function TooltipBox(props: { at: TooltipAt; children: ReactNode }) {
  const { x, y, width } = props.at;
  const left = x > width / 2;
  return (
    <div
      role="tooltip"
      className="pointer-events-none absolute top-0 left-0 z-10 w-max rounded border border-zinc-200 bg-white px-2 py-1 text-xs text-zinc-900 shadow dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100"
      style={{
        maxWidth: (left ? x : width - x) - 10,
        transform: `translate(${left ? `calc(${x - 10}px - 100%)` : `${x + 10}px`}, ${y + 10}px)`,
      }}
    >
      {props.children}
    </div>
  );
}

/**
 * A point against the chart's baseline, worded and coloured as the compare table's verdict:
 * "vs kube-proxy iptables: +12.3 % · better (3 vs 3 runs, 95 % 1.050–1.190)".
 */
export function VersusLine({ versus }: { versus: Versus }) {
  return (
    <div data-versus={versus.verdict}>
      vs {versus.baseline}: {versus.percent === null ? null : `${formatChange(versus.percent)} · `}
      <span className={`rounded px-1 ${verdictStyle[versus.verdict]}`}>
        {verdictLabel(versus.verdict, versus.indicative)}
      </span>
      <span className="text-zinc-500"> ({versus.words})</span>
    </div>
  );
}

/**
 * What a point's tooltip hangs on: an invisible circle a little larger than the mark, to hover, click or
 * focus (Enter or Space selects), with a focus ring. `at` is where the tooltip goes when it is entered.
 */
export function PointTarget(props: {
  at: TooltipAt;
  label: string;
  onSelect: () => void;
  onHover: (at: TooltipAt | null) => void;
  /** data-* attributes tests and exports read. */
  data?: Record<`data-${string}`, string>;
}) {
  const enter = () => props.onHover(props.at);
  const leave = () => props.onHover(null);
  return (
    // biome-ignore lint/a11y/useSemanticElements: an SVG point cannot be a <button>; role and keys make it one.
    <circle
      cx={props.at.x}
      cy={props.at.y}
      r={7}
      role="button"
      tabIndex={0}
      aria-label={props.label}
      {...props.data}
      fill="transparent"
      stroke="transparent"
      strokeWidth={2}
      className="outline-none focus-visible:stroke-blue-600"
      style={{ cursor: "pointer" }}
      onClick={props.onSelect}
      onKeyDown={(e) => {
        if (e.key === "Enter" || e.key === " ") {
          e.preventDefault();
          props.onSelect();
        }
      }}
      onMouseEnter={enter}
      onMouseLeave={leave}
      onFocus={enter}
      onBlur={leave}
    />
  );
}
