import { describe, expect, it } from "vitest";
import { parseJsonText } from "./json-text.ts";

describe("parseJsonText", () => {
  it("parses valid JSON", () => {
    expect(parseJsonText('{"schema":"cnibench/bundle@1"}')).toEqual({
      ok: true,
      value: { schema: "cnibench/bundle@1" },
    });
  });

  it("says on which line and column a document breaks", () => {
    const result = parseJsonText('{\n  "cluster": {"name": "tke-c",}\n}');
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.message).toMatch(/^malformed JSON at line 2, column 31 \(offset 32\)/);
  });

  it("points at the end of a truncated document", () => {
    const result = parseJsonText('{"results": [');
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.message).toMatch(/line 1, column 14 \(offset 13\)/);
  });
});
