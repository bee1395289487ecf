// Embeds and badges: another site (a page served from another origin) frames /embed/charts and
// /embed/d/<slug>, light and dark, and cannot frame /compare; badges are SVG with the permalink's
// headline and a series' latest campaign; private data's embeds and badges are 404 to strangers.
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { freePort } from "@cnibench/test-support/ports";
import type { Frame, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { browserPerFile, collectPageErrors, interact, screenshot, signedIn } from "./browser.ts";

const webUrl = inject("webUrl");
const apiUrl = inject("apiUrl");
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const { browser } = browserPerFile(webUrl);

/** Another site: GET /?src=<address of the web app> answers a page framing that address. */
let hostUrl = "";
let host: http.Server | undefined;
beforeAll(async () => {
  const port = await freePort();
  host = http.createServer((req, res) => {
    const src = new URL(req.url ?? "/", "http://host").searchParams.get("src") ?? "/";
    const escaped = `${webUrl}${src}`.replace(/&/g, "&amp;").replace(/"/g, "&quot;");
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    res.end(
      `<!doctype html><title>Another site</title><body style="margin:16px;font-family:sans-serif;background:#f0e6d2">` +
        `<p>A blog post framing cnibench:</p><iframe id="frame" src="${escaped}" style="width:100%;height:720px;border:1px solid #999"></iframe></body>`,
    );
  });
  await new Promise<void>((resolve) => host?.listen(port, "127.0.0.1", resolve));
  hostUrl = `http://localhost:${port}`;
});
afterAll(async () => {
  await new Promise((resolve) => host?.close(resolve));
});

/** The host page framing `src`, in a context preferring `scheme`; its frame once loaded. */
async function framed(src: string, width: number, scheme: "light" | "dark" = "light") {
  const context = await browser().newContext({ viewport: { width, height: 900 }, colorScheme: scheme });
  const page = await context.newPage();
  await page.goto(`${hostUrl}/?src=${encodeURIComponent(src)}`);
  await page.waitForLoadState("load");
  const frame = (await (await page.$("#frame"))?.contentFrame()) ?? null;
  if (!frame) throw new Error("no frame");
  return { page, frame, context };
}

/**
 * The scheme the embed's frame is painted in, by its background's lightness: Chromium gives Tailwind's
 * colours as lab() ("lab(2.5 0.24 -0.89)", zinc-950) or rgb() ("rgb(255, 255, 255)", white).
 */
const embedScheme = async (frame: Frame) => {
  const color = await frame.locator("[data-embed]").evaluate((el) => getComputedStyle(el).backgroundColor);
  const lab = color.match(/^lab\(([\d.]+)/);
  const rgb = color.match(/\d+(\.\d+)?/g)?.map(Number) ?? [];
  const light = lab ? Number(lab[1]) > 50 : (rgb[0] ?? 0) + (rgb[1] ?? 0) + (rgb[2] ?? 0) > 384;
  return light ? "light" : "dark";
};

const tkeIds = async (page: Page) => {
  await page.goto(`${webUrl}/?provider=tke`);
  const id = async (name: string) =>
    ((await page.getByRole("link", { name, exact: true }).first().getAttribute("href")) ?? "").split("/").pop() ?? "";
  return { iptables: await id("kube-proxy iptables"), overlay: await id("Cilium Overlay") };
};

describe("embeds and badges", () => {
  it("is framed by another site light and dark, while /compare refuses the frame", async () => {
    const owner = await signedIn(browser(), webUrl, "embedder");
    const { iptables, overlay } = await tkeIds(owner);
    expect(iptables).not.toBe("");

    // The charts page offers the snippets: an iframe of /embed/charts and a Markdown badge.
    await owner.goto(`${webUrl}/charts?provider=tke`);
    await owner.getByText("Embed", { exact: true }).click();
    const iframeSnippet = await owner.getByLabel("Embed HTML").inputValue();
    expect(iframeSnippet).toMatch(/^<iframe src="http:\/\/[^"]+\/embed\/charts\?provider=tke/);
    const markdown = await owner.getByLabel("Embed Markdown").inputValue();
    const badgePath = markdown.match(/\]\(https?:\/\/[^/]+(\/badge\/series\.svg\?[^)]+)\)\]/)?.[1];
    expect(badgePath, markdown).toBeTruthy();
    const seriesBadge = await fetch(`${webUrl}${badgePath}`);
    expect(seriesBadge.status).toBe(200);
    expect(seriesBadge.headers.get("content-type")).toContain("image/svg+xml");
    expect(seriesBadge.headers.get("cache-control")).toBe("public, max-age=300");
    expect(await seriesBadge.text()).toMatch(/<title>http\.rps [^<]*: [\d,.]+ req\/s \(n=\d+\)<\/title>/);

    for (const width of [1440, 390]) {
      for (const theme of ["light", "dark"] as const) {
        // The reader's system prefers the other scheme: ?theme= wins.
        const { page, frame, context } = await framed(
          `/embed/charts?provider=tke&theme=${theme}`,
          width,
          theme === "dark" ? "light" : "dark",
        );
        const errors = collectPageErrors(page);
        await interact(page, page.locator("iframe"));
        await expect.poll(() => frame.locator(".recharts-line").count(), { timeout: 15_000 }).toBeGreaterThan(1);
        expect(await frame.locator("header nav[aria-label=Main]").isVisible()).toBe(false);
        expect(await frame.getByRole("link", { name: "cnibench", exact: true }).getAttribute("href")).toMatch(
          /^\/charts\?provider=tke/,
        );
        expect(await embedScheme(frame)).toBe(theme);
        await screenshot(page, `embed-${theme}`);
        expect(errors.filter((e) => /Content Security Policy|Refused/i.test(e))).toEqual([]);
        await context.close();
      }
    }
    // Without ?theme= it follows the reader's scheme.
    const plain = await framed("/embed/charts?provider=tke", 1440, "dark");
    await plain.frame.locator("[data-embed]").waitFor();
    expect(await embedScheme(plain.frame)).toBe("dark");
    await plain.context.close();

    // The full compare page refuses the same frame: nothing of it is drawn inside.
    const compare = `/compare?s=${iptables}&s=${overlay}`;
    const direct = await fetch(`${webUrl}${compare}`);
    expect(direct.headers.get("x-frame-options")).toBe("DENY");
    const refused = await framed(compare, 1440);
    await refused.page.waitForTimeout(1000);
    expect(await refused.frame.locator("[data-testid=compare-table]").count()).toBe(0);
    expect(await refused.frame.getByRole("heading", { name: "Compare" }).count()).toBe(0);
    await refused.context.close();
    // Its embed is framed.
    const summary = await framed(`/embed/compare?s=${iptables}&s=${overlay}`, 1440);
    expect(await summary.frame.getByTestId("embed-headline").innerText()).toMatch(
      /^Cilium Overlay vs kube-proxy iptables @ .+: [+−][\d,.]+ % /,
    );
    await summary.context.close();

    // A shared permalink of public scenarios: its embed and its badge, public and cacheable.
    await owner.goto(`${webUrl}${compare}`);
    await owner.getByRole("button", { name: "Share a permalink" }).click();
    await owner.waitForURL(/\/d\/[\w-]+$/);
    const slug = new URL(owner.url()).pathname.split("/").pop() ?? "";
    const badge = await fetch(`${webUrl}/badge/d/${slug}.svg`);
    expect(badge.status).toBe(200);
    expect(badge.headers.get("cache-control")).toBe("public, max-age=300");
    const svg = await badge.text();
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" width="\d+" height="20"/);
    expect(svg).toMatch(/<title>Cilium Overlay vs kube-proxy iptables @ [^<]+: [+−][\d,.]+ % [^<]+<\/title>/);
    expect(svg).toMatch(/fill="#(1a7f37|cf222e)"/);
    const pinned = await framed(`/embed/d/${slug}`, 390);
    expect(await pinned.frame.getByTestId("embed-headline").innerText()).toContain("Cilium Overlay vs kube-proxy");
    await pinned.context.close();
    expect((await fetch(`${webUrl}/badge/d/no-such-slug.svg`)).status).toBe(404);
  });

  it("shows a private workspace's embeds and badges to its members only: 404 to a stranger", async () => {
    const owner = await signedIn(browser(), webUrl, "embed-owner");
    await owner.goto(`${webUrl}/workspaces`);
    await owner.getByLabel("Name").fill("Embed team");
    await owner.getByLabel("Address (slug)").fill("embed-team");
    await owner.getByRole("button", { name: "Create" }).click();
    await owner.waitForURL(`${webUrl}/workspaces/embed-team`);
    await owner.getByLabel("Token name").fill("ci");
    await owner.getByRole("button", { name: "Create token" }).click();
    const token = (await owner.getByTestId("new-token").innerText()).trim();
    const example = JSON.parse(fs.readFileSync(path.join(repoRoot, "examples/bundle.json"), "utf8"));
    // On a cloud of its own, so no other test's counts change.
    const bundle = {
      ...example,
      cluster: { ...example.cluster, provider: "kind", name: "embed-1" },
      cni: { ...example.cni, label: "Embed Secret" },
    };
    const res = await fetch(`${apiUrl}/v1/bundles?workspace=embed-team`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify(bundle),
    });
    expect(res.status).toBe(201);
    const { scenarioId } = (await res.json()) as { scenarioId: string };
    const { iptables } = await tkeIds(owner);
    await owner.goto(`${webUrl}/compare?s=${iptables}&s=${scenarioId}`);
    await owner.getByRole("button", { name: "Share a permalink" }).click();
    await owner.waitForURL(/\/d\/[\w-]+$/);
    const slug = new URL(owner.url()).pathname.split("/").pop() ?? "";

    const series = `/badge/series.svg?scenario=${scenarioId}&metric=http.rps&connection=short&concurrency=64&target=service&services=0`;
    const paths = [
      `/embed/charts?scenario=${scenarioId}`,
      `/embed/compare?s=${iptables}&s=${scenarioId}`,
      `/embed/d/${slug}`,
      `/badge/d/${slug}.svg`,
      series,
    ];
    // The member reads them all; badges of private data are not cached.
    for (const p of paths) {
      const answer = await owner.request.get(`${webUrl}${p}`);
      expect(answer.status(), p).toBe(200);
      // A series' badge names its metric and params, not its scenario.
      if (p !== series) expect(await answer.text(), p).toContain("Embed Secret");
      if (p.startsWith("/badge/")) expect(answer.headers()["cache-control"], p).toBe("private, no-store");
    }
    expect(await (await owner.request.get(`${webUrl}${series}`)).text()).toContain("14,193 req/s (n=1)");
    // A signed-out visitor and a signed-in stranger get 404, with not a word of it.
    const anonymous = await (await browser().newContext()).newPage();
    const stranger = await signedIn(browser(), webUrl, "embed-stranger");
    for (const page of [anonymous, stranger]) {
      for (const p of paths) {
        const answer = await page.request.get(`${webUrl}${p}`);
        expect(answer.status(), p).toBe(404);
        expect(await answer.text(), p).not.toContain("Embed Secret");
      }
    }
  });
});
