// Where alerts may go (issue 41): by default only public unicast addresses. Loopback, unspecified
// (0.0.0.0), link-local (169.254.169.254, the cloud metadata service), private, shared (100.64/10),
// unique-local (fd00::/8) and every other special range are refused, as are names that mean the machine
// itself or a metadata service. The operator lets internal receivers in with an allow-list of CIDR
// ranges (CNIBENCH_WEBHOOK_ALLOW); even then the installation's own ports stay refused.
//
// Why hand-written around ipaddr.js rather than request-filtering-agent: that library filters a
// node:http Agent, and its allow-list takes single addresses, not the ranges operators write; the rule
// itself is a dozen lines on ipaddr.js, whose `process()` already reads every address form (decimal
// 2130706433 and hex 0x7f000001 arrive as 127.0.0.1 through the WHATWG URL parser, IPv4-mapped IPv6
// as its IPv4) and whose `range()` names the special ranges of the IANA registries.
import { lookup as dnsLookup } from "node:dns";
import type { LookupFunction } from "node:net";
import { type AllowList, parseAllowList } from "@cnibench/settings/allow-list";
import ipaddr from "ipaddr.js";

/** What the delivery log says of every refused target, whatever the reason: no port scanning by log. */
export const refusedTargetWords = "refused: not a public address (see CNIBENCH_WEBHOOK_ALLOW)";

export class RefusedTargetError extends Error {
  readonly code = "ECNIBENCHREFUSED";
  constructor() {
    super(refusedTargetWords);
  }
}

export type TargetPolicy = {
  /** CIDR ranges internal receivers may be in (CNIBENCH_WEBHOOK_ALLOW). */
  allow: AllowList;
  /** Ports of the installation itself (its API and web app), refused on any allowed internal address. */
  ownPorts: readonly number[];
};

/** Names that are the machine itself or a cloud's metadata service, whatever DNS says of them. */
const refusedNames = [/^localhost$/, /\.localhost$/, /^metadata\.google\.internal$/, /^metadata$/, /^instance-data$/];

/** Whether a resolved address may be posted to on `port`. */
export function addressAllowed(policy: TargetPolicy, address: string, port: number): boolean {
  if (!ipaddr.isValid(address)) return false;
  const parsed = ipaddr.process(address);
  const allowed = policy.allow.some(([range, bits]) => range.kind() === parsed.kind() && parsed.match(range, bits));
  if (allowed) return !policy.ownPorts.includes(port);
  return parsed.range() === "unicast";
}

/** A URL's host without IPv6 brackets, lower case. */
const hostOf = (url: URL) => url.hostname.replace(/^\[|\]$/g, "").toLowerCase();
export const portOf = (url: URL) => Number(url.port || (url.protocol === "https:" ? 443 : 80));

/**
 * What can be said of a URL without DNS: refused when its host is an address literal that is not
 * allowed, or a name of the machine itself or of a metadata service. A name's addresses are checked
 * when it is resolved, on every connection (targetLookup).
 */
export function urlAllowed(policy: TargetPolicy, url: URL): boolean {
  const host = hostOf(url);
  if (ipaddr.isValid(host)) return addressAllowed(policy, host, portOf(url));
  return !refusedNames.some((name) => name.test(host.replace(/\.$/, "")));
}

/**
 * A `lookup` for node:http's request (net.connect calls it on every connection): resolves as usual,
 * then refuses the name when any of its addresses is not allowed, so a name that answers a public
 * address at creation and 127.0.0.1 at delivery (DNS rebinding) is refused at delivery.
 */
export function targetLookup(policy: TargetPolicy, port: number): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, []);
      if (addresses.length === 0 || addresses.some((a) => !addressAllowed(policy, a.address, port))) {
        return callback(new RefusedTargetError(), []);
      }
      if (options.all) return callback(null, addresses);
      callback(null, addresses[0]!.address, addresses[0]!.family);
    });
  };
}

/** The operator's policy from the settings every process shares (@cnibench/settings). */
export function webhookPolicy(env: {
  CNIBENCH_WEBHOOK_ALLOW: string;
  CNIBENCH_API_PORT: number;
  CNIBENCH_WEB_PORT: number;
}): TargetPolicy {
  return {
    allow: parseAllowList(env.CNIBENCH_WEBHOOK_ALLOW),
    ownPorts: [env.CNIBENCH_API_PORT, env.CNIBENCH_WEB_PORT],
  };
}
