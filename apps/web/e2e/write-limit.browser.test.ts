// The web app's write budget answers as documented in the built app (issue 43): past
// CNIBENCH_WEB_WRITES_PER_MINUTE (60) changes a minute, 429 with Retry-After — the build answered
// 500 with an empty message while the in-process test passed (apps/web/src/server/trpc/trpc.ts).
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { launchBrowser, signedIn } from "./browser.ts";

const webUrl = inject("webUrl");

describe("the web app's write budget, in the built app", () => {
  let browser: Awaited<ReturnType<typeof launchBrowser>>;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => browser?.close());

  it("answers 429 with Retry-After past the budget, never a 5xx", async () => {
    const page = await signedIn(browser, webUrl, "budget");
    const statuses: number[] = [];
    let refusal: { status: number; retryAfter: string | null; text: string } | undefined;
    // The same workspace each time: one is created, the rest are refused (409), each one a write
    // spent. Other tests may have spent some of this address's budget: stop at the first 429.
    for (let n = 0; n < 130 && !refusal; n++) {
      const res = await page.request.post(`${webUrl}/api/trpc/workspaces.create`, {
        data: { slug: "budget-probe", name: "Budget probe", visibility: "private" },
      });
      statuses.push(res.status());
      if (res.status() === 429) {
        refusal = { status: 429, retryAfter: res.headers()["retry-after"] ?? null, text: await res.text() };
      }
    }
    expect(statuses.filter((s) => s >= 500)).toEqual([]);
    expect(refusal, `statuses: ${statuses.join(" ")}`).toBeDefined();
    expect(Number(refusal!.retryAfter)).toBeGreaterThanOrEqual(1);
    expect(Number(refusal!.retryAfter)).toBeLessThanOrEqual(60);
    expect(refusal!.text).toMatch(/More than \d+ changes a minute/);
    console.log(`429 after ${statuses.length} writes, Retry-After ${refusal!.retryAfter} s`);
  }, 120_000);
});
