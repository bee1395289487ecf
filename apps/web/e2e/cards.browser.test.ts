// Link cards: each shareable page (permalink, compare, scenario, charts) names a 1200 × 630 PNG card
// in og:image and twitter:image (summary_large_image), drawn on the server from the page's own
// procedure; a private permalink's or scenario's card is 404 to a signed-out visitor (an unfurler).
// The cards are saved under test-artifacts/cards/ to look at.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Page } from "playwright-core";
import { PNG } from "pngjs";
import { describe, expect, inject, it } from "vitest";
import { badgeColors } from "../src/server/cards/badge.ts";
import { browserPerFile, sharePermalink, signedIn, uploadExample, workspaceToken } from "./browser.ts";

const webUrl = inject("webUrl");
const apiUrl = inject("apiUrl");
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const cardDir = path.join(repoRoot, "test-artifacts", "cards");
const { browser } = browserPerFile(webUrl);

/** The demo data's Chinese source title (EKS, VPC CNI against Cilium). */
const chineseTitle = "VPC CNI 与 Cilium CNI 性能对比基准测试";

/** A page's link-card meta tags, as an unfurler reads them from the HTML a signed-out visitor gets. */
async function cardMeta(pagePath: string, fetchWith: (url: string) => Promise<string> = plainText) {
  const html = await fetchWith(`${webUrl}${pagePath}`);
  const meta = (attr: "property" | "name", key: string) => {
    const tag = html.match(new RegExp(`<meta [^>]*${attr}="${key}"[^>]*>`))?.[0] ?? "";
    return (tag.match(/content="([^"]*)"/)?.[1] ?? "").replace(/&amp;/g, "&");
  };
  return {
    og: meta("property", "og:image"),
    width: meta("property", "og:image:width"),
    height: meta("property", "og:image:height"),
    twitter: meta("name", "twitter:image"),
    twitterCard: meta("name", "twitter:card"),
  };
}
const plainText = async (url: string) => (await fetch(url)).text();

type Card = { png: PNG; cacheControl: string | null };

/** Fetches a card, checks it is a PNG, saves it as test-artifacts/cards/<name>.png, and decodes it. */
async function card(url: string, name: string, get: (url: string) => Promise<Response> = fetch): Promise<Card> {
  const res = await get(url);
  expect(res.status, url).toBe(200);
  expect(res.headers.get("content-type"), url).toBe("image/png");
  const bytes = Buffer.from(await res.arrayBuffer());
  fs.mkdirSync(cardDir, { recursive: true });
  fs.writeFileSync(path.join(cardDir, `${name}.png`), bytes);
  return { png: PNG.sync.read(bytes), cacheControl: res.headers.get("cache-control") };
}

/** How many pixels have exactly `hex`, and how many are not the white background; distinct colours. */
function pixels(png: PNG, hex?: string) {
  const want = hex ? [1, 3, 5].map((i) => Number.parseInt(hex.slice(i, i + 2), 16)) : null;
  const colours = new Set<number>();
  let inked = 0;
  let matching = 0;
  for (let i = 0; i < png.data.length; i += 4) {
    const [r = 0, g = 0, b = 0] = [png.data[i], png.data[i + 1], png.data[i + 2]];
    colours.add((r << 16) | (g << 8) | b);
    if (r < 250 || g < 250 || b < 250) inked++;
    if (want && r === want[0] && g === want[1] && b === want[2]) matching++;
  }
  return { colours: colours.size, inkedShare: inked / (png.width * png.height), matching };
}

/** A card of the right size with something drawn on it: text and shapes, not a blank or a flat fill. */
function expectDrawn(c: Card, label: string) {
  expect([c.png.width, c.png.height], label).toEqual([1200, 630]);
  const p = pixels(c.png);
  // Anti-aliased text alone gives dozens of greys; a blank card has one colour, a flat fill too.
  expect(p.colours, label).toBeGreaterThan(40);
  expect(p.inkedShare, label).toBeGreaterThan(0.03);
  expect(p.inkedShare, label).toBeLessThan(0.8);
}

/** The page names its card in og:image and twitter:image (absolute), as a large-image summary; the card is drawn. */
async function pageCard(pagePath: string, cardPath: string, name: string): Promise<Card> {
  const meta = await cardMeta(pagePath);
  expect(meta.og, pagePath).toBe(`${webUrl}${cardPath}`);
  expect(meta.twitter, pagePath).toBe(`${webUrl}${cardPath}`);
  expect(meta.twitterCard, pagePath).toBe("summary_large_image");
  expect([meta.width, meta.height], pagePath).toEqual(["1200", "630"]);
  const c = await card(meta.og, name);
  expectDrawn(c, name);
  // Read by a signed-out visitor: public, so caches may keep it for five minutes.
  expect(c.cacheControl, name).toBe("public, max-age=300");
  return c;
}

const scenarioIdAt = async (page: Page, query: string, name?: string) => {
  await page.goto(`${webUrl}/?${query}`);
  const link = name
    ? page.getByRole("link", { name, exact: true }).first()
    : page.locator('a[href^="/scenarios/"]').first();
  return ((await link.getAttribute("href")) ?? "").split("/").pop() ?? "";
};

