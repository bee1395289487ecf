// CNIBENCH_WEBHOOK_ALLOW's value read into ranges: here, not beside the webhook rules in packages/db
// (webhook-targets.ts, which takes these ranges), so that checking the settings loads no database code.
import ipaddr from "ipaddr.js";

/** CIDR ranges as ipaddr.js reads them: an address and its prefix length. */
export type AllowList = readonly [ipaddr.IPv4 | ipaddr.IPv6, number][];

/** The allow-list setting: CIDR ranges or single addresses, separated by commas or spaces. */
export function parseAllowList(text: string | undefined): AllowList {
  if (!text?.trim()) return [];
  return text
    .split(/[\s,]+/)
    .filter(Boolean)
    .map((entry) => {
      if (ipaddr.isValidCIDR(entry)) return ipaddr.parseCIDR(entry);
      if (ipaddr.isValid(entry)) {
        const address = ipaddr.process(entry);
        return [address, address.kind() === "ipv4" ? 32 : 128] as [ipaddr.IPv4 | ipaddr.IPv6, number];
      }
      throw new Error(`"${entry}" is not an address or a CIDR range`);
    });
}
