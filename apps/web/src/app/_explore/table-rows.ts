// The explorer's table is a client component (its headers sort): each row goes to the browser as the
// words its cells show, formatted here, not as the scenario with its figures' distributions and params
// (those doubled the page: once as HTML, again in React's payload).
import { type FigureWords, figureWords } from "./figure-words";
import type { ScenarioRow } from "./rows";

export type TableRow = {
  id: string;
  label: string;
  /** "cilium 1.16 · native · kube-proxy ebpf" */
  cni: string;
  /** The settings that tell it apart from the other listed scenarios, joined; "" when none. */
  settings: string;
  provider: string;
  sku: string;
  kernel: string;
  kubernetesVersion: string;
  bundleCount: number;
  figures: Partial<Record<string, FigureWords>>;
};

/** One page of rows in words, with the figures of the columns shown only. */
export function tableRows(rows: readonly ScenarioRow[], columns: readonly string[]): TableRow[] {
  return rows.map((r) => {
    const figures: TableRow["figures"] = {};
    for (const key of columns) {
      const figure = r.keyFigures[key];
      if (figure) figures[key] = figureWords(figure);
    }
    const c = r.cni;
    return {
      id: r.id,
      label: r.label,
      cni: `${c.name}${c.version !== "unknown" ? ` ${c.version}` : ""} · ${c.mode} · kube-proxy ${c.kubeProxy}`,
      settings: r.differingSettings.join(" · "),
      provider: r.provider,
      sku: r.sku,
      kernel: r.kernel,
      kubernetesVersion: r.kubernetesVersion,
      bundleCount: r.bundleCount,
      figures,
    };
  });
}
