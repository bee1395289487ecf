// The selection guide on the seed data: the form writes the URL, the answer ranks the datapaths with
// reasons that link to the scenarios and bundles they were computed from.
import type { Page } from "playwright-core";
import { describe, expect, inject, it } from "vitest";
import { browserPerFile, screenshot } from "./browser.ts";

const webUrl = inject("webUrl");
const apiUrl = inject("apiUrl");
const { open } = browserPerFile(webUrl);

/** A guide page once its answer is in: the heading streams first, the answer after the ranking. */
async function answered(path: string, width?: number) {
  const opened = await open(path, width);
  await opened.page.getByRole("heading", { name: "Answer", exact: true }).waitFor();
  return opened;
}

/** The ranked options' names: h4 under a testbed's heading when several testbeds are in scope. */
const ranked = (page: Page) => page.getByRole("region", { name: "Datapaths, ranked" }).locator("ol > li :is(h3, h4)");
/** The ranked options measured where the user asked; portable CNIs measured elsewhere follow them. */
const rankedHere = (page: Page) =>
  page
    .getByRole("region", { name: "Datapaths, ranked" })
    .locator("ol > li")
    .filter({ hasText: "Measured here as" })
    .locator(":is(h3, h4)");
const summary = (page: Page) => page.getByRole("list", { name: "Summary" });
/** The findings the answer rests on, listed after the ranking. */
const findings = (page: Page) => page.getByRole("list", { name: "Findings" });

describe("guide", () => {
  it("answers short-lived connections at 30,000 Services on TKE from the form, citing the crossovers", async () => {
    const { page, errors } = await answered("/guide");
    await page.getByLabel("Cloud").selectOption("tke");
    await page.getByLabel("Expected number of Services").fill("30000");
    // Keyboard: the radio group and the submit button.
    await page.getByRole("radio", { name: /Short-lived/ }).focus();
    await page.keyboard.press("Space");
    await page.getByRole("button", { name: "Show the answer" }).focus();
    await page.keyboard.press("Enter");
    await page.waitForURL(/cloud=tke/);
    expect(page.url()).toMatch(/services=30000/);
    expect(page.url()).toMatch(/connections=short/);
    // The answer re-renders on the server after the URL changes: give a busy machine time, and wait
    // for TKE's answer itself (the one before it, for every cloud, may also rank Cilium overlay first).
    await expect.poll(async () => (await rankedHere(page).allTextContents()).length, { timeout: 15_000 }).toBe(3);
    await expect
      .poll(async () => (await ranked(page).allTextContents())[0], { timeout: 15_000 })
      .toMatch(/^Cilium overlay/);

    const names = await ranked(page).allTextContents();
    const here = await rankedHere(page).allTextContents();
    expect(here).toHaveLength(3);
    expect(names.slice(0, 3)).toEqual(here);
    expect(here.findIndex((n) => /^Cilium/.test(n))).toBe(0);
    expect(here.at(-1)).toMatch(/kube-proxy iptables/);
    const text = await findings(page).innerText();
    expect(text).toMatch(/Cilium Overlay overtakes kube-proxy iptables at ≈19,649 Services/);
    expect(text).toMatch(/Cilium Native overtakes kube-proxy iptables at ≈24,725 Services/);

    // Evidence links: the scenario page and the bundle at the ingest API, which serves it.
    const evidence = findings(page).getByRole("list", { name: "Evidence" }).first();
    const scenarioHref = await evidence.getByRole("link").first().getAttribute("href");
    expect(scenarioHref).toMatch(/^\/scenarios\/[^/]+$/);
    const bundleHref = await evidence.getByRole("link", { name: "bundle" }).first().getAttribute("href");
    expect(bundleHref?.startsWith(`${apiUrl}/v1/bundles/`)).toBe(true);
    expect((await page.request.get(bundleHref!)).status()).toBe(200);
    await screenshot(page, "guide-tke-short-30000");

    // The URL alone reproduces the answer.
    const again = await answered(new URL(page.url()).pathname + new URL(page.url()).search);
    expect(await ranked(again.page).allTextContents()).toEqual(names);
    expect(await again.page.getByLabel("Expected number of Services").inputValue()).toBe("30000");
    expect(errors).toEqual([]);
    expect(again.errors).toEqual([]);
    await page.close();
    await again.page.close();
  });

  it("says keepalive at 1,000 Services barely matters for performance, and decides on features", async () => {
    const { page, errors } = await answered("/guide?cloud=tke&services=1000&connections=keepalive");
    expect(await findings(page).innerText()).toMatch(/barely matters for performance/);
    expect(await summary(page).innerText()).toMatch(/leads on the features it offers/);
    expect(errors).toEqual([]);
    await page.close();
  });

  it("recommends Cilium for L7 policy and warns of the −86 … −89% cost on policed pods", async () => {
    const { page, errors } = await answered("/guide?cloud=tke&connections=keepalive&need=l7Policy");
    expect((await ranked(page).allTextContents())[0]).toMatch(/^Cilium/);
    const text = await findings(page).innerText();
    expect(text).toMatch(/L7 policy is a performance cliff/);
    expect(text).toMatch(/−86\.1 %/);
    expect(text).toMatch(/−88\.7 %/);
    expect(await page.getByRole("checkbox", { name: /L7 \(HTTP\) policy/ }).isChecked()).toBe(true);
    // Capability reasons cite their documentation.
    const docs = page.getByRole("link", { name: "docs.cilium.io" }).first();
    expect(await docs.getAttribute("href")).toMatch(/^https:\/\/docs\.cilium\.io\//);
    expect(errors).toEqual([]);
    await page.close();
  });

  it("points UDP-heavy traffic on EKS at the bandwidth-manager scenario, at 390 px too", async () => {
    const { page, errors } = await answered("/guide?cloud=eks&connections=keepalive&need=udpHeavy", 390);
    expect((await ranked(page).allTextContents())[0]).toMatch(/^Cilium ENI/);
    const text = await findings(page).innerText();
    expect(text).toMatch(/0\.03 % with a bandwidth manager \(Cilium ENI \+ tuning \(E\)\)/);
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(390);
    await screenshot(page, "guide-eks-udp");
    expect(errors).toEqual([]);
    await page.close();
  });

  it("says when a cloud has no data and falls back with a visible caveat", async () => {
    const { page, errors } = await answered("/guide?cloud=gke&services=30000&connections=short");
    const note = page.getByRole("note", { name: "Caveats" });
    expect(await note.innerText()).toMatch(/No measurements on GKE yet/);
    await screenshot(page, "guide-gke-fallback");
    const small = await answered("/guide?cloud=gke&services=30000&connections=short", 390);
    await screenshot(small.page, "guide-gke-fallback");
    expect(errors).toEqual([]);
    expect(small.errors).toEqual([]);
    await page.close();
    await small.page.close();
  });
});
