/**
 * kube-proxy's nftables mode, as `nft -f` input (pure). Mirrors kubernetes/pkg/proxy/nftables/proxier.go
 * (setupNFTables, syncProxyRules, writeServiceToEndpointRules) and the `baseRules` and
 * TestOverallNFTablesRules dumps of its proxier_test.go:
 *
 * - one table, `ip kube-proxy`, with the base chains hooked at prerouting/output (nat, priority -100),
 *   postrouting (nat, 100), the pre-DNAT filter chains (-110) and the filter input/forward/output chains;
 * - a verdict map `service-ips` keyed by `ipv4_addr . inet_proto . inet_service`: the `services` chain
 *   does ONE lookup (`ip daddr . meta l4proto . th dport vmap @service-ips`), whatever the Service count;
 * - per Service port a chain `service-<hash8>-<ns>/<svc>/tcp/<port>` (masquerade mark for off-cluster
 *   sources, then `numgen random mod <n> vmap { … goto endpoint-… }`), and per endpoint a chain
 *   `endpoint-<hash8>-<ns>/<svc>/tcp/<port>__<ip>/<port>` with the hairpin mark and the `dnat to`;
 * - `<hash8>` is the first 8 base32 characters of SHA-256 of the rest of the name (hashAndTruncate).
 */
import {
  CLIENT_IP,
  type Endpoint,
  POD_CIDR,
  SERVICE_CIDR,
  type ServicePort,
  servicePorts,
  sha256Base32,
} from "./plan.ts";

const TABLE = "ip kube-proxy";

function hashAndTruncate(name: string): string {
  return `${sha256Base32(name).slice(0, 8)}-${name}`;
}

export function serviceChainName(sp: ServicePort): string {
  return `service-${hashAndTruncate(`${sp.namespace}/${sp.name}/${sp.protocol}/${sp.portName}`)}`;
}

export function endpointChainName(sp: ServicePort, ep: Endpoint): string {
  return `endpoint-${hashAndTruncate(`${sp.namespace}/${sp.name}/${sp.protocol}/${sp.portName}__${ep.ip}/${ep.port}`)}`;
}

/** The table and base chains kube-proxy creates on its first sync (baseRules of proxier_test.go). */
function baseRules(options: { clusterCIDR: string; serviceCIDR: string; nodeIP: string }): string[] {
  const t = TABLE;
  return [
    `add table ${t} { comment "rules for kube-proxy" ; }`,
    `add set ${t} cluster-ips { type ipv4_addr ; comment "Active ClusterIPs" ; }`,
    `add set ${t} nodeport-ips { type ipv4_addr ; comment "IPs that accept NodePort traffic" ; }`,
    `add map ${t} firewall-ips { type ipv4_addr . inet_proto . inet_service : verdict ; comment "destinations that are subject to LoadBalancerSourceRanges" ; }`,
    `add map ${t} no-endpoint-nodeports { type inet_proto . inet_service : verdict ; comment "vmap to drop or reject packets to service nodeports with no endpoints" ; }`,
    `add map ${t} no-endpoint-services { type ipv4_addr . inet_proto . inet_service : verdict ; comment "vmap to drop or reject packets to services with no endpoints" ; }`,
    `add map ${t} service-ips { type ipv4_addr . inet_proto . inet_service : verdict ; comment "ClusterIP, ExternalIP and LoadBalancer IP traffic" ; }`,
    `add map ${t} service-nodeports { type inet_proto . inet_service : verdict ; comment "NodePort traffic" ; }`,
    `add chain ${t} cluster-ips-check`,
    `add chain ${t} filter-prerouting-pre-dnat { type filter hook prerouting priority -110 ; }`,
    `add chain ${t} filter-output-pre-dnat { type filter hook output priority -110 ; }`,
    `add chain ${t} filter-forward { type filter hook forward priority 0 ; }`,
    `add chain ${t} filter-input { type filter hook input priority 0 ; }`,
    `add chain ${t} filter-output { type filter hook output priority 0 ; }`,
    `add chain ${t} firewall-check`,
    `add chain ${t} mark-for-masquerade`,
    `add chain ${t} masquerading`,
    `add chain ${t} nat-output { type nat hook output priority -100 ; }`,
    `add chain ${t} nat-postrouting { type nat hook postrouting priority 100 ; }`,
    `add chain ${t} nat-prerouting { type nat hook prerouting priority -100 ; }`,
    `add chain ${t} nodeport-endpoints-check`,
    `add chain ${t} reject-chain { comment "helper for @no-endpoint-services / @no-endpoint-nodeports" ; }`,
    `add chain ${t} services`,
    `add chain ${t} service-endpoints-check`,
    `add rule ${t} cluster-ips-check ip daddr @cluster-ips reject comment "Reject traffic to invalid ports of ClusterIPs"`,
    `add rule ${t} cluster-ips-check ip daddr { ${options.serviceCIDR} } drop comment "Drop traffic to unallocated ClusterIPs"`,
    `add rule ${t} filter-prerouting-pre-dnat ct state new jump firewall-check`,
    `add rule ${t} filter-forward ct state new jump service-endpoints-check`,
    `add rule ${t} filter-forward ct state new jump cluster-ips-check`,
    `add rule ${t} filter-input ct state new jump nodeport-endpoints-check`,
    `add rule ${t} filter-input ct state new jump service-endpoints-check`,
    `add rule ${t} filter-output ct state new jump service-endpoints-check`,
    `add rule ${t} filter-output-pre-dnat ct state new jump firewall-check`,
    `add rule ${t} filter-output ct state new jump cluster-ips-check`,
    `add rule ${t} firewall-check ip daddr . meta l4proto . th dport vmap @firewall-ips`,
    `add rule ${t} mark-for-masquerade mark set mark or 0x4000`,
    `add rule ${t} masquerading mark and 0x4000 == 0 return`,
    `add rule ${t} masquerading mark set mark xor 0x4000`,
    `add rule ${t} masquerading masquerade fully-random`,
    `add rule ${t} nat-output jump services`,
    `add rule ${t} nat-postrouting jump masquerading`,
    `add rule ${t} nat-prerouting jump services`,
    `add rule ${t} nodeport-endpoints-check ip daddr @nodeport-ips meta l4proto . th dport vmap @no-endpoint-nodeports`,
    `add rule ${t} reject-chain reject`,
    `add rule ${t} services ip daddr . meta l4proto . th dport vmap @service-ips`,
    `add rule ${t} services ip daddr @nodeport-ips meta l4proto . th dport vmap @service-nodeports`,
    `add element ${t} nodeport-ips { ${options.nodeIP} }`,
    `add rule ${t} service-endpoints-check ip daddr . meta l4proto . th dport vmap @no-endpoint-services`,
  ];
}