describe("link cards", () => {
  it("gives every shareable page of public data a 1200 × 630 card drawn from its own figures", async () => {
    const owner = await signedIn(browser(), webUrl, "card-sharer");
    const iptables = await scenarioIdAt(owner, "provider=tke", "kube-proxy iptables");
    const overlay = await scenarioIdAt(owner, "provider=tke", "Cilium Overlay");
    expect(iptables).not.toBe("");

    // Compare: its verdicts, the headline coloured as the badges colour it (TKE's RPS rows are decided).
    const compare = `/compare?s=${iptables}&s=${overlay}`;
    const compared = await pageCard(compare, `/card/compare.png?s=${iptables}&s=${overlay}`, "compare");
    const verdictPixels = [badgeColors.better, badgeColors.worse].map((hex) => pixels(compared.png, hex).matching);
    expect(Math.max(...verdictPixels)).toBeGreaterThan(2000);

    // A permalink created now: its card at /card/d/<slug>.png.
    await owner.goto(`${webUrl}${compare}`);
    await owner.getByRole("button", { name: "Share a permalink" }).click();
    await owner.waitForURL(/\/d\/[\w-]+$/);
    const slug = new URL(owner.url()).pathname.split("/").pop() ?? "";
    await pageCard(`/d/${slug}`, `/card/d/${slug}.png`, "permalink");

    // A scenario whose source has a Chinese title (EKS): drawn with its glyphs, checked by eye.
    const eks = await scenarioIdAt(owner, `source=${encodeURIComponent(chineseTitle)}`);
    expect(eks).not.toBe("");
    await pageCard(`/scenarios/${eks}`, `/card/scenarios/${eks}.png`, "scenario-chinese-source");

    // Charts: TKE's crossover (lines, axes, crossover labels) and every scenario's throughput bars
    // (the top 8 series, in the first 4 groups).
    await pageCard("/charts?provider=tke", "/card/charts.png?provider=tke", "charts-crossover");
    await pageCard("/charts?view=throughput", "/card/charts.png?view=throughput", "charts-bars");

    // Nothing to draw, or nothing of the kind: 404, never a blank card.
    for (const p of ["/card/d/no-such-slug.png", "/card/scenarios/no-such-id.png", "/card/compare.png?s=x"]) {
      const res = await fetch(`${webUrl}${p}`);
      expect(res.status, p).toBe(404);
      await res.body?.cancel();
    }
    await owner.context().close();
  });

  it("draws a private scenario and permalink for members only: 404 to a signed-out visitor", async () => {
    const owner = await signedIn(browser(), webUrl, "card-owner");
    const token = await workspaceToken(owner, webUrl, { name: "Card team", slug: "card-team" });
    // A Korean source title, and a cloud of its own so no other test's counts change.
    const scenarioId = await uploadExample(apiUrl, { token, slug: "card-team" }, (example) => ({
      ...example,
      source: { ...example.source, title: "쿠버네티스 CNI 네트워크 성능 비교" },
      cluster: { ...example.cluster, provider: "kind", name: "card-1" },
      cni: { ...example.cni, label: "Card Secret" },
    }));
    const iptables = await scenarioIdAt(owner, "provider=tke", "kube-proxy iptables");
    const slug = await sharePermalink(owner, webUrl, [iptables, scenarioId]);

    const cards = [`/card/scenarios/${scenarioId}.png`, `/card/d/${slug}.png`];
    // The member's pages name their cards, and the member gets them, kept by no cache.
    const asOwner = async (url: string) => {
      const answer = await owner.request.get(url);
      return new Response(new Uint8Array(await answer.body()), { status: answer.status(), headers: answer.headers() });
    };
    const ownerText = async (url: string) => (await asOwner(url)).text();
    expect((await cardMeta(`/scenarios/${scenarioId}`, ownerText)).og).toBe(`${webUrl}${cards[0]}`);
    expect((await cardMeta(`/d/${slug}`, ownerText)).og).toBe(`${webUrl}${cards[1]}`);
    for (const [i, p] of cards.entries()) {
      const c = await card(`${webUrl}${p}`, i === 0 ? "scenario-korean-source-private" : "permalink-private", asOwner);
      expectDrawn(c, p);
      expect(c.cacheControl, p).toBe("private, no-store");
    }
    // An unfurler (no cookies) and a signed-in stranger: 404, as for the pages.
    const stranger = await signedIn(browser(), webUrl, "card-stranger");
    for (const p of cards) {
      const anonymous = await fetch(`${webUrl}${p}`);
      expect(anonymous.status, p).toBe(404);
      expect(anonymous.headers.get("content-type"), p).not.toBe("image/png");
      await anonymous.body?.cancel();
      expect((await stranger.request.get(`${webUrl}${p}`)).status(), p).toBe(404);
    }
    // The signed-out visitor's page is a 404 too, with no card named.
    expect((await cardMeta(`/scenarios/${scenarioId}`)).og).toBe("");
  });
});
