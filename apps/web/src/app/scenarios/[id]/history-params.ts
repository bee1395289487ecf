// The scenario page's history section in the URL: which series it follows, as
// `history=<metric>|<params as JSON, keys sorted>`, so a copied address shows the same chart; and
// which series that is. Apart from history.tsx, so the charts page's history view reads it without
// importing the section's select (a client component: its script would ship with the charts page).
import { formatParams } from "@cnibench/format";
import type { Params } from "@cnibench/schema";
import { createLoader, parseAsString } from "nuqs/server";
import type { SeriesGroup } from "./history-select";

const historyParams = { history: parseAsString };
export const loadHistoryParams = createLoader(historyParams);

/** A series' key in the URL: "tcp.throughput|{"path":"pod-pod","streams":1}". */
export const seriesKey = (metric: string, params: Params): string =>
  `${metric}|${JSON.stringify(Object.fromEntries(Object.entries(params).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))))}`;

/** The scenario's figures as its page has them: by metric, a row per params with its campaigns' runs. */
export type Group = {
  metric: string;
  label: string;
  unit: string;
  rows: { params: Params; runs: { campaign: string }[]; history: { campaign: string }[] }[];
};

type Series = {
  key: string;
  label: string;
  group: string;
  metric: string;
  params: Params;
  metricLabel: string;
  unit: string;
  campaigns: number;
};

/** Every series of the scenario, with how many of its campaigns the page knows of. */
export function seriesOf(groups: readonly Group[]): Series[] {
  return groups.flatMap((g) =>
    g.rows.map((r) => ({
      key: seriesKey(g.metric, r.params),
      label: formatParams(r.params, { empty: "no params" }),
      group: g.label,
      metric: g.metric,
      params: r.params,
      metricLabel: g.label,
      unit: g.unit,
      campaigns: new Set([...r.runs, ...r.history].map((f) => f.campaign)).size,
    })),
  );
}

/** The series by metric, in the order given, as the select lists them. */
export function seriesGroups(series: readonly Series[]): SeriesGroup[] {
  const groups = new Map<string, SeriesGroup>();
  for (const s of series) {
    const group = groups.get(s.group) ?? { label: s.group, options: [] };
    group.options.push([s.key, s.label]);
    groups.set(s.group, group);
  }
  return [...groups.values()];
}

/** The series asked for in the URL, else the one with the most campaigns (the first of those). */
export function chosen(series: readonly Series[], asked: string | null): Series | undefined {
  const found = asked === null ? undefined : series.find((s) => s.key === asked);
  return (
    found ??
    series.reduce<Series | undefined>((best, s) => (!best || s.campaigns > best.campaigns ? s : best), undefined)
  );
}
