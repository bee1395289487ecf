// A series over time (issue 27): twelve nightly campaigns of one testbed, three runs each, whose ninth
// came with a kernel upgrade (6.1.0 → 6.8.0, so another scenario of the same testbed) and 8 % less TCP
// throughput. The scenario page of the last night's scenario draws the series' twelve campaigns with
// the kernel upgrade annotated and the change point marked worse, and says it in words; the charts
// page's History view draws the same series for chosen scenarios, once per testbed.
import { nightlyCampaigns } from "@cnibench/test-support/nightly";
import { describe, expect, inject, it } from "vitest";
import { browserPerFile, interact, screenshot } from "./browser.ts";

const webUrl = inject("webUrl");
const apiUrl = inject("apiUrl");
const token = inject("uploadToken");
const { open } = browserPerFile(webUrl);

// nightlyCampaigns (test-support): 12 nights of pod-to-pod TCP throughput, 8 % less from night 9 on kernel 6.8.0.
const nights = nightlyCampaigns().map((n) => ({ ...n, kernel: `${n.kernel}.0` }));
const median = (runs: readonly number[]) => [...runs].sort((a, b) => a - b)[1]!;

/** A night's campaign: one bundle with its three runs as samples (and, the last two nights, 8 streams too). */
async function uploadNight(n: (typeof nights)[number]): Promise<string> {
  const result = (streams: number, runs: number[]) => ({
    metric: "tcp.throughput",
    unit: "Gbit/s",
    value: median(runs),
    aggregate: "median",
    samples: runs,
    params: { path: "pod-pod", streams },
  });
  const res = await fetch(`${apiUrl}/v1/bundles`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify({
      schema: "cnibench/bundle@1",
      collector: { name: "iperf3", command: "iperf3 -c pod-b -t 30" },
      cluster: {
        name: "history-nightly",
        provider: "on-prem",
        region: "history-lab",
        kubernetesVersion: "1.30",
        nodeCount: 3,
      },
      node: { sku: "history-10g", os: "Ubuntu 22.04", kernel: n.kernel },
      cni: { name: "cilium", version: "1.16.3", mode: "native-routing", kubeProxy: "ebpf", label: "Nightly Cilium" },
      runAt: `2026-11-${String(n.night).padStart(2, "0")}T02:00:00Z`,
      campaign: `night-${n.night}`,
      results: [
        result(1, n.runs),
        ...(n.night >= 11
          ? [
              result(
                8,
                n.runs.map((r) => Math.round(r * 0.99 * 1000) / 1000),
              ),
            ]
          : []),
      ],
    }),
  });
  const answer = (await res.json()) as { scenarioId: string };
  expect(res.status, JSON.stringify(answer)).toBe(201);
  return answer.scenarioId;
}

