// serverUnreachable: the launcher's watch on DATABASE_URL, which says when the server stops and
// starts answering again (packages/launcher start.ts).
import { freshDatabase } from "@cnibench/test-support/database";
import { freePort } from "@cnibench/test-support/ports";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isDatabaseOutage, serverUnreachable } from "./health.ts";

describe("serverUnreachable", () => {
  let url: string;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    ({ url, drop } = await freshDatabase());
  });
  afterAll(() => drop());

  it("is undefined for a server that answers", async () => {
    expect(await serverUnreachable(url)).toBeUndefined();
  });

  it("is the connection's error, an outage, for a port nobody listens on", async () => {
    const nobody = new URL(url);
    nobody.port = String(await freePort());
    const error = await serverUnreachable(nobody.toString());
    expect(error).toBeInstanceOf(Error);
    expect(isDatabaseOutage(error)).toBe(true);
  });
});
