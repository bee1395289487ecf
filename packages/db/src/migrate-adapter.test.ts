import { describe, expect, it } from "vitest";
import { connectionFields } from "./migrate-adapter.ts";

describe("connectionFields", () => {
  it("spells out every field so that a shadow database name can override the URL's", () => {
    expect(connectionFields("postgresql://post%40gres:p%2Fss@db.internal:6543/cnibench?sslmode=disable")).toMatchObject(
      {
        host: "db.internal",
        port: 6543,
        user: "post@gres",
        password: "p/ss",
        database: "cnibench",
      },
    );
  });

  it("reads a socket host from the query string and never keeps the URL itself", () => {
    const fields = connectionFields("postgres://me@localhost/cnibench?host=/var/run/postgresql");
    expect(fields).toMatchObject({ host: "/var/run/postgresql", database: "cnibench" });
    expect(fields).not.toHaveProperty("connectionString");
  });
});
