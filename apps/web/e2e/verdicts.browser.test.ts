// Verdicts at three runs (README, "How verdicts work"). InfraBuilder's Flannel against Antrea with
// IPsec, three runs each of the real tree, call for better, worse and inconclusive; two setups uploaded
// as three bundles of one campaign each, with the runs of verdict.test.ts (expected values from scipy),
// call for equivalent and small but real. The compare table shows each kind and its evidence, and a
// chart's tooltip says a point's verdict against the chart's baseline.
import fs from "node:fs";
import { tar } from "@cnibench/test-support/archives";
import { fixtureTree } from "@cnibench/test-support/fixtures";
import { describe, expect, inject, it } from "vitest";
import { browserPerFile, interact, screenshot } from "./browser.ts";

const webUrl = inject("webUrl");
const apiUrl = inject("apiUrl");
const token = inject("uploadToken");
const { open } = browserPerFile(webUrl);

const auth = { authorization: `Bearer ${token}` };

/** One InfraBuilder setup's three runs with its CNI script, as one import: its scenario. */
async function importSetup(setup: string): Promise<string> {
  const files = [
    ...fixtureTree(`real/infrabuilder-2024/${setup}`, `results/${setup}`),
    ...fixtureTree("real/infrabuilder-2024/setup/cni-configs", "setup/cni-configs"),
  ];
  const query = new URLSearchParams({
    format: "infrabuilder",
    provider: "on-prem",
    sku: "verdicts-40g",
    cluster: "infrabuilder-verdicts",
  });
  const res = await fetch(`${apiUrl}/v1/import?${query}`, {
    method: "POST",
    headers: { ...auth, "content-type": "application/x-tar" },
    body: Buffer.from(tar(files)),
  });
  const answer = (await res.json()) as { bundles: { scenarioId: string }[] };
  expect(res.status, JSON.stringify(answer).slice(0, 500)).toBe(201);
  return answer.bundles[0]!.scenarioId;
}

let infrabuilder: Promise<{ flannel: string; antrea: string }> | undefined;
/** Flannel and Antrea with IPsec, imported once for the file's tests. */
const importInfrabuilder = () =>
  (infrabuilder ??= (async () => ({
    flannel: await importSetup("flannel"),
    antrea: await importSetup("antrea-ipsec"),
  }))());

/** Three bundles of one campaign, one run each of two request rates: a scenario with three runs. */
async function uploadRuns(cni: string, steady: number[], same: number[]): Promise<string> {
  let scenarioId = "";
  for (let run = 0; run < 3; run++) {
    const bundle = {
      schema: "cnibench/bundle@1",
      campaign: `verdicts-${cni}`,
      cluster: { name: "verdicts", provider: "on-prem" },
      node: { sku: "verdicts-lab", kernel: "6.8.0" },
      cni: { name: cni, mode: "native", label: `verdicts ${cni}` },
      results: [
        { metric: "http.rps", value: steady[run]!, unit: "req/s", params: { case: "steady" } },
        { metric: "http.rps", value: same[run]!, unit: "req/s", params: { case: "same" } },
      ],
    };
    const res = await fetch(`${apiUrl}/v1/bundles`, {
      method: "POST",
      headers: { ...auth, "content-type": "application/json" },
      body: JSON.stringify(bundle),
    });
    const answer = (await res.json()) as { scenarioId: string };
    expect(res.status, JSON.stringify(answer)).toBe(201);
    scenarioId = answer.scenarioId;
  }
  return scenarioId;
}

/** One campaign of runs of one request rate, a bundle a run, measured on the given day. */
async function uploadCampaign(cni: string, campaign: string, day: number, runs: number[]): Promise<string> {
  let scenarioId = "";
  for (const value of runs) {
    const res = await fetch(`${apiUrl}/v1/bundles`, {
      method: "POST",
      headers: { ...auth, "content-type": "application/json" },
      body: JSON.stringify({
        schema: "cnibench/bundle@1",
        campaign,
        runAt: `2026-10-${String(day).padStart(2, "0")}T02:00:00Z`,
        cluster: { name: "verdicts-history", provider: "on-prem" },
        node: { sku: "verdicts-lab", kernel: "6.8.0" },
        cni: { name: cni, mode: "native", label: `nightly ${cni}` },
        results: [{ metric: "http.rps", value, unit: "req/s", params: { case: "history" } }],
      }),
    });
    const answer = (await res.json()) as { scenarioId: string };
    expect(res.status, JSON.stringify(answer)).toBe(201);
    scenarioId = answer.scenarioId;
  }
  return scenarioId;
}

