// Repeated runs are samples: two InfraBuilder 2024 setups (Flannel, Antrea with IPsec), three runs
// each of iperf3 pod-to-pod TCP with one stream, imported as one campaign per setup. The scenario
// page shows n = 3 and the median, the throughput chart draws whiskers, and compare gets 3 runs a side.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { tar } from "@cnibench/test-support/archives";
import { describe, expect, inject, it } from "vitest";
import { browserPerFile, interact, screenshot } from "./browser.ts";

const webUrl = inject("webUrl");
const apiUrl = inject("apiUrl");
const token = inject("uploadToken");
const fixtures = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  "../../../packages/importers/fixtures/real/infrabuilder-2024",
);
const { browser, open } = browserPerFile(webUrl);

/** Imports a setup's three runs in one request (one campaign); the scenario it landed in. */
async function importSetup(setup: string, cni: string, mode: string, label: string): Promise<string> {
  const files = [1, 2, 3].map((run) => ({
    name: `${setup}/${run}/dts-client.stdout`,
    bytes: new Uint8Array(fs.readFileSync(path.join(fixtures, setup, String(run), "dts-client.stdout"))),
  }));
  const query = new URLSearchParams({
    format: "iperf3",
    cluster: `infrabuilder-${setup}`,
    provider: "on-prem",
    region: "infrabuilder-lab",
    sku: "bare-metal-40g",
    kernel: "5.15.0",
    cni,
    mode,
    label,
    sourceTitle: "InfraBuilder benchmark-k8s-cni-2024-01",
  });
  query.append("param", "path=pod-pod");
  const res = await fetch(`${apiUrl}/v1/import?${query}`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/x-tar" },
    body: Buffer.from(tar(files)),
  });
  const answer = (await res.json()) as { bundles: { scenarioId: string }[] };
  expect(res.status, JSON.stringify(answer)).toBe(201);
  expect(answer.bundles).toHaveLength(3);
  expect(new Set(answer.bundles.map((b) => b.scenarioId)).size).toBe(1);
  return answer.bundles[0]!.scenarioId;
}

describe("repeated runs", () => {
  it("shows three runs per setup as a distribution on the scenario page, in charts and in compare", async () => {
    const flannel = await importSetup("flannel", "flannel", "overlay-vxlan", "InfraBuilder Flannel");
    const antrea = await importSetup("antrea-ipsec", "antrea", "ipsec", "InfraBuilder Antrea IPsec");

    // Flannel's runs: 19.59, 20.60 and 19.80 Gbit/s received (bench.sh's DTS_BW): median 19.80.
    const { page, errors } = await open(`/scenarios/${flannel}`);
    const row = page.locator("tr", { hasText: "streams 1" }).filter({ hasText: "Gbit/s" }).first();
    const text = await row.innerText();
    expect(text).toMatch(/19\.8\d* Gbit\/s/);
    expect(text).toContain("n=3");
    await screenshot(page, "runs-scenario-flannel");

    // The throughput chart of both setups: one bar each, with min–max whiskers of three runs.
    await page.goto(`${webUrl}/charts?view=throughput&scenario=${flannel}&scenario=${antrea}`);
    await interact(page);
    await expect
      .poll(() => page.locator("[data-bars] [data-whiskers]").count(), { timeout: 10_000 })
      .toBeGreaterThan(0);
    expect(await page.getByText(/whiskers: min–max of n runs/).count()).toBeGreaterThan(0);
    await screenshot(page, "runs-throughput");

    // Compare: three runs on each side give the ratio and its interval, not a single-run verdict.
    await page.goto(`${webUrl}/compare?s=${antrea}&s=${flannel}`);
    const compared = page
      .getByTestId("compare-table")
      .locator("tr", { hasText: "TCP throughput" })
      .filter({ hasText: "streams 1" })
      .first();
    const cells = await compared.innerText();
    expect(cells.match(/n=3/g)?.length).toBe(2);
    expect(await compared.innerHTML()).not.toContain("single value");
    expect(await compared.innerHTML()).toMatch(/3 vs 3 runs: ratio \d\.\d{3}, 95 % interval/);
    await screenshot(page, "runs-compare");
    const narrow = await browser().newPage({ viewport: { width: 390, height: 900 } });
    await narrow.goto(`${webUrl}/scenarios/${flannel}`);
    await screenshot(narrow, "runs-scenario-flannel");
    await narrow.close();
    expect(errors).toEqual([]);
  });
});