export type NftablesRules = {
  /** The `nft -f` input. */
  text: string;
  /** Elements of the service-ips verdict map: one per Service port. */
  serviceIpsElements: number;
  /** Chains created: base chains plus one per Service port and one per endpoint. */
  chains: number;
};

export function nftablesRules(
  services: number,
  options: { clusterCIDR?: string; serviceCIDR?: string; nodeIP?: string } = {},
): NftablesRules {
  return nftablesRulesFor(servicePorts(services), options);
}

export function nftablesRulesFor(
  ports: ServicePort[],
  options: { clusterCIDR?: string; serviceCIDR?: string; nodeIP?: string } = {},
): NftablesRules {
  const clusterCIDR = options.clusterCIDR ?? POD_CIDR;
  const lines = baseRules({
    clusterCIDR,
    serviceCIDR: options.serviceCIDR ?? SERVICE_CIDR,
    nodeIP: options.nodeIP ?? CLIENT_IP,
  });
  const t = TABLE;
  let chains = lines.filter((l) => l.startsWith("add chain ")).length;
  const clusterIPs = new Set<string>();
  for (const sp of ports) {
    const svcChain = serviceChainName(sp);
    lines.push(`# ${sp.namespace}/${sp.name}:${sp.portName}`);
    // As kube-proxy's transaction does: the endpoint chains exist before the service chain's vmap names them.
    for (const ep of sp.endpoints) {
      lines.push(`add chain ${t} ${endpointChainName(sp, ep)}`);
      chains++;
    }
    lines.push(`add chain ${t} ${svcChain}`);
    lines.push(
      `add rule ${t} ${svcChain} ip daddr ${sp.clusterIP} ip saddr != ${clusterCIDR} jump mark-for-masquerade`,
    );
    const vmap = sp.endpoints.map((ep, i) => `${i} : goto ${endpointChainName(sp, ep)}`).join(" , ");
    lines.push(`add rule ${t} ${svcChain} numgen random mod ${sp.endpoints.length} vmap { ${vmap} }`);
    chains++;
    for (const ep of sp.endpoints) {
      const epChain = endpointChainName(sp, ep);
      lines.push(`add rule ${t} ${epChain} ip saddr ${ep.ip} jump mark-for-masquerade`);
      lines.push(`add rule ${t} ${epChain} meta l4proto ${sp.protocol} dnat to ${ep.ip}:${ep.port}`);
    }
    if (!clusterIPs.has(sp.clusterIP)) {
      clusterIPs.add(sp.clusterIP);
      lines.push(`add element ${t} cluster-ips { ${sp.clusterIP} }`);
    }
    lines.push(`add element ${t} service-ips { ${sp.clusterIP} . ${sp.protocol} . ${sp.port} : goto ${svcChain} }`);
  }
  return { text: `${lines.join("\n")}\n`, serviceIpsElements: ports.length, chains };
}
