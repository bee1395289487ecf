import { describe, expect, it } from "vitest";
import { clientAddress } from "./client-address";

describe("clientAddress", () => {
  it("takes the socket address Next.js wrote when nothing is in front", () => {
    expect(clientAddress("203.0.113.7", 0)).toBe("203.0.113.7");
  });

  it("takes the entry the trusted proxy appended, not what the client claimed before it", () => {
    // The client sent "X-Forwarded-For: 1.1.1.1"; the proxy appended the address it saw.
    expect(clientAddress("1.1.1.1, 198.51.100.4", 1)).toBe("198.51.100.4");
    expect(clientAddress("1.1.1.1, 198.51.100.4, 10.0.0.2", 2)).toBe("198.51.100.4");
  });

  it("never reads before the first entry, and names a missing header", () => {
    expect(clientAddress("198.51.100.4", 3)).toBe("198.51.100.4");
    expect(clientAddress(null, 0)).toBe("unknown");
    expect(clientAddress(" , ", 0)).toBe("unknown");
  });
});
