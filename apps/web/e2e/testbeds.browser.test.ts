// Views that read right with many setups on several testbeds (issue 40): InfraBuilder's 25 setups on
// 40 G bare metal, 4 on an older 10 G bench and 2 on a 12.5 G cloud instance (test-support's
// other-testbeds, derived from InfraBuilder's runs), beside the demo data. Every page fits 390 px; the
// compare table's names sit over their own columns; chart labels never overprint; the compare summary
// says the largest decided primary effect first.
import { otherTestbedBundles } from "@cnibench/test-support/other-testbeds";
import type { Page } from "playwright-core";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { browserPerFile, importInfrabuilderTree, interact, screenshot } from "./browser.ts";

const webUrl = inject("webUrl");
const apiUrl = inject("apiUrl");
const token = inject("uploadToken");
const { open } = browserPerFile(webUrl);

/** Scenario ids by "label@sku". */
const ids = new Map<string, string>();

beforeAll(async () => {
  const answer = await importInfrabuilderTree(apiUrl, token);
  // Each imported scenario's label and testbed, from one of its bundles as the API serves it.
  const firstOf = new Map(answer.bundles.map((b) => [b.scenarioId, b.id]));
  for (const [scenarioId, bundleId] of firstOf) {
    const b = (await (await fetch(`${apiUrl}/v1/bundles/${bundleId}`)).json()) as {
      cni?: { label?: string };
      node?: { sku?: string };
      bundle?: { cni?: { label?: string }; node?: { sku?: string } };
    };
    const bundle = b.bundle ?? b;
    ids.set(`${bundle.cni?.label}@${bundle.node?.sku}`, scenarioId);
  }
  for (const bundle of otherTestbedBundles()) {
    const up = await fetch(`${apiUrl}/v1/bundles`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify(bundle),
    });
    const stored = (await up.json()) as { scenarioId: string };
    expect([200, 201], JSON.stringify(stored).slice(0, 500)).toContain(up.status);
    ids.set(`${bundle.cni.label}@${bundle.node.sku}`, stored.scenarioId);
  }
}, 180_000);

const id = (label: string, sku = "bare-metal-40g") => {
  const found = ids.get(`${label}@${sku}`);
  if (!found) throw new Error(`no scenario ${label}@${sku} among ${[...ids.keys()].join(", ")}`);
  return found;
};

/** How far the document sticks out past the screen, and what sticks out, innermost last. */
async function overflowOf(page: Page): Promise<{ overflow: number; culprits: string[] }> {
  return page.evaluate(() => ({
    overflow: document.documentElement.scrollWidth - window.innerWidth,
    culprits: [...document.querySelectorAll("body *")]
      .filter((e) => e.getBoundingClientRect().right > window.innerWidth + 1)
      .slice(-3)
      .map((e) => `<${e.tagName.toLowerCase()} class="${e.getAttribute("class") ?? ""}">`),
  }));
}

/** Both widths: shot, no wider than the screen, no page error; the page's main text at each width. */
async function atBothWidths(path: string, name: string, ready: (page: Page) => Promise<void>): Promise<string[]> {
  const texts: string[] = [];
  for (const width of [1440, 390]) {
    const { page, errors } = await open(path, width);
    await ready(page);
    await screenshot(page, name);
    texts.push(await page.locator("main").innerText());
    const { overflow, culprits } = await overflowOf(page);
    expect(overflow, `${path} at ${width} px is ${overflow} px too wide: ${culprits.join(" | ")}`).toBeLessThanOrEqual(
      0,
    );
    expect(errors).toEqual([]);
    await page.close();
  }
  return texts;
}

/**
 * Pairs of elements whose printed text intersects (by more than a pixel), by their text: the box of
 * the text itself, so a label wider than its element's box is caught too.
 */
async function overlapping(page: Page, selector: string): Promise<string[]> {
  return page.locator(selector).evaluateAll((els) => {
    const boxes = els.map((e) => {
      const range = document.createRange();
      range.selectNodeContents(e);
      return { text: e.textContent ?? "", r: range.getBoundingClientRect() };
    });
    const out: string[] = [];
    for (let i = 0; i < boxes.length; i++)
      for (let j = i + 1; j < boxes.length; j++) {
        const [a, b] = [boxes[i]!.r, boxes[j]!.r];
        const w = Math.min(a.right, b.right) - Math.max(a.left, b.left);
        const h = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
        if (w > 1 && h > 1) out.push(`${boxes[i]!.text} / ${boxes[j]!.text}`);
      }
    return out;
  });
}

