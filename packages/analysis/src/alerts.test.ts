import { nightlyCampaigns } from "@cnibench/test-support/nightly";
import type { HeaderBlock, KnownBlock, SectionBlock } from "@slack/types";
import { describe, expect, it } from "vitest";
import {
  type AlertCampaign,
  type AlertFigure,
  type AlertPayload,
  alertPayload,
  alertSummary,
  figureSummary,
  maxAlertFigures,
  newChangePoints,
  slackEscape,
  slackPayload,
} from "./alerts.ts";

/** Twelve nightly campaigns (test-support's nightlyCampaigns: 3 runs near 9.4 Gbit/s, −8 % from night 9 on a new kernel). */
function nightly(seed: number): AlertCampaign[] {
  return nightlyCampaigns(seed).map(({ night, campaign, kernel, runs }) => ({
    scenarioId: `s-${kernel}`,
    campaign,
    measuredAt: new Date(Date.UTC(2026, 10, night, 2)),
    runs,
    annotations: { kernel },
  }));
}

const series = { metric: "tcp.throughput", params: { path: "pod-pod", streams: 1 }, unit: "Gbit/s", better: null };

/** Judges each campaign once it is complete, its history cut at it: the change points each one brings. */
function judgeEach(campaigns: readonly AlertCampaign[]) {
  return campaigns.flatMap((c, i) =>
    newChangePoints({ ...series, history: campaigns.slice(0, i + 1) }).map((f) => ({ judged: c.campaign, ...f })),
  );
}

describe("change points of a campaign judged whole", () => {
  it("a kernel upgrade's −8 % at night 9 is told once, when night 11 (the third on the new level) is judged", () => {
    const found = judgeEach(nightly(27));
    // minSegment 3: campaigns 9, 10 and 11 on the new level before the split can be tested.
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({
      judged: "nightly-11",
      previous: { campaign: "nightly-08", scenarioId: "s-6.1", campaigns: 8, runs: 3 },
      current: { campaign: "nightly-09", scenarioId: "s-6.8", campaigns: 3 },
      verdict: "worse",
      changes: [{ key: "kernel", before: "6.1", after: "6.8" }],
    });
    expect(found[0]?.changePercent).toBeLessThan(-5);
    expect(found[0]?.p).toBeLessThan(0.001);
  });

  it("finds nothing on steady nights", () => {
    const steady = nightly(27)
      .slice(0, 8)
      .map((c, i) => ({ ...c, scenarioId: "s", campaign: `steady-${i}`, annotations: {} }));
    expect(judgeEach([...steady, ...steady.map((c) => ({ ...c, campaign: `${c.campaign}-again` }))])).toEqual([]);
  });

  it("depends only on the history up to the campaign: later campaigns do not hide a change point", () => {
    // The lost alert of issue 41: a worker that read night 9's history after nights 10–12 were stored
    // found the change point in its "before" too and called it known. Cut at each campaign, judging
    // night 11 gives the same answer whatever came after it.
    const all = nightly(27);
    const upTo11 = newChangePoints({ ...series, history: all.slice(0, 11) });
    expect(upTo11.map((f) => f.current.campaign)).toEqual(["nightly-09"]);
  });
});

const figure = (over: Partial<AlertFigure> = {}): AlertFigure => ({
  metric: "tcp.throughput",
  params: { path: "pod-pod" },
  unit: "Gbit/s",
  previous: { scenarioId: "s", campaign: "nightly-08", runs: 3, median: 9.41, campaigns: 1 },
  current: { scenarioId: "s", campaign: "nightly-09", runs: 3, median: 8.0, campaigns: 1 },
  changePercent: -14.98,
  verdict: "worse",
  caveat: null,
  p: null,
  changes: [],
  ...over,
});

const payload = (label: string, figures: AlertFigure[]): AlertPayload =>
  alertPayload({
    event: "campaign-worse",
    workspace: { slug: "ci", name: "CI team" },
    testbed: "abc",
    scenario: { id: "s", label },
    campaign: { campaign: "nightly-09", scenarioId: "s", bundles: 3, description: 'campaign "nightly-09"' },
    baseline: { campaign: "nightly-08", scenarioId: "s", bundles: 3, description: 'campaign "nightly-08"' },
    figures,
    link: "https://cnibench.example/scenarios/s",
  });

