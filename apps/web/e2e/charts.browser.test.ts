// The crossover view on the TKE seed data: three lines, two computed crossovers, toggles, CSV export.
import fs from "node:fs";
import { describe, expect, inject, it } from "vitest";
import { browserPerFile, collectPageErrors, interact, screenshot } from "./browser.ts";

const webUrl = inject("webUrl");
const { browser, open } = browserPerFile(webUrl);

/** The Service counts named in "… overtakes … at ≈19,649 Services" sentences. */
const crossings = (texts: string[]) =>
  texts.flatMap((t) =>
    [...t.matchAll(/overtakes .+? at ≈([\d,]+) Services/g)].map((m) => Number(m[1]?.replaceAll(",", ""))),
  );

describe("crossover chart", () => {
  it("draws the three TKE lines with both crossovers, toggles log x and degradation, and exports CSV", async () => {
    const context = await browser().newContext({ viewport: { width: 1440, height: 1000 }, acceptDownloads: true });
    const page = await context.newPage();
    const errors = collectPageErrors(page);
    await page.goto(`${webUrl}/`);
    await page.getByRole("checkbox", { name: /Tencent Kubernetes Engine/ }).check();
    await page.waitForURL(/provider=tke/);
    await page.getByRole("link", { name: /Chart these/ }).click();
    await page.waitForURL(/\/charts\?/);
    await interact(page);
    await page.locator(".recharts-line").first().waitFor();

    expect(await page.locator(".recharts-line").count()).toBe(3);
    const legend = page.getByRole("list", { name: /Series/ }).getByRole("button");
    expect(await legend.allTextContents()).toEqual(["kube-proxy iptables", "Cilium Native", "Cilium Overlay"]);
    const sentences = await page.locator("[data-testid=crossover-summary] li").allTextContents();
    const [overlay, native] = crossings(sentences);
    expect(sentences[0]).toMatch(/^Cilium Overlay overtakes kube-proxy iptables/);
    expect(Math.abs((overlay ?? 0) - 19_650)).toBeLessThanOrEqual(100);
    expect(sentences[1]).toMatch(/^Cilium Native overtakes kube-proxy iptables/);
    expect(Math.abs((native ?? 0) - 24_725)).toBeLessThanOrEqual(100);
    // The markers on the chart carry the same numbers.
    const marks = (await page.locator("svg [data-mark]").allTextContents()).map((t) => Number(t.replace(/[^\d]/g, "")));
    expect(marks.sort()).toEqual([overlay, native].sort());
    await screenshot(page, "crossover-tke");

    // The legend hides and shows a line; the plot follows the legend a render behind (useChartState).
    await legend.filter({ hasText: "Cilium Native" }).click();
    await expect.poll(() => page.locator(".recharts-line").count()).toBe(2);
    await legend.filter({ hasText: "Cilium Native" }).click();
    await expect.poll(() => page.locator(".recharts-line").count()).toBe(3);

    await page.getByText("log", { exact: true }).click();
    await page.waitForURL(/scale=log/);
    await page.getByText(/A logarithmic axis cannot show x = 0/).waitFor();
    expect(crossings(await page.locator("[data-testid=crossover-summary] li").allTextContents())).toEqual([
      overlay,
      native,
    ]);

    await page.getByText("degradation %", { exact: true }).click();
    await page.waitForURL(/y=degradation/);
    await page.getByText("change vs first step (%)").waitFor();
    await screenshot(page, "crossover-tke-degradation-log");

    const download = page.waitForEvent("download");
    await page.getByRole("button", { name: "CSV" }).click();
    const file = await (await download).path();
    const lines = fs.readFileSync(file, "utf8").trim().split(/\r?\n/);
    expect(lines[0]).toBe(
      "scenario_id,scenario,series,x,value,unit,qualifier,low,high,n,min,max,params,verdict_vs_baseline,change_percent",
    );
    expect(lines).toHaveLength(1 + 15);
    // Every row names its scenario (id, name) before the series; params in one column, in words.
    expect(lines.some((l) => /^[^,]+,kube-proxy iptables,kube-proxy iptables,30000,/.test(l))).toBe(true);
    expect(errors).toEqual([]);

    await page.setViewportSize({ width: 390, height: 900 });
    await screenshot(page, "crossover-tke-degradation-log");
    await context.close();
  });

  it("paints a static picture from the server and loads the interactive chart at the first interaction", async () => {
    // The server's HTML has the picture: a path per series and the crossovers' labels, with no script.
    const html = await (await fetch(`${webUrl}/charts?provider=tke`)).text();
    const picture = html.slice(html.indexOf("data-static-chart"));
    const drawn = [...picture.matchAll(/data-series="([^"]+)"/g)].map((m) => m[1]);
    expect(drawn.sort()).toEqual(["Cilium Native", "Cilium Overlay", "kube-proxy iptables"]);
    expect(picture.match(/data-mark=""/g)).toHaveLength(2);

    for (const width of [1440, 390]) {
      const { page, errors } = await open("/charts?provider=tke", width);
      const scripts: string[] = [];
      page.on("request", (r) => {
        if (r.resourceType() === "script") scripts.push(r.url());
      });
      await page.waitForLoadState("networkidle");
      // Hydrated, idle and untouched: still the picture, and no chart code fetched.
      expect(await page.locator("[data-static-chart]").count()).toBe(1);
      expect(await page.locator(".recharts-surface").count()).toBe(0);
      expect(scripts).toEqual([]);
      expect(await page.getByRole("img", { name: /Move the pointer over the page/ }).count()).toBe(1);
      await screenshot(page, "crossover-tke-static");
      await interact(page);
      await page.locator(".recharts-line").first().waitFor();
      // Recharts came with the interaction, in chunks of its own, and replaced the picture.
      expect(scripts.length).toBeGreaterThan(0);
      expect(await page.locator("[data-static-chart]").count()).toBe(0);
      expect(await page.locator(".recharts-line").count()).toBe(3);
      expect(errors).toEqual([]);
      await page.close();
    }
    // The bars' pictures too, untouched, to look at.
    for (const width of [1440, 390]) {
      const { page } = await open("/charts?provider=tke&view=latency", width);
      await page.waitForLoadState("networkidle");
      expect(await page.locator("[data-static-chart]").count()).toBeGreaterThan(0);
      await screenshot(page, "charts-tke-latency-static");
      await page.close();
    }
  });

  it("opens from a scenario page, and every other view draws labelled charts", async () => {
    const page = await browser().newPage({ viewport: { width: 1440, height: 1000 } });
    const errors = collectPageErrors(page);
    for (const view of ["latency", "throughput", "resources", "overheads"]) {
      await page.goto(`${webUrl}/charts?provider=tke&view=${view}`);
      await interact(page);
      await page.locator("[data-bars]").first().waitFor();
      const titles = await page.locator("figure h2").allTextContents();
      expect(titles.length).toBeGreaterThan(0);
      // Every chart titles both axes; the y title is the unit (Recharts draws axis titles as text.recharts-label).
      for (const figure of await page.locator("figure").all()) {
        const axisTitles = await figure.locator("text.recharts-label").allTextContents();
        expect(axisTitles).toHaveLength(2);
        expect(axisTitles.some((t) => /^(µs|ms|s|%|Gbit\/s|req\/s|trans\/s|millicores|MiB|count)$/.test(t))).toBe(true);
      }
      await screenshot(page, `charts-tke-${view}`);
    }
    expect(await page.locator("figure h2").allTextContents()).toContain("Feature overhead on HTTP requests per second");
    expect(errors).toEqual([]);
    await page.close();
  });
});