describe("verdicts at three runs", () => {
  it("shows better, worse, equivalent, small but real and inconclusive, each with its evidence", async () => {
    const { flannel, antrea } = await importInfrabuilder();
    // verdict.test.ts: steady 0.65 % apart → small but real; ±1 % around one mean → equivalent.
    const base = await uploadRuns("cilium", [100, 100.1, 99.9], [99, 100, 101]);
    const cand = await uploadRuns("calico", [100.65, 100.75, 100.55], [101, 100, 99]);

    const verdictOf = async (page: Awaited<ReturnType<typeof open>>["page"], row: RegExp) => {
      const tr = page.getByTestId("compare-table").locator("tr", { hasText: row }).first();
      return { text: await tr.innerText(), html: await tr.innerHTML() };
    };

    const real = await open(`/compare?s=${flannel}&s=${antrea}`);
    const summary = await real.page.getByRole("region", { name: "Summary" }).innerText();
    // Decided effects first, then every verdict counted per figure family (issue 40).
    expect(summary).toMatch(/antrea-ipsec vs flannel: .+ [+−][\d.,]+ %, (better|worse)/);
    expect(summary).toMatch(/By family: .*TCP throughput \d+ worse/);
    expect(summary).toMatch(/\d+ inconclusive/);
    const cells = await real.page.getByTestId("compare-table").innerText();
    expect(cells).toContain("better");
    expect(cells).toContain("worse");
    expect(cells).toContain("inconclusive");
    // Pod-to-pod UDP with one stream: −48 % but the runs scatter (31–88 % loss): inconclusive, with runs needed.
    const udp = await verdictOf(real.page, /UDP throughput/);
    expect(udp.html).toMatch(/3 vs 3 runs: ratio 0\.\d{3}, 95 % interval/);
    expect(
      (await real.page.getByTestId("compare-table").innerHTML()).match(/more runs? per side would decide/g)?.length,
    ).toBeGreaterThan(0);
    await screenshot(real.page, "verdicts-infrabuilder");
    expect(real.errors).toEqual([]);

    const lab = await open(`/compare?s=${base}&s=${cand}`);
    const steady = await verdictOf(lab.page, /case steady/);
    expect(steady.text).toContain("small but real");
    // scipy: ratio 1.006500004 (shown to 3 decimals, 1.007), interval 1.004228196–1.008776952.
    expect(steady.html).toMatch(/ratio 1\.007, 95 % interval 1\.004–1\.009/);
    const same = await verdictOf(lab.page, /case same/);
    expect(same.text).toContain("equivalent");
    await screenshot(lab.page, "verdicts-lab");
    expect(lab.errors).toEqual([]);
  });

  it("says a chart bar's verdict against the chosen baseline on hover, and exports it", async () => {
    const { flannel, antrea } = await importInfrabuilder();
    const scope = `scenario=${flannel}&scenario=${antrea}`;
    // Pod-to-pod TCP, 1 stream: 3 vs 3 runs, scipy 1.17 stats.ttest_ind(np.log(c), np.log(b), equal_var=False)
    // p = 1.29e-06, 95 % interval of the ratio 0.3278557366138649–0.36630250473327236; medians 19.797 and
    // 6.935 Gbit/s (−64.97 %); the tooltip says the change the verdict judged, the ratio of geometric
    // means 0.34654635694641306 − 1 = −65.3 % in three significant digits (chart-data/versus.test.ts).
    const verdict = /vs .+: −65\.3 % · worse \(3 vs 3 runs, 95 % 0\.328–0\.366\)/;
    // Streams are a category, not a scale (packages/schema params.ts): the figures are bars, not lines.
    for (const width of [1440, 390]) {
      const bars = await open(`/charts?${scope}&view=throughput`, width);
      const tcp = bars.page.locator("figure", { has: bars.page.getByRole("heading", { name: "TCP throughput" }) });
      await interact(bars.page);
      await tcp.locator("[data-bar]").first().waitFor();
      // No baseline until one is chosen; the select works with the keyboard as any select does.
      await tcp.locator("[data-bar]").first().hover();
      expect(await bars.page.getByRole("tooltip").innerText()).not.toMatch(/ vs /);
      await bars.page.getByLabel("Compare with").selectOption(flannel);
      await bars.page.waitForURL(new RegExp(`baseline=${flannel}`));
      await tcp.locator("[data-bar]").first().hover();
      const tooltip = bars.page.getByRole("tooltip");
      expect(await tooltip.innerText()).toMatch(verdict);
      expect(await tooltip.locator("[data-versus]").first().getAttribute("data-versus")).toBe("worse");
      await screenshot(bars.page, "tooltip-versus-bars");
      if (width === 1440) {
        const download = bars.page.waitForEvent("download");
        await tcp.getByRole("button", { name: "CSV" }).click();
        const csv = fs
          .readFileSync(await (await download).path(), "utf8")
          .trim()
          .split(/\r?\n/);
        expect(csv[0]).toMatch(/,params,verdict_vs_baseline,change_percent$/);
        // The CSV's change is the judged one too, unrounded: (0.34654635694641306 − 1) × 100.
        expect(csv.filter((l) => /,worse,-65\.345\d+$/.test(l))).toHaveLength(1);
      }
      expect(bars.errors).toEqual([]);
      await bars.page.close();
    }
  });

  it("pools a series' earlier campaigns into its noise and says so in the evidence", async () => {
    // analysis/src/verdict.test.ts's case: three noisy baseline runs against a +9.8 % candidate are
    // inconclusive alone (scipy Welch p 0.156); four earlier steady campaigns of the baseline's series
    // give p 0.0018 (numpy, by hand), so the change is better.
    const earlier = [
      [99, 101, 100],
      [102, 100, 101],
      [98, 99, 100.5],
      [101, 103, 100],
    ];
    for (const [night, runs] of earlier.entries()) await uploadCampaign("history-a", `night-${night}`, night + 1, runs);
    const base = await uploadCampaign("history-a", "night-4", 5, [100, 108, 93]);
    const cand = await uploadCampaign("history-b", "night-4", 5, [110, 112, 108]);

    for (const width of [1440, 390]) {
      const { page, errors } = await open(`/compare?s=${base}&s=${cand}`, width);
      const row = page
        .getByTestId("compare-table")
        .locator("tr", { hasText: /case history/ })
        .first();
      const html = await row.innerHTML();
      expect(await row.innerText()).toContain("better");
      expect(html).toContain("baseline noise from 12 earlier runs in 4 campaigns");
      expect(html).toMatch(/3 vs 3 runs: ratio 1\.098/);
      await row.locator("summary").first().click();
      await expect.poll(() => row.getByText(/baseline noise from 12 earlier runs/).isVisible()).toBe(true);
      await screenshot(page, "verdicts-history");
      expect(errors).toEqual([]);
      await page.close();
    }
  });
});
