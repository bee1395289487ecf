// Compare and share: two TKE scenarios from the explorer, a permalink that keeps its numbers after
// a newer upload, and says so.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Page } from "playwright-core";
import { describe, expect, inject, it } from "vitest";
import { browserPerFile, collectPageErrors, interact, screenshot, signedIn } from "./browser.ts";

const webUrl = inject("webUrl");
const apiUrl = inject("apiUrl");
const token = inject("uploadToken");
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const { browser } = browserPerFile(webUrl);

/** The table's words whatever its layout: below md the same table is drawn as stacked cards. */
const tableText = async (page: Page) =>
  ((await page.getByTestId("compare-table").textContent()) ?? "").replace(/\s+/g, " ").trim();

describe("compare and share", () => {
  it("compares two TKE scenarios, shares a permalink that survives a newer upload", async () => {
    // Sharing writes a permalink: signed-in users only.
    const page = await signedIn(browser(), webUrl, "sharer");
    const errors = collectPageErrors(page);
    await page.goto(`${webUrl}/?provider=tke`);
    await page.getByRole("checkbox", { name: "Compare kube-proxy iptables" }).check();
    await page.getByRole("checkbox", { name: "Compare Cilium Overlay" }).check();
    await page.getByRole("button", { name: "Compare selected" }).click();
    await page.waitForURL(/\/compare\?s=.+&s=/);
    await page.getByTestId("compare-table").waitFor();

    const summary = await page.locator("section[aria-label=Summary] p").first().innerText();
    // The largest decided effect first (issue 40): short-connection RPS at 0 Services, 14,193 against
    // 31,365 req/s, −54.75 % by hand; the counts per figure family after it.
    expect(summary).toMatch(/^Cilium Overlay vs kube-proxy iptables: HTTP requests per second · .+ −54\.7 %, worse; /);
    expect(summary).toMatch(/By family: TCP throughput \d+ equivalent/);
    // Like-for-like: same SKU and kernel; the TKE clusters differ only in their CNI configuration.
    expect(await page.getByText("Like-for-like: only the CNI configuration differs.").isVisible()).toBe(true);
    // The short-connection baseline: 31,365 (iptables) vs 14,193 req/s (overlay), clearly worse.
    const baselineRow = page
      .locator("tr", { hasText: "HTTP requests per second" })
      .filter({ hasText: "concurrency 64 · connection short · target service" })
      .first();
    expect(await baselineRow.innerText()).toMatch(/31,365 req\/s[\s\S]*14,193 req\/s[\s\S]*worse/);
    // The chart draws once hydrated and measured, which can be after the table is shown; its
    // interactive layer once the reader has moved the pointer (the clicks above did).
    await screenshot(page, "compare-tke-static");
    await interact(page);
    await expect.poll(() => page.locator(".recharts-line").count()).toBe(2);
    // The crossover chart's points say their verdict against the baseline, as the table does.
    const dot = page.locator('circle[role="button"][aria-label*=" at 0; vs "]');
    await dot.focus();
    expect(await page.getByRole("tooltip").innerText()).toMatch(
      // Three significant digits: 14,193 / 31,365 − 1 = −54.75 % reads −54.7 %.
      /vs kube-proxy iptables: −54\.7 % · worse · single value \(one value a side, indicative\)/,
    );
    await screenshot(page, "compare-tke");

    await page.getByRole("button", { name: "Share a permalink" }).click();
    await page.waitForURL(/\/d\/[\w-]+$/);
    const permalink = page.url();
    const pinned = await tableText(page);
    // Metadata streams in after the page's shell on a client-side navigation.
    await expect.poll(() => page.title(), { timeout: 10_000 }).toBe("Cilium Overlay vs kube-proxy iptables · cnibench");

    const fresh = await browser().newContext({ viewport: { width: 390, height: 900 } });
    const other = await fresh.newPage();
    await other.goto(permalink);
    expect(await tableText(other)).toBe(pinned);
    expect(await other.locator('meta[property="og:description"]').getAttribute("content")).toMatch(/better.*worse/);
    await screenshot(other, "permalink-tke");

    // A newer run of the overlay: 30,000 Services now at 15,000 req/s (past both crossovers, which stay put).
    const example = JSON.parse(fs.readFileSync(path.join(repoRoot, "examples/bundle.json"), "utf8"));
    example.runAt = new Date().toISOString();
    example.results = example.results.map((r: { params: { services: number }; value: number }) =>
      r.params.services === 30000 ? { ...r, value: 15000 } : r,
    );
    const res = await fetch(`${apiUrl}/v1/bundles`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify(example),
    });
    expect(res.status).toBe(201);

    await other.reload();
    expect(await tableText(other)).toBe(pinned);
    const notice = other.getByText(/newer bundle has been uploaded/);
    expect(await notice.isVisible()).toBe(true);
    await other.getByRole("link", { name: "See the live comparison" }).click();
    await other.waitForURL(/\/compare\?/);
    // It keeps the margins the link was shared with (the catalogue's: ±5 % for TCP throughput).
    expect(other.url()).toMatch(/margin=tcp\.throughput(:|%3A)5(&|$)/);
    expect(await tableText(other)).toContain("15,000 req/s");
    expect(errors).toEqual([]);
    await fresh.close();
    await page.close();
  });

  it("asks for 2 to 4 scenarios", async () => {
    const page = await browser().newPage();
    await page.goto(`${webUrl}/compare?s=only-one`);
    // Waited for, as React may reveal it a frame after the load event (isVisible does not wait).
    await page.getByText("Choose at least 2 scenarios.").waitFor({ timeout: 10_000 });
    expect(await page.getByRole("button", { name: "Compare" }).isVisible()).toBe(true);
    await page.close();
  });
});
