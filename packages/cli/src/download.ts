/**
 * `cnibench import <URL>`: a published result tree fetched over HTTP(S) — a GitHub repository URL
 * (its tarball, from codeload.github.com) or any archive or file URL — within a size limit, with
 * progress, and errors that say what went wrong (offline, HTTP status, too large).
 */

/** Where to fetch a URL's content from, and a file name for it (the importer detects by content and name). */
export function downloadTarget(input: string): { url: string; name: string } {
  const url = new URL(input);
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    throw new Error(`${input}: only http(s) URLs can be imported`);
  }
  // https://github.com/<owner>/<repo>[.git][/tree/<ref>]: the repository's tarball at that ref.
  const github = /^\/([^/]+)\/([^/]+?)(?:\.git)?(?:\/tree\/(.+?))?\/?$/.exec(url.pathname);
  if (url.hostname === "github.com" && github) {
    const [, owner, repo, ref] = github;
    const at = ref ?? "HEAD";
    return {
      url: `https://codeload.github.com/${owner}/${repo}/tar.gz/${at}`,
      name: `${repo}-${at.replaceAll("/", "-")}.tar.gz`,
    };
  }
  const last = decodeURIComponent(url.pathname.split("/").filter(Boolean).at(-1) ?? "");
  return { url: url.toString(), name: last !== "" ? last : url.hostname };
}

export type Downloaded = { ok: true; bytes: Uint8Array } | { ok: false; message: string };

/**
 * GET `url` into memory, refusing more than `maxBytes` (by Content-Length up front, else once the
 * body crosses it). `onProgress` hears the bytes received so far and the total when known.
 */
export async function download(
  url: string,
  options: { maxBytes: number; fetch?: typeof fetch; onProgress?: (received: number, total: number | null) => void },
): Promise<Downloaded> {
  const doFetch = options.fetch ?? fetch;
  let res: Response;
  try {
    res = await doFetch(url, { redirect: "follow" });
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause?.code;
    const host = new URL(url).host;
    return {
      ok: false,
      message: `cannot reach ${host} (${cause ?? (error as Error).message}): check the URL, or whether this machine is online`,
    };
  }
  if (!res.ok) {
    await res.body?.cancel();
    return { ok: false, message: `${url} answered HTTP ${res.status}${res.statusText ? ` ${res.statusText}` : ""}` };
  }
  const declared = Number(res.headers.get("content-length"));
  const total = Number.isFinite(declared) && declared > 0 ? declared : null;
  const tooLarge = () => `${url} is larger than the limit of ${options.maxBytes} bytes (--max-bytes)`;
  if (total !== null && total > options.maxBytes) {
    await res.body?.cancel();
    return { ok: false, message: tooLarge() };
  }
  const chunks: Uint8Array[] = [];
  let received = 0;
  if (res.body) {
    const reader = res.body.getReader();
    for (;;) {
      let step: Awaited<ReturnType<typeof reader.read>>;
      try {
        step = await reader.read();
      } catch (error) {
        return {
          ok: false,
          message: `${url}: the download broke off after ${received} bytes (${(error as Error).message})`,
        };
      }
      if (step.done) break;
      received += step.value.byteLength;
      if (received > options.maxBytes) {
        await reader.cancel();
        return { ok: false, message: tooLarge() };
      }
      chunks.push(step.value);
      options.onProgress?.(received, total);
    }
  }
  const bytes = new Uint8Array(received);
  let at = 0;
  for (const c of chunks) {
    bytes.set(c, at);
    at += c.byteLength;
  }
  return { ok: true, bytes };
}

/** "12.3 MiB" */
export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 ** 2) return `${(n / 1024).toFixed(1)} KiB`;
  return `${(n / 1024 ** 2).toFixed(1)} MiB`;
}
