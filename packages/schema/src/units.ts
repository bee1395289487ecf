/**
 * Units as sources publish them, grouped by dimension with a factor to the dimension's base unit.
 * Lookup is case-sensitive first because case carries meaning (Mb/s is megabits, MB/s megabytes);
 * a case-insensitive match is used only when it is unambiguous ("GBIT/S", "mib"; not "GBPS") and longer than two
 * characters, so that "M" never becomes millicores.
 */

type UnitDefinition = { symbol: string; dimension: string; factor: number; spellings: readonly string[] };

const KIB = 1024;
const MIB = 1024 ** 2;
const GIB = 1024 ** 3;
const TIB = 1024 ** 4;

const units: readonly UnitDefinition[] = [
  // bitrate, base bit/s
  { symbol: "bit/s", dimension: "bitrate", factor: 1, spellings: ["bits/s", "bps", "b/s", "bit/sec"] },
  { symbol: "Kbit/s", dimension: "bitrate", factor: 1e3, spellings: ["kbit/s", "Kbps", "kbps", "Kb/s", "kb/s"] },
  { symbol: "Mbit/s", dimension: "bitrate", factor: 1e6, spellings: ["Mbps", "Mb/s", "mbit/s", "Mbits/s"] },
  { symbol: "Gbit/s", dimension: "bitrate", factor: 1e9, spellings: ["Gbps", "Gb/s", "gbit/s", "Gbits/s"] },
  { symbol: "Tbit/s", dimension: "bitrate", factor: 1e12, spellings: ["Tbps", "Tb/s", "tbit/s"] },
  { symbol: "B/s", dimension: "bitrate", factor: 8, spellings: ["bytes/s", "Bps"] },
  { symbol: "KB/s", dimension: "bitrate", factor: 8e3, spellings: ["kB/s", "KBps"] },
  { symbol: "KiB/s", dimension: "bitrate", factor: 8 * KIB, spellings: [] },
  { symbol: "MB/s", dimension: "bitrate", factor: 8e6, spellings: ["MBps"] },
  { symbol: "MiB/s", dimension: "bitrate", factor: 8 * MIB, spellings: [] },
  { symbol: "GB/s", dimension: "bitrate", factor: 8e9, spellings: ["GBps"] },
  { symbol: "GiB/s", dimension: "bitrate", factor: 8 * GIB, spellings: [] },

  // time, base s
  { symbol: "ns", dimension: "time", factor: 1e-9, spellings: ["nanoseconds", "nanosecond"] },
  { symbol: "µs", dimension: "time", factor: 1e-6, spellings: ["us", "μs", "microseconds", "microsecond"] },
  { symbol: "ms", dimension: "time", factor: 1e-3, spellings: ["milliseconds", "millisecond", "msec"] },
  { symbol: "s", dimension: "time", factor: 1, spellings: ["sec", "secs", "seconds", "second"] },
  { symbol: "min", dimension: "time", factor: 60, spellings: ["minutes", "minute", "mins"] },
  { symbol: "h", dimension: "time", factor: 3600, spellings: ["hours", "hour", "hr"] },

  // memory, base byte; MB is decimal and MiB binary, as the seeds use both ("289.7 MB", "926 MiB")
  { symbol: "B", dimension: "memory", factor: 1, spellings: ["bytes", "byte"] },
  { symbol: "KB", dimension: "memory", factor: 1e3, spellings: ["kB"] },
  { symbol: "KiB", dimension: "memory", factor: KIB, spellings: ["Ki"] },
  { symbol: "MB", dimension: "memory", factor: 1e6, spellings: [] },
  { symbol: "MiB", dimension: "memory", factor: MIB, spellings: ["Mi"] },
  { symbol: "GB", dimension: "memory", factor: 1e9, spellings: [] },
  { symbol: "GiB", dimension: "memory", factor: GIB, spellings: ["Gi"] },
  { symbol: "TB", dimension: "memory", factor: 1e12, spellings: [] },
  { symbol: "TiB", dimension: "memory", factor: TIB, spellings: ["Ti"] },

  // cpu, base core
  { symbol: "millicores", dimension: "cpu", factor: 1e-3, spellings: ["m", "mcores", "millicore", "mcpu"] },
  { symbol: "cores", dimension: "cpu", factor: 1, spellings: ["core", "vCPU", "vCPUs", "cpu", "cpus"] },

  // events per second: different words for "how many per second", so they convert 1:1
  { symbol: "req/s", dimension: "rate", factor: 1, spellings: ["requests/s", "rps", "qps", "req/sec", "queries/s"] },
  {
    symbol: "trans/s",
    dimension: "rate",
    factor: 1,
    spellings: ["transactions/s", "tps", "trans/sec", "transactions/sec"],
  },
  { symbol: "ops/s", dimension: "rate", factor: 1, spellings: ["operations/s", "ops"] },
  { symbol: "conn/s", dimension: "rate", factor: 1, spellings: ["connections/s", "cps"] },
  { symbol: "pkt/s", dimension: "rate", factor: 1, spellings: ["packets/s", "pps"] },
  { symbol: "/s", dimension: "rate", factor: 1, spellings: ["per second", "1/s"] },

  { symbol: "%", dimension: "percent", factor: 1, spellings: ["percent", "pct"] },

  // counts of things; the noun documents what was counted, the number means the same
  {
    symbol: "count",
    dimension: "count",
    factor: 1,
    spellings: ["rules", "entries", "services", "pods", "nodes", "maps", "items", "objects"],
  },
];

