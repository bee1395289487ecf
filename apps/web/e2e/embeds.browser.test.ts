// Embeds and badges: another site (a page served from another origin) frames /embed/charts (the
// crossover and a series' history) and /embed/d/<slug>, light and dark, and cannot frame /compare;
// badges are SVG with the permalink's headline and a series' latest campaign, cached when public
// whoever asks; private data's embeds and badges are 404 to strangers.
import http from "node:http";
import { freePort } from "@cnibench/test-support/ports";
import type { Frame, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import {
  browserPerFile,
  collectPageErrors,
  interact,
  screenshot,
  sharePermalink,
  signedIn,
  uploadExample,
  workspaceToken,
} from "./browser.ts";

const webUrl = inject("webUrl");
const apiUrl = inject("apiUrl");
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

/** A new workspace of the signed-in `owner`'s, made on the workspaces page, and an upload token for it. */
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
    // Its signed-in author gets the same answer: what it shows does not depend on who asks.
    const asAuthor = await owner.request.get(`${webUrl}/badge/d/${slug}.svg`);
    expect(asAuthor.headers()["cache-control"]).toBe("public, max-age=300");
    const svg = await badge.text();
    expect(await asAuthor.text()).toBe(svg);
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" width="\d+" height="20"/);
    expect(svg).toMatch(/<title>Cilium Overlay vs kube-proxy iptables @ [^<]+: [+−][\d,.]+ % [^<]+<\/title>/);
    expect(svg).toMatch(/fill="#(1a7f37|cf222e)"/);
    const pinned = await framed(`/embed/d/${slug}`, 390);
    expect(await pinned.frame.getByTestId("embed-headline").innerText()).toContain("Cilium Overlay vs kube-proxy");
    await pinned.context.close();
    expect((await fetch(`${webUrl}/badge/d/no-such-slug.svg`)).status).toBe(404);
  });

  it("frames a series' history light and dark; a public series' badge is cached whoever asks", async () => {
    const owner = await signedIn(browser(), webUrl, "history-embedder");
    // A public workspace and a cluster of their own, so no other test's counts change.
    const token = await workspaceToken(owner, webUrl, {
      name: "Embed nightly",
      slug: "embed-nightly",
      visibility: "public",
    });
    // Twelve nights of pod-to-pod TCP throughput, three runs each (the level ±1 %); from the ninth, on
    // kernel 6.8.0 (another scenario of the same testbed), about 8 % less.
    const levels = [9.42, 9.39, 9.43, 9.38, 9.4, 9.41, 9.37, 9.42, 8.62, 8.58, 8.61, 8.6];
    let scenarioId = "";
    for (const [i, level] of levels.entries()) {
      const night = i + 1;
      const runs = [0.99, 1, 1.01].map((f) => Math.round(level * f * 1000) / 1000);
      const res = await fetch(`${apiUrl}/v1/bundles?workspace=embed-nightly`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: JSON.stringify({
          schema: "cnibench/bundle@1",
          collector: { name: "iperf3", command: "iperf3 -c pod-b -t 30" },
          cluster: {
            name: "embed-nightly",
            provider: "on-prem",
            region: "embed-lab",
            kubernetesVersion: "1.30",
            nodeCount: 3,
          },
          node: { sku: "embed-10g", os: "Ubuntu 22.04", kernel: night >= 9 ? "6.8.0" : "6.1.0" },
          cni: { name: "cilium", version: "1.16.3", mode: "native-routing", kubeProxy: "ebpf", label: "Embed Nightly" },
          runAt: `2026-10-${String(night).padStart(2, "0")}T02:00:00Z`,
          campaign: `embed-night-${night}`,
          results: [
            {
              metric: "tcp.throughput",
              unit: "Gbit/s",
              value: runs[1],
              aggregate: "median",
              samples: runs,
              params: { path: "pod-pod", streams: 1 },
            },
          ],
        }),
      });
      expect(res.status).toBe(201);
      scenarioId = ((await res.json()) as { scenarioId: string }).scenarioId;
    }
    const address = `/charts?view=history&scenario=${scenarioId}&metric=tcp.throughput&where=path%3Dpod-pod&where=streams%3D1`;

    // The history view's Embed panel: an iframe of its /embed/ page, and the series' badge; the
    // scenario page's History section offers the same iframe for its series.
    const iframeSrc = async (page: Page) => {
      await page.getByText("Embed", { exact: true }).click();
      const snippet = await page.getByLabel("Embed HTML").inputValue();
      return new URL(snippet.match(/^<iframe src="([^"]+)"/)?.[1]?.replace(/&amp;/g, "&") ?? "");
    };
    await owner.goto(`${webUrl}/scenarios/${scenarioId}`);
    const fromScenario = await iframeSrc(owner);
    await owner.goto(`${webUrl}${address}`);
    const src = await iframeSrc(owner);
    expect(src.pathname).toBe("/embed/charts");
    expect(Object.fromEntries(src.searchParams)).toMatchObject({ view: "history", scenario: scenarioId });
    expect(src.searchParams.getAll("where").sort()).toEqual(["path=pod-pod", "streams=1"]);
    expect(fromScenario.href).toBe(src.href);
    const markdown = await owner.getByLabel("Embed Markdown").inputValue();
    const badgePath = markdown.match(/\]\(https?:\/\/[^/]+(\/badge\/series\.svg\?[^)]+)\)\]/)?.[1];
    expect(badgePath, markdown).toBeTruthy();
    // Asked by a signed-in reader, a public series' badge may still be cached by anyone: it reads
    // the same to all. Its value is the last night's median of 8.514, 8.6 and 8.686: 8.6.
    const badge = await owner.request.get(`${webUrl}${badgePath}`);
    expect(badge.status()).toBe(200);
    expect(badge.headers()["cache-control"]).toBe("public, max-age=300");
    expect(await badge.text()).toContain("<title>tcp.throughput path pod-pod · streams 1: 8.6 Gbit/s (n=3)</title>");

    for (const width of [1440, 390]) {
      for (const theme of ["light", "dark"] as const) {
        const { page, frame, context } = await framed(
          `/embed${address}&theme=${theme}`,
          width,
          theme === "dark" ? "light" : "dark",
        );
        const errors = collectPageErrors(page);
        await interact(page, page.locator("iframe"));
        const chart = frame.getByTestId("history-chart");
        // A point per night, on a value axis that names its unit.
        await expect
          .poll(() => chart.locator('[role="button"][data-campaign]').count(), { timeout: 15_000 })
          .toBe(levels.length);
        expect(await chart.locator('[data-campaign="embed-night-12"]').getAttribute("aria-label")).toMatch(
          /^embed-night-12, 2026-10-12: median 8\.6 Gbit\/s, n=3 runs/,
        );
        // The kernel upgrade and the shift at it (−8 %, beyond the 5 % margin): worse.
        expect(await chart.locator("[data-marker]").getAttribute("data-change-point")).toBe("worse");
        expect(await chart.getByText("TCP throughput (Gbit/s)").isVisible()).toBe(true);
        expect(
          await frame.getByRole("heading", { name: "TCP throughput · path pod-pod · streams 1 over time" }).count(),
        ).toBe(1);
        expect(await embedScheme(frame)).toBe(theme);
        // It fits its frame: nothing scrolls sideways.
        expect(
          await frame.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth),
        ).toBe(0);
        await screenshot(page, `embed-history-${theme}`);
        expect(errors.filter((e) => /Content Security Policy|Refused/i.test(e))).toEqual([]);
        await context.close();
      }
    }
    // A series its testbed never measured draws nothing: 404.
    const nothing = await fetch(
      `${webUrl}/embed/charts?view=history&scenario=${scenarioId}&metric=tcp.throughput&where=streams%3D64`,
    );
    expect(nothing.status).toBe(404);
  });

  it("shows a private workspace's embeds and badges to its members only: 404 to a stranger", async () => {
    const owner = await signedIn(browser(), webUrl, "embed-owner");
    const token = await workspaceToken(owner, webUrl, {
      name: "Embed team",
      slug: "embed-team",
      visibility: "private",
    });
    // On a cloud of its own, so no other test's counts change.
    const scenarioId = await uploadExample(apiUrl, { token, slug: "embed-team" }, (example) => ({
      ...example,
      cluster: { ...example.cluster, provider: "kind", name: "embed-1" },
      cni: { ...example.cni, label: "Embed Secret" },
    }));
    const { iptables } = await tkeIds(owner);
    const slug = await sharePermalink(owner, webUrl, [iptables, scenarioId]);

    const series = `/badge/series.svg?scenario=${scenarioId}&metric=http.rps&connection=short&concurrency=64&target=service&services=0`;
    const paths = [
      `/embed/charts?scenario=${scenarioId}`,
      `/embed/charts?view=history&scenario=${scenarioId}&metric=http.rps&where=connection%3Dshort&where=concurrency%3D64&where=target%3Dservice&where=services%3D0`,
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
