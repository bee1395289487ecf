// Twenty-five setups of one benchmark on one screen: InfraBuilder 2024's result tree (3 real setups,
// 22 synthetic ones derived from flannel's runs: @cnibench/test-support/infrabuilder-setups), three
// runs each, uploaded as one archive. Explorer, charts, compare and guide at 1440 and 390 px: no ids
// in names, like compared with like, no crossover along a category, every figure on a phone.
import type { Page } from "playwright-core";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { browserPerFile, importInfrabuilderTree, interact, screenshot } from "./browser.ts";

const webUrl = inject("webUrl");
const apiUrl = inject("apiUrl");
const token = inject("uploadToken");
const { open } = browserPerFile(webUrl);

/** An id's tail as the old legends showed it, "(1l59q4)": six lowercase letters and digits with a digit. */
const idSuffix = /\((?=[a-z0-9]*\d)[a-z0-9]{6}\)/;

let scenarioIds: string[] = [];

beforeAll(async () => {
  const answer = await importInfrabuilderTree(apiUrl, token);
  expect(answer.bundles).toHaveLength(75);
  scenarioIds = [...new Set(answer.bundles.map((b) => b.scenarioId))];
  expect(scenarioIds).toHaveLength(25);
}, 120_000);

/** Both widths of a page, shot after `ready`; the page's text at each width. */
async function atBothWidths(
  path: string,
  name: string,
  ready: (page: Page) => Promise<void>,
  widths = [1440, 390],
): Promise<string[]> {
  const texts: string[] = [];
  for (const width of widths) {
    const { page, errors } = await open(path, width);
    await ready(page);
    await screenshot(page, name);
    texts.push(await page.locator("main").innerText());
    // Nothing wider than the screen but what scrolls on purpose (a table frame, a chart's scroller).
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    // What sticks out past the screen, innermost last, so a failure names the element to fix.
    const culprits = await page.evaluate(() =>
      [...document.querySelectorAll("body *")]
        .map((e) => {
          // Text that runs out of its box counts too: the box may fit while an unbroken word does not.
          const range = document.createRange();
          range.selectNodeContents(e);
          return { e, right: Math.max(e.getBoundingClientRect().right, range.getBoundingClientRect().right) };
        })
        .filter(({ right }) => right > window.innerWidth + 1)
        .slice(-3)
        .map(
          ({ e, right }) =>
            `<${e.tagName.toLowerCase()} class="${e.getAttribute("class") ?? ""}"> right ${Math.round(right)}: ${e.textContent?.slice(0, 60)}`,
        ),
    );
    expect(
      overflow,
      `${path} at ${width} px is ${overflow} px wider than the screen: ${culprits.join(" | ")}`,
    ).toBeLessThanOrEqual(0);
    expect(errors).toEqual([]);
    await page.close();
  }
  return texts;
}

const scenarios = () => scenarioIds.map((id) => `scenario=${id}`).join("&");