describe("many setups on several testbeds", () => {
  it("charts draw one testbed by default, the others one choice away, and fit 390 px", async () => {
    for (const view of ["throughput", "resources", "overheads", "crossover"]) {
      const texts = await atBothWidths(`/charts?view=${view}`, `testbeds-${view}`, async (page) => {
        await interact(page);
        await page.locator("main h1").first().waitFor();
      });
      // InfraBuilder's testbed has the most scenarios (25): drawn by default, and said so.
      for (const text of texts)
        expect(text).toMatch(/Drawn: on-prem · bare-metal-40g · NIC 40 Gbit\/s; \d+ other testbeds? one choice away/);
    }
  });

  it("crossover: the empty view lists the axes the data has; streams draws points at 1 and 8, unjoined", async () => {
    // The default (RPS by Services, short connections) on InfraBuilder's testbed, which swept only streams.
    const texts = await atBothWidths("/charts?view=crossover", "testbeds-crossover-empty", async (page) => {
      await page.getByText("What these scenarios can be drawn along:").waitFor();
    });
    for (const text of texts) {
      expect(text).toMatch(/A crossover needs a figure measured by at least two setups at two or more shared values/);
      expect(text).toMatch(/TCP throughput by streams \(category, 25 setups\)/);
    }
    const { page } = await open("/charts?view=crossover", 1440);
    await page.getByRole("link", { name: "TCP throughput by streams" }).click();
    await page.getByRole("heading", { name: "TCP throughput by streams" }).waitFor();
    const text = await page.locator("main").innerText();
    expect(text).toMatch(/“streams” is a category, not a scale: each value is its own test/);
    expect(text).not.toMatch(/overtakes .+ at ≈/);
    // The link draws each setup once: pod to pod, which bare metal (node to node) did not measure.
    expect(text).toMatch(/Only figures with\s+path = pod-pod ✕/);
    // The axis choice offers what the data has, by keyboard as by pointer: a native select.
    const against = page.getByLabel("against");
    expect(await against.locator("option").allInnerTexts()).toEqual(["streams (category) · 24 setups"]);
    // The link's click counted as the first interaction, so the charts drew interactive at once.
    await page.locator(".recharts-surface").first().waitFor();
    // No line joins the points; the ticks are the measured stream counts (in the server's picture).
    await page.reload();
    const chart = page.locator("[data-static-chart]").first();
    expect(await chart.locator("path[data-band]").count()).toBe(0);
    expect(await chart.locator("span.pt-1.tabular-nums").allInnerTexts()).toEqual(["1", "8"]);
    const streams = new URL(page.url());
    await page.close();
    await atBothWidths(`${streams.pathname}${streams.search}`, "testbeds-crossover-streams", async (p) => {
      await p.locator("[data-static-chart]").first().waitFor();
    });
  });

  it("crossover bands: the margin around single runs, named in the key, markers' labels apart", async () => {
    // TKE's three clusters (demo data): single runs, so each line's band is ±5 % (http.rps's margin).
    const path = "/charts?view=crossover&testbed=tke%2FSA5.LARGE8%2F%3F";
    const texts = await atBothWidths(path, "testbeds-crossover-band", async (page) => {
      await page.locator("[data-static-chart] path[data-band]").first().waitFor();
    });
    for (const text of texts) {
      expect(text).toMatch(/Shaded: ±5 % around a single value \(the metric's margin\)/);
      expect(text).toMatch(
        /Cilium Overlay overtakes kube-proxy iptables at ≈19,649 Services, interpolated; within 5 % at 20,000/,
      );
    }
    for (const width of [1440, 390]) {
      const { page } = await open(path, width);
      await page.locator("[data-static-chart]").first().waitFor();
      expect(await page.locator("[data-static-chart] path[data-band]").count()).toBe(3);
      expect(await overlapping(page, "[data-static-chart] [data-mark]")).toEqual([]);
      // The interactive chart draws the same bands (Recharts' areas) and marks.
      await interact(page);
      await page.locator(".recharts-area").first().waitFor();
      expect(await page.locator(".recharts-area").count()).toBe(3);
      expect(await overlapping(page, "[data-mark] text")).toEqual([]);
      await screenshot(page, "testbeds-crossover-band-interactive");
      await page.close();
    }
  });

  it("every other page fits 390 px: explorer, guide, latency, an embedded crossover", async () => {
    for (const [path, name] of [
      ["/", "testbeds-explore"],
      ["/guide", "testbeds-guide"],
      ["/charts?view=latency", "testbeds-latency"],
      ["/embed/charts?view=crossover&metric=tcp.throughput&x=streams&where=", "testbeds-embed-crossover"],
    ] as const) {
      await atBothWidths(path, name, async (page) => {
        await page.locator("body").waitFor();
        await page.waitForLoadState("networkidle");
      });
    }
  });

  it("bar charts' group labels never print over each other, at 1440 and 390", async () => {
    for (const view of ["throughput", "resources"]) {
      for (const width of [1440, 390]) {
        const { page } = await open(`/charts?view=${view}`, width);
        // The static pictures' group names, a line each (a name wraps at " · ").
        const lines = page.locator("[data-static-chart] span.text-center > span");
        await lines.first().waitFor();
        expect(await overlapping(page, "[data-static-chart] span.text-center > span"), `${view} at ${width}`).toEqual(
          [],
        );
        await page.close();
      }
    }
  });

  it("mixing every testbed on purpose: one NIC line per speed, labels never over each other", async () => {
    const { page } = await open("/charts?view=throughput&testbed=all", 1440);
    await page.locator("[data-rule-label]").first().waitFor();
    const labels = await page.locator("[data-rule-label]").allInnerTexts();
    expect(labels).toEqual(expect.arrayContaining(["NIC 40 Gbit/s", "NIC 12.5 Gbit/s", "NIC 10 Gbit/s"]));
    expect(await overlapping(page, "[data-rule-label]")).toEqual([]);
    await screenshot(page, "testbeds-throughput-all");
    await page.close();
  });

  it("compare at 2–4 scenarios: each name over its own columns, no overflow at 1440, usable at 390", async () => {
    const four = [id("cilium"), id("cilium-nokproxy"), id("kubeovn"), id("cilium-wg")];
    for (const n of [2, 3, 4]) {
      const path = `/compare?${four
        .slice(0, n)
        .map((s) => `s=${s}`)
        .join("&")}`;
      await atBothWidths(path, `testbeds-compare-${n}`, async (page) => {
        await page.getByTestId("compare-table").waitFor();
      });
      const { page } = await open(path, 1440);
      await page.getByTestId("compare-table").waitFor();
      // Each candidate's header: its centre between its value column's left and its verdict column's right.
      const placed = await page.getByTestId("compare-table").evaluate((table) => {
        const row = table.querySelector("tbody tr");
        const cells = row ? [...row.children].slice(2) : [];
        return [...table.querySelectorAll("th[data-scenario-header]")].slice(1).map((th, i) => {
          const r = th.getBoundingClientRect();
          const value = cells[2 * i]?.getBoundingClientRect();
          const verdict = cells[2 * i + 1]?.getBoundingClientRect();
          const centre = (r.left + r.right) / 2;
          return {
            name: th.textContent,
            over: value && verdict ? centre >= value.left && centre <= verdict.right : false,
          };
        });
      });
      expect(
        placed.map((p) => p.over),
        JSON.stringify(placed),
      ).toEqual(placed.map(() => true));
      const fits = await page
        .getByTestId("compare-table")
        .evaluate((table) => table.getBoundingClientRect().width - (table.parentElement?.clientWidth ?? 0));
      expect(fits, "the table is wider than its box at 1440 px").toBeLessThanOrEqual(0);
      await page.close();
    }
  });

  it("the compare summary says the largest decided primary effect first, node memory once per role", async () => {
    const { page } = await open(`/compare?s=${id("cilium")}&s=${id("kubeovn")}`, 1440);
    await page.getByTestId("compare-table").waitFor();
    const summary = await page.getByRole("region", { name: "Summary" }).innerText();
    // The table's decided rows of primary figures, with the change each shows.
    const decided = await page.getByTestId("compare-table").evaluate((table) =>
      [...table.querySelectorAll("tbody tr")].flatMap((tr) => {
        const label = tr.querySelector("th")?.textContent ?? "";
        const cells = [...tr.children];
        const value = cells[2]?.textContent ?? "";
        const verdict = cells[3]?.textContent ?? "";
        const change = /\(([+−-][\d.,]+) %\)/.exec(value)?.[1];
        if (!/^(TCP throughput|UDP throughput|UDP packet loss)/.test(label)) return [];
        if (!/^(better|worse)/.test(verdict.trim()) || !change) return [];
        return [{ label, change: Number(change.replace("−", "-").replace(/,/g, "")) }];
      }),
    );
    expect(decided.length).toBeGreaterThan(0);
    const largest = decided.reduce((a, b) => (Math.abs(b.change) > Math.abs(a.change) ? b : a));
    const first = /: (.+?) ([+−][\d.,]+) %, (better|worse)/.exec(summary);
    expect(first, summary).not.toBeNull();
    expect(Number(first![2]!.replace("−", "-").replace(/,/g, ""))).toBeCloseTo(largest.change, 1);
    expect(summary).toMatch(/Memory usage, per node and role [1-2] (better|worse|equivalent)/);
    await screenshot(page, "testbeds-compare-summary");
    await page.close();
  });

  it("history view: the crossover's default series is not forced on a scenario without it", async () => {
    const texts = await atBothWidths(
      `/charts?view=history&scenario=${id("flannel")}`,
      "testbeds-history",
      async (page) => {
        await page.getByTestId("history-testbed").first().waitFor();
      },
    );
    for (const text of texts) {
      expect(text).toMatch(/The 1 chosen scenario\./);
      expect(text).not.toMatch(/chosen scenarios\./);
      expect(text).toMatch(
        /No chosen scenario has a campaign of HTTP requests per second · connection short: showing /,
      );
      expect(text).not.toMatch(/has no campaign of/);
    }
  });

  it("scenario page: figures and runs counted apart, history folded at one campaign, 390 px wide at most", async () => {
    const texts = await atBothWidths(`/scenarios/${id("flannel")}`, "testbeds-scenario", async (page) => {
      await page.locator("main h1").first().waitFor();
    });
    for (const text of texts) {
      expect(text).toMatch(/\d+ figures \([\d,]+ values of their runs\) from 3 bundles/);
      expect(text).toMatch(/One campaign so far/);
      expect(text).toMatch(/one run's, of \d{4}-\d{2}-\d{2}/);
    }
  });
});
