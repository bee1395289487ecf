import { unstorableValues } from "@cnibench/schema";

/** Why an address cannot name anything here, and the answer it gets; undefined when it is fine. */
export type UnreadableAddress = { status: 400 | 404; message: string };

/**
 * Checks a request's path segments and query (names and values) once, before any page, route or
 * procedure reads them: percent-escapes that decode to no text (%C0%80, %ED%A0%80, a lone %), U+0000
 * and lone UTF-16 surrogates. None of them can be part of an id, slug, label or filter (PostgreSQL's
 * text refuses U+0000; the others are not Unicode), and each used to reach a query and answer 500.
 * A path names a thing: 404 like any unknown one. A query value is an argument: 400 naming it.
 */
export function unreadableAddress(url: URL): UnreadableAddress | undefined {
  const decode = (raw: string) => {
    try {
      return decodeURIComponent(raw.replaceAll("+", " "));
    } catch {
      return undefined;
    }
  };
  for (const segment of url.pathname.split("/")) {
    const text = decode(segment);
    if (text === undefined || unstorableValues(text).length > 0) {
      return { status: 404, message: "Nothing lives at this address." };
    }
  }
  for (const pair of url.search.replace(/^\?/, "").split("&")) {
    if (pair === "") continue;
    const [rawName = "", ...rest] = pair.split("=");
    const name = decode(rawName);
    const value = decode(rest.join("="));
    if (name === undefined || unstorableValues(name).length > 0) {
      return {
        status: 400,
        message: "A query parameter's name is not valid text (U+0000, a lone surrogate or a broken %-escape).",
      };
    }
    if (value === undefined || unstorableValues(value).length > 0) {
      return {
        status: 400,
        message: `The query parameter "${name.slice(0, 40)}" is not valid text (U+0000, a lone surrogate or a broken %-escape).`,
      };
    }
  }
  return undefined;
}
