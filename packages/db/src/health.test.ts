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

  it("counts timeouts and every address of a failed connection as an outage", () => {
    // client.ts's timeouts: PostgreSQL cancelling at statement_timeout, pg giving up on a frozen server.
    expect(
      isDatabaseOutage(Object.assign(new Error("canceling statement due to statement timeout"), { code: "57014" })),
    ).toBe(true);
    expect(isDatabaseOutage(new Error("Query read timeout"))).toBe(true);
    expect(isDatabaseOutage(new Error("timeout exceeded when trying to connect"))).toBe(true);
    // Node connecting to "localhost" (::1 and 127.0.0.1): an AggregateError without a code or message of its own.
    const refused = (address: string) =>
      Object.assign(new Error(`connect ECONNREFUSED ${address}:5432`), { code: "ECONNREFUSED" });
    expect(isDatabaseOutage(new AggregateError([refused("::1"), refused("127.0.0.1")]))).toBe(true);
    expect(isDatabaseOutage(new AggregateError([new TypeError("x")]))).toBe(false);
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
