/**
 * The address a request came from, out of X-Forwarded-For. Next.js sets that header to the socket's
 * address when the client sent none, and keeps a client's own header as it is; each proxy in front
 * appends the address it saw (the outermost one the client's, the next one the outermost's…). So with
 * `trustedProxies` proxies in front, the entry that many places from the end is the client's, as the
 * outermost trusted proxy saw it. With none in front, the last entry is the socket's unless the client
 * sent its own header: then it chooses its address, and the per-user budget still holds (README, Security).
 */
export function clientAddress(forwardedFor: string | null, trustedProxies: number): string {
  const hops = (forwardedFor ?? "")
    .split(",")
    .map((h) => h.trim())
    .filter(Boolean);
  return hops[Math.max(0, hops.length - Math.max(1, trustedProxies))] ?? "unknown";
}
