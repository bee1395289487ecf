// Doubtful figures are stored with a visible warning (issue 23): a raw iperf3 run imported with a 1
// Gbit/s NIC and a kernel other than the one the file states. The scenario page shows the warning on
// the throughput figure, as text with a link one can tab to, and the kernel's above the figures.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, inject, it } from "vitest";
import { browserPerFile, screenshot } from "./browser.ts";

const webUrl = inject("webUrl");
const apiUrl = inject("apiUrl");
const token = inject("uploadToken");
const fixture = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  "../../../packages/importers/fixtures/real/iperf3/iperf3_tcp_1stream_k8s_pod_cloudpilot.json",
);
const { open } = browserPerFile(webUrl);

describe("warnings on the figures", () => {
  it("shows a figure above the NIC line rate and a contradicted kernel, as text", async () => {
    const query = new URLSearchParams({
      cluster: "warnings-lab",
      provider: "on-prem",
      sku: "warnings-lab.large", // a scenario of its own
      nicGbps: "1",
      kernel: "6.1.0",
      cni: "cilium",
      mode: "native",
    });
    const res = await fetch(`${apiUrl}/v1/import?${query}`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: fs.readFileSync(fixture),
    });
    const answer = (await res.json()) as { bundles: { scenarioId: string }[] };
    expect(res.status, JSON.stringify(answer)).toBe(201);

    const { page, errors } = await open(`/scenarios/${answer.bundles[0]!.scenarioId}`);
    // end.sum_received.bits_per_second 1,709,695,955: 1.71 Gbit/s on a 1 Gbit/s NIC.
    const row = page.locator("tr", { has: page.getByTestId("figure-warning") }).first();
    expect(await row.innerText()).toContain(
      "tcp.throughput 1.71 Gbit/s is above the NIC line rate of 1 Gbit/s (node.nicGbps)",
    );
    const link = row.getByTestId("figure-warning").getByRole("link");
    await link.focus();
    expect(await link.evaluate((a) => a === document.activeElement)).toBe(true);

    const uploads = page.getByRole("region", { name: "Warnings from the uploads" });
    expect(await uploads.innerText()).toContain(
      'node.kernel: you passed "6.1.0", the files state "5.4.104+"; stored as you passed',
    );
    await screenshot(page, "warnings-scenario");
    expect(errors).toEqual([]);
  });
});
