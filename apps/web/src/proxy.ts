import { type NextRequest, NextResponse } from "next/server";
import { inDevelopment, webEnv } from "~/env";
import { databaseAnswers, refusedAddress, unavailablePage } from "~/server/http/outage";
import { unreadableAddress } from "~/server/http/request-guard";

/**
 * Security headers on every page, and a Content-Security-Policy whose script-src allows only this
 * request's nonce (Next.js puts it on its own scripts when it finds it in the request's policy):
 * no 'unsafe-inline' for scripts, so markup smuggled into a label cannot run. Styles keep
 * 'unsafe-inline' for the style attributes charts draw with.
 */
export async function proxy(request: NextRequest) {
  // An address whose path or query cannot be text (U+0000, a lone surrogate, a broken %-escape) names
  // nothing: answered here, for every page, download and procedure, before anything reads it.
  const refused = unreadableAddress(new URL(request.url));
  if (refused) return refusedAddress(request.nextUrl.pathname, refused.status, refused.message);

  // While PostgreSQL is unreachable a page would fail and Next.js answer 500: answer 503 with
  // Retry-After and a page that retries by itself instead. Route handlers (tRPC, probes, downloads)
  // answer for themselves. Prefetches too (Next's own, and browsers' Purpose: prefetch): they render
  // the page as well, and used to hang on the database and answer 500.
  if (gated(request) && !(await databaseAnswers())) return unavailablePage();
  // A prefetch carries no HTML for a nonce to protect: pass it on as it came.
  if (prefetch(request)) return NextResponse.next();

  const nonce = Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString("base64");
  // Signing in posts a form whose answer redirects to the identity provider: allow its origin.
  const { oidc } = webEnv();
  const issuer = oidc ? new URL(oidc.issuer).origin : "";
  // Only the embeds may be framed, by any site; every other page refuses every frame.
  const embeddable = embeddablePath(request.nextUrl.pathname);
  const policy = [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${inDevelopment ? " 'unsafe-eval'" : ""}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    `form-action 'self' ${issuer}`.trim(),
    `frame-ancestors ${embeddable ? "*" : "'none'"}`,
  ].join("; ");

  const headers = new Headers(request.headers);
  headers.set("x-nonce", nonce);
  headers.set("content-security-policy", policy);
  const response = NextResponse.next({ request: { headers } });
  response.headers.set("content-security-policy", policy);
  response.headers.set("x-content-type-options", "nosniff");
  response.headers.set("referrer-policy", "strict-origin-when-cross-origin");
  if (!embeddable) response.headers.set("x-frame-options", "DENY");
  response.headers.set("permissions-policy", "camera=(), microphone=(), geolocation=(), payment=()");
  response.headers.set("cross-origin-opener-policy", "same-origin");
  return response;
}

/** /embed/…: the pages other sites may frame (docs/security.md). */
const embeddablePath = (path: string): boolean => path.startsWith("/embed/");

const prefetch = (request: NextRequest): boolean =>
  request.headers.has("next-router-prefetch") || request.headers.get("purpose") === "prefetch";

function gated(request: NextRequest): boolean {
  const path = request.nextUrl.pathname;
  return (
    (request.method === "GET" || request.method === "HEAD") &&
    !path.startsWith("/api/") &&
    path !== "/healthz" &&
    path !== "/readyz"
  );
}

export const config = {
  // Every request but static files and images, prefetches included (they used to skip the outage gate).
  matcher: ["/((?!_next/static|_next/image|favicon.ico|icon.svg).*)"],
};
