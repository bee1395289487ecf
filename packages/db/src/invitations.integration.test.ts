// Invitations against a real PostgreSQL: they reach whoever signs in with the address later, never a
// second identity the address was not verified for, and accepting never lowers a role held already.
import { freshDatabase } from "@cnibench/test-support/database";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accessFor, createWorkspace } from "./access.ts";
import { createDb, type Db } from "./client.ts";
import { acceptInvitation, invitationsFor, invite } from "./invitations.ts";
import { recordSignIn } from "./users.ts";

let database: Awaited<ReturnType<typeof freshDatabase>>;
let db: Db;
let ownerId: string;
let workspaceId: string;

beforeAll(async () => {
  database = await freshDatabase();
  db = createDb(database.url);
  await recordSignIn(db, { issuer: "t", subject: "admin", email: "admin@example.test", name: "admin" });
  ownerId = (await recordSignIn(db, { issuer: "t", subject: "o", email: "owner@example.test", name: "o" })).id;
  workspaceId = (await createWorkspace(db, ownerId, { slug: "team", name: "Team", visibility: "private" })).id;
});
afterAll(async () => {
  await db.$disconnect();
  await database.drop();
});

describe("invitations", () => {
  it("reach the user who signs in with the address after the invitation, and no other identity", async () => {
    await invite(db, { workspaceId, email: " Later@Example.test ", role: "member", invitedById: ownerId });
    const later = await recordSignIn(db, { issuer: "t", subject: "l", email: "later@example.test", name: "l" });
    // Another identity claiming the same address keeps none (users.ts), so sees nothing.
    const impostor = await recordSignIn(db, { issuer: "u", subject: "x", email: "later@example.test", name: "x" });
    expect(impostor.emailTaken).toBe(true);
    expect(await invitationsFor(db, impostor.id)).toEqual([]);
    const [waiting] = await invitationsFor(db, later.id);
    expect(waiting).toMatchObject({ role: "member", workspace: { slug: "team" }, invitedBy: "owner@example.test" });
    expect(await acceptInvitation(db, impostor.id, waiting!.id)).toBeNull();
    expect(await acceptInvitation(db, later.id, waiting!.id)).toEqual({ slug: "team" });
    expect((await accessFor(db, later.id)).roles[workspaceId]).toBe("member");
  });

  it("never lowers the role of a member who accepts a lesser one", async () => {
    await invite(db, { workspaceId, email: "owner@example.test", role: "viewer", invitedById: ownerId });
    const [waiting] = await invitationsFor(db, ownerId);
    expect(await acceptInvitation(db, ownerId, waiting!.id)).toEqual({ slug: "team" });
    expect((await accessFor(db, ownerId)).roles[workspaceId]).toBe("owner");
    expect(await invitationsFor(db, ownerId)).toEqual([]);
  });
});
