/**
 * kube-proxy's iptables mode, as `iptables-restore --noflush` input (pure). Mirrors
 * kubernetes/pkg/proxy/iptables/proxier.go (syncProxyRules, writeServiceToEndpointRules) and the
 * expected dumps of its proxier_test.go (TestOverallIPTablesRules):
 *
 * - nat KUBE-SERVICES holds one rule per Service port (`-m comment --comment "<ns/svc:port> cluster IP"
 *   -m tcp -p tcp -d <ClusterIP> --dport <port> -j KUBE-SVC-<hash>`) and ends with the KUBE-NODEPORTS
 *   rule: a new connection walks it linearly;
 * - KUBE-SVC-<hash> marks off-cluster sources for masquerade and jumps to one KUBE-SEP-<hash> per
 *   endpoint (statistic --probability for all but the last);
 * - KUBE-SEP-<hash> marks hairpin traffic and DNATs to the endpoint;
 * - chain names: "KUBE-SVC-"/"KUBE-SEP-" + the first 16 base32 characters of SHA-256 of
 *   "<ns/svc:port>tcp" (and the endpoint "ip:port" for SEP);
 * - above 1,000 endpoints kube-proxy drops the per-endpoint `-m comment` ("large cluster mode"), as here;
 * - the jumps from the built-in chains (nat PREROUTING/OUTPUT → KUBE-SERVICES, POSTROUTING →
 *   KUBE-POSTROUTING, filter INPUT/FORWARD/OUTPUT) are what kube-proxy ensures with `iptables -I`
 *   before each restore; here they are appended in the same input, into a freshly flushed namespace.
 */
import {
  type Endpoint,
  endpointString,
  POD_CIDR,
  type ServicePort,
  servicePortName,
  servicePorts,
  sha256Base32,
} from "./plan.ts";

/** kube-proxy's largeClusterEndpointsThreshold. */
export const LARGE_CLUSTER_ENDPOINTS = 1000;
const MASQ_MARK = "0x4000";

export function svcChainName(sp: ServicePort): string {
  return `KUBE-SVC-${sha256Base32(`${servicePortName(sp)}${sp.protocol}`).slice(0, 16)}`;
}

export function sepChainName(sp: ServicePort, ep: Endpoint): string {
  return `KUBE-SEP-${sha256Base32(`${servicePortName(sp)}${sp.protocol}${endpointString(ep)}`).slice(0, 16)}`;
}

/** iptables-restore quoting, as kube-proxy writes comments: quoted when they contain a space. */
function comment(text: string): string {
  return `-m comment --comment ${/\s/.test(text) ? `"${text}"` : text}`;
}

export type IptablesRules = {
  /** The iptables-restore input (filter and nat tables). */
  text: string;
  /** Rules in the nat table, jumps from built-in chains included. */
  natRules: number;
  /** Rules in nat KUBE-SERVICES: one per Service port, plus the KUBE-NODEPORTS rule. */
  kubeServicesRules: number;
  largeClusterMode: boolean;
};

export function iptablesRules(services: number, options: { clusterCIDR?: string } = {}): IptablesRules {
  return iptablesRulesFor(servicePorts(services), options);
}

