import type { Params } from "@cnibench/schema";
import { webEnv } from "~/env";

/** /badge/series.svg for a series: its scenario, metric and each param as its own query parameter. */
export function seriesBadgePath(scenarioId: string, metric: string, params: Params = {}): string {
  const query = new URLSearchParams({ scenario: scenarioId, metric });
  for (const [k, v] of Object.entries(params)) query.append(k, String(v));
  return `/badge/series.svg?${query}`;
}

/** A history embed's frame: its heading, one chart with its key and the change points in words, in px. */
export const historyEmbedHeight = 760;

/**
 * "Embed": the snippets that put this view elsewhere — an iframe of its /embed/ page (the one kind of
 * page other sites may frame) and, for a README, a Markdown image of a series' badge linking back
 * here. A disclosure with read-only fields: nothing to run, select and copy. `height`: the frame's, in
 * px, tall enough for the view's chart without scrolling.
 */
export function EmbedSnippets(props: { path: string; title: string; badge?: string; height?: number }) {
  const site = webEnv().publicWebUrl;
  const embed = `${site}/embed${props.path}`;
  const iframe = `<iframe src="${embed.replace(/&/g, "&amp;").replace(/"/g, "&quot;")}" title="${props.title.replace(/[&"<]/g, "")} · cnibench" width="100%" height="${props.height ?? 520}" style="border:0" loading="lazy"></iframe>`;
  const markdown = props.badge
    ? `[![${props.title.replace(/[[\]]/g, "")}](${site}${props.badge})](${site}${props.path})`
    : `[${props.title.replace(/[[\]]/g, "")} on cnibench](${site}${props.path})`;
  const field =
    "mt-1 block w-full rounded border border-zinc-300 bg-zinc-50 p-2 font-mono text-xs dark:border-zinc-700 dark:bg-zinc-900";
  return (
    <details className="text-sm" data-testid="embed-snippets">
      <summary className="inline-block cursor-pointer rounded border border-zinc-300 px-2 py-1 hover:bg-zinc-100 dark:border-zinc-700 dark:hover:bg-zinc-800">
        Embed
      </summary>
      <div className="mt-2 grid gap-2 md:grid-cols-2">
        <label className="block">
          <span className="text-xs text-zinc-600 dark:text-zinc-400">HTML (an iframe, light or dark with &theme=)</span>
          <textarea readOnly rows={3} className={field} value={iframe} aria-label="Embed HTML" />
        </label>
        <label className="block">
          <span className="text-xs text-zinc-600 dark:text-zinc-400">
            Markdown ({props.badge ? "a badge of the first line's latest campaign" : "a link"})
          </span>
          <textarea readOnly rows={3} className={field} value={markdown} aria-label="Embed Markdown" />
        </label>
      </div>
    </details>
  );
}
