/** Parses a JSON text; on failure says where (line, column, byte offset) as well as what. */
export function parseJsonText(text: string): { ok: true; value: unknown } | { ok: false; message: string } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    // V8 names the offset for most errors ("… at position 42") and none for a truncated document.
    const at = /position (\d+)/.exec(reason);
    const offset = at ? Number(at[1]) : /end of JSON input/.test(reason) ? text.length : undefined;
    if (offset === undefined) return { ok: false, message: `malformed JSON: ${reason}` };
    const before = text.slice(0, offset);
    const line = before.split("\n").length;
    const column = offset - before.lastIndexOf("\n");
    return { ok: false, message: `malformed JSON at line ${line}, column ${column} (offset ${offset}): ${reason}` };
  }
}