export function iptablesRulesFor(ports: ServicePort[], options: { clusterCIDR?: string } = {}): IptablesRules {
  const clusterCIDR = options.clusterCIDR ?? POD_CIDR;
  const endpointCount = ports.reduce((n, sp) => n + sp.endpoints.length, 0);
  const largeClusterMode = endpointCount > LARGE_CLUSTER_ENDPOINTS;
  const serviceComment = (text: string) => (largeClusterMode ? [] : [comment(text)]);

  const filter = [
    "*filter",
    ":KUBE-NODEPORTS - [0:0]",
    ":KUBE-SERVICES - [0:0]",
    ":KUBE-EXTERNAL-SERVICES - [0:0]",
    ":KUBE-FIREWALL - [0:0]",
    ":KUBE-FORWARD - [0:0]",
    ":KUBE-PROXY-FIREWALL - [0:0]",
    `-A KUBE-FIREWALL ${comment("block incoming localnet connections")} -d 127.0.0.0/8 ! -s 127.0.0.0/8 -m conntrack ! --ctstate RELATED,ESTABLISHED,DNAT -j DROP`,
    "-A KUBE-FORWARD -m conntrack --ctstate INVALID -j DROP",
    `-A KUBE-FORWARD ${comment("kubernetes forwarding rules")} -m mark --mark ${MASQ_MARK}/${MASQ_MARK} -j ACCEPT`,
    `-A KUBE-FORWARD ${comment("kubernetes forwarding conntrack rule")} -m conntrack --ctstate RELATED,ESTABLISHED -j ACCEPT`,
    // kube-proxy's iptablesJumpChains (filter), then the KUBE-FIREWALL jumps.
    `-A INPUT -m conntrack --ctstate NEW ${comment("kubernetes load balancer firewall")} -j KUBE-PROXY-FIREWALL`,
    `-A INPUT ${comment("kubernetes health check service ports")} -j KUBE-NODEPORTS`,
    `-A INPUT -m conntrack --ctstate NEW ${comment("kubernetes externally-visible service portals")} -j KUBE-EXTERNAL-SERVICES`,
    `-A FORWARD -m conntrack --ctstate NEW ${comment("kubernetes load balancer firewall")} -j KUBE-PROXY-FIREWALL`,
    `-A FORWARD ${comment("kubernetes forwarding rules")} -j KUBE-FORWARD`,
    `-A FORWARD -m conntrack --ctstate NEW ${comment("kubernetes service portals")} -j KUBE-SERVICES`,
    `-A FORWARD -m conntrack --ctstate NEW ${comment("kubernetes externally-visible service portals")} -j KUBE-EXTERNAL-SERVICES`,
    `-A OUTPUT -m conntrack --ctstate NEW ${comment("kubernetes load balancer firewall")} -j KUBE-PROXY-FIREWALL`,
    `-A OUTPUT -m conntrack --ctstate NEW ${comment("kubernetes service portals")} -j KUBE-SERVICES`,
    "-A INPUT -j KUBE-FIREWALL",
    "-A OUTPUT -j KUBE-FIREWALL",
    "COMMIT",
  ];

  const natChains = [
    "*nat",
    ":KUBE-NODEPORTS - [0:0]",
    ":KUBE-SERVICES - [0:0]",
    ":KUBE-MARK-MASQ - [0:0]",
    ":KUBE-POSTROUTING - [0:0]",
  ];
  const natRules = [
    `-A KUBE-POSTROUTING -m mark ! --mark ${MASQ_MARK}/${MASQ_MARK} -j RETURN`,
    `-A KUBE-POSTROUTING -j MARK --xor-mark ${MASQ_MARK}`,
    `-A KUBE-POSTROUTING ${comment("kubernetes service traffic requiring SNAT")} -j MASQUERADE --random-fully`,
    `-A KUBE-MARK-MASQ -j MARK --or-mark ${MASQ_MARK}`,
  ];
  let kubeServicesRules = 0;
  for (const sp of ports) {
    const name = servicePortName(sp);
    const svcChain = svcChainName(sp);
    const match = `${comment(`${name} cluster IP`)} -m tcp -p tcp -d ${sp.clusterIP} --dport ${sp.port}`;
    natChains.push(`:${svcChain} - [0:0]`);
    natRules.push(`-A KUBE-SERVICES ${match} -j ${svcChain}`);
    kubeServicesRules++;
    natRules.push(`-A ${svcChain} ${match} ! -s ${clusterCIDR} -j KUBE-MARK-MASQ`);
    sp.endpoints.forEach((ep, i) => {
      const sepChain = sepChainName(sp, ep);
      const remaining = sp.endpoints.length - i;
      const probability =
        remaining > 1 ? ` -m statistic --mode random --probability ${(1 / remaining).toFixed(10)}` : "";
      natRules.push(
        [`-A ${svcChain}`, ...serviceComment(`${name} -> ${endpointString(ep)}`)].join(" ") +
          `${probability} -j ${sepChain}`,
      );
    });
    for (const ep of sp.endpoints) {
      const sepChain = sepChainName(sp, ep);
      natChains.push(`:${sepChain} - [0:0]`);
      const head = [`-A ${sepChain}`, ...serviceComment(name)].join(" ");
      natRules.push(`${head} -s ${ep.ip} -j KUBE-MARK-MASQ`);
      natRules.push(`${head} -m tcp -p tcp -j DNAT --to-destination ${endpointString(ep)}`);
    }
  }
  natRules.push(
    `-A KUBE-SERVICES ${comment("kubernetes service nodeports; NOTE: this must be the last rule in this chain")} -m addrtype --dst-type LOCAL -j KUBE-NODEPORTS`,
  );
  kubeServicesRules++;
  // kube-proxy's iptablesJumpChains (nat).
  natRules.push(
    `-A OUTPUT ${comment("kubernetes service portals")} -j KUBE-SERVICES`,
    `-A PREROUTING ${comment("kubernetes service portals")} -j KUBE-SERVICES`,
    `-A POSTROUTING ${comment("kubernetes postrouting rules")} -j KUBE-POSTROUTING`,
  );
  const text = `${[...filter, ...natChains, ...natRules, "COMMIT"].join("\n")}\n`;
  return { text, natRules: natRules.length, kubeServicesRules, largeClusterMode };
}
