// The explorer as a user meets it: the seed benchmarks, facets in the URL, scenario pages.
import type { Page } from "playwright-core";
import { describe, expect, inject, it } from "vitest";
import { browserPerFile, screenshot } from "./browser.ts";

const webUrl = inject("webUrl");
const { browser, open } = browserPerFile(webUrl);

const scenarioRows = (page: Page) => page.locator("main table tbody tr");
const scenarioNames = (page: Page) => page.locator("main table tbody td[data-column=scenario] a").allTextContents();

describe("explore", () => {
  it("filters to a cloud by its facet, keeps the filter in the URL, and reproduces it from the URL", async () => {
    const { page, errors } = await open("/");
    const all = await scenarioRows(page).count();
    expect(all).toBeGreaterThanOrEqual(9); // three TKE, five EKS, and AKS

    await page.getByRole("checkbox", { name: /Tencent Kubernetes Engine/ }).check();
    await page.waitForURL(/[?&]provider=tke/);
    await expect.poll(() => scenarioRows(page).count()).toBe(3);
    const names = (await scenarioNames(page)).sort();
    await screenshot(page, "explore-tke");

    const again = await open(new URL(page.url()).pathname + new URL(page.url()).search);
    expect(await scenarioRows(again.page).count()).toBe(3);
    expect((await scenarioNames(again.page)).sort()).toEqual(names);
    await expect
      .poll(() => again.page.getByRole("checkbox", { name: /Tencent Kubernetes Engine/ }).isChecked())
      .toBe(true);

    await page.goBack();
    await page.waitForURL((url) => !url.search.includes("provider="));
    await expect.poll(() => scenarioRows(page).count()).toBe(all);
    expect(errors).toEqual([]);
    await page.close();
    await again.page.close();
  });

  it("filters to an instance type: m6i.xlarge holds the five EKS scenarios", async () => {
    const { page, errors } = await open("/");
    await page.getByRole("checkbox", { name: /^m6i\.xlarge/ }).check();
    await page.waitForURL(/[?&]sku=m6i\.xlarge/);
    await expect.poll(() => scenarioRows(page).count()).toBe(5);
    const clouds = () => page.locator("main table tbody td[data-column=provider]").allTextContents();
    await expect.poll(async () => [...new Set(await clouds())]).toEqual(["eks"]);
    expect(errors).toEqual([]);
    await page.close();
  });

  it("sorts by a figure column on the server and keeps the sort in the URL", async () => {
    const { page } = await open("/?provider=tke");
    const shortRps = async (p: Page) =>
      (await p.locator("main table tbody td[data-column=shortRps]").allTextContents()).map((t) =>
        Number(t.replace(/[^\d.]/g, "")),
      );
    const unsorted = await shortRps(page);
    expect(unsorted).toHaveLength(3);
    const descending = [...unsorted].sort((a, b) => b - a);
    await page.getByRole("button", { name: /Short-conn RPS/ }).click();
    await page.waitForURL(/sort=shortRps/);
    await expect.poll(() => shortRps(page)).toEqual(descending);
    await page.getByRole("button", { name: /Short-conn RPS/ }).click();
    await page.waitForURL(/order=asc/);
    await expect.poll(() => shortRps(page)).toEqual([...descending].reverse());
    // The address alone reproduces the order: the server sorts.
    const again = await open(new URL(page.url()).pathname + new URL(page.url()).search);
    expect(await shortRps(again.page)).toEqual([...descending].reverse());
    await again.page.close();
    await page.close();
  });

  it("says which filter to drop when nothing matches", async () => {
    const { page } = await open("/?provider=tke&sku=m6i.xlarge");
    await expect.poll(() => page.getByText("No scenarios match these filters.").isVisible()).toBe(true);
    await page.getByRole("link", { name: /Drop “Instance type: m6i\.xlarge”/ }).click();
    await page.waitForURL((url) => !url.search.includes("sku="));
    await expect.poll(() => scenarioRows(page).count()).toBe(3);
    await page.close();
  });

  it("is usable at 390 px: the table first, filters behind a button", async () => {
    const { page, errors } = await open("/?provider=tke", 390);
    await expect.poll(() => scenarioRows(page).count()).toBe(3);
    expect(await page.getByRole("checkbox", { name: /Tencent Kubernetes Engine/ }).isVisible()).toBe(false);
    await page.getByRole("button", { name: /Filters · 1 active/ }).click();
    expect(await page.getByRole("checkbox", { name: /Tencent Kubernetes Engine/ }).isVisible()).toBe(true);
    await screenshot(page, "explore-tke");
    expect(errors).toEqual([]);
    await page.close();
  });
});

describe("scenario page", () => {
  it("shows a seed figure with its source link, and downloads", async () => {
    const { page, errors } = await open("/?provider=tke");
    await page.getByRole("link", { name: "Cilium Overlay", exact: true }).click();
    await page.waitForURL(/\/scenarios\//);
    await page.getByRole("heading", { name: "Cilium Overlay", level: 1 }).waitFor();
    // TKE's Service-scale table: Cilium Overlay, short connections via Service, 0 extra Services.
    const row = page
      .locator("tr", { hasText: "services 0" })
      .filter({ hasText: "connection short" })
      .filter({ hasText: "14,193 req/s" });
    expect(await row.count()).toBeGreaterThanOrEqual(1);
    const source = page.getByRole("link", { name: "Cilium Network Performance Benchmark" }).first();
    expect(await source.getAttribute("href")).toMatch(/^https:\/\//);
    expect(await page.getByText("TencentOS Server 4").isVisible()).toBe(true);
    await screenshot(page, "scenario-tke-overlay");

    const csv = await page.request.get(`${page.url()}/figures.csv`);
    expect(csv.headers()["content-type"]).toMatch(/text\/csv/);
    expect(await csv.text()).toMatch(/^metric,params,value,unit/);
    const json = await (await page.request.get(`${page.url()}/figures.json`)).json();
    expect(json.scenario.label).toBe("Cilium Overlay");
    expect(errors).toEqual([]);

    await page.setViewportSize({ width: 390, height: 900 });
    await screenshot(page, "scenario-tke-overlay");
    await page.close();
  });

  it("answers an unknown scenario with a 404 page that says what to do", async () => {
    const page = await browser().newPage();
    const res = await page.goto(`${webUrl}/scenarios/no-such-scenario`);
    expect(res?.status()).toBe(404);
    // Visible once React has revealed it, which may come a frame after the load event: waited for.
    await page.getByRole("heading", { name: "No such scenario" }).waitFor({ timeout: 10_000 });
    expect(await page.getByRole("link", { name: "explorer" }).getAttribute("href")).toBe("/");
    await page.close();
  });
});

describe("health endpoints of the web app", () => {
  it("answers /healthz without the database and /readyz once PostgreSQL answers", async () => {
    const live = await fetch(`${webUrl}/healthz`);
    expect(live.status).toBe(200);
    expect(await live.json()).toEqual({ status: "ok" });
    const ready = await fetch(`${webUrl}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: "ready" });
  });
});
