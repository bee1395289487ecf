/**
 * `cnibench gate <path…>`: uploads the files as one campaign, as `cnibench upload` does, then asks the
 * API to compare it with a baseline (POST /v1/gate) and turns the answer into a Markdown summary
 * (stdout, and --summary or $GITHUB_STEP_SUMMARY), JUnit XML (--junit) and an exit code: 1 worse,
 * 2 undecided (unless --allow-inconclusive), 0 otherwise; 64 bad usage, 65 files that do not import,
 * 69 an upload or the gate request failed. Progress and the upload summary go to stderr.
 */
import { appendFileSync, writeFileSync } from "node:fs";
import { gateResultSchema } from "@cnibench/schema";
import {
  closeUploaded,
  DEFAULT_SERVER,
  groupByFile,
  type Io,
  parseCommand,
  prepareCampaign,
  summary,
  uploadCampaign,
} from "./cli.ts";
import { type GateResult, gateExitCode, gateHeadline, junitXml, markdownSummary } from "./gate-format.ts";
import { postJson } from "./upload.ts";

/** sysexits.h: what the exit codes besides 0, 1 and 2 say. */
const EX_USAGE = 64;
const EX_DATAERR = 65;
const EX_UNAVAILABLE = 69;

// A function: cli.ts imports this module, so DEFAULT_SERVER is not there yet while it loads.
const gateUsage = () => `Usage: cnibench gate [options] <file or directory>…

Uploads benchmark outputs as one campaign (as cnibench upload does: any format it reads), compares
the campaign with a baseline (POST /v1/gate) figure by figure with the compare page's verdicts, prints
a Markdown summary and exits:
  0   no deciding figure worse beyond its margin, none undecided
  1   a deciding figure is worse beyond its margin (docs/verdicts.md)
  2   undecided: a deciding figure inconclusive, a chosen metric measured by no figure of both sides,
      nothing compared, or no earlier campaign (--allow-inconclusive makes these 0)
  64  bad usage   65  a file did not import (nothing uploaded)   69  an upload or the gate request failed

Options:
  --api <url>             ingest API (default ${DEFAULT_SERVER}; --server is the same)
  --token <token>         upload token (default: $CNIBENCH_TOKEN)
  --baseline <baseline>   previous (default): the latest earlier campaign of the same testbed;
                          scenario:<id>: that scenario's latest campaign; permalink:<slug>: the
                          bundles a permalink pinned; bundles:<id>,<id>…: those bundles
  --metric <metric>       only this metric's figures decide (repeatable; default: every figure)
  --margin <metric=pct>   margin δ in ± % for a metric (repeatable), e.g. --margin tcp.throughput=3
  --junit <file>          write JUnit XML: a test case per figure, a failure for each worse one
  --summary <file>        append the Markdown summary to <file> (default: $GITHUB_STEP_SUMMARY when set);
                          it is printed to stdout either way
  --allow-inconclusive    exit 0 rather than 2 when undecided
  --format, --retries, --env-file, --campaign, --setting, --param and the environment flags
                          (--cluster --provider --sku --cni --mode --kube-proxy …): as for upload

Example:
  npx cnibench gate --api https://cnibench.example/api --metric tcp.throughput --junit gate.xml ./results
`;

const gateOptions = {
  api: { type: "string" },
  baseline: { type: "string" },
  metric: { type: "string", multiple: true },
  margin: { type: "string", multiple: true },
  junit: { type: "string" },
  summary: { type: "string" },
  "allow-inconclusive": { type: "boolean" },
} as const;

export type GateBaseline =
  | { previous: true }
  | { scenarioId: string }
  | { permalink: string }
  | { bundleIds: string[] };

