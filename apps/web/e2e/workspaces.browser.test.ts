// Team-private results: sign in through the local OpenID Connect provider, create a private
// workspace and an upload token, upload with it by HTTP, see the result only as a member, and
// publish one permalink that a signed-out browser can open.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Browser, Page } from "playwright-core";
import { describe, expect, inject, it } from "vitest";
import { browserPerFile, collectPageErrors, screenshot } from "./browser.ts";

const webUrl = inject("webUrl");
const apiUrl = inject("apiUrl");
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const { browser } = browserPerFile(webUrl);

/** A new browser context (its own cookies) signed in as `login` through the provider's login page. */
async function signedIn(b: Browser, login: string): Promise<Page> {
  const page = await (await b.newContext({ viewport: { width: 1440, height: 900 } })).newPage();
  await page.goto(`${webUrl}/`);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.locator('input[name="login"]').fill(login);
  await page.locator('input[name="password"]').fill("any password");
  await page.locator('button[type="submit"]').click();
  await page.waitForURL(`${webUrl}/`);
  expect(await page.getByTestId("signed-in-as").innerText()).toBe(`${login}@example.test`);
  return page;
}

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

    // Members see it; a signed-out visitor and a signed-in stranger do not.
    await alice.goto(`${webUrl}/scenarios/${scenarioId}`);
    expect(await alice.getByRole("heading", { level: 1 }).innerText()).toContain("Pre-prod Cilium");
    await alice.goto(`${webUrl}/`);
    expect(await alice.getByText("Pre-prod Cilium").count()).toBeGreaterThan(0);
    const anonymous = await signedOut(browser());
    expect(await notFound(anonymous, `/scenarios/${scenarioId}`)).toBe(true);
    await anonymous.goto(`${webUrl}/`);
    expect(await anonymous.getByText("Pre-prod Cilium").count()).toBe(0);
    const bob = await signedIn(browser(), "bob");
    expect(await notFound(bob, `/scenarios/${scenarioId}`)).toBe(true);

    // Alice adds Bob as a viewer: now he sees it.
    await alice.goto(`${webUrl}/workspaces/pre-prod`);
    await alice.getByLabel("E-mail (they must have signed in once)").fill("bob@example.test");
    await alice.getByLabel("Role").selectOption("viewer");
    await alice.getByRole("button", { name: "Add or change" }).click();
    await alice.getByText("bob@example.test is a viewer.").waitFor();
    await bob.reload();
    expect(await bob.getByRole("heading", { level: 1 }).innerText()).toContain("Pre-prod Cilium");

    // Compare it with a public scenario, share, and publish that one permalink.
    await alice.goto(`${webUrl}/?provider=tke`);
    const iptables = await alice.getByRole("link", { name: "kube-proxy iptables" }).first().getAttribute("href");
    await alice.goto(`${webUrl}/compare?s=${iptables?.split("/").pop()}&s=${scenarioId}`);
    await alice.getByRole("button", { name: "Share a permalink" }).click();
    await alice.waitForURL(/\/d\/[\w-]{8}$/);
    const permalink = alice.url();
    expect(await notFound(anonymous, new URL(permalink).pathname)).toBe(true);
    await alice.getByRole("button", { name: "Publish this permalink" }).click();
    await alice.getByRole("button", { name: "Unpublish" }).waitFor();

    await anonymous.goto(permalink);
    expect(await anonymous.getByRole("heading", { level: 1 }).innerText()).toMatch(
      /Pre-prod Cilium vs kube-proxy iptables/,
    );
    expect(await anonymous.getByText("Published from a private workspace").isVisible()).toBe(true);
    await screenshot(anonymous, "permalink-published");
    // Publishing the permalink opened nothing else of the workspace.
    expect(await notFound(anonymous, `/scenarios/${scenarioId}`)).toBe(true);
    expect(errors.filter((e) => !/Failed to load resource/.test(e))).toEqual([]);
  });
});
