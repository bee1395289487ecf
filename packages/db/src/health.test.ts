import { describe, expect, it } from "vitest";
import { isDatabaseOutage } from "./health.ts";

describe("isDatabaseOutage", () => {
  it("recognises the database going away, however it is wrapped", () => {
    // As pg reports PostgreSQL stopping under an open connection.
    const shutdown = Object.assign(new Error("terminating connection due to administrator command"), { code: "57P01" });
    expect(isDatabaseOutage(shutdown)).toBe(true);
    expect(isDatabaseOutage(new Error("Connection terminated unexpectedly"))).toBe(true);
    expect(
      isDatabaseOutage(Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" })),
    ).toBe(true);
    // As Prisma wraps it: a transaction whose connection closed, an adapter error with its cause.
    expect(isDatabaseOutage({ code: "P2028", message: "Transaction API error: Transaction already closed" })).toBe(
      true,
    );
    expect(
      isDatabaseOutage({
        code: "P2010",
        message: "Raw query failed",
        meta: { driverAdapterError: { cause: { kind: "ConnectionClosed" } } },
      }),
    ).toBe(true);
    expect(isDatabaseOutage(new Error("upload failed", { cause: shutdown }))).toBe(true);
  });

  it("leaves other errors alone", () => {
    expect(
      isDatabaseOutage({ code: "P2002", message: "Unique constraint failed on the fields: (`contentHash`)" }),
    ).toBe(false);
    expect(isDatabaseOutage(new TypeError("Cannot read properties of undefined"))).toBe(false);
    expect(isDatabaseOutage(Object.assign(new Error('relation "x" does not exist'), { code: "42P01" }))).toBe(false);
    expect(isDatabaseOutage(null)).toBe(false);
  });
});