/** --baseline as the API's baseline: previous, scenario:<id>, permalink:<slug> (or a /d/<slug> address), bundles:<id>,… */
export function readBaseline(text: string | undefined): GateBaseline | string {
  const value = (text ?? "previous").trim();
  if (value === "previous") return { previous: true };
  const [kind, ...rest] = value.split(":");
  const arg = rest.join(":").trim();
  if (kind === "scenario" && arg) return { scenarioId: arg };
  if (kind === "permalink" && arg) return { permalink: arg.replace(/^.*\/d\//, "").replace(/[/?#].*$/, "") };
  if (kind === "bundles" && arg) {
    const ids = arg.split(/[\s,]+/).filter(Boolean);
    if (ids.length > 0) return { bundleIds: ids };
  }
  return `--baseline must be previous, scenario:<id>, permalink:<slug> or bundles:<id>,<id>…, not ${JSON.stringify(value)}`;
}

/** --margin tcp.throughput=3 → { "tcp.throughput": 3 }; a message when one is malformed or out of (0, 100]. */
export function readMargins(values: readonly string[] | undefined): Record<string, number> | string {
  const margins: Record<string, number> = {};
  for (const v of values ?? []) {
    const at = v.lastIndexOf("=");
    const metric = v.slice(0, at).trim();
    const percent = Number(
      v
        .slice(at + 1)
        .replace(/%$/, "")
        .trim(),
    );
    if (at <= 0 || !metric || !Number.isFinite(percent) || percent <= 0 || percent > 100) {
      return `--margin must be <metric>=<percent above 0, at most 100>, e.g. tcp.throughput=3, not ${JSON.stringify(v)}`;
    }
    margins[metric] = percent;
  }
  return margins;
}

export async function runGate(args: string[], io: Io): Promise<number> {
  const usageError = (message: string, withUsage = false) => {
    io.stderr(`cnibench gate: ${message}\n${withUsage ? `\n${gateUsage()}` : ""}`);
    return EX_USAGE;
  };
  let parsed: ReturnType<typeof parseCommand<typeof gateOptions>>;
  try {
    parsed = parseCommand(args, gateOptions);
  } catch (error) {
    return usageError((error as Error).message, true);
  }
  const { values, positionals } = parsed;
  if (values.help) {
    io.stdout(gateUsage());
    return 0;
  }
  if (values["dry-run"]) return usageError("--dry-run: a gate uploads what it compares; use cnibench upload --dry-run");
  const baseline = readBaseline(values.baseline);
  if (typeof baseline === "string") return usageError(baseline);
  const margins = readMargins(values.margin);
  if (typeof margins === "string") return usageError(margins);
  const metrics = [...new Set((values.metric ?? []).map((m) => m.trim()))];
  if (metrics.some((m) => !m)) return usageError("--metric must name a metric, e.g. tcp.throughput");
  const allowInconclusive = Boolean(values["allow-inconclusive"]);

  const server = values.api ?? values.server ?? DEFAULT_SERVER;
  const prepared = await prepareCampaign(values, positionals, io, { needToken: true, server });
  if (!prepared.ok) {
    if (prepared.problem === "too-large") {
      io.stderr(`cnibench gate: ${prepared.message}\n`);
      return EX_DATAERR;
    }
    return usageError(prepared.message, prepared.problem === "no-paths");
  }
  // stdout carries the Markdown only: progress and the upload summary go to stderr, as plain lines.
  const log: Io = { ...io, stdout: io.stderr, isTTY: false };
  const { bundles, reports, campaign } = prepared;
  if (bundles.length === 0 || reports.some((r) => r.status === "failed")) {
    io.stderr(summary(reports, new Map(), true, undefined, campaign));
    io.stderr(
      bundles.length === 0
        ? "cnibench gate: no results in these files; nothing uploaded or gated\n"
        : "cnibench gate: a file did not import (above); nothing uploaded or gated — the campaign would be incomplete\n",
    );
    return EX_DATAERR;
  }
  const uploads = await uploadCampaign(prepared, log);
  io.stderr(summary(reports, groupByFile(bundles, uploads), false, server, campaign));
  const bundleIds: string[] = [];
  for (const u of uploads.values()) {
    if (u.status === "failed") {
      io.stderr("cnibench gate: an upload failed (above); nothing gated\n");
      return EX_UNAVAILABLE;
    }
    bundleIds.push(u.id);
  }

  const answer = await postJson(
    "/v1/gate",
    {
      candidate: { bundleIds },
      baseline,
      ...(metrics.length > 0 ? { metrics } : {}),
      ...(Object.keys(margins).length > 0 ? { margins } : {}),
    },
    {
      server,
      token: prepared.token,
      retries: prepared.retries,
      backoffMs: 500,
      ...(io.fetch ? { fetch: io.fetch } : {}),
      ...(io.sleep ? { sleep: io.sleep } : {}),
      onWait: (ms, reason) => io.stderr(`gate: waiting ${Math.ceil(ms / 1000)} s (${reason})\n`),
    },
  );
  // After the gate: its answer is what CI waits for; closing lets the workspace's alerts judge it now.
  await closeUploaded(prepared, uploads, io);
  let result: GateResult;
  if (answer.ok) {
    // Read as the API's contract declares it (packages/schema): another server's answer is no verdict.
    const read = gateResultSchema.safeParse(answer.json);
    if (!read.success) {
      const [issue] = read.error.issues;
      io.stderr(
        `cnibench gate: the answer is not a gate result (${issue?.path.join(".") || "body"}: ${issue?.message}); is ${server} a cnibench ingest API?\n`,
      );
      return EX_UNAVAILABLE;
    }
    result = read.data;
  } else if (answer.status === 404 && answer.json?.error === "no_previous_campaign") {
    // The first campaign of a testbed: nothing to compare with yet, which is undecided, not a failure.
    result = {
      candidate: { description: campaign ? `campaign ${JSON.stringify(campaign)}` : "the upload", bundleIds },
      baseline: { description: `none: ${String(answer.json.message)}`, bundleIds: [] },
      rows: [],
      metrics: metrics.length > 0 ? metrics : null,
      unmeasured: [],
      compared: 0,
      worse: 0,
      inconclusive: 1,
      outcome: "inconclusive",
    };
  } else {
    io.stderr(`cnibench gate: the gate request failed: ${answer.error}\n`);
    return answer.status === 400 ? EX_USAGE : EX_UNAVAILABLE;
  }

  const markdown = markdownSummary(result, { allowInconclusive });
  io.stdout(markdown);
  const summaryFile = values.summary ?? io.env.GITHUB_STEP_SUMMARY;
  if (summaryFile) appendFileSync(summaryFile, `${markdown}\n`);
  if (values.junit) writeFileSync(values.junit, junitXml(result, { timestamp: new Date() }));
  const code = gateExitCode(result, allowInconclusive);
  io.stderr(`cnibench gate: ${gateHeadline(result, allowInconclusive)} (exit ${code})\n`);
  return code;
}
