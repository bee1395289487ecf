/**
 * What `cnibench gate` makes of POST /v1/gate's answer, pure: its exit code, a Markdown summary (for a
 * pull-request comment or $GITHUB_STEP_SUMMARY) and JUnit XML (one test case per figure, a failure for
 * each worse one). The server words the figures (units, Unicode minus: `text`); this only lays them out.
 */
import type { GateResult, GateRow } from "@cnibench/schema";

// POST /v1/gate's answer and its rows, as the API's contract declares them.
export type { GateResult, GateRow };

type GateExitCode = 0 | 1 | 2;

/** 1 when a deciding figure is worse beyond its margin; else 2 when undecided, unless allowed; else 0. */
export function gateExitCode(result: Pick<GateResult, "worse" | "inconclusive">, allowInconclusive: boolean) {
  if (result.worse > 0) return 1 as GateExitCode;
  if (result.inconclusive > 0 && !allowInconclusive) return 2 as GateExitCode;
  return 0 as GateExitCode;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;
const figureName = (r: Pick<GateRow, "metric" | "text">) =>
  r.text.params === "—" ? r.metric : `${r.metric} (${r.text.params})`;
const margin = (r: GateRow) => (r.marginPercent === null ? "" : `, margin ±${r.marginPercent} %`);
/** ", while moving 100.0 % more traffic": what a worse CPU figure must be read with. */
const caveat = (r: GateRow) => (r.caveat ? `, ${r.caveat}` : "");

/** The outcome in a line: "1 figure worse beyond its margin: tcp.throughput (streams 1) −8.1 %". */
export function gateHeadline(result: GateResult, allowInconclusive: boolean): string {
  const worse = result.rows.filter((r) => r.gated && r.verdict === "worse");
  if (worse.length > 0) {
    const which = worse.map((r) => `${figureName(r)} ${r.text.change}`).join(", ");
    return `${plural(worse.length, "figure")} worse beyond ${worse.length === 1 ? "its margin" : "their margins"}: ${which}`;
  }
  if (result.inconclusive > 0) {
    const undecided = result.rows.filter((r) => r.gated && r.verdict === "inconclusive").map(figureName);
    const parts = [
      ...(undecided.length > 0 ? [`${plural(undecided.length, "figure")} inconclusive: ${undecided.join(", ")}`] : []),
      ...(result.unmeasured.length > 0 ? [`not measured by both: ${result.unmeasured.join(", ")}`] : []),
      ...(result.compared === 0 ? ["no figure measured by both sides"] : []),
    ];
    return `undecided${allowInconclusive ? " (allowed)" : ""}: ${parts.join("; ")}`;
  }
  return `no figure worse beyond its margin (${plural(result.compared, "figure")} compared)`;
}

/** A Markdown table cell: pipes escaped, one line, no HTML. */
export function markdownCell(text: string): string {
  return text
    .replace(/\r?\n|\r/g, " ")
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/\|/g, "\\|");
}

const mark = (r: GateRow) => {
  if (!r.gated || r.verdict === "missing" || r.verdict === "not-comparable") return "·";
  if (r.verdict === "worse") return "❌";
  if (r.verdict === "inconclusive") return "⚠️";
  return "✅";
};

/**
 * The summary: the outcome, what was compared with what, a table (metric, params, baseline,
 * candidate, change, verdict) of every figure, and the evidence of each under a fold.
 */
export function markdownSummary(result: GateResult, options: { allowInconclusive: boolean }): string {
  const code = gateExitCode(result, options.allowInconclusive);
  const title = code === 1 ? "❌ worse" : code === 2 ? "⚠️ inconclusive" : "✅ pass";
  const lines = [
    `### cnibench gate: ${title}`,
    "",
    markdownCell(gateHeadline(result, options.allowInconclusive)),
    "",
    `- candidate: ${markdownCell(result.candidate.description)}`,
    `- baseline: ${markdownCell(result.baseline.description)}`,
    ...(result.metrics
      ? [`- deciding metrics: ${result.metrics.map((m) => `\`${markdownCell(m)}\``).join(", ")}`]
      : []),
    "",
  ];
  if (result.rows.length > 0) {
    lines.push(
      "| | metric | params | baseline | candidate | change | verdict |",
      "| --- | --- | --- | --- | --- | --- | --- |",
    );
    for (const r of result.rows) {
      const verdict =
        r.gated && (r.verdict === "worse" || r.verdict === "inconclusive") ? `**${r.text.verdict}**` : r.text.verdict;
      lines.push(
        `| ${mark(r)} | ${markdownCell(r.label)} \`${markdownCell(r.metric)}\` | ${markdownCell(r.text.params)} | ${markdownCell(r.text.baseline)} | ${markdownCell(r.text.candidate)} | ${markdownCell(r.text.change)} | ${markdownCell(verdict)}${markdownCell(`${caveat(r)}${margin(r)}`).replace(/^, /, " · ")} |`,
      );
    }
    if (result.metrics)
      lines.push("", "· not deciding: another metric, measured by one side only, or without a better direction.");
    lines.push("", "<details><summary>Evidence</summary>", "");
    for (const r of result.rows) lines.push(`- \`${markdownCell(figureName(r))}\`: ${markdownCell(r.why)}`);
    lines.push("", "</details>");
  }
  return `${lines.join("\n")}\n`;
}

