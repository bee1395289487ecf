// A legend click that lands before the charts' code has loaded (it loads at the reader's first
// interaction, apps/web/src/app/_charts/deferred.tsx) takes effect once the code is in.
import { describe, expect, inject, it } from "vitest";
import { browserPerFile } from "./browser.ts";

const webUrl = inject("webUrl");
const { open } = browserPerFile(webUrl);

describe("a legend click before the charts' code", () => {
  it("hides its series once the code has loaded", async () => {
    const { page, errors } = await open("/charts?provider=tke");
    // The page's own scripts are in (goto waits for load); every chunk asked for from here on, the
    // charts' among them, is held until the click has landed.
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const asked: string[] = [];
    await page.route(/\/_next\/static\/chunks\//, async (route) => {
      asked.push(route.request().url());
      await held;
      await route.continue();
    });

    const native = page.getByRole("list", { name: /Series/ }).getByRole("button", { name: "Cilium Native" });
    await native.click();
    await expect
      .poll(() => asked.length, { message: "the click asked for the charts' code", timeout: 10_000 })
      .toBeGreaterThan(0);
    // Landed first: the code is held, the server's picture still draws all three series.
    expect(await native.getAttribute("aria-pressed")).toBe("true");
    expect(await page.locator("[data-static-chart] [data-series]").count()).toBe(3);

    release();
    await page.locator(".recharts-line").first().waitFor();
    await expect.poll(() => native.getAttribute("aria-pressed"), { timeout: 10_000 }).toBe("false");
    expect(await page.locator(".recharts-line").count()).toBe(2);
    expect(errors).toEqual([]);
    await page.close();
  });
});
