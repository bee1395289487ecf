import type { BundleInput } from "@cnibench/schema";

export type UploadOutcome =
  | { status: "created" | "exists"; id: string; webUrl?: string; attempts: number }
  | { status: "failed"; error: string; attempts: number };

export type UploadOptions = {
  server: string;
  token: string;
  /** Retries after the first attempt, for 429 and 5xx answers and network errors. */
  retries: number;
  /** First wait before a retry; doubles each time, up to 30 s. The server's Retry-After wins (up to 120 s). */
  backoffMs: number;
  fetch?: typeof fetch;
  sleep?: (ms: number) => Promise<void>;
  /** Called before each wait, so that a progress display can say why nothing moves. */
  onWait?: (ms: number, reason: string) => void;
};

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

const MAX_BACKOFF_MS = 30_000;
/** A server asking for longer (a rate limit's window is a minute) is heeded, within reason. */
const MAX_RETRY_AFTER_MS = 120_000;

/**
 * POST /v1/bundles with retries: 429 (rate limited), 5xx and network errors are retried, after the
 * server's Retry-After when it gives one, else with exponential backoff (uploads are idempotent: a
 * bundle that got in before a lost answer comes back as 200 "exists"). Other 4xx answers are final
 * and their message (and contract issues) is the error.
 */
export async function uploadBundle(bundle: BundleInput, options: UploadOptions): Promise<UploadOutcome> {
  const doFetch = options.fetch ?? fetch;
  const sleep = options.sleep ?? defaultSleep;
  const body = JSON.stringify(bundle);
  let lastError = "";
  for (let attempt = 1; attempt <= options.retries + 1; attempt++) {
    let retryAfterMs: number | undefined;
    let reason: string;
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
      if (res.status < 500 && res.status !== 429) return { status: "failed", error: lastError, attempts: attempt };
      retryAfterMs = readRetryAfter(res.headers.get("retry-after"), Date.now());
      // "429 rate limited", "503 database unavailable": the status and the server's error code.
      reason =
        `${res.status} ${typeof json?.error === "string" ? json.error.replaceAll("_", " ") : res.statusText}`.trim();
    } catch (error) {
      const cause = (error as { cause?: { code?: string; message?: string } }).cause;
      lastError = `network error: ${cause?.code ?? cause?.message ?? (error as Error).message}`;
      reason = lastError;
    }
    if (attempt <= options.retries) {
      const ms =
        retryAfterMs === undefined
          ? Math.min(options.backoffMs * 2 ** (attempt - 1), MAX_BACKOFF_MS)
          : Math.min(retryAfterMs, MAX_RETRY_AFTER_MS);
      options.onWait?.(ms, reason);
      await sleep(ms);
    }
  }
  return {
    status: "failed",
    error: `${lastError} (gave up after ${options.retries + 1} attempts)`,
    attempts: options.retries + 1,
  };
}

/** Retry-After in milliseconds: whole seconds or an HTTP date; undefined when absent, zero or past. */
export function readRetryAfter(header: string | null, now: number): number | undefined {
  if (header === null) return undefined;
  const value = header.trim();
  const ms = /^\d+$/.test(value) ? Number(value) * 1000 : Date.parse(value) - now;
  return ms > 0 ? ms : undefined;
}

function safeJson(text: string): Record<string, unknown> | undefined {
  try {
    const value = JSON.parse(text) as unknown;
    return typeof value === "object" && value !== null ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
