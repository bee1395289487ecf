import { nightlyCampaigns } from "@cnibench/test-support/nightly";
import { describe, expect, it } from "vitest";
import {
  type AlertCampaign,
  type AlertSeries,
  alertPayload,
  alertSummary,
  type DetectedAlert,
  detectAlerts,
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

/**
 * Uploads the campaigns run by run (a CI job per run, as a collector without samples sends them) and
 * returns every alert fired, with the run that fired it.
 */
function uploadRunByRun(campaigns: readonly AlertCampaign[]): (DetectedAlert & { night: number })[] {
  const fired: (DetectedAlert & { night: number })[] = [];
  const history: AlertCampaign[] = [];
  for (const [i, c] of campaigns.entries()) {
    const upTo = (k: number) => (k === 0 ? history : [...history, { ...c, runs: c.runs.slice(0, k) }]);
    for (let k = 1; k <= c.runs.length; k++) {
      const touched = [{ scenarioId: c.scenarioId, campaign: c.campaign }];
      const input: AlertSeries = { ...series, before: upTo(k - 1), after: upTo(k), touched };
      fired.push(...detectAlerts(input).map((a) => ({ ...a, night: i + 1 })));
    }
    history.push(c);
  }
  return fired;
}

describe("alerts of a series after new runs", () => {
  it("a kernel upgrade's −8 % at night 9: one change point, and night 9 worse than night 8", () => {
    const fired = uploadRunByRun(nightly(27));
    const changePoints = fired.filter((a) => a.event === "change-point");
    // The change point needs 3 campaigns after it (minSegment) and 10 in all: found once night 11 is in.
    expect(changePoints).toHaveLength(1);
    expect(changePoints[0]).toMatchObject({
      night: 11,
      key: 'change-point tcp.throughput {"path":"pod-pod","streams":1} s-6.8/nightly-09',
      previous: { campaign: "nightly-08", scenarioId: "s-6.1", campaigns: 8, runs: 3 },
      current: { campaign: "nightly-09", scenarioId: "s-6.8", campaigns: 3 },
      verdict: "worse",
      changes: [{ key: "kernel", before: "6.1", after: "6.8" }],
    });
    expect(changePoints[0]?.changePercent).toBeLessThan(-5);
    expect(changePoints[0]?.p).toBeLessThan(0.001);
    const worse = fired.filter((a) => a.event === "campaign-worse");
    expect(worse.map((a) => [a.night, a.current.campaign, a.previous.campaign])).toEqual([
      [9, "nightly-09", "nightly-08"],
    ]);
    expect(worse[0]?.changePercent).toBeLessThan(-5);
  });

  it("fires nothing on steady nights", () => {
    const steady = nightly(27)
      .slice(0, 8)
      .map((c, i) => ({ ...c, campaign: `steady-${i}` }));
    expect(uploadRunByRun([...steady, ...steady.map((c) => ({ ...c, campaign: `${c.campaign}-again` }))])).toEqual([]);
  });

  it("tells a campaign once: a worse one stays quiet when more of its runs come in", () => {
    const previous = { scenarioId: "s", campaign: "a", measuredAt: new Date(0), runs: [10, 10.1, 9.9] };
    const one = { scenarioId: "s", campaign: "b", measuredAt: new Date(1), runs: [8.5] };
    const two = { ...one, runs: [8.5, 8.6] };
    const touched = [{ scenarioId: "s", campaign: "b" }];
    // One run against three: the indicative verdict, −15 % beyond the 5 % margin.
    const first = detectAlerts({ ...series, before: [previous], after: [previous, one], touched });
    expect(first).toMatchObject([{ event: "campaign-worse", verdict: "worse", previous: { median: 10 } }]);
    expect(first[0]?.changePercent).toBeCloseTo(-15, 10);
    expect(detectAlerts({ ...series, before: [previous, one], after: [previous, two], touched })).toEqual([]);
    // A campaign the runs did not go into is not judged again.
    expect(detectAlerts({ ...series, before: [previous, one], after: [previous, one], touched: [] })).toEqual([]);
  });

  it("builds the generic JSON and a Slack message saying what changed", () => {
    const [alert] = uploadRunByRun(nightly(27)).filter((a) => a.event === "change-point");
    const payload = alertPayload(alert!, {
      workspace: { slug: "ci-team", name: "CI team" },
      testbed: "abc",
      scenario: { id: "s-6.8", label: "Cilium native" },
      metric: series.metric,
      params: series.params,
      unit: series.unit,
      link: "https://cnibench.example/scenarios/s-6.8",
    });
    expect(Object.keys(payload)).toEqual(
      expect.arrayContaining([
        "event",
        "workspace",
        "testbed",
        "scenario",
        "metric",
        "params",
        "previous",
        "current",
        "changePercent",
        "verdict",
        "link",
      ]),
    );
    expect(alertSummary(payload)).toMatch(
      /^Cilium native: tcp\.throughput \(path pod-pod · streams 1\) −\d\.\d+ %, change point at campaign nightly-09 \(worse\): 9\.\d+ Gbit\/s → 8\.\d+ Gbit\/s; kernel 6\.1 → 6\.8$/,
    );
    const slack = slackPayload(payload);
    expect(slack.text).toBe(`Change point in CI team: ${alertSummary(payload)}`);
    expect(JSON.stringify(slack.blocks)).toContain("<https://cnibench.example/scenarios/s-6.8|Open the scenario>");
  });
});
