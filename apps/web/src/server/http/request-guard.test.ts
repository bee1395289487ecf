import { describe, expect, it } from "vitest";
import { unreadableAddress } from "./request-guard";

const at = (pathAndQuery: string) => unreadableAddress(new URL(`http://web.example${pathAndQuery}`));

describe("unreadableAddress", () => {
  it("lets ordinary and unicode addresses through", () => {
    for (const fine of [
      "/",
      "/scenarios/cm1abc",
      "/compare?s=a&s=b",
      "/charts?provider=tke&cni=%F0%9F%9A%80", // 🚀, a whole 4-byte escape
      "/?q=a+b&empty=&flag",
      "/d/%C3%A9t%C3%A9", // été
    ]) {
      expect(at(fine), fine).toBeUndefined();
    }
  });

  it("answers 404 for a path segment that cannot be text", () => {
    // %C0%80 is the over-long encoding of U+0000, %ED%A0%80 the UTF-8 form of the lone surrogate
    // U+D800: both are invalid UTF-8 (RFC 3629 §3), so decodeURIComponent refuses them.
    for (const path of [
      "/scenarios/x%00",
      "/d/%00",
      "/scenarios/%C0%80",
      "/scenarios/%ED%A0%80",
      "/embed/%",
      "/d/%E2%82",
    ]) {
      expect(at(path), path).toEqual({ status: 404, message: expect.any(String) });
    }
  });

  it("answers 400 naming the query parameter", () => {
    expect(at("/?provider=x%00")).toEqual({ status: 400, message: expect.stringContaining('"provider"') });
    expect(at("/compare?s=a&s=%ED%B0%80")).toEqual({ status: 400, message: expect.stringContaining('"s"') });
    expect(at("/charts?%00=1")?.status).toBe(400);
    expect(at("/explore.csv?cni=%FF")?.status).toBe(400);
  });
});
