// Membership by invitation in the built app (issue 43): an owner invites an address; the invitee sees
// the invitation on the workspaces page and becomes a member only by accepting it; one who declines
// never joins and stays "invited" to the owner; inviting an address that has an account and one that
// has none answers byte for byte alike. Before, the owner added a known address at once (the
// workspace showed in the victim's list) and an unknown one answered 409.
import type { Page } from "playwright-core";
import { describe, expect, inject, it } from "vitest";
import { browserPerFile, collectPageErrors, screenshot, signedIn } from "./browser.ts";

const webUrl = inject("webUrl");
const { browser } = browserPerFile(webUrl);

const status = async (page: Page, path: string) => (await page.goto(`${webUrl}${path}`))?.status();

describe("membership by invitation", () => {
  it("makes a member of an invitee who accepts, and of nobody who declines", async () => {
    const owner = await signedIn(browser(), webUrl, "inv-owner");
    const joiner = await signedIn(browser(), webUrl, "inv-joiner");
    const decliner = await signedIn(browser(), webUrl, "inv-decliner");
    const errors = [owner, joiner, decliner].map(collectPageErrors);

    await owner.goto(`${webUrl}/workspaces`);
    await owner.getByLabel("Name").fill("Invite team");
    await owner.getByLabel("Address (slug)").fill("invite-team");
    await owner.getByRole("button", { name: "Create" }).click();
    await owner.waitForURL(`${webUrl}/workspaces/invite-team`);

    // An address with an account and one without: the same status and the same bytes.
    const invite = async (email: string) => {
      const res = await owner.request.post(`${webUrl}/api/trpc/workspaces.invite`, {
        data: { slug: "invite-team", email, role: "member" },
      });
      return { status: res.status(), type: res.headers()["content-type"], body: await res.text() };
    };
    const known = await invite("inv-decliner@example.test");
    expect(await invite("inv-nobody@example.test")).toEqual(known);
    expect(known.status).toBe(200);

    // The form: the owner sees the address, invited, and nothing of the account behind it.
    await owner.reload();
    await owner.getByLabel("E-mail").fill("inv-joiner@example.test");
    await owner.getByRole("form", { name: "Invite someone" }).getByLabel("Role").selectOption("viewer");
    await owner.getByRole("button", { name: "Invite", exact: true }).click();
    await owner.getByText("inv-joiner@example.test is invited as a viewer: they join once they accept.").waitFor();
    await owner.reload();
    const members = owner.getByRole("region", { name: "Members" });
    expect(await members.innerText()).toMatch(/inv-joiner@example\.test\s+invited as viewer/);
    await screenshot(owner, "invitations-owner");

    // Not a member until accepting: the workspace is "not found", and not in their list.
    expect(await status(joiner, "/workspaces/invite-team")).toBe(404);
    await joiner.goto(`${webUrl}/workspaces`);
    const invitations = joiner.getByRole("region", { name: "Invitations" });
    expect(await invitations.innerText()).toMatch(/Invite team[\s\S]*as a viewer, invited by inv-owner@example\.test/);
    expect(await joiner.getByRole("link", { name: "Invite team" }).count()).toBe(0);
    await screenshot(joiner, "invitations-invitee");
    await joiner.setViewportSize({ width: 390, height: 900 });
    await screenshot(joiner, "invitations-invitee");
    await joiner.setViewportSize({ width: 1440, height: 900 });

    await invitations.getByRole("button", { name: "Accept" }).click();
    await joiner.waitForURL(`${webUrl}/workspaces/invite-team`);
    expect(await joiner.getByRole("heading", { level: 1 }).innerText()).toBe("Invite team");
    expect(await joiner.locator("body").innerText()).toContain("you are a viewer");
    await joiner.goto(`${webUrl}/workspaces`);
    expect(await joiner.getByRole("region", { name: "Invitations" }).count()).toBe(0);
    expect(await joiner.getByRole("link", { name: "Invite team" }).count()).toBe(1);

    // Declining: gone from the invitee's list, never a member, still "invited" to the owner.
    await decliner.goto(`${webUrl}/workspaces`);
    await decliner.getByRole("region", { name: "Invitations" }).getByRole("button", { name: "Decline" }).click();
    // The row (and its form) goes as the page is refreshed: the list is the answer.
    await expect.poll(() => decliner.getByRole("region", { name: "Invitations" }).count()).toBe(0);
    await decliner.reload();
    expect(await decliner.getByRole("region", { name: "Invitations" }).count()).toBe(0);
    expect(await status(decliner, "/workspaces/invite-team")).toBe(404);

    await owner.reload();
    const text = await members.innerText();
    expect(text).toMatch(/inv-joiner@example\.test/);
    expect(text).not.toContain("invited as viewer");
    expect(text).toMatch(/inv-decliner@example\.test\s+invited as member/);

    // Withdrawing an invitation: gone.
    await owner
      .getByRole("form", { name: "Withdraw the invitation of inv-nobody@example.test" })
      .getByRole("button")
      .click();
    await expect.poll(() => members.innerText()).not.toContain("inv-nobody@example.test");
    await owner.reload();
    expect(await members.innerText()).not.toContain("inv-nobody@example.test");
    // The invitees' "not found" visits log their 404 as the browser does; nothing else may fail.
    expect(errors.flat().filter((e) => !/status of 404 \(Not Found\)/.test(e))).toEqual([]);
  }, 180_000);
});
