/**
 * The CI gate end to end: `cnibench gate` (in-process, as packages/cli's tests run `upload`) against a
 * real ingest API on a real PostgreSQL. One testbed measured nightly: 12 campaigns of 3 iperf3 runs of
 * TCP throughput at ≈ 9.4 Gbit/s with 2 % run-to-run noise, 8 % lower from campaign 9 on (a
 * regression). Campaign 9's files gated against campaign 8 fail on tcp.throughput; campaign 8's
 * against campaign 7 pass. A second testbed with 2 runs a campaign and 6 % noise cannot decide.
 */

import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { type Io, run } from "@cnibench/cli";
import { createPermalink } from "@cnibench/db";
import { freshDatabase } from "@cnibench/test-support/database";
import { startIngest } from "@cnibench/test-support/ingest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// Drawn with numpy (default_rng(27)): received = 9.4e9 · (0.92 from campaign 9) · exp(N(0, 0.02)) per
// run, rounded to 0.1 Mbit/s; sent = received · 1.0021 · exp(N(0, 0.0005)). [received runs, sent runs].
const nightly: [number[], number[]][] = [
  [
    [9638800000, 9547200000, 9583200000],
    [9653800000, 9571400000, 9602500000],
  ],
  [
    [9364400000, 9613000000, 9318200000],
    [9378100000, 9630900000, 9332200000],
  ],
  [
    [9060400000, 9372700000, 9475200000],
    [9069600000, 9392500000, 9496300000],
  ],
  [
    [9432600000, 9164200000, 9341700000],
    [9451500000, 9185400000, 9355300000],
  ],
  [
    [9472400000, 9588300000, 8979600000],
    [9493400000, 9601100000, 8997700000],
  ],
  [
    [9273000000, 9642500000, 9410700000],
    [9296200000, 9657700000, 9432600000],
  ],
  [
    [9671200000, 9268000000, 9526000000],
    [9693800000, 9287200000, 9540000000],
  ],
  [
    [9453400000, 9349300000, 9513900000],
    [9476900000, 9376100000, 9529900000],
  ],
  [
    [8798900000, 8770100000, 8661100000],
    [8820100000, 8789100000, 8682200000],
  ],
  [
    [8716100000, 8551200000, 8666500000],
    [8737300000, 8565500000, 8683000000],
  ],
  [
    [8878400000, 8704400000, 8541700000],
    [8894500000, 8728900000, 8561700000],
  ],
  [
    [8327500000, 8739500000, 8497800000],
    [8344600000, 8750900000, 8514500000],
  ],
];
// The second testbed: 2 runs a campaign, exp(N(0, 0.06)) noise, 4 % lower in the second (same draw).
const noisy = [
  [8983300000, 8748900000],
  [9537300000, 10473400000],
];

/** An `iperf3 -J` result of one TCP stream (the fields the importer reads), measured at `at`. */
function iperf3(received: number, sent: number, at: Date): string {
  return JSON.stringify({
    start: {
      version: "iperf 3.16",
      system_info: "Linux bench-client 6.8.0-45-generic #45-Ubuntu SMP PREEMPT_DYNAMIC x86_64",
      timestamp: { time: at.toUTCString(), timesecs: at.getTime() / 1000 },
      test_start: { protocol: "TCP", num_streams: 1, blksize: 131072, duration: 30, reverse: 0 },
    },
    intervals: [],
    end: {
      sum_sent: { seconds: 30, bytes: (sent * 30) / 8, bits_per_second: sent },
      sum_received: { seconds: 30, bytes: (received * 30) / 8, bits_per_second: received },
    },
  });
}

const bin = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../packages/cli/bin/cnibench.js");

let database: Awaited<ReturnType<typeof freshDatabase>>;
let api: Awaited<ReturnType<typeof startIngest>>;
let dir: string;
const lab = ["--cluster=lab-nightly", "--provider=on-prem", "--sku=bare-metal-xeon", "--cni=cilium", "--mode=native"];
const small = ["--cluster=lab-small", "--provider=on-prem", "--sku=vm-2vcpu", "--cni=cilium", "--mode=native"];

