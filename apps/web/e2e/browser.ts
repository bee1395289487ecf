import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { tar } from "@cnibench/test-support/archives";
import { infrabuilderEnvironment, infrabuilderSetups } from "@cnibench/test-support/infrabuilder-setups";
import { type Browser, chromium, type Locator, type Page } from "playwright-core";
import { afterAll, beforeAll, expect } from "vitest";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const screenshotDir = path.join(repoRoot, "test-artifacts", "screenshots");

/** Debian's Chromium (or CNIBENCH_CHROMIUM); playwright's own browser downloads fail offline. */
export function chromiumPath(): string {
  const candidate = process.env.CNIBENCH_CHROMIUM ?? "/usr/bin/chromium";
  if (!fs.existsSync(candidate)) {
    throw new Error(
      `browser tests need Chromium at ${candidate}: install it with "apt-get install -y chromium fonts-noto-cjk" ` +
        "(as .ci/run does) or set CNIBENCH_CHROMIUM to a Chromium binary",
    );
  }
  return candidate;
}

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath(),
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
}

/** Saves a full-page screenshot as a test artifact: test-artifacts/screenshots/<name>-<width>.png. */
export async function screenshot(page: Page, name: string): Promise<string> {
  fs.mkdirSync(screenshotDir, { recursive: true });
  const file = path.join(screenshotDir, `${name}-${page.viewportSize()?.width ?? 0}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}

/** Fails a test on any uncaught error or console error of the page. */
export function collectPageErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  page.on("console", (m) => {
    if (m.type() === "error") errors.push(m.text());
  });
  return errors;
}

/**
 * One Chromium per test file, opened before its tests and closed after them, and `open`, which loads
 * a path of the web app in a new page that records its errors.
 */
export function browserPerFile(webUrl: string) {
  let current: Browser | undefined;
  beforeAll(async () => {
    current = await launchBrowser();
  });
  afterAll(async () => {
    await current?.close();
  });
  const browser = (): Browser => {
    if (!current) throw new Error("the browser starts in beforeAll");
    return current;
  };
  const open = async (path: string, width = 1440): Promise<{ page: Page; errors: string[] }> => {
    const page = await browser().newPage({ viewport: { width, height: 900 } });
    const errors = collectPageErrors(page);
    await page.goto(`${webUrl}${path}`);
    return { page, errors };
  };
  return { browser, open };
}

/**
 * Moves the pointer as a reader does, once the page is hydrated: charts are static pictures until
 * the first interaction, which loads their interactive layer (packages/charts/src/interactive.ts).
 * `over`: an element to move onto instead of the page's corner (an iframe, to reach its document).
 */
export async function interact(page: Page, over?: Locator): Promise<void> {
  await page.waitForLoadState("networkidle");
  // Network idle is not hydrated: on a loaded machine the scripts ran seconds later, and a move made
  // before the first-interaction listener was there loaded nothing (a chart waited 30 s in vain). React
  // marks the body as hydration begins, after instrumentation-client.ts added that listener; a frame
  // that is no Next.js page has nothing to wait for.
  for (const frame of page.frames()) {
    // A string, not a function: the bench imports this file and type-checks it without the DOM's types.
    // A function's source, not an expression: Playwright evals the string on every poll, and our CSP
    // refuses eval outside its first, DevTools-run check (a page not yet hydrated then failed); a
    // function is evaled once and called after.
    await frame.waitForFunction(
      `() => document.readyState === "complete" &&
       (document.querySelector('script[src*="/_next/"]') === null ||
        Object.keys(document.body).some((k) => k.startsWith("__reactFiber$")))`,
    );
  }
  if (over) await over.hover();
  // Two positions: a page opened before may have the pointer at the first already, and not moving it
  // is no event.
  else for (const at of [1, 2]) await page.mouse.move(at, at);
}

/** A new browser context (its own cookies) signed in as `login` through the local provider's login page. */
export async function signedIn(b: Browser, webUrl: string, login: string, width = 1440): Promise<Page> {
  const page = await (await b.newContext({ viewport: { width, height: 900 } })).newPage();
  await page.goto(`${webUrl}/`);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.locator('input[name="login"]').fill(login);
  await page.locator('input[name="password"]').fill("any password");
  await page.locator('button[type="submit"]').click();
  await page.waitForURL(`${webUrl}/`);
  const shown = await page.getByTestId("signed-in-as").innerText();
  if (shown !== `${login}@example.test`) throw new Error(`signed in as "${shown}", not ${login}`);
  return page;
}

/**
 * A workspace `owner` makes in the web app, and an upload token for it (its visibility left at the
 * form's default unless given).
 */
export async function workspaceToken(
  owner: Page,
  webUrl: string,
  workspace: { name: string; slug: string; visibility?: "public" | "private" },
): Promise<string> {
  await owner.goto(`${webUrl}/workspaces`);
  await owner.getByLabel("Name").fill(workspace.name);
  await owner.getByLabel("Address (slug)").fill(workspace.slug);
  if (workspace.visibility) await owner.getByLabel("Visibility").selectOption(workspace.visibility);
  await owner.getByRole("button", { name: "Create" }).click();
  await owner.waitForURL(`${webUrl}/workspaces/${workspace.slug}`);
  await owner.getByLabel("Token name").fill("ci");
  await owner.getByRole("button", { name: "Create token" }).click();
  return (await owner.getByTestId("new-token").innerText()).trim();
}

/**
 * The README's example bundle, changed by `change`, uploaded with `token` into workspace `slug` as a
 * collector would; its scenario's id.
 */
export async function uploadExample(
  apiUrl: string,
  upload: { token: string; slug: string },
  change: (example: Record<string, Record<string, unknown>>) => object,
): Promise<string> {
  const example = JSON.parse(fs.readFileSync(path.join(repoRoot, "examples/bundle.json"), "utf8"));
  const res = await fetch(`${apiUrl}/v1/bundles?workspace=${upload.slug}`, {
    method: "POST",
    headers: { authorization: `Bearer ${upload.token}`, "content-type": "application/json" },
    body: JSON.stringify(change(example)),
  });
  if (res.status !== 201) throw new Error(`upload answered ${res.status}: ${await res.text()}`);
  return ((await res.json()) as { scenarioId: string }).scenarioId;
}

/**
 * InfraBuilder's 25-setup tree (test-support's infrabuilder-setups) imported as one archive; the
 * import's answer. 200 "already there" as well as 201: browser files share one product, and another
 * may have imported the same runs first.
 */
export async function importInfrabuilderTree(
  apiUrl: string,
  token: string,
): Promise<{ bundles: { id: string; scenarioId: string }[] }> {
  const res = await fetch(`${apiUrl}/v1/import`, {
    method: "POST",
    headers: {
      authorization: `Bearer ${token}`,
      "content-type": "application/x-tar",
      "x-cnibench-environment": JSON.stringify(infrabuilderEnvironment),
    },
    body: Buffer.from(tar(infrabuilderSetups())),
  });
  const answer = (await res.json()) as { bundles: { id: string; scenarioId: string }[] };
  expect([200, 201], JSON.stringify(answer).slice(0, 2000)).toContain(res.status);
  return answer;
}

/** Shares the comparison of `scenarioIds` from /compare as a permalink; its slug. */
export async function sharePermalink(page: Page, webUrl: string, scenarioIds: readonly string[]): Promise<string> {
  await page.goto(`${webUrl}/compare?${scenarioIds.map((id) => `s=${id}`).join("&")}`);
  await page.getByRole("button", { name: "Share a permalink" }).click();
  await page.waitForURL(/\/d\/[\w-]+$/);
  return new URL(page.url()).pathname.split("/").pop() ?? "";
}
