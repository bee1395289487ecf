/** Parsers of the load generators' outputs and the statistics the lab reports (pure). */

export type WrkResult = {
  requests: number;
  requestsPerSecond: number;
  /** Latency percentiles in ms (wrk --latency), when printed. */
  latencyMs: Partial<Record<"50" | "75" | "90" | "99", number>>;
  socketErrors: { connect: number; read: number; write: number; timeout: number };
  non2xx: number;
};

function toMs(value: number, unit: string): number {
  if (unit === "us") return value / 1000;
  if (unit === "ms") return value;
  if (unit === "s") return value * 1000;
  if (unit === "m") return value * 60_000;
  throw new Error(`unknown wrk time unit "${unit}"`);
}

/** wrk 4's text report. Throws when it has no "Requests/sec" line (wrk failed). */
export function parseWrk(text: string): WrkResult {
  const rps = /^Requests\/sec:\s+([\d.]+)/m.exec(text);
  const total = /^\s*(\d+) requests in /m.exec(text);
  if (!rps || !total) throw new Error(`wrk printed no result: ${text.trim().slice(0, 300)}`);
  const latencyMs: WrkResult["latencyMs"] = {};
  for (const m of text.matchAll(/^\s+(50|75|90|99)%\s+([\d.]+)(us|ms|s|m)\s*$/gm)) {
    latencyMs[m[1] as "50"] = toMs(Number(m[2]), m[3]!);
  }
  const errors = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(text);
  const non2xx = /Non-2xx or 3xx responses: (\d+)/.exec(text);
  return {
    requests: Number(total[1]),
    requestsPerSecond: Number(rps[1]),
    latencyMs,
    socketErrors: {
      connect: Number(errors?.[1] ?? 0),
      read: Number(errors?.[2] ?? 0),
      write: Number(errors?.[3] ?? 0),
      timeout: Number(errors?.[4] ?? 0),
    },
    non2xx: Number(non2xx?.[1] ?? 0),
  };
}

/** iperf3 -J: the receiver's rate in Gbit/s (what arrived, docs/design.md). */
export function parseIperf3Gbps(json: string): number {
  const data = JSON.parse(json) as { error?: string; end?: { sum_received?: { bits_per_second?: number } } };
  if (data.error) throw new Error(`iperf3: ${data.error}`);
  const bps = data.end?.sum_received?.bits_per_second;
  if (typeof bps !== "number") throw new Error("iperf3 -J has no end.sum_received.bits_per_second");
  return bps / 1e9;
}

/** Percentile by linear interpolation between closest ranks (numpy's default "linear" method). */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) throw new RangeError("percentile of no values");
  const sorted = [...values].sort((a, b) => a - b);
  const rank = (p / 100) * (sorted.length - 1);
  const lo = Math.floor(rank);
  const hi = Math.ceil(rank);
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (rank - lo);
}

/** "0,1k,5000,10k" → [0, 1000, 5000, 10000]. */
export function parseCounts(text: string): number[] {
  const counts = text.split(",").map((part) => {
    const m = /^\s*(\d+(?:\.\d+)?)\s*(k?)\s*$/i.exec(part);
    if (!m) throw new Error(`"${part.trim()}" is not a Service count`);
    const n = Number(m[1]) * (m[2] ? 1000 : 1);
    if (!Number.isInteger(n)) throw new Error(`"${part.trim()}" is not a whole number of Services`);
    return n;
  });
  return [...new Set(counts)].sort((a, b) => a - b);
}
