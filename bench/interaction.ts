// npm run bench's interaction rows (issue 46): with two dozen series on screen (InfraBuilder's 25
// setups × 3 runs, imported as a user would), how long a hover, a legend click and "Show all" take
// from the input to the next paint, in headless Chromium with the CPU as it is and throttled 4×
// (DevTools' Emulation.setCPUThrottlingRate). Clicks are read from Chromium's Event Timing entries
// (the duration Interaction to Next Paint uses, in 8 ms steps; the API reports nothing under 16 ms,
// counted here as 16). Pointer moves have no Event Timing entry, so a hover is timed by hand: from the
// move's event timestamp to the end of the frame after the chart's DOM changed (rAF, then a task).
import { tar } from "@cnibench/test-support/archives";
import { infrabuilderEnvironment, infrabuilderSetups } from "@cnibench/test-support/infrabuilder-setups";
import { startIngest } from "@cnibench/test-support/ingest";
import type { Browser, Page } from "playwright-core";
import { quantile } from "simple-statistics";
import { launchBrowser } from "../apps/web/e2e/browser.ts";
import { type BenchRow, ms } from "./table.ts";
import { startWeb } from "./web.ts";

// What the functions run in the page use of the browser (this project's types are Node's).
type Listener = (e: { timeStamp: number }) => void;
declare const window: {
  addEventListener(type: string, listener: Listener, capture: boolean): void;
  removeEventListener(type: string, listener: Listener, capture: boolean): void;
  cnibenchEvents: { id: number; duration: number }[];
  cnibenchHover: Promise<number>;
};
declare const document: { body: unknown };
declare const MutationObserver: new (
  callback: () => void,
) => { observe(target: unknown, options: object): void; disconnect(): void };
declare const requestAnimationFrame: (callback: () => void) => void;

const targetMs = 200;
const viewport = { width: 1440, height: 900 };
const throttles = [1, 4];
const hovers = 20;
const toggles = 6;
/** "Show all" then back, three times: two clicks gave a p95 that was one click's time. */
const showAlls = 6;