describe("a series over time", () => {
  const scenarios: string[] = [];

  it("draws twelve campaigns with the kernel upgrade annotated and the change point marked worse", async () => {
    for (const n of nights) scenarios.push(await uploadNight(n));
    expect(scenarios[8]).not.toBe(scenarios[7]);
    expect(scenarios[11]).toBe(scenarios[8]);

    for (const width of [1440, 390]) {
      const { page, errors } = await open(`/scenarios/${scenarios[11]}`, width);
      // The server's picture first: the campaigns' line, before the interactive chart replaces it.
      await page.getByTestId("history-chart").locator("[data-static-chart] [data-series]").waitFor();
      await screenshot(page, "history-static");
      await interact(page);
      const chart = page.getByTestId("history-chart");
      // The series with the most campaigns by default: one stream (four here, two with eight streams).
      expect(await page.getByTestId("history-series").inputValue()).toBe(
        'tcp.throughput|{"path":"pod-pod","streams":1}',
      );
      await expect.poll(() => chart.locator('[role="button"][data-campaign]').count(), { timeout: 15_000 }).toBe(12);
      expect(await chart.getByText(/12 campaigns from 2026-11-01 to 2026-11-12/).count()).toBe(1);
      const ninth = chart.locator('[data-campaign="night-9"]');
      expect(await ninth.getAttribute("aria-label")).toMatch(/^night-9, 2026-11-09: median 8\.\d+ Gbit\/s, n=3 runs/);
      // One marker at the ninth night: the kernel upgrade, and the shift, worse.
      const marker = chart.locator("[data-marker]");
      expect(await marker.count()).toBe(1);
      expect(await marker.getAttribute("data-change-point")).toBe("worse");
      expect(await marker.locator("[data-annotation]").textContent()).toBe("kernel 6.1.0 → 6.8.0");
      expect(await marker.locator("[data-shift]").textContent()).toMatch(/^−\d+(\.\d+)? % · worse$/);
      expect(await chart.locator("[data-step]").count()).toBe(2);
      // In words, under the chart.
      const words = await page.getByTestId("history-change-points").innerText();
      expect(words).toMatch(
        /^From 2026-11-09 \(kernel 6\.1\.0 → 6\.8\.0\): −\d+(\.\d+)? %, worse, p (< )?\d(\.\d)?e−\d+/,
      );
      await screenshot(page, "history");

      if (width === 1440) {
        // Another series: its two campaigns, in the address, too few to look for change points.
        await page.getByTestId("history-series").selectOption({ label: "path pod-pod · streams 8" });
        await page.waitForURL(/history=/);
        await expect.poll(() => chart.locator('[role="button"][data-campaign]').count(), { timeout: 15_000 }).toBe(2);
        expect(await page.getByTestId("history-reason").count()).toBe(1);
      }
      expect(errors).toEqual([]);
      await page.close();
    }
  });

  it("draws the series on the charts page, a chart per testbed, linked to the scenario page's history", async () => {
    expect(scenarios).toHaveLength(12);
    const key = 'tcp.throughput|{"path":"pod-pod","streams":1}';
    // The last night's scenario (kernel 6.8.0) and the first's (6.1.0): one testbed, so one chart.
    const address = `/charts?view=history&scenario=${scenarios[11]}&scenario=${scenarios[0]}&metric=tcp.throughput&where=path%3Dpod-pod&where=streams%3D1`;
    for (const width of [1440, 390]) {
      const { page, errors } = await open(address, width);
      await interact(page);
      expect(await page.getByRole("link", { name: "History", exact: true }).getAttribute("aria-current")).toBe("page");
      expect(await page.getByTestId("history-testbed").count()).toBe(1);
      const chart = page.getByTestId("history-chart");
      await expect.poll(() => chart.locator('[role="button"][data-campaign]').count(), { timeout: 15_000 }).toBe(12);
      expect(await chart.getByText(/12 campaigns from 2026-11-01 to 2026-11-12/).count()).toBe(1);
      const marker = chart.locator("[data-marker]");
      expect(await marker.count()).toBe(1);
      expect(await marker.getAttribute("data-change-point")).toBe("worse");
      expect(await marker.locator("[data-annotation]").textContent()).toBe("kernel 6.1.0 → 6.8.0");
      expect(await page.getByTestId("history-change-points").innerText()).toMatch(
        /^From 2026-11-09 \(kernel 6\.1\.0 → 6\.8\.0\): −\d+(\.\d+)? %, worse, p (< )?\d(\.\d)?e−\d+/,
      );
      // Readable at this width: nothing wider than the window.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      const link = page.getByRole("link", { name: "This history on the scenario page" });
      const href = new URL((await link.getAttribute("href")) ?? "", webUrl);
      expect(href.pathname).toBe(`/scenarios/${scenarios[11]}`);
      expect(href.searchParams.get("history")).toBe(key);
      expect(href.hash).toBe("#history-heading");
      await screenshot(page, "history-charts");

      if (width === 1440) {
        // A series the testbed never measured: said in words, with no chart.
        await page.goto(
          `${webUrl}/charts?view=history&scenario=${scenarios[11]}&metric=tcp.throughput&where=path%3Dpod-pod&where=streams%3D64`,
        );
        expect(await page.getByTestId("history-testbed").innerText()).toMatch(
          /has no campaign of TCP throughput · path pod-pod · streams 64, nor any scenario of its testbed\./,
        );
        expect(await page.getByTestId("history-chart").count()).toBe(0);
        // The link opens the scenario page's History section on the same series.
        await page.goto(`${webUrl}${address}`);
        await page.getByRole("link", { name: "This history on the scenario page" }).click();
        await page.waitForURL(/\/scenarios\//);
        expect(await page.getByTestId("history-series").inputValue()).toBe(key);
      }
      expect(errors).toEqual([]);
      await page.close();
    }
  });
});
