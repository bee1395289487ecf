import type { NextRequest } from "next/server";
import { handlers } from "~/auth";

// Next.js reports 127.0.0.1 as "localhost" in a NextRequest's URL, so Auth.js would build the
// callback's redirect_uri on another host than the one the browser signed in from (and the provider
// refuses it). Hand Auth.js a plain Request on the host the browser used (proxies: X-Forwarded-Host).
const onBrowserHost =
  (handler: (req: NextRequest) => Promise<Response>) =>
  (req: NextRequest): Promise<Response> => {
    const host = req.headers.get("x-forwarded-host") ?? req.headers.get("host");
    if (!host) return handler(req);
    const url = new URL(req.nextUrl.pathname + req.nextUrl.search, `${req.nextUrl.protocol}//${host}`);
    const body = req.method === "GET" || req.method === "HEAD" ? undefined : req.body;
    const plain = new Request(url, { method: req.method, headers: req.headers, body, duplex: "half" } as RequestInit);
    return handler(plain as NextRequest);
  };

export const GET = onBrowserHost(handlers.GET);
export const POST = onBrowserHost(handlers.POST);