/** The folder of one campaign's runs: run k of campaign c at 02:00 + 10k minutes UTC on November c. */
function campaignDir(name: string, day: number, runs: [number, number][]): string {
  const folder = path.join(dir, name);
  mkdirSync(folder, { recursive: true });
  runs.forEach(([received, sent], k) => {
    const at = new Date(Date.UTC(2026, 10, day, 2, 10 * k));
    writeFileSync(path.join(folder, `iperf3-run${k + 1}.json`), iperf3(received, sent, at));
  });
  return folder;
}
const nightlyDir = (c: number) => {
  const [received, sent] = nightly[c - 1]!;
  return campaignDir(
    `nightly-${String(c).padStart(2, "0")}`,
    c,
    received.map((r, k) => [r, sent[k]!]),
  );
};

function capture(env: Record<string, string> = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const io: Io = {
    stdout: (t) => out.push(t),
    stderr: (t) => err.push(t),
    isTTY: false,
    env: { CNIBENCH_TOKEN: api.token, ...env },
  };
  return { io, out: () => out.join(""), err: () => err.join("") };
}

beforeAll(async () => {
  database = await freshDatabase();
  api = await startIngest(database.url);
  dir = mkdtempSync(path.join(os.tmpdir(), "cnibench-gate-"));
  // Every night but the 9th has been uploaded: the gate uploads campaign 9 itself.
  for (const c of [1, 2, 3, 4, 5, 6, 7, 8, 10, 11, 12]) {
    const { io, err } = capture();
    const code = await run(
      ["upload", "--server", api.base, ...lab, `--campaign=nightly-${String(c).padStart(2, "0")}`, nightlyDir(c)],
      io,
    );
    expect(code, err()).toBe(0);
  }
});
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await api.close();
  await database.drop();
});