/** Text for XML content and attribute values: the five entities, and no character XML 1.0 forbids. */
export function xmlEscape(text: string): string {
  return (
    text
      // biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters XML 1.0 forbids
      .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, "")
      .replace(/&/g, "&amp;")
      .replace(/</g, "&lt;")
      .replace(/>/g, "&gt;")
      .replace(/"/g, "&quot;")
      .replace(/'/g, "&apos;")
  );
}

const attrs = (values: Record<string, string | number>) =>
  Object.entries(values)
    .map(([k, v]) => ` ${k}="${xmlEscape(String(v))}"`)
    .join("");

/**
 * JUnit XML: one <testcase> per figure (classname the metric, name the metric and params); a
 * <failure> for a deciding figure that is worse, naming the metric and the change; <skipped> for a
 * deciding one left inconclusive, for a chosen metric no figure of both sides measured, and for
 * "nothing compared"; every verdict and its evidence in <system-out>.
 */
export function junitXml(result: GateResult, options: { timestamp?: Date } = {}): string {
  type Case = {
    classname: string;
    name: string;
    failure?: { type: string; message: string; body: string };
    skipped?: string;
    out: string;
  };
  const cases: Case[] = result.rows.map((r) => {
    const name = figureName(r);
    const summary = `${r.text.baseline} → ${r.text.candidate}`;
    const out = `${r.text.verdict}${r.gated ? "" : " (not deciding)"}: ${summary}, change ${r.text.change}${caveat(r)}${margin(r)}\n${r.why}`;
    const c: Case = { classname: `cnibench.gate.${r.metric}`, name, out };
    if (r.gated && r.verdict === "worse") {
      c.failure = {
        type: "worse",
        message: `${name} is worse: ${r.text.change} (${summary})${caveat(r)}${margin(r)}`,
        body: r.why,
      };
    } else if (r.gated && r.verdict === "inconclusive") {
      c.skipped = `${name} is inconclusive: ${r.text.change} (${summary})${margin(r)}`;
    }
    return c;
  });
  for (const metric of result.unmeasured) {
    cases.push({
      classname: `cnibench.gate.${metric}`,
      name: metric,
      skipped: `${metric}: no figure measured by both the candidate and the baseline`,
      out: "",
    });
  }
  if (result.compared === 0 && result.unmeasured.length === 0) {
    cases.push({
      classname: "cnibench.gate",
      name: "comparison",
      skipped: `nothing compared: ${result.baseline.description}`,
      out: "",
    });
  }
  const failures = cases.filter((c) => c.failure).length;
  const skipped = cases.filter((c) => c.skipped).length;
  const counts = { tests: cases.length, failures, errors: 0, skipped };
  const body = cases.map((c) => {
    const inner = [
      c.failure
        ? `      <failure${attrs({ type: c.failure.type, message: c.failure.message })}>${xmlEscape(c.failure.body)}</failure>`
        : "",
      c.skipped ? `      <skipped${attrs({ message: c.skipped })}/>` : "",
      c.out ? `      <system-out>${xmlEscape(c.out)}</system-out>` : "",
    ].filter(Boolean);
    const open = `    <testcase${attrs({ classname: c.classname, name: c.name, time: 0 })}`;
    return inner.length > 0 ? `${open}>\n${inner.join("\n")}\n    </testcase>` : `${open}/>`;
  });
  const properties = [
    ["candidate", result.candidate.description],
    ["baseline", result.baseline.description],
    ["outcome", result.outcome],
    ...(result.metrics ? [["metrics", result.metrics.join(",")]] : []),
  ].map(([name, value]) => `      <property${attrs({ name: name!, value: value! })}/>`);
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites${attrs({ name: "cnibench gate", ...counts })}>`,
    `  <testsuite${attrs({ name: "cnibench gate", ...counts, ...(options.timestamp ? { timestamp: options.timestamp.toISOString().slice(0, 19) } : {}) })}>`,
    "    <properties>",
    ...properties,
    "    </properties>",
    ...body,
    "  </testsuite>",
    "</testsuites>",
    "",
  ].join("\n");
}
