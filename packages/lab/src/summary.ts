/**
 * A lab sweep in words (pure): `cnibench lab --summary <bundles.json>` prints, for each figure, the
 * curve of each mode (the runs' median at each Service count, their min–max and n), the verdict of the
 * second mode against the first at each step (the compare page's verdicts, docs/verdicts.md), and
 * where one curve overtakes the other — the Markdown docs/lab.md reports a sweep with.
 */
import { compareFigures, findCrossovers, resolveBetter, type Series, summariseCrossovers } from "@cnibench/analysis";
import { formatNumber, verdictWords } from "@cnibench/format";
import type { BundleInput } from "@cnibench/schema";

type Result = BundleInput["results"][number];

/** The figures a sweep is read by, in docs/lab.md's order. */
const figures: { title: string; metric: string; params: Record<string, string | number> }[] = [
  { title: "Short-connection request rate", metric: "http.rps", params: { connection: "short" } },
  { title: "Keep-alive request rate", metric: "http.rps", params: { connection: "keepalive" } },
  { title: "Connect latency p50", metric: "conn.setup.latency", params: { percentile: 50 } },
  { title: "Connect latency p99", metric: "conn.setup.latency", params: { percentile: 99 } },
  {
    title: "Request latency p50 (short connections)",
    metric: "http.latency",
    params: { connection: "short", percentile: 50 },
  },
  { title: "TCP throughput", metric: "tcp.throughput", params: {} },
  { title: "Rule load time", metric: "x.rules.load", params: {} },
];

const matches = (r: Result, metric: string, params: Record<string, string | number>) =>
  r.metric === metric && Object.entries(params).every(([k, v]) => r.params?.[k] === v);

const servicesOf = (r: Result) => Number(r.params?.services);

/** "10,190 (9,750–12,281)": the median of the runs, their range when there are several. */
function cell(r: Result | undefined): string {
  if (!r) return "—";
  const runs = r.samples ?? [];
  if (runs.length < 2) return formatNumber(r.value);
  return `${formatNumber(r.value)} (${formatNumber(Math.min(...runs))}–${formatNumber(Math.max(...runs))})`;
}

/** "worse, ×0.61": the verdict of the candidate against the baseline, and the ratio of their medians. */
function verdictCell(baseline: Result | undefined, candidate: Result | undefined): string {
  if (!baseline || !candidate) return "—";
  const { verdict } = compareFigures(baseline, candidate);
  const ratio = baseline.value === 0 ? "" : `, ×${formatNumber(candidate.value / baseline.value, 3)}`;
  return `${verdictWords[verdict]}${ratio}`;
}

/** The summary of one sweep's bundles (one per mode, as `cnibench lab --out` writes them), as Markdown. */
export function labSummary(bundles: readonly BundleInput[]): string {
  const modes = bundles.map((b) => b.cni.mode ?? b.cni.kubeProxy ?? "?");
  const first = bundles[0];
  if (!first) return "No bundle to summarise.\n";
  const runs = Math.max(...bundles.flatMap((b) => b.results.map((r) => r.samples?.length ?? 1)));
  const lines = [
    `# cnibench lab on ${first.cluster.name}: ${modes.join(" and ")}`,
    "",
    `${first.node.sku ?? "unknown CPU"}, ${first.node.vcpus ?? "?"} vCPUs, kernel ${first.node.kernel ?? "unknown"}; ` +
      `up to ${runs} run(s) per step, campaign ${first.campaign ?? "—"} (${first.runAt ?? "no date"}). ` +
      "Each cell: the median of the runs (their min–max). " +
      (modes.length > 1 ? `Verdicts: ${modes.slice(1).join(", ")} against ${modes[0]} at each step.` : ""),
  ];
  for (const f of figures) {
    const per = bundles.map((b) => b.results.filter((r) => matches(r, f.metric, f.params)));
    const counts = [...new Set(per.flat().map(servicesOf))].sort((a, b) => a - b);
    if (counts.length === 0) continue;
    const unit = per.flat()[0]?.unit ?? "";
    const against = modes.slice(1).map((m) => `${m} vs ${modes[0]}`);
    lines.push(
      "",
      `## ${f.title} (${unit})`,
      "",
      `| Services | ${[...modes, ...against].join(" | ")} |`,
      `| ---: | ${[...modes.map(() => "---:"), ...against.map(() => "---")].join(" | ")} |`,
    );
    for (const n of counts) {
      const at = per.map((rs) => rs.find((r) => servicesOf(r) === n));
      const verdicts = at.slice(1).map((r) => verdictCell(at[0], r));
      lines.push(`| ${formatNumber(n)} | ${[...at.map(cell), ...verdicts].join(" | ")} |`);
    }
    // Where one mode's curve overtakes another's (as the crossover chart finds it): only where the runs
    // decide the order on both sides, else what is known ("within noise at 0, nftables ahead from …").
    const series: Series[] = per.map((rs, i) => ({
      id: modes[i] ?? String(i),
      label: modes[i] ?? String(i),
      points: rs.map((r) => ({ x: servicesOf(r), value: r.value, ...(r.samples ? { samples: r.samples } : {}) })),
    }));
    const better = resolveBetter(f.metric, per.flat()[0]?.better);
    const crossings = summariseCrossovers(findCrossovers(series, better, { metric: f.metric }), {
      along: "services",
      significantDigits: 5,
    });
    if (crossings.sentences.length > 0) lines.push("", `Crossover: ${crossings.sentences.join("; ")}.`);
    if (crossings.withinNoise.length > 0) lines.push("", `No crossover: ${crossings.withinNoise.join("; ")}.`);
  }
  return `${lines.join("\n")}\n`;
}
