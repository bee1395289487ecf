/**
 * An owner cannot test whether an address has an account (issue 43): inviting an address somebody
 * signed in with and one nobody did gives byte-identical HTTP answers (status, headers that describe
 * the body, body), and neither makes anybody a member. The old way in (setMember) added a known
 * address at once and answered 409 "nobody with the verified address … has signed in yet" for an
 * unknown one. Sent over HTTP through tRPC's fetch adapter, as the route handler does.
 */
import { accessFor, createDb, createWorkspace, type Db, recordSignIn } from "@cnibench/db";
import { freshDatabase } from "@cnibench/test-support/database";
import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appRouter } from "../trpc/root";

let database: Awaited<ReturnType<typeof freshDatabase>>;
let db: Db;
let ownerId: string;
let knownId: string;
let teamId: string;

beforeAll(async () => {
  database = await freshDatabase();
  db = createDb(database.url);
  const signIn = async (subject: string) =>
    (await recordSignIn(db, { issuer: "t", subject, email: `${subject}@example.test`, name: subject })).id;
  await signIn("admin");
  ownerId = await signIn("owner");
  knownId = await signIn("known");
  teamId = (await createWorkspace(db, ownerId, { slug: "team", name: "Team", visibility: "private" })).id;
});
afterAll(async () => {
  await db.$disconnect();
  await database.drop();
});

async function invite(email: string): Promise<{ status: number; headers: string; body: string }> {
  const res = await fetchRequestHandler({
    endpoint: "/api/trpc",
    req: new Request("http://web.example/api/trpc/workspaces.invite", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ slug: "team", email, role: "member" }),
    }),
    router: appRouter,
    createContext: async () => ({ db, access: await accessFor(db, ownerId) }),
  });
  const headers = [...res.headers].filter(([name]) => name !== "date").join("\n");
  return { status: res.status, headers, body: await res.text() };
}

describe("inviting an address", () => {
  it("answers a known and an unknown address byte for byte alike, and makes nobody a member", async () => {
    const known = await invite("known@example.test");
    const unknown = await invite("nobody-yet@example.test");
    expect(known).toEqual(unknown);
    expect(known.status).toBe(200);
    expect(JSON.parse(known.body)).toEqual({ result: { data: { slug: "team", role: "member", status: "invited" } } });
    // Again, and in another case: still the same answer.
    expect(await invite("KNOWN@example.test")).toEqual(known);
    expect((await accessFor(db, knownId)).readable).not.toContain(teamId);
    expect(await db.membership.count({ where: { workspaceId: teamId } })).toBe(1);
    expect(
      (await db.invitation.findMany({ where: { workspaceId: teamId }, orderBy: { email: "asc" } })).map((i) => i.email),
    ).toEqual(["known@example.test", "nobody-yet@example.test"]);
  });
});
