// Markup in labels and params is shown as text on every page, and the pages send a
// Content-Security-Policy whose script-src has a nonce and no 'unsafe-inline'.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, inject, it } from "vitest";
import { browserPerFile, interact, screenshot } from "./browser.ts";

const webUrl = inject("webUrl");
const apiUrl = inject("apiUrl");
const token = inject("uploadToken");
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const { open } = browserPerFile(webUrl);

const payload = `<img src=x onerror="window.__pwned='img'"><script>window.__pwned='script'</script>`;

describe("hostile labels", () => {
  it("renders markup from a bundle as text on every page, and no script of it runs", async () => {
    const example = JSON.parse(fs.readFileSync(path.join(repoRoot, "examples/bundle.json"), "utf8"));
    // On a cloud of its own ("kind"), so the other browser tests' TKE counts stay as they are.
    const bundle = {
      ...example,
      cluster: { ...example.cluster, provider: "kind", name: `x${payload}` },
      cni: { ...example.cni, label: `Evil ${payload}` },
      source: { title: `Source ${payload}`, url: "javascript:window.__pwned='href'" },
      results: example.results.map((r: { params: object }) => ({ ...r, params: { ...r.params, note: payload } })),
    };
    const res = await fetch(`${apiUrl}/v1/bundles`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify(bundle),
    });
    // A javascript: source URL is refused by the contract; without it the rest is stored as given.
    let stored = res;
    if (res.status === 422) {
      stored = await fetch(`${apiUrl}/v1/bundles`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: JSON.stringify({ ...bundle, source: { title: `Source ${payload}` } }),
      });
    }
    expect(stored.status).toBe(201);
    const { scenarioId } = (await stored.json()) as { scenarioId: string };

    for (const page of [
      "/",
      `/scenarios/${scenarioId}`,
      `/charts?scenario=${scenarioId}`,
      `/compare?s=${scenarioId}&s=${scenarioId}`,
    ]) {
      const { page: p } = await open(page);
      const dialogs: string[] = [];
      p.on("dialog", (d) => {
        dialogs.push(d.message());
        void d.dismiss();
      });
      await p.waitForLoadState("networkidle");
      expect(await p.evaluate(() => (window as { __pwned?: string }).__pwned), page).toBeUndefined();
      expect(dialogs, page).toEqual([]);
      expect(await p.locator("body").innerText(), page).toContain("Evil <img src=x");
      if (page.startsWith("/scenarios")) await screenshot(p, "hostile-scenario");
      await p.close();
    }
  });

  it("sends security headers and a nonce-only script policy, and the pages still work", async () => {
    const res = await fetch(`${webUrl}/charts?provider=tke`);
    const csp = res.headers.get("content-security-policy") ?? "";
    const scriptSrc = csp.split(";").find((d) => d.trim().startsWith("script-src")) ?? "";
    expect(scriptSrc).toMatch(/'nonce-[A-Za-z0-9+/=]+'/);
    expect(scriptSrc).not.toContain("'unsafe-inline'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(res.headers.get("x-frame-options")).toBe("DENY");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
    const nonce = scriptSrc.match(/'nonce-([^']+)'/)?.[1];
    const html = await res.text();
    // Every inline script Next.js writes carries this request's nonce.
    const inline = [...html.matchAll(/<script(?![^>]*\bsrc=)([^>]*)>/g)].map((m) => m[1] ?? "");
    expect(inline.length).toBeGreaterThan(0);
    for (const attrs of inline) expect(attrs).toContain(`nonce="${nonce}"`);

    // Interactive under the policy: a legend toggle hides a line, and no CSP violation is reported.
    const { page, errors } = await open("/charts?provider=tke");
    await interact(page);
    await page.locator(".recharts-line").first().waitFor();
    const before = await page.locator(".recharts-line").count();
    await page
      .getByRole("button", { name: /kube-proxy iptables/ })
      .first()
      .click();
    await expect.poll(() => page.locator(".recharts-line").count(), { timeout: 10_000 }).toBe(before - 1);
    expect(errors.filter((e) => /Content Security Policy/i.test(e))).toEqual([]);
    await page.close();
  });

  it("lets other sites frame /embed/ pages and nothing else: every route of the app, by its file", async () => {
    const files = routeFiles();
    expect(files).toContain("embed/charts/page.tsx");
    for (const file of files) {
      const p = samplePath(file);
      const res = await fetch(`${webUrl}${p}`, { redirect: "manual" });
      const csp = res.headers.get("content-security-policy") ?? "";
      if (p.startsWith("/embed/")) {
        expect(csp, p).toContain("frame-ancestors *");
        expect(res.headers.get("x-frame-options"), p).toBeNull();
      } else {
        expect(csp, p).toContain("frame-ancestors 'none'");
        expect(res.headers.get("x-frame-options"), p).toBe("DENY");
      }
      await res.body?.cancel();
    }
  });
});

const appDir = path.join(repoRoot, "apps/web/src/app");

/** Every page and route handler of the app, as its file under app/ ("embed/d/[slug]/page.tsx"). */
function routeFiles(dir = appDir): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return routeFiles(full);
    return /^(page\.tsx|route\.ts)$/.test(entry.name) ? [path.relative(appDir, full)] : [];
  });
}

/** An address a route file answers, its dynamic segments filled with made-up values (answers may be 404). */
function samplePath(file: string): string {
  const dir = path.dirname(file) === "." ? "" : path.dirname(file);
  const filled = dir
    .replace("[...nextauth]", "session")
    .replace("[trpc]", "scenarios.explore")
    .replace("[file]", "made-up.svg")
    .replace(/\[[^\]]+\]/g, "made-up");
  return `/${filled}`;
}