describe("twenty-five setups of one benchmark", () => {
  it("explorer: names without ids, like-for-like columns, every figure at 390 px", async () => {
    const texts = await atBothWidths("/?provider=on-prem", "many-explore", async (page) => {
      await page.locator("main table").first().waitFor();
    });
    for (const text of texts) {
      expect(text).not.toMatch(idSuffix);
      expect(text).toMatch(/WireGuard/);
    }
  });

  it("throughput chart of all 25: distinguishable series, no ids, a reference line", async () => {
    const texts = await atBothWidths(`/charts?view=throughput&${scenarios()}`, "many-throughput", async (page) => {
      await interact(page);
      await page.locator(".recharts-surface").first().waitFor();
    });
    for (const text of texts) expect(text).not.toMatch(idSuffix);
  });

  it("crossover along streams: a category, so no 'overtakes at' sentence", async () => {
    const texts = await atBothWidths(
      `/charts?view=crossover&metric=tcp.throughput&x=streams&${scenarios()}`,
      "many-crossover-streams",
      async (page) => {
        await page.locator("main h1").first().waitFor();
      },
    );
    for (const text of texts) {
      expect(text).not.toMatch(/overtakes .+ at ≈[\d.,]+ streams/);
      expect(text).toMatch(/is a category, not a scale/);
    }
  });

  it("compare four setups, readable at 1280 and 390 px", async () => {
    const four = scenarioIds.slice(0, 4);
    const texts = await atBothWidths(
      `/compare?${four.map((s) => `s=${s}`).join("&")}`,
      "many-compare",
      async (page) => {
        await page
          .getByText(/TCP throughput/)
          .first()
          .waitFor();
        // Each environment value on one line: in five fixed columns at 390 px, "5.15.0-92-generic"
        // broke over four.
        const broken = await page.evaluate(() =>
          [...document.querySelectorAll("section[aria-labelledby=env-heading] td")].flatMap((td) => {
            const range = document.createRange();
            range.selectNodeContents(td);
            return range.getClientRects().length > 1 ? [td.textContent] : [];
          }),
        );
        expect(broken).toEqual([]);
      },
      // 1280: the widest screen the table scrolls in (it fits at 1440).
      [1440, 1280, 390],
    );
    for (const text of texts) expect(text).not.toMatch(idSuffix);
  });

  // The guide streams: its heading paints first, the ranking follows (slowly on a busy machine).
  const answered = (page: Page) => page.getByRole("region", { name: "Datapaths, ranked" }).waitFor({ timeout: 30_000 });

  it("guide on any cloud: a ranking and a start per testbed, never one order across them", async () => {
    const texts = await atBothWidths("/guide", "many-guide-any-cloud", answered);
    const { page } = await open("/guide");
    await answered(page);
    const region = page.getByRole("region", { name: "Datapaths, ranked" });
    const testbeds = await region.getByRole("heading", { level: 3 }).allInnerTexts();
    expect(testbeds.slice(0, 2)).toEqual(["On On-premises bare-metal-40g", "On EKS m6i.xlarge"]);
    // Each testbed's list is labelled by its heading; its first is the start the answer names for it.
    const first = (testbed: string) =>
      region.getByRole("list", { name: testbed }).locator(":scope > li h4").first().innerText();
    const eks = await first("On EKS m6i.xlarge");
    const onPrem = await first("On On-premises bare-metal-40g");
    expect(eks).toMatch(/^Cilium ENI/);
    // The answer: why there is no one order, then a start per testbed, each with its own figures.
    const answer = page.getByRole("list", { name: "Summary" }).locator(":scope > li");
    expect(await answer.first().innerText()).toMatch(/no test ran datapaths of two of them side by side/);
    const eksStart = answer.filter({ hasText: `On EKS m6i.xlarge: ${eks};` });
    expect(await eksStart.count()).toBe(1);
    // Its figures link to their bundles (folded when there are more than a few).
    expect(await eksStart.locator('a[href*="/v1/bundles/"]').count()).toBeGreaterThan(0);
    expect(await answer.filter({ hasText: `On On-premises bare-metal-40g: ${onPrem};` }).count()).toBe(1);
    expect(await page.getByRole("list", { name: "Summary" }).innerText()).not.toMatch(/Start with/);
    // A card under EKS holds EKS's figures; where else its datapath was measured is named, not quoted.
    const overlayOnEks = region
      .getByRole("list", { name: "On EKS m6i.xlarge" })
      .locator(":scope > li")
      .filter({ has: page.locator("h4", { hasText: /^Cilium overlay \(VXLAN\), kube-proxy replacement$/ }) });
    // Folded until asked for: read as text, not as what is on screen.
    const reasons =
      (await overlayOnEks.getByRole("list", { name: "Reasons", includeHidden: true }).textContent()) ?? "";
    expect(reasons).toMatch(/on EKS m6i\.xlarge/);
    expect(reasons).toMatch(/Also measured on On-premises bare-metal-40g/);
    expect(reasons).not.toMatch(/38\.51 Gbit\/s/);
    expect(await overlayOnEks.textContent()).toMatch(/Measured here as [^.]*\(EKS m6i\.xlarge\)\. Also measured as/);
    await page.close();
    for (const text of texts) expect(text).not.toMatch(idSuffix);
  });

  it("guide on-premises with encryption: the cost of encryption, references not ranked", async () => {
    // The instance type pins one testbed: other files upload on-premises setups of their own, and with
    // several testbeds in scope each gets its own ranking.
    const path = "/guide?cloud=on-prem&sku=bare-metal-40g&need=encryptionInTransit&need=udpHeavy";
    const texts = await atBothWidths(path, "many-guide", answered);
    // Bare metal is the yardstick, never a ranked datapath.
    const { page } = await open(path);
    await answered(page);
    const ranked = await page.locator('[id^="option-"]').allInnerTexts();
    expect(ranked.length).toBeGreaterThan(3);
    expect(ranked.join("\n")).not.toMatch(/baremetal|host network/i);
    // Issue 39: one line per option says what puts it there; every other reason opens on demand.
    const rows = page.getByRole("region", { name: "Datapaths, ranked" }).locator("ol > li");
    const count = await rows.count();
    for (let i = 0; i < count; i++) {
      const why = rows.nth(i).getByRole("list", { name: "Why here" }).locator(":scope > li");
      expect(await why.count()).toBe(1);
      expect(await rows.nth(i).getByRole("list", { name: "Reasons" }).isVisible()).toBe(false);
    }
    expect(await rows.nth(1).getByRole("list", { name: "Why here" }).innerText()).toMatch(/Behind |Below |No figure/);
    // The first says nothing beats it across the board (alone here: Cilium with WireGuard).
    expect(await rows.nth(0).getByRole("list", { name: "Why here" }).innerText()).toMatch(
      /Not beaten across the board/,
    );
    expect(await page.getByRole("list", { name: "Summary" }).innerText()).toMatch(/Start with .*WireGuard/);
    await page.close();
    for (const text of texts) {
      expect(text).not.toMatch(idSuffix);
      // The dataset's main finding first among the measured reasons: what encryption costs.
      expect(text).toMatch(/Encryption costs most of the throughput on On-premises/);
      // Throughput read against bare metal, the reference named once before the shares.
      expect(text).toMatch(/From the highest \(share of bare metal\): [^:]*\d \(\d+ %\)/);
    }
  });
});