describe("cnibench gate against a real ingest API", () => {
  // Expected verdicts, as packages/analysis computes them, recomputed with scipy 1.17 on the logs of
  // the runs above: each side's variance pooled over its earlier campaigns (Σ(kᵢ−1)·s²ᵢ/Σ(kᵢ−1), 7
  // campaigns / 21 runs for campaign 8, 8 / 24 for campaign 9), Welch–Satterthwaite df,
  // p = 2·stats.t.cdf(−|d/se|, df), stats.false_discovery_control over the two figures, 90 % interval
  // with stats.t.ppf(0.95, df):
  // - 9 vs 8: tcp.throughput ratio 0.9263 (95 % 0.8950–0.9587), df 29.56, p 8.6e-5 → worse (margin 5 %);
  //   x.tcp.throughput.sent ratio 0.9263, p 8.5e-5, margin 10 % → inconclusive (not deciding here).
  // - 8 vs 7: tcp.throughput ratio 0.9949 (0.9602–1.0308), p 0.77 → equivalent; sent 0.9953, equivalent.
  // - the noisy testbed, 2 vs 2 runs: stats.ttest_ind(log B, log A, equal_var=False) p 0.217, ratio
  //   1.127 (0.719–1.768) → inconclusive.

  it("fails tonight's campaign against campaign 8: exit 1, a JUnit failure naming tcp.throughput", async () => {
    const campaign8 = (await api.db.bundle.findMany({ where: { campaign: "nightly-08" }, select: { id: true } })).map(
      (b) => b.id,
    );
    expect(campaign8).toHaveLength(3);
    const junit = path.join(dir, "junit.xml");
    const summaryFile = path.join(dir, "summary.md");
    const { io, out, err } = capture();
    const code = await run(
      [
        "gate",
        "--api",
        api.base,
        ...lab,
        "--campaign=nightly-09",
        `--baseline=bundles:${campaign8.join(",")}`,
        "--metric=tcp.throughput",
        "--junit",
        junit,
        "--summary",
        summaryFile,
        nightlyDir(9),
      ],
      io,
    );
    expect(code, err()).toBe(1);
    // Uploaded first (progress on stderr), as one campaign.
    expect(err()).toMatch(/3 bundle\(s\) created, 0 already there, 0 upload\(s\) failed, 0 file\(s\) failed/);
    expect(err()).toContain("campaign nightly-09\n");
    // The change of the medians, 8.7701 / 9.4534 − 1 = −7.228 %, in three significant digits (format.ts).
    expect(err()).toMatch(/1 figure worse beyond its margin: tcp\.throughput \(streams 1\) −7\.23 % \(exit 1\)/);

    const markdown = out();
    expect(markdown).toContain("### cnibench gate: ❌ worse");
    expect(markdown).toContain(`- baseline: 3 named bundles of Cilium native routing`);
    expect(markdown).toMatch(
      /\| ❌ \| TCP throughput `tcp\.throughput` \| streams 1 \| 9\.453 Gbit\/s \(n=3\) \| 8\.77 Gbit\/s \(n=3\) \| −7\.\d+ % \| \*\*worse\*\* · margin ±5 % \|/,
    );
    // The sender's rate is compared and listed, but does not decide (--metric).
    expect(markdown).toMatch(
      /\| · \| x\.tcp\.throughput\.sent `x\.tcp\.throughput\.sent` \| streams 1 \|.*\| inconclusive · margin ±10 % \|/,
    );
    expect(markdown).toContain("ratio 0.926, 95 % interval 0.895–0.959, margin ±5 %");
    expect(markdown).toContain("baseline noise from 21 earlier runs in 7 campaigns");
    expect(markdown).toContain("candidate noise from 24 earlier runs in 8 campaigns");
    expect(readFileSync(summaryFile, "utf8")).toBe(`${markdown}\n`);

    const xml = readFileSync(junit, "utf8");
    expect(xml).toMatch(/<testsuites name="cnibench gate" tests="2" failures="1" errors="0" skipped="0">/);
    expect(xml).toMatch(
      /<testcase classname="cnibench\.gate\.tcp\.throughput" name="tcp\.throughput \(streams 1\)" time="0">\n\s+<failure type="worse" message="tcp\.throughput \(streams 1\) is worse: −7\.\d+ % \(9\.453 Gbit\/s \(n=3\) → 8\.77 Gbit\/s \(n=3\)\), margin ±5 %">3 vs 3 runs: ratio 0\.926/,
    );
    expect(xml).toMatch(
      /name="x\.tcp\.throughput\.sent \(streams 1\)" time="0">\n\s+<system-out>inconclusive \(not deciding\)/,
    );
  });

  it("finds campaign 8 as the previous campaign of tonight's (10–12 were uploaded earlier), run as the command", async () => {
    // As CI runs it: bin/cnibench.js in its own process, the token from the environment, exit code 1.
    const argv = [
      bin,
      "gate",
      "--api",
      api.base,
      ...lab,
      "--campaign=nightly-09",
      "--metric=tcp.throughput",
      nightlyDir(9),
    ];
    const failed = await promisify(execFile)(process.execPath, argv, {
      env: { ...process.env, CNIBENCH_TOKEN: api.token, GITHUB_STEP_SUMMARY: "" },
    }).catch((error: { code: number; stdout: string; stderr: string }) => error);
    const { code, stdout, stderr } = failed as { code: number; stdout: string; stderr: string };
    expect(code, stderr).toBe(1);
    expect(stderr).toMatch(/0 bundle\(s\) created, 3 already there/);
    const out = () => stdout;
    expect(out()).toMatch(/^### cnibench gate: ❌ worse\n/);
    expect(out()).toContain(
      '- baseline: previous campaign "nightly-08" of Cilium native routing (3 bundles, measured 2026-11-08)',
    );
    expect(out()).toContain(
      '- candidate: campaign "nightly-09" of Cilium native routing (3 bundles, measured 2026-11-09)',
    );
  });

  it("follows the testbed across a kernel upgrade: night 13, on a new kernel, against night 12", async () => {
    // Another scenario (the kernel is part of it), the same testbed; the same runs as night 12.
    const [received, sent] = nightly[11]!;
    const folder = campaignDir(
      "nightly-13",
      13,
      received.map((r, k) => [r, sent[k]!]),
    );
    const { io, out, err } = capture();
    const code = await run(["gate", "--api", api.base, ...lab, "--kernel=6.9.0", "--campaign=nightly-13", folder], io);
    // Night 12's noise pooled from nights 1–8, 10 and 11 (30 runs; 9 was uploaded after it); night 13's
    // own 3 runs: ratio 1, 90 % interval ±3.6 % on the log scale → equivalent (scipy, as above).
    expect(code, err()).toBe(0);
    expect(out()).toContain(
      '- baseline: previous campaign "nightly-12" of Cilium native routing (3 bundles, measured 2026-11-12); since then kernel 6.8.0-45-generic → 6.9.0',
    );
    expect(out()).toContain("3 vs 3 runs: ratio 1.000, 95 % interval 0.955–1.047, margin ±5 %");
    expect(out()).toContain("baseline noise from 30 earlier runs in 10 campaigns");
  });

  it("passes campaign 8 against campaign 7, every figure deciding: exit 0, no JUnit failure", async () => {
    const junit = path.join(dir, "junit-8.xml");
    const stepSummary = path.join(dir, "step-summary.md");
    writeFileSync(stepSummary, "earlier step\n");
    const { io, out, err } = capture({ GITHUB_STEP_SUMMARY: stepSummary });
    const code = await run(
      [
        "gate",
        "--api",
        api.base,
        ...lab,
        "--campaign=nightly-08",
        "--baseline=previous",
        "--junit",
        junit,
        nightlyDir(8),
      ],
      io,
    );
    expect(code, err()).toBe(0);
    expect(out()).toContain("### cnibench gate: ✅ pass");
    expect(out()).toContain('- baseline: previous campaign "nightly-07"');
    expect(out()).toMatch(
      /\| ✅ \| TCP throughput `tcp\.throughput` \| streams 1 \| .* \| −0\.762 % \| equivalent · margin ±5 % \|/,
    );
    expect(out()).toMatch(/\| ✅ \| x\.tcp\.throughput\.sent .* \| equivalent · margin ±10 % \|/);
    expect(out()).toContain("3 vs 3 runs: ratio 0.995, 95 % interval 0.960–1.031, margin ±5 %");
    // $GITHUB_STEP_SUMMARY is appended to, not replaced.
    expect(readFileSync(stepSummary, "utf8")).toBe(`earlier step\n${out()}\n`);
    const xml = readFileSync(junit, "utf8");
    expect(xml).toContain('tests="2" failures="0" errors="0" skipped="0"');
    expect(xml).not.toContain("<failure");
  });

  it("cannot decide with 2 noisy runs a side: exit 2, or 0 with --allow-inconclusive; the first campaign has no baseline", async () => {
    const [a, b] = noisy as [number[], number[]];
    const first = campaignDir(
      "small-1",
      1,
      a.map((r) => [r, r]),
    );
    const second = campaignDir(
      "small-2",
      2,
      b.map((r) => [r, r]),
    );
    const gate = async (folder: string, extra: string[]) => {
      const { io, out, err } = capture();
      const code = await run(["gate", "--api", api.base, ...small, "--metric=tcp.throughput", ...extra, folder], io);
      return { code, out: out(), err: err() };
    };

    // The testbed's first campaign: nothing to compare with yet, which is undecided.
    const none = await gate(first, ["--campaign=small-1"]);
    expect(none.code, none.err).toBe(2);
    expect(none.out).toContain("### cnibench gate: ⚠️ inconclusive");
    expect(none.out).toContain("- baseline: none: No earlier campaign");
    expect((await gate(first, ["--campaign=small-1", "--allow-inconclusive"])).code).toBe(0);

    const junit = path.join(dir, "junit-small.xml");
    const undecided = await gate(second, ["--campaign=small-2", "--junit", junit]);
    expect(undecided.code, undecided.err).toBe(2);
    expect(undecided.out).toMatch(
      /\| ⚠️ \| TCP throughput `tcp\.throughput` \| streams 1 \| .* \(n=2\) \| .* \(n=2\) \| \+12\.\d+ % \| \*\*inconclusive\*\*/,
    );
    expect(undecided.out).toContain("ratio 1.127, 95 % interval 0.719–1.768");
    expect(undecided.out).toMatch(/about \d+ more runs? per side would decide at this noise/);
    expect(readFileSync(junit, "utf8")).toMatch(
      /<skipped message="tcp\.throughput \(streams 1\) is inconclusive: \+12\.\d+ %/,
    );

    const allowed = await gate(second, ["--campaign=small-2", "--allow-inconclusive"]);
    expect(allowed.code, allowed.err).toBe(0);
    expect(allowed.out).toContain("### cnibench gate: ✅ pass");
    expect(allowed.err).toContain("undecided (allowed): 1 figure inconclusive: tcp.throughput (streams 1) (exit 0)");
  });

  it("takes a permalink's pinned bundles of its baseline scenario: night 8 against the latest pinned, night 12", async () => {
    const nightly12 = await api.db.bundle.findFirstOrThrow({
      where: { campaign: "nightly-12" },
      select: { scenarioId: true },
    });
    const link = await createPermalink(
      api.db,
      { userId: null, readable: [api.workspaceId], roles: {} },
      { scenarioIds: [nightly12.scenarioId], view: {} },
    );
    const { io, out, err } = capture();
    const code = await run(
      [
        "gate",
        "--api",
        api.base,
        ...lab,
        "--campaign=nightly-08",
        `--baseline=permalink:${link!.slug}`,
        "--metric=tcp.throughput",
        nightlyDir(8),
      ],
      io,
    );
    expect(code, err()).toBe(0);
    expect(out()).toContain(
      `- baseline: permalink /d/${link!.slug}: Cilium native routing, ${link!.pins.length} pinned bundles`,
    );
    expect(out()).toMatch(
      /\| ✅ \| TCP throughput `tcp\.throughput` \| streams 1 \| 8\.498 Gbit\/s \(n=3\) \| 9\.453 Gbit\/s \(n=3\) \| \+11\.\d+ % \| better · margin ±5 % \|/,
    );
  });

  it("says which baseline it cannot read (exit 69), and refuses bad usage before uploading (exit 64)", async () => {
    const { io, err } = capture();
    expect(
      await run(
        ["gate", "--api", api.base, ...lab, "--campaign=nightly-08", "--baseline=scenario:nope", nightlyDir(8)],
        io,
      ),
    ).toBe(69);
    expect(err()).toContain("HTTP 404: No scenario with id nope.");
    for (const bad of [
      ["--baseline=latest"],
      ["--margin=tcp.throughput"],
      ["--margin=tcp.throughput=0"],
      ["--dry-run"],
      ["--colour"],
    ]) {
      const { io: badIo, err: badErr } = capture();
      expect(await run(["gate", "--api", api.base, ...lab, ...bad, nightlyDir(8)], badIo), bad.join(" ")).toBe(64);
      expect(badErr()).toMatch(/^cnibench gate: /);
    }
    const { io: typo, err: typoErr } = capture();
    expect(
      await run(
        ["gate", "--api", api.base, ...lab, "--campaign=nightly-08", "--metric=tcp.thruput", nightlyDir(8)],
        typo,
      ),
    ).toBe(64);
    expect(typoErr()).toContain("metrics.0: a catalogue metric or x.…");
  });
});
