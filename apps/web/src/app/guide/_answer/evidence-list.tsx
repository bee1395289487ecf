"use client";
// The figures a reason rests on. A client component for the size of the page, not for interaction: its
// props are a few words per figure, where a server component's list went to the browser twice, as HTML
// and again as the element tree (classes, links) of React's payload — most of the guide's bytes.
import Link from "next/link";
import { cx } from "~/app/_ui/cx";
import { innerLinksClass } from "~/app/_ui/link";

/** One figure in words, formatted on the server: fewer bytes than the figure and its params. */
export type EvidenceFigure = {
  scenarioId: string;
  scenarioLabel: string;
  bundleId: string;
  /** The figure with its unit, e.g. "9.381 Gbit/s". */
  figure: string;
  /** The metric and its params, e.g. "throughput (streams: 8)". */
  metric: string;
};

// The chips' look, set once on the list: on each of hundreds of chips and their links, it was a fifth
// of the page's HTML.
const chipsClass = cx(
  "mt-1 flex flex-wrap gap-1 text-xs",
  "*:rounded *:border *:border-zinc-200 *:px-1.5 *:py-0.5 *:text-zinc-700 dark:*:border-zinc-700 dark:*:text-zinc-300",
  innerLinksClass,
);

export function EvidenceList(props: { figures: EvidenceFigure[]; apiUrl: string }) {
  return (
    <ul aria-label="Evidence" className={chipsClass}>
      {props.figures.map((e) => (
        <li key={`${e.bundleId} ${e.metric}`}>
          <Link href={`/scenarios/${e.scenarioId}`}>{e.scenarioLabel}</Link>{" "}
          <span className="tabular-nums">{e.figure}</span>
          <span className="text-zinc-500"> {e.metric}</span>{" "}
          <a href={`${props.apiUrl}/v1/bundles/${e.bundleId}`}>bundle</a>
        </li>
      ))}
    </ul>
  );
}