/** Imports the tree, then measures each page's interactions at each throttle. */
export async function benchInteraction(url: string): Promise<BenchRow[]> {
  const api = await startIngest(url, { rateLimitPerMinute: 1e9 });
  try {
    const res = await fetch(`${api.base}/v1/import`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${api.token}`,
        "content-type": "application/x-tar",
        "x-cnibench-environment": JSON.stringify(infrabuilderEnvironment),
      },
      body: Buffer.from(tar(infrabuilderSetups())),
    });
    if (res.status !== 201) throw new Error(`import answered ${res.status}: ${(await res.text()).slice(0, 300)}`);
  } finally {
    await api.close();
  }
  const pages = {
    "throughput bars, all 25": "/charts?view=throughput&all=1",
    "resources bars, all 25": "/charts?view=resources&all=1",
  };
  const web = await startWeb(url);
  const browser = await launchBrowser();
  const rows: BenchRow[] = [];
  try {
    for (const [name, path] of Object.entries(pages)) {
      for (const rate of throttles) {
        console.log(`interaction: ${name}, CPU ${rate}×…`);
        const t = await measure(browser, web.base + path, rate);
        const p95 = (xs: number[]) => quantile(xs, 0.95);
        const kinds = [t.hover, t.toggle, t.showAll];
        const shown = (xs: number[]) => (xs.length ? ms(p95(xs)) : "–");
        rows.push({
          part: "interaction",
          what: `${name}, CPU ${rate}×: hover / legend / show all p95 ms`,
          figure: kinds.map(shown).join(" / "),
          against: `first move loads the charts: ${ms(t.firstMove)} ms; ${kinds.map((xs) => xs.length).join(" / ")} timed`,
          target: `p95 < ${targetMs} each`,
          // Each kind on its own: pooled, 20 quick hovers hid a slow "show all". A kind not measured (no
          // hover changed the chart) is no evidence of meeting the target.
          met: kinds.every((xs) => xs.length > 0 && p95(xs) < targetMs),
        });
      }
    }
  } finally {
    await browser.close();
    web.stop();
  }
  return rows;
}

type Timings = { firstMove: number; hover: number[]; toggle: number[]; showAll: number[] };

async function measure(browser: Browser, url: string, rate: number): Promise<Timings> {
  const context = await browser.newContext({ viewport });
  // tsx names the functions it compiles with a helper (__name) the page does not have.
  await context.addInitScript({ content: "globalThis.__name = (f) => f;" });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send("Emulation.setCPUThrottlingRate", { rate });
  try {
    const res = await page.goto(url, { waitUntil: "networkidle" });
    if (!res?.ok()) throw new Error(`${url}: HTTP ${res?.status()}`);
    await page.evaluate(() => {
      window.cnibenchEvents = [];
      new PerformanceObserver((list) => {
        for (const e of list.getEntries() as unknown as { interactionId: number; duration: number }[])
          if (e.interactionId) window.cnibenchEvents.push({ id: e.interactionId, duration: e.duration });
        // A browser entry type and option: this project's types are Node's, which do not know them.
      }).observe({ type: "event", buffered: true, durationThreshold: 16 } as unknown as { type: "mark" });
    });
    // The first move anywhere loads the interactive charts (packages/charts/src/interactive.ts), once
    // the page has hydrated: moved again until they come, timed from the move that brought them.
    let firstMove = Number.NaN;
    for (let attempt = 0; Number.isNaN(firstMove); attempt++) {
      if (attempt === 20) {
        await page.screenshot({ path: "/tmp/bench-interaction.png", fullPage: true });
        throw new Error(`${url}: no interactive chart after 20 pointer moves (screenshot /tmp/bench-interaction.png)`);
      }
      const moved = performance.now();
      await page.mouse.move(5 + (attempt % 2), 5);
      const came = await page
        .locator(".recharts-surface")
        .first()
        .waitFor({ timeout: 2000 })
        .then(
          () => true,
          () => false,
        );
      if (came) firstMove = performance.now() - moved;
    }
    await page.waitForLoadState("networkidle");

    const hoverTimes: number[] = [];
    const missed = { unchanged: 0, noEvent: 0 };
    // Only where the screen shows the chart, read again before each move: a move outside the viewport
    // reaches no element, so no event. The resources chart scrolls sideways (2,164 px wide at 1440),
    // and its right third drew 7 of 20 hovers; at 4× the page moved after one reading, and all 20 missed.
    const chart = page.locator(".recharts-surface").first();
    for (let i = 0; i < hovers; i++) {
      await chart.scrollIntoViewIfNeeded();
      const box = await chart.boundingBox();
      if (!box) throw new Error(`${url}: no chart on the page`);
      const x = box.x + ((i + 0.5) / hovers) * Math.min(box.width, viewport.width - box.x);
      const y = box.y + box.height * (0.3 + 0.4 * ((i * 7) % 5) * 0.25);
      const t = await hover(page, x, y);
      if (t >= 0) hoverTimes.push(t);
      else missed[t === -1 ? "unchanged" : "noEvent"]++;
    }

    console.log(`  ${hoverTimes.length} hovers (${missed.unchanged} changed nothing, ${missed.noEvent} had no event)`);
    const legend = page.locator('ul[aria-label="Series (click to hide or show)"] button');
    const toggle: number[] = [];
    for (let i = 0; i < toggles; i++) toggle.push(await click(page, legend.nth(Math.floor(i / 2))));

    console.log(`  ${toggle.length} legend clicks`);
    const showAll: number[] = [];
    const scope = () => page.getByRole("button", { name: /^Show (all \d+|\d+ \(best and worst\))$/ }).first();
    for (let i = 0; i < showAlls && (await scope().count()) > 0; i++) {
      showAll.push(await click(page, scope()));
      await page.waitForLoadState("networkidle");
    }
    return { firstMove, hover: hoverTimes, toggle, showAll };
  } finally {
    await context.close();
  }
}

/** A pointer move to (x, y): from its event to the frame after the DOM changed; −1 when nothing changed, −2 when no move came. */
async function hover(page: Page, x: number, y: number): Promise<number> {
  // The listener is in place before the move: evaluated and the move made side by side with a 20 ms
  // wait, a page still busy at 4× ran the listener after the move, and every hover read "unchanged".
  await page.evaluate(() => {
    window.cnibenchHover = new Promise<number>((resolve) => {
      const onMove: Listener = (e) => {
        window.removeEventListener("pointermove", onMove, true);
        const t0 = e.timeStamp;
        const mo = new MutationObserver(() => {
          mo.disconnect();
          requestAnimationFrame(() => setTimeout(() => resolve(performance.now() - t0), 0));
        });
        mo.observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });
        setTimeout(() => {
          mo.disconnect();
          resolve(-1);
        }, 3000);
      };
      window.addEventListener("pointermove", onMove, true);
      // A move to where the pointer is already is no event.
      setTimeout(() => resolve(-2), 5000);
    });
  });
  await page.mouse.move(x, y);
  return page.evaluate(() => window.cnibenchHover);
}

/** A click: its longest Event Timing entry (the interaction's duration), 16 when under the API's floor. */
async function click(page: Page, target: ReturnType<Page["locator"]>): Promise<number> {
  const before = await page.evaluate(() => window.cnibenchEvents.length);
  await target.click();
  await page.waitForTimeout(400);
  const entries = await page.evaluate((from) => window.cnibenchEvents.slice(from), before);
  return Math.max(16, ...entries.map((e) => e.duration));
}