describe("alert payloads", () => {
  it("one summary per campaign: the first 20 figures and how many in all", () => {
    const p = payload(
      "Cilium",
      Array.from({ length: 25 }, (_, i) => figure({ params: { streams: i } })),
    );
    expect(p.figures).toHaveLength(maxAlertFigures);
    expect(p.total).toBe(25);
    expect(alertSummary(p)).toBe("Cilium: campaign nightly-09 is worse than nightly-08 in 25 figures");
    const slack = slackPayload(p);
    expect(slack.blocks.at(-2)?.text.text).toMatch(/…and 5 more$/);
  });

  it("says a worse CPU figure with the traffic its campaign moved besides", () => {
    const cpu = figure({
      metric: "cpu.usage",
      params: { path: "pod-pod", role: "client" },
      unit: "cores",
      previous: { scenarioId: "s", campaign: "nightly-08", runs: 3, median: 0.8, campaigns: 1 },
      current: { scenarioId: "s", campaign: "nightly-09", runs: 3, median: 1.2, campaigns: 1 },
      changePercent: 50,
      caveat: "while moving 201.5 % more traffic",
    });
    expect(figureSummary(cpu)).toBe(
      "cpu.usage (path pod-pod · role client) +50 %: 0.8 cores → 1.2 cores, while moving 201.5 % more traffic",
    );
    expect(figureSummary(figure())).toBe("tcp.throughput (path pod-pod) −15 %: 9.41 Gbit/s → 8 Gbit/s");
  });

  it("escapes &, < and > in Slack text, so <!here> and <url|text> are shown, not obeyed", () => {
    // Slack's "Escaping text": replace & with &amp;, < with &lt; and > with &gt; — nothing else.
    expect(slackEscape("<!here> & <https://evil.example|click>")).toBe(
      "&lt;!here&gt; &amp; &lt;https://evil.example|click&gt;",
    );
    const slack = slackPayload(payload("<!here> <https://evil.example|Cilium>", [figure()]));
    const texts = [slack.text, ...slack.blocks.filter((b) => b.type === "section").map((b) => b.text.text)];
    for (const text of texts) {
      expect(text).not.toContain("<!here>");
      expect(text).not.toContain("<https://evil.example");
    }
    expect(slack.text).toContain("&lt;!here&gt; &lt;https://evil.example|Cilium&gt;");
    // The one link is ours.
    expect(slack.blocks.at(-1)).toEqual({
      type: "section",
      text: { type: "mrkdwn", text: "<https://cnibench.example/scenarios/s|Open the scenario>" },
    });
  });

  it("is a message of Slack's published Block Kit types (@slack/types), within its limits", () => {
    const p = payload(
      "Cilium",
      Array.from({ length: 25 }, (_, i) => figure({ params: { streams: i } })),
    );
    // Type-checked (npm run typecheck): a block that is not Slack's would not compile here.
    const message: { text: string; blocks: KnownBlock[] } = slackPayload(p);
    const blocks = message.blocks as (HeaderBlock | SectionBlock)[];
    // Block Kit reference: at most 50 blocks; a header's plain_text 150 characters, a section's text 3,000.
    expect(blocks.length).toBeLessThanOrEqual(50);
    for (const block of blocks) {
      if (block.type === "header") {
        expect(block.text.type).toBe("plain_text");
        expect(block.text.text.length).toBeLessThanOrEqual(150);
      } else {
        expect(block.text?.type).toBe("mrkdwn");
        expect(block.text!.text.length).toBeLessThanOrEqual(3000);
      }
    }
  });

  it("keeps Slack's limits: a header of at most 150 characters", () => {
    const p = { ...payload("x", [figure()]), workspace: { slug: "w", name: "W".repeat(300) } };
    const header = slackPayload(p).blocks[0]!;
    expect(header.type).toBe("header");
    expect(header.text.text.length).toBeLessThanOrEqual(150);
  });
});
