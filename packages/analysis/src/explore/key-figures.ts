// The explorer table's key figures: one headline figure per column for each scenario, measured
// without extra load or features.
import { findMetric } from "@cnibench/schema";
import type { ShownFigure } from "../types.ts";

export const keyFigureKeys = ["throughput", "keepaliveRps", "shortRps", "tcpRrP99"] as const;
export type KeyFigureKey = (typeof keyFigureKeys)[number];

type KeyFigureDefinition = { title: string; metric: string; params: Record<string, string> };

/** The columns of the explorer table: one headline figure each, in the catalogue's unit. */
export const keyFigureDefinitions: Record<KeyFigureKey, KeyFigureDefinition> = {
  throughput: { title: "TCP throughput", metric: "tcp.throughput", params: {} },
  keepaliveRps: { title: "Keepalive RPS", metric: "http.rps", params: { connection: "keepalive" } },
  shortRps: { title: "Short-conn RPS", metric: "http.rps", params: { connection: "short" } },
  tcpRrP99: { title: "TCP_RR p99", metric: "tcp.rr.latency", params: { percentile: "p99" } },
};

export const keyFigureMetrics = [...new Set(Object.values(keyFigureDefinitions).map((d) => d.metric))];

/** A current figure as the table reads it; packages/db's LatestFigure fits. */
export type HeadlineFigure = ShownFigure & {
  bundleId: string;
  samples: readonly number[];
  n: number;
  campaignBundleIds: readonly string[];
};

export type KeyFigure<F extends HeadlineFigure = HeadlineFigure> = Pick<
  F,
  "value" | "unit" | "qualifier" | "low" | "high" | "params" | "bundleId" | "samples" | "n" | "campaignBundleIds"
>;

// Figures measured under extra load or features (many Services, policies, Hubble) are not the
// scenario's headline: a baseline keeps them out of the table.
export const headlineBaseline: Record<string, readonly (string | number | boolean)[]> = {
  services: [0],
  policy: ["none"],
  hubble: ["off"],
};

function isHeadline(f: HeadlineFigure, def: KeyFigureDefinition): boolean {
  if (f.metric !== def.metric) return false;
  if (!Object.entries(def.params).every(([k, v]) => f.params[k] === v)) return false;
  return Object.entries(headlineBaseline).every(
    ([k, ok]) => f.params[k] === undefined || ok.includes(f.params[k] as never),
  );
}

/**
 * A scenario's headline figures: among its baseline figures for each column, the best one by the
 * metric's direction (e.g. the 8-stream throughput when 1, 8 and 16 streams were measured). Exact
 * figures win over qualified ones, which are only the headline when nothing exact exists.
 */
export function keyFigures<F extends HeadlineFigure>(
  figures: readonly F[],
): Partial<Record<KeyFigureKey, KeyFigure<F>>> {
  const out: Partial<Record<KeyFigureKey, KeyFigure<F>>> = {};
  for (const key of keyFigureKeys) {
    const def = keyFigureDefinitions[key];
    const lowerIsBetter = findMetric(def.metric)?.better === "lower";
    const candidates = figures.filter((f) => isHeadline(f, def));
    const pool = candidates.some((f) => f.qualifier === null)
      ? candidates.filter((f) => f.qualifier === null)
      : candidates;
    const best = pool.reduce<F | undefined>(
      (a, f) => (a === undefined || (lowerIsBetter ? f.value < a.value : f.value > a.value) ? f : a),
      undefined,
    );
    if (best) {
      const { value, unit, qualifier, low, high, params, bundleId, samples, n, campaignBundleIds } = best;
      out[key] = { value, unit, qualifier, low, high, params, bundleId, samples, n, campaignBundleIds };
    }
  }
  return out;
}

/** The explorer table's figure columns with their catalogue units, for headers. */
export function keyFigureColumns(): { key: KeyFigureKey; title: string; unit: string }[] {
  return keyFigureKeys.map((key) => {
    const def = keyFigureDefinitions[key];
    return { key, title: def.title, unit: findMetric(def.metric)?.unit ?? "" };
  });
}