const exact = new Map<string, UnitDefinition>();
const folded = new Map<string, UnitDefinition | null>(); // null marks an ambiguous folding
for (const unit of units) {
  for (const spelling of [unit.symbol, ...unit.spellings]) {
    const key = compact(spelling);
    exact.set(key, unit);
    const lower = key.toLowerCase();
    const previous = folded.get(lower);
    folded.set(lower, previous === undefined || previous === unit ? unit : null);
  }
}

function compact(unit: string): string {
  // Greek mu (U+03BC) and the micro sign (U+00B5) look identical; sources use both.
  return unit.replace(/\s+/g, "").replace(/\u03bc/g, "\u00b5");
}

function findUnit(unit: string): UnitDefinition | undefined {
  // Most units arrive compact already; the regular expressions cost a measurable share of an upload.
  const known = exact.get(unit);
  if (known) return known;
  const key = compact(unit);
  return exact.get(key) ?? (key.length > 2 ? folded.get(key.toLowerCase()) : undefined) ?? undefined;
}

export function unitDimension(unit: string): string | undefined {
  return findUnit(unit)?.dimension;
}

export function canonicalUnitSymbol(unit: string): string | undefined {
  return findUnit(unit)?.symbol;
}

/**
 * The unit an x. metric is stored in. One unit per dimension, so that runs published in bit/s and in
 * Mbit/s line up in one series, and read like catalogue figures ("21,166,054,074 bit/s" is 21.17
 * Gbit/s). Rates, percentages, counts and unknown units keep the declared unit: their words differ
 * in meaning (pkt/s is not req/s) though they convert 1:1.
 */
export function storedUnitOf(unit: string): string {
  const dimension = findUnit(unit)?.dimension;
  return (dimension && storedUnitByDimension[dimension]) ?? unit;
}

const storedUnitByDimension: Record<string, string> = {
  bitrate: "Gbit/s",
  time: "ms",
  memory: "MiB",
  cpu: "millicores",
};

export function canConvert(from: string, to: string): boolean {
  const a = findUnit(from);
  const b = findUnit(to);
  return a !== undefined && b !== undefined && a.dimension === b.dimension;
}

/** Rounded to 12 significant digits so that 9400 Mbit/s is exactly 9.4 Gbit/s, not 9.400000000000002. */
export function convertValue(value: number, from: string, to: string): number {
  const a = findUnit(from);
  const b = findUnit(to);
  if (a === undefined) throw new Error(`unknown unit "${from}"`);
  if (b === undefined) throw new Error(`unknown unit "${to}"`);
  if (a.dimension !== b.dimension) {
    throw new Error(`cannot convert ${a.dimension} (${from}) to ${b.dimension} (${to})`);
  }
  if (a === b || !Number.isFinite(value)) return value;
  return Number(((value * a.factor) / b.factor).toPrecision(12));
}
