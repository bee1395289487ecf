import type { BundleInput } from "@cnibench/schema";

export type UploadOutcome =
  | {
      status: "created" | "exists";
      id: string;
      webUrl?: string;
      /** For "exists": the campaign the run stays in (the server's answer; null: its own). */
      storedIn?: string | null;
      attempts: number;
    }
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
  const answer = await postJson("/v1/bundles", bundle, options);
  if (!answer.ok) return { status: "failed", error: answer.error, attempts: answer.attempts };
  return {
    status: answer.status === 201 ? "created" : "exists",
    id: String(answer.json?.id ?? ""),
    ...(typeof answer.json?.webUrl === "string" ? { webUrl: answer.json.webUrl } : {}),
    ...(answer.status !== 201 && answer.json && "campaign" in answer.json
      ? { storedIn: typeof answer.json.campaign === "string" ? answer.json.campaign : null }
      : {}),
    attempts: answer.attempts,
  };
}

/**
 * Tells the API these campaigns are complete (POST /v1/campaigns/close), so a workspace's alerts judge
 * them now rather than after the quiet period (docs/alerts.md). One try each, answers ignored: the
 * quiet period judges them anyway, and an older server without the route loses nothing.
 */
export async function closeCampaigns(campaigns: readonly string[], options: UploadOptions): Promise<void> {
  const doFetch = options.fetch ?? fetch;
  for (const campaign of new Set(campaigns)) {
    try {
      const res = await doFetch(`${options.server.replace(/\/$/, "")}/v1/campaigns/close`, {
        method: "POST",
        headers: { authorization: `Bearer ${options.token}`, "content-type": "application/json" },
        body: JSON.stringify({ campaign }),
        signal: AbortSignal.timeout(10_000),
      });
      await res.body?.cancel();
    } catch {
      // Best effort, as above.
    }
  }
}

/** A JSON answer of the API: 200 or 201 with its body, or why not (the last answer's status and body, if any). */
export type Answer =
  | { ok: true; status: number; json: Record<string, unknown> | undefined; attempts: number }
  | { ok: false; status?: number; json?: Record<string, unknown>; error: string; attempts: number };

/**
 * POST `body` as JSON to `path` of the API with the upload token, with the retries of uploadBundle:
 * 429, 5xx and network errors are retried (after Retry-After, else with exponential backoff); other
 * answers are final. The error names the status, the server's message and its issues.
 */
export async function postJson(path: string, body: unknown, options: UploadOptions): Promise<Answer> {
  const doFetch = options.fetch ?? fetch;
  const sleep = options.sleep ?? defaultSleep;
  const text = JSON.stringify(body);
  let lastError = "";
  let last: { status: number; json: Record<string, unknown> | undefined } | undefined;
  for (let attempt = 1; attempt <= options.retries + 1; attempt++) {
    let retryAfterMs: number | undefined;
    let reason: string;
    try {
      const res = await doFetch(`${options.server.replace(/\/$/, "")}${path}`, {
        method: "POST",
        headers: { authorization: `Bearer ${options.token}`, "content-type": "application/json" },
        body: text,
        signal: AbortSignal.timeout(120_000),
      });
      const answered = await res.text();
      const json = safeJson(answered);
      if (res.status === 201 || res.status === 200) return { ok: true, status: res.status, json, attempts: attempt };
      const message = typeof json?.message === "string" ? json.message : answered.slice(0, 300) || res.statusText;
      const issues = Array.isArray(json?.issues)
        ? (json.issues as { path: string; message: string }[]).map((i) => `${i.path}: ${i.message}`).join("; ")
        : "";
      lastError = `HTTP ${res.status}: ${message}${issues ? ` (${issues})` : ""}`;
      last = { status: res.status, json };
      if (res.status < 500 && res.status !== 429) {
        return { ok: false, status: res.status, ...(json ? { json } : {}), error: lastError, attempts: attempt };
      }
      retryAfterMs = readRetryAfter(res.headers.get("retry-after"), Date.now());
      // "429 rate limited", "503 database unavailable": the status and the server's error code.
      reason =
        `${res.status} ${typeof json?.error === "string" ? json.error.replaceAll("_", " ") : res.statusText}`.trim();
    } catch (error) {
      const cause = (error as { cause?: { code?: string; message?: string } }).cause;
      lastError = `network error: ${cause?.code ?? cause?.message ?? (error as Error).message}`;
      last = undefined;
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
    ok: false,
    ...(last ? { status: last.status, ...(last.json ? { json: last.json } : {}) } : {}),
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
