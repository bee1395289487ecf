import { cpuAccountings, isScaleParam, metricCatalogue, type ParamValue, scaleParams } from "@cnibench/schema";

/**
 * The numeric params a crossover view can draw a metric along (issue 40): those where at least two
 * setups share at least two values, so that two lines (or, along a category, two sets of points) can
 * be read against each other at the same values. Nothing is offered from a fixed list: 25 InfraBuilder
 * setups sweep `streams`, the TKE seeds `services`, a lab the Service count — each axis the data has.
 */
export type CrossoverAxis = {
  metric: string;
  param: string;
  /** A scale is drawn as lines and crossed; a category as points at each value, never joined. */
  kind: "scale" | "category";
  /** Setups that share at least two values of the param with another setup. */
  setups: number;
  /** The values those setups share, ascending. */
  values: number[];
};

type AxisFigure = { scenarioId: string; metric: string; params: Readonly<Record<string, ParamValue>> };

/**
 * Every (metric, numeric param) where ≥2 setups share ≥2 values: scales first in the params
 * vocabulary's order, then categories; within each, the most setups first, then the metric
 * catalogue's order (throughput before CPU), then the param's name.
 */
export function crossoverAxesOf(figures: readonly AxisFigure[]): CrossoverAxis[] {
  // metric → param → scenario → its values
  const seen = new Map<string, Map<string, Map<string, Set<number>>>>();
  for (const f of figures) {
    for (const [param, value] of Object.entries(f.params)) {
      if (typeof value !== "number") continue;
      const byParam = seen.get(f.metric) ?? new Map<string, Map<string, Set<number>>>();
      seen.set(f.metric, byParam);
      const byScenario = byParam.get(param) ?? new Map<string, Set<number>>();
      byParam.set(param, byScenario);
      const values = byScenario.get(f.scenarioId) ?? new Set<number>();
      byScenario.set(f.scenarioId, values);
      values.add(value);
    }
  }
  const axes: CrossoverAxis[] = [];
  for (const [metric, byParam] of seen) {
    for (const [param, byScenario] of byParam) {
      // Two setups share ≥2 values exactly when both hold some pair of values: bucket the setups' value
      // sets (alike ones counted once) by each pair of their values, instead of intersecting every two
      // setups (n²·k): 19 → 4 ms for 200 setups of 12 Service steps.
      const sets = new Map<string, { values: number[]; setups: number }>();
      for (const values of byScenario.values()) {
        if (values.size < 2) continue;
        const sorted = [...values].sort((a, b) => a - b);
        const key = sorted.join(" ");
        const set = sets.get(key) ?? { values: sorted, setups: 0 };
        sets.set(key, set);
        set.setups += 1;
      }
      const byPair = new Map<string, { pair: [number, number]; sets: { setups: number }[]; setups: number }>();
      for (const set of sets.values()) {
        const v = set.values;
        for (let i = 0; i < v.length; i++) {
          for (let j = i + 1; j < v.length; j++) {
            const key = `${v[i]} ${v[j]}`;
            const bucket = byPair.get(key) ?? { pair: [v[i]!, v[j]!], sets: [], setups: 0 };
            byPair.set(key, bucket);
            bucket.sets.push(set);
            bucket.setups += set.setups;
          }
        }
      }
      const sharingSets = new Set<{ setups: number }>();
      const shared = new Set<number>();
      for (const bucket of byPair.values()) {
        if (bucket.setups < 2) continue;
        for (const set of bucket.sets) sharingSets.add(set);
        shared.add(bucket.pair[0]).add(bucket.pair[1]);
      }
      const sharing = [...sharingSets].reduce((n, set) => n + set.setups, 0);
      if (sharing < 2) continue;
      axes.push({
        metric,
        param,
        kind: isScaleParam(param) ? "scale" : "category",
        setups: sharing,
        values: [...shared].sort((a, b) => a - b),
      });
    }
  }
  const scaleOrder = Object.keys(scaleParams);
  const rank = (a: CrossoverAxis) => (a.kind === "scale" ? scaleOrder.indexOf(a.param) : scaleOrder.length);
  const metricOrder = new Map(metricCatalogue.map((m, i) => [m.key, i]));
  const place = (a: CrossoverAxis) => metricOrder.get(a.metric) ?? metricCatalogue.length;
  return axes.sort(
    (a, b) =>
      rank(a) - rank(b) ||
      b.setups - a.setups ||
      a.param.localeCompare(b.param) ||
      place(a) - place(b) ||
      a.metric.localeCompare(b.metric),
  );
}

/**
 * The conditions on a metric's other params that leave each setup one line along `x`. Only params
 * that split a setup into several lines are pinned, one at a time (CPU's `accounting` first, then by
 * name), each to the value the most setups can be drawn with (two values of `x` at least); CPU's
 * accounting to the widest such one (every mode before user + system before one mode: the whole CPU,
 * never a part of it beside the whole). Without them, an InfraBuilder setup's CPU by streams (three
 * accountings, two roles, two paths, two protocols) filled the chart's 16 lines alone.
 */
export function oneLinePerSetup(figures: readonly AxisFigure[], x: string): Record<string, ParamValue> {
  const where: Record<string, ParamValue> = {};
  let rest = figures.filter((f) => typeof f.params[x] === "number");
  for (;;) {
    // The params under which some setup has two values: a setup seen with another value splits.
    const firstValue = new Map<string, Map<string, ParamValue>>();
    const splitting = new Set<string>();
    for (const f of rest) {
      for (const param in f.params) {
        if (param === x || splitting.has(param) || Object.hasOwn(where, param)) continue;
        const seen = firstValue.get(param) ?? new Map<string, ParamValue>();
        firstValue.set(param, seen);
        const value = f.params[param]!;
        if (!seen.has(f.scenarioId)) seen.set(f.scenarioId, value);
        else if (seen.get(f.scenarioId) !== value) splitting.add(param);
      }
    }
    if (splitting.size === 0) return where;
    const param = splitting.has("accounting") ? "accounting" : [...splitting].sort()[0]!;
    // Its values (raw, as Map keys: 1 and "1" stay apart), with the x values each setup has under each.
    const byValue = new Map<ParamValue, Map<string, Set<number>>>();
    for (const f of rest) {
      if (!Object.hasOwn(f.params, param)) continue;
      const value = f.params[param]!;
      const setups = byValue.get(value) ?? new Map<string, Set<number>>();
      byValue.set(value, setups);
      const xs = setups.get(f.scenarioId) ?? new Set<number>();
      setups.set(f.scenarioId, xs);
      xs.add(f.params[x] as number);
    }
    const drawable = (setups: Map<string, Set<number>>) => {
      let n = 0;
      for (const xs of setups.values()) if (xs.size >= 2) n++;
      return n;
    };
    const widest = (v: ParamValue) => {
      const at = (cpuAccountings as readonly ParamValue[]).indexOf(v);
      return param === "accounting" && at >= 0 ? at : cpuAccountings.length;
    };
    const [chosen] = [...byValue.entries()]
      .map(([value, setups]) => ({ value, drawable: drawable(setups) }))
      .sort(
        (a, b) =>
          Number(b.drawable >= 2) - Number(a.drawable >= 2) ||
          widest(a.value) - widest(b.value) ||
          b.drawable - a.drawable ||
          String(a.value).localeCompare(String(b.value)),
      );
    where[param] = chosen!.value;
    rest = rest.filter((f) => f.params[param] === chosen!.value);
  }
}
