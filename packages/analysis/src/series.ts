import type { Figure, Point, Series } from "./types.ts";

/** Points in ascending x; rejects what would make interpolation ambiguous (NaN, repeated x). */
export function sortedPoints(series: Series): Point[] {
  const points = [...series.points].sort((a, b) => a.x - b.x);
  for (const [i, point] of points.entries()) {
    if (!Number.isFinite(point.x) || !Number.isFinite(point.value)) {
      throw new RangeError(`series "${series.id}" has a point with a non-finite x or value`);
    }
    if (i > 0 && points[i - 1]!.x === point.x) {
      throw new RangeError(`series "${series.id}" has two points at x = ${point.x}`);
    }
  }
  return points;
}

/** The value of a sorted line at x and the sampled points it rests on; undefined outside the line. */
export type Reading = { value: number; sampled: boolean; support: Point[] };

/**
 * Linear interpolation between the neighbouring samples, never extrapolation. Hand-written: it is
 * the two-point formula, and it must also say which samples the value rests on (for qualifiers).
 */
export function readAt(points: readonly Point[], x: number): Reading | undefined {
  for (let i = 0; i < points.length; i++) {
    const right = points[i]!;
    if (right.x === x) return { value: right.value, sampled: true, support: [right] };
    if (right.x > x) {
      const left = points[i - 1];
      if (!left) return undefined;
      const share = (x - left.x) / (right.x - left.x);
      return { value: left.value + share * (right.value - left.value), sampled: false, support: [left, right] };
    }
  }
  return undefined;
}

/**
 * A chart line from measurements that differ in one numeric param (e.g. `services`): each
 * measurement whose `xParam` is a finite number (or a numeric string) becomes a point.
 */
export function seriesFromMeasurements(
  id: string,
  label: string,
  measurements: readonly Figure[],
  xParam: string,
): Series {
  const points: Point[] = [];
  for (const m of measurements) {
    const raw = m.params?.[xParam];
    const x = typeof raw === "number" ? raw : typeof raw === "string" && raw.trim() !== "" ? Number(raw) : Number.NaN;
    if (!Number.isFinite(x)) continue;
    points.push({ x, value: m.value, qualifier: m.qualifier ?? null, low: m.low ?? null, high: m.high ?? null });
  }
  return { id, label, points: points.sort((a, b) => a.x - b.x) };
}
