// Team-private results: sign in through the local OpenID Connect provider, create a private
// workspace and an upload token, upload with it by HTTP, see the result only as a member, and
// publish one permalink that a signed-out browser can open. Every page, download and API route of the
// web app is tried as a signed-out visitor and as a signed-in stranger, before and after publishing:
// the test enumerates the route files, so a page added without a case fails it.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Browser, Page } from "playwright-core";
import { describe, expect, inject, it } from "vitest";
import { browserPerFile, collectPageErrors, screenshot, signedIn as signedInAs } from "./browser.ts";

const webUrl = inject("webUrl");
const apiUrl = inject("apiUrl");
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const { browser } = browserPerFile(webUrl);

const signedIn = (b: Browser, login: string) => signedInAs(b, webUrl, login);
const signedOut = async (b: Browser) => (await b.newContext()).newPage();
/** Opens a path and tells whether it answered 404 (what a visitor without access gets). */
const notFound = async (page: Page, path: string) => (await page.goto(`${webUrl}${path}`))?.status() === 404;

describe("workspaces, sign-in and sharing", () => {
  it("keeps a team's upload to its members and shares one published permalink", async () => {
    const alice = await signedIn(browser(), "alice");
    const errors = collectPageErrors(alice);

    // A private workspace and an upload token for it.
    await alice.goto(`${webUrl}/workspaces`);
    await alice.getByLabel("Name").fill("Pre-production");
    await alice.getByLabel("Address (slug)").fill("pre-prod");
    await alice.getByRole("button", { name: "Create" }).click();
    await alice.waitForURL(`${webUrl}/workspaces/pre-prod`);
    await alice.getByLabel("Token name").fill("ci");
    await alice.getByRole("button", { name: "Create token" }).click();
    const token = (await alice.getByTestId("new-token").innerText()).trim();
    expect(token).toMatch(/^cnb_[\w-]{43}$/);
    await screenshot(alice, "workspace-token");

    // Upload with it as a collector would (curl): it lands in pre-prod.
    const example = JSON.parse(fs.readFileSync(path.join(repoRoot, "examples/bundle.json"), "utf8"));
    const bundle = {
      ...example,
      cni: { ...example.cni, label: "Pre-prod Cilium" },
      cluster: { ...example.cluster, name: "pp-1" },
    };
    const res = await fetch(`${apiUrl}/v1/bundles?workspace=pre-prod`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify(bundle),
    });
    expect(res.status).toBe(201);
    const { scenarioId } = (await res.json()) as { scenarioId: string };

    // A read-only token, chosen in the form: it is listed as such, and the ingest API refuses its upload.
    const tokenForm = alice.getByRole("form", { name: "Create an upload token" });
    await alice.getByLabel("Token name").fill("grafana");
    await alice.getByLabel("Scope").selectOption("read");
    await alice.getByRole("button", { name: "Create token" }).click();
    await tokenForm.getByText("It reads this workspace only and cannot upload.").waitFor();
    const readToken = (await alice.getByTestId("new-token").innerText()).trim();
    expect(readToken).not.toBe(token);
    const scopeOf = (name: string) =>
      alice
        .locator("tr", { has: alice.getByRole("cell", { name, exact: true }) })
        .getByRole("cell")
        .nth(1)
        .innerText();
    await expect.poll(() => scopeOf("grafana")).toBe("read-only");
    expect(await scopeOf("ci")).toBe("upload");
    const refused = await fetch(`${apiUrl}/v1/bundles?workspace=pre-prod`, {
      method: "POST",
      headers: { authorization: `Bearer ${readToken}`, "content-type": "application/json" },
      body: JSON.stringify({ ...bundle, cluster: { ...bundle.cluster, name: "pp-read" } }),
    });
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { error: string }).error).toBe("read_only_token");
    // A scope the form does not offer (a tampered form) is refused in words: no token is made.
    await alice.getByLabel("Token name").fill("sneaky");
    await alice.getByLabel("Scope").evaluate((select: HTMLSelectElement) => {
      select.append(new Option("admin", "admin", true, true));
    });
    await alice.getByRole("button", { name: "Create token" }).click();
    expect(await tokenForm.getByRole("alert").innerText()).toBe("scope: upload or read");
    expect(await alice.getByRole("cell", { name: "sneaky", exact: true }).count()).toBe(0);
    await screenshot(alice, "workspace-token-scopes");
    await alice.setViewportSize({ width: 390, height: 900 });
    await screenshot(alice, "workspace-token-scopes");
    await alice.setViewportSize({ width: 1440, height: 900 });

    // Members see it; a signed-out visitor and a signed-in stranger do not.
    await alice.goto(`${webUrl}/scenarios/${scenarioId}`);
    expect(await alice.getByRole("heading", { level: 1 }).innerText()).toContain("Pre-prod Cilium");
    // TKE's scenarios only: the explorer lists providers in order, 50 to a page, and by the time this
    // file runs the other files' on-premises setups may fill the first page before any of TKE's.
    await alice.goto(`${webUrl}/?provider=tke`);
    expect(await alice.getByText("Pre-prod Cilium").count()).toBeGreaterThan(0);
    const anonymous = await signedOut(browser());
    expect(await notFound(anonymous, `/scenarios/${scenarioId}`)).toBe(true);
    await anonymous.goto(`${webUrl}/?provider=tke`);
    expect(await anonymous.getByText("Cilium Overlay").count()).toBeGreaterThan(0);
    expect(await anonymous.getByText("Pre-prod Cilium").count()).toBe(0);
    const bob = await signedIn(browser(), "bob");
    expect(await notFound(bob, `/scenarios/${scenarioId}`)).toBe(true);

    // Alice invites Bob as a viewer; once he accepts, he sees it (invitations.browser.test.ts for the rest).
    await alice.goto(`${webUrl}/workspaces/pre-prod`);
    await alice.getByLabel("E-mail").fill("bob@example.test");
    await alice.getByRole("form", { name: "Invite someone" }).getByLabel("Role").selectOption("viewer");
    await alice.getByRole("button", { name: "Invite", exact: true }).click();
    await alice.getByText("bob@example.test is invited as a viewer: they join once they accept.").waitFor();
    expect(await notFound(bob, `/scenarios/${scenarioId}`)).toBe(true);
    await bob.goto(`${webUrl}/workspaces`);
    await bob.getByRole("button", { name: "Accept" }).click();
    await bob.waitForURL(`${webUrl}/workspaces/pre-prod`);
    await bob.goto(`${webUrl}/scenarios/${scenarioId}`);
    expect(await bob.getByRole("heading", { level: 1 }).innerText()).toContain("Pre-prod Cilium");

    // Compare it with a public scenario, share, and publish that one permalink.
    await alice.goto(`${webUrl}/?provider=tke`);
    const iptables = await alice.getByRole("link", { name: "kube-proxy iptables" }).first().getAttribute("href");
    await alice.goto(`${webUrl}/compare?s=${iptables?.split("/").pop()}&s=${scenarioId}`);
    await alice.getByRole("button", { name: "Share a permalink" }).click();
    await alice.waitForURL(/\/d\/[\w-]{8}$/);
    const permalink = alice.url();
    expect(await notFound(anonymous, new URL(permalink).pathname)).toBe(true);
    const stranger = await signedIn(browser(), "mallory");
    const slug = new URL(permalink).pathname.split("/").pop() ?? "";
    for (const page of [anonymous, stranger]) await expectNoRouteLeaks(page, { scenarioId, slug, published: false });
    await alice.getByRole("button", { name: "Agree to publish for my workspaces" }).click();
    await alice.getByRole("button", { name: "Withdraw my workspaces' agreement" }).waitFor();
    for (const page of [anonymous, stranger]) await expectNoRouteLeaks(page, { scenarioId, slug, published: true });

    await anonymous.goto(permalink);
    expect(await anonymous.getByRole("heading", { level: 1 }).innerText()).toMatch(
      /Pre-prod Cilium vs kube-proxy iptables/,
    );
    expect(await anonymous.getByText("Published from private workspaces").isVisible()).toBe(true);
    // Its evidence downloads from the page's link: the pinned comparison, in a file named by the slug.
    const csvHref = await anonymous.getByRole("link", { name: "Download CSV" }).getAttribute("href");
    expect(csvHref).toBe(`/d/${slug}/evidence.csv`);
    const csv = await anonymous.request.get(`${webUrl}${csvHref}`);
    expect(csv.headers()["content-disposition"]).toContain(`filename="cnibench-compare-${slug}.csv"`);
    expect(await csv.text()).toMatch(/^metric,params,.*\n.*Pre-prod Cilium/s);
    await screenshot(anonymous, "permalink-published");
    // Publishing the permalink opened nothing else of the workspace.
    expect(await notFound(anonymous, `/scenarios/${scenarioId}`)).toBe(true);
    expect(errors.filter((e) => !/Failed to load resource/.test(e))).toEqual([]);
  });

  it("ends a session on the server at sign-out: a copy of the cookie signs nobody in", async () => {
    const carol = await signedIn(browser(), "carol");
    const cookies = await carol.context().cookies();
    await carol.getByRole("button", { name: "Sign out" }).click();
    await carol.getByRole("button", { name: "Sign in" }).waitFor();
    const replay = await browser().newContext();
    await replay.addCookies(cookies);
    const page = await replay.newPage();
    await page.goto(`${webUrl}/workspaces`);
    expect(await page.getByTestId("signed-in-as").count()).toBe(0);
    const write = await page.request.post(`${webUrl}/api/trpc/workspaces.create`, {
      data: { slug: "after-sign-out", name: "After sign-out", visibility: "private" },
    });
    expect(write.status()).toBe(401);
  });
});

