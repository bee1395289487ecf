import type { BundleInput } from "@cnibench/schema";

export type UploadOutcome =
  | { status: "created" | "exists"; id: string; webUrl?: string; attempts: number }
  | { status: "failed"; error: string; attempts: number };

export type UploadOptions = {
  server: string;
  token: string;
  /** Retries after the first attempt, for 5xx answers and network errors. */
  retries: number;
  /** First wait before a retry; doubles each time (capped at 30 s, or the server's Retry-After). */
  backoffMs: number;
  fetch?: typeof fetch;
  sleep?: (ms: number) => Promise<void>;
};

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * POST /v1/bundles with retries: 5xx and network errors are retried with exponential backoff
 * (uploads are idempotent: a bundle that got in before a lost answer comes back as 200 "exists").
 * 4xx answers are final and their message (and contract issues) is the error.
 */
export async function uploadBundle(bundle: BundleInput, options: UploadOptions): Promise<UploadOutcome> {
  const doFetch = options.fetch ?? fetch;
  const sleep = options.sleep ?? defaultSleep;
  const body = JSON.stringify(bundle);
  let lastError = "";
  for (let attempt = 1; attempt <= options.retries + 1; attempt++) {
    let retryAfterMs: number | undefined;
    try {
      const res = await doFetch(`${options.server.replace(/\/$/, "")}/v1/bundles`, {
        method: "POST",
        headers: { authorization: `Bearer ${options.token}`, "content-type": "application/json" },
        body,
        signal: AbortSignal.timeout(120_000),
      });
      const text = await res.text();
      const json = safeJson(text);
      if (res.status === 201 || res.status === 200) {
        return {
          status: res.status === 201 ? "created" : "exists",
          id: String(json?.id ?? ""),
          ...(typeof json?.webUrl === "string" ? { webUrl: json.webUrl } : {}),
          attempts: attempt,
        };
      }
      const message = typeof json?.message === "string" ? json.message : text.slice(0, 300) || res.statusText;
      const issues = Array.isArray(json?.issues)
        ? (json.issues as { path: string; message: string }[]).map((i) => `${i.path}: ${i.message}`).join("; ")
        : "";
      lastError = `HTTP ${res.status}: ${message}${issues ? ` (${issues})` : ""}`;
      if (res.status < 500) return { status: "failed", error: lastError, attempts: attempt };
      const retryAfter = Number(res.headers.get("retry-after"));
      if (Number.isFinite(retryAfter) && retryAfter > 0) retryAfterMs = retryAfter * 1000;
    } catch (error) {
      const cause = (error as { cause?: { code?: string; message?: string } }).cause;
      lastError = `network error: ${cause?.code ?? cause?.message ?? (error as Error).message}`;
    }
    if (attempt <= options.retries) {
      await sleep(Math.min(retryAfterMs ?? options.backoffMs * 2 ** (attempt - 1), 30_000));
    }
  }
  return {
    status: "failed",
    error: `${lastError} (gave up after ${options.retries + 1} attempts)`,
    attempts: options.retries + 1,
  };
}

function safeJson(text: string): Record<string, unknown> | undefined {
  try {
    const value = JSON.parse(text) as unknown;
    return typeof value === "object" && value !== null ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