/** Words only Alice's private workspace holds. */
// (Not the slug "pre-prod": requests aimed at it echo it back, as they would any made-up slug.)
const secrets = ["Pre-prod Cilium", "pp-1", "Pre-production"];
const appDir = path.join(repoRoot, "apps/web/src/app");

/** The params of examples/bundle.json's first figure, as the charts' `where`. */
const exampleSeries = "where=connection%3Dshort&where=concurrency%3D64&where=target%3Dservice&where=services%3D0";

/** Per page or route file of the app: a request aimed at the private data, and whether it may show it. */
const routeCases: Record<string, (at: { scenarioId: string; slug: string }) => { path: string; pinned?: boolean }[]> = {
  "page.tsx": () => [{ path: "/" }],
  "charts/page.tsx": (at) => [
    { path: "/charts" },
    { path: `/charts?s=${at.scenarioId}` },
    { path: `/charts?view=history&scenario=${at.scenarioId}&metric=http.rps&${exampleSeries}` },
  ],
  "compare/page.tsx": (at) => [{ path: `/compare?s=${at.scenarioId}&s=${at.scenarioId}x` }],
  "compare/evidence.csv/route.ts": (at) => [
    { path: `/compare/evidence.csv?s=${at.scenarioId}&s=${at.scenarioId}x&margin=tcp.throughput:3` },
  ],
  "explore.csv/route.ts": () => [{ path: "/explore.csv" }, { path: "/explore.csv?col=tcpPod1&col=shortRps" }],
  "d/[slug]/page.tsx": (at) => [{ path: `/d/${at.slug}`, pinned: true }],
  "d/[slug]/evidence.csv/route.ts": (at) => [{ path: `/d/${at.slug}/evidence.csv`, pinned: true }],
  "embed/charts/page.tsx": (at) => [
    { path: `/embed/charts?scenario=${at.scenarioId}` },
    // The series of its one bundle (examples/bundle.json): a leak would name the scenario.
    { path: `/embed/charts?view=history&scenario=${at.scenarioId}&metric=http.rps&${exampleSeries}` },
  ],
  "embed/compare/page.tsx": (at) => [{ path: `/embed/compare?s=${at.scenarioId}&s=${at.scenarioId}x` }],
  "embed/d/[slug]/page.tsx": (at) => [{ path: `/embed/d/${at.slug}`, pinned: true }],
  "badge/d/[file]/route.ts": (at) => [{ path: `/badge/d/${at.slug}.svg`, pinned: true }],
  "badge/series.svg/route.ts": (at) => [{ path: `/badge/series.svg?scenario=${at.scenarioId}&metric=http.rps` }],
  "card/charts.png/route.ts": (at) => [{ path: `/card/charts.png?scenario=${at.scenarioId}` }],
  "card/compare.png/route.ts": (at) => [{ path: `/card/compare.png?s=${at.scenarioId}&s=${at.scenarioId}x` }],
  "card/scenarios/[file]/route.ts": (at) => [{ path: `/card/scenarios/${at.scenarioId}.png` }],
  "card/d/[file]/route.ts": (at) => [{ path: `/card/d/${at.slug}.png`, pinned: true }],
  "guide/page.tsx": () => [{ path: "/guide" }],
  "scenarios/[id]/page.tsx": (at) => [{ path: `/scenarios/${at.scenarioId}` }],
  "scenarios/[id]/figures.csv/route.ts": (at) => [{ path: `/scenarios/${at.scenarioId}/figures.csv` }],
  "scenarios/[id]/figures.json/route.ts": (at) => [{ path: `/scenarios/${at.scenarioId}/figures.json` }],
  "workspaces/page.tsx": () => [{ path: "/workspaces" }],
  "workspaces/[slug]/page.tsx": () => [{ path: "/workspaces/pre-prod" }],
  "api/trpc/[trpc]/route.ts": (at) => [
    { path: `/api/trpc/scenarios.byId?input=${encodeURIComponent(JSON.stringify({ id: at.scenarioId }))}` },
    { path: `/api/trpc/workspaces.bySlug?input=${encodeURIComponent(JSON.stringify({ slug: "pre-prod" }))}` },
  ],
  "api/auth/[...nextauth]/route.ts": () => [{ path: "/api/auth/session" }],
  "healthz/route.ts": () => [{ path: "/healthz" }],
  "readyz/route.ts": () => [{ path: "/readyz" }],
};

function routeFiles(dir = appDir): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return routeFiles(full);
    return /^(page\.tsx|route\.ts)$/.test(entry.name) ? [path.relative(appDir, full)] : [];
  });
}

/** Every route of the app as this page's visitor: no private word, except the published permalink's pins. */
async function expectNoRouteLeaks(page: Page, at: { scenarioId: string; slug: string; published: boolean }) {
  expect(routeFiles().sort()).toEqual(Object.keys(routeCases).sort());
  for (const [file, cases] of Object.entries(routeCases)) {
    for (const { path: p, pinned } of cases(at)) {
      const res = await page.request.get(`${webUrl}${p}`);
      expect(res.status(), `${file} ${p}`).toBeLessThan(500);
      if (pinned && at.published) {
        expect(res.status(), `${p} is published`).toBe(200);
        continue;
      }
      const text = await res.text();
      for (const secret of secrets) expect(text, `${file} ${p} shows "${secret}"`).not.toContain(secret);
    }
  }
}
