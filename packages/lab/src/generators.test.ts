import { describe, expect, it } from "vitest";
import {
  endpointChainName,
  iptablesRules,
  iptablesRulesFor,
  nftablesRules,
  nftablesRulesFor,
  SERVER_IP,
  type ServicePort,
  sepChainName,
  serviceChainName,
  servicePorts,
  svcChainName,
  targetOf,
} from "./index.ts";

// kube-proxy's own test fixture: ns1/svc1 port p80 (tcp), endpoint 10.180.0.1:80. The expected names
// are copied from kubernetes/pkg/proxy/iptables/proxier_test.go (KUBE-SVC-XPGD46QRK7WJZT7O,
// KUBE-SEP-SXIVWICOYRO3J4NJ) and pkg/proxy/nftables/proxier_test.go (service-ULMVA6XW-…,
// endpoint-5OJB2KTY-…), so the hashing is kube-proxy's, not merely self-consistent.
const svc1: ServicePort = {
  namespace: "ns1",
  name: "svc1",
  portName: "p80",
  protocol: "tcp",
  clusterIP: "172.30.0.41",
  port: 80,
  endpoints: [{ ip: "10.180.0.1", port: 80 }],
};

describe("chain names are kube-proxy's", () => {
  it("iptables KUBE-SVC / KUBE-SEP", () => {
    expect(svcChainName(svc1)).toBe("KUBE-SVC-XPGD46QRK7WJZT7O");
    expect(sepChainName(svc1, svc1.endpoints[0]!)).toBe("KUBE-SEP-SXIVWICOYRO3J4NJ");
  });
  it("nftables service- / endpoint- chains", () => {
    expect(serviceChainName(svc1)).toBe("service-ULMVA6XW-ns1/svc1/tcp/p80");
    expect(endpointChainName(svc1, svc1.endpoints[0]!)).toBe("endpoint-5OJB2KTY-ns1/svc1/tcp/p80__10.180.0.1/80");
  });
});

describe("iptables mode", () => {
  it("writes kube-proxy's rules for one Service, as in TestOverallIPTablesRules", () => {
    const { text } = iptablesRulesFor([svc1], { clusterCIDR: "10.0.0.0/8" });
    const lines = text.split("\n");
    for (const expected of [
      '-A KUBE-SERVICES -m comment --comment "ns1/svc1:p80 cluster IP" -m tcp -p tcp -d 172.30.0.41 --dport 80 -j KUBE-SVC-XPGD46QRK7WJZT7O',
      '-A KUBE-SVC-XPGD46QRK7WJZT7O -m comment --comment "ns1/svc1:p80 cluster IP" -m tcp -p tcp -d 172.30.0.41 --dport 80 ! -s 10.0.0.0/8 -j KUBE-MARK-MASQ',
      '-A KUBE-SVC-XPGD46QRK7WJZT7O -m comment --comment "ns1/svc1:p80 -> 10.180.0.1:80" -j KUBE-SEP-SXIVWICOYRO3J4NJ',
      "-A KUBE-SEP-SXIVWICOYRO3J4NJ -m comment --comment ns1/svc1:p80 -s 10.180.0.1 -j KUBE-MARK-MASQ",
      "-A KUBE-SEP-SXIVWICOYRO3J4NJ -m comment --comment ns1/svc1:p80 -m tcp -p tcp -j DNAT --to-destination 10.180.0.1:80",
      '-A KUBE-SERVICES -m comment --comment "kubernetes service nodeports; NOTE: this must be the last rule in this chain" -m addrtype --dst-type LOCAL -j KUBE-NODEPORTS',
      "-A KUBE-MARK-MASQ -j MARK --or-mark 0x4000",
      "-A KUBE-POSTROUTING -m mark ! --mark 0x4000/0x4000 -j RETURN",
      '-A OUTPUT -m comment --comment "kubernetes service portals" -j KUBE-SERVICES',
      '-A PREROUTING -m comment --comment "kubernetes service portals" -j KUBE-SERVICES',
      ":KUBE-SVC-XPGD46QRK7WJZT7O - [0:0]",
      ":KUBE-SEP-SXIVWICOYRO3J4NJ - [0:0]",
    ]) {
      expect(lines).toContain(expected);
    }
    // Two tables, each committed; chains are declared before any rule of their table.
    expect(lines.filter((l) => l === "COMMIT")).toHaveLength(2);
    const nat = lines.slice(lines.indexOf("*nat"));
    const lastDeclaration = nat.findLastIndex((l) => l.startsWith(":"));
    const firstRule = nat.findIndex((l) => l.startsWith("-A"));
    expect(lastDeclaration).toBeLessThan(firstRule);
  });

  it("scales linearly: one KUBE-SERVICES rule per Service port, the target's last", () => {
    const n = 1500;
    const rules = iptablesRules(n);
    // n http ports + the target's iperf port + the KUBE-NODEPORTS rule.
    expect(rules.kubeServicesRules).toBe(n + 2);
    const lines = rules.text.split("\n");
    const services = lines.filter((l) => l.startsWith("-A KUBE-SERVICES "));
    expect(services).toHaveLength(n + 2);
    expect(lines.filter((l) => l.startsWith(":KUBE-SVC-"))).toHaveLength(n + 1);
    expect(lines.filter((l) => l.startsWith(":KUBE-SEP-"))).toHaveLength(n + 1);
    expect(lines.filter((l) => l.includes("-j DNAT"))).toHaveLength(n + 1);
    // The last Service rule before KUBE-NODEPORTS is the target's http port, on the target's ClusterIP.
    const target = targetOf(n).http;
    expect(services.at(-2)).toContain(`-d ${target.ip} --dport ${target.port} -j `);
    const targetChain = svcChainName(servicePorts(n).at(-1)!);
    expect(services.at(-2)).toContain(`-j ${targetChain}`);
    const sep = lines.find((l) => l.startsWith(`-A ${targetChain} `) && l.includes("-j KUBE-SEP-"))!.split(" -j ")[1];
    expect(lines).toContain(`-A ${sep} -m tcp -p tcp -j DNAT --to-destination ${SERVER_IP}:8080`);
    // Above 1000 endpoints kube-proxy drops the per-endpoint comments but keeps the KUBE-SERVICES ones.
    expect(rules.largeClusterMode).toBe(true);
    expect(lines.filter((l) => l.startsWith("-A KUBE-SEP-") && l.includes("--comment"))).toHaveLength(0);
    expect(services.every((l) => l.includes("--comment"))).toBe(true);
    // nat rules: 4 fixed + per port (KUBE-SERVICES, masq, SVC→SEP, 2 SEP) + nodeports + 3 jumps.
    expect(rules.natRules).toBe(4 + 5 * (n + 1) + 1 + 3);
  });

  it("without Services writes the base chains and jumps only", () => {
    const rules = iptablesRules(0);
    expect(rules.kubeServicesRules).toBe(1);
    expect(rules.text).not.toContain("KUBE-SVC-");
    expect(rules.largeClusterMode).toBe(false);
  });
});

describe("nftables mode", () => {
  it("writes kube-proxy's chains and elements for one Service, as in TestOverallNFTablesRules", () => {
    const { text } = nftablesRulesFor([svc1], { clusterCIDR: "10.0.0.0/8", serviceCIDR: "172.30.0.0/16" });
    const lines = text.split("\n");
    for (const expected of [
      'add table ip kube-proxy { comment "rules for kube-proxy" ; }',
      'add map ip kube-proxy service-ips { type ipv4_addr . inet_proto . inet_service : verdict ; comment "ClusterIP, ExternalIP and LoadBalancer IP traffic" ; }',
      "add chain ip kube-proxy nat-output { type nat hook output priority -100 ; }",
      "add rule ip kube-proxy nat-output jump services",
      "add rule ip kube-proxy services ip daddr . meta l4proto . th dport vmap @service-ips",
      'add rule ip kube-proxy cluster-ips-check ip daddr { 172.30.0.0/16 } drop comment "Drop traffic to unallocated ClusterIPs"',
      "add chain ip kube-proxy service-ULMVA6XW-ns1/svc1/tcp/p80",
      "add rule ip kube-proxy service-ULMVA6XW-ns1/svc1/tcp/p80 ip daddr 172.30.0.41 ip saddr != 10.0.0.0/8 jump mark-for-masquerade",
      "add rule ip kube-proxy service-ULMVA6XW-ns1/svc1/tcp/p80 numgen random mod 1 vmap { 0 : goto endpoint-5OJB2KTY-ns1/svc1/tcp/p80__10.180.0.1/80 }",
      "add chain ip kube-proxy endpoint-5OJB2KTY-ns1/svc1/tcp/p80__10.180.0.1/80",
      "add rule ip kube-proxy endpoint-5OJB2KTY-ns1/svc1/tcp/p80__10.180.0.1/80 ip saddr 10.180.0.1 jump mark-for-masquerade",
      "add rule ip kube-proxy endpoint-5OJB2KTY-ns1/svc1/tcp/p80__10.180.0.1/80 meta l4proto tcp dnat to 10.180.0.1:80",
      "add element ip kube-proxy cluster-ips { 172.30.0.41 }",
      "add element ip kube-proxy service-ips { 172.30.0.41 . tcp . 80 : goto service-ULMVA6XW-ns1/svc1/tcp/p80 }",
    ]) {
      expect(lines).toContain(expected);
    }
  });

  it("scales by map elements, not by rules in the lookup path; the last element leads to the server", () => {
    const n = 1500;
    const rules = nftablesRules(n);
    const lines = rules.text.split("\n");
    expect(rules.serviceIpsElements).toBe(n + 1);
    expect(lines.filter((l) => l.startsWith("add element ip kube-proxy service-ips "))).toHaveLength(n + 1);
    expect(lines.filter((l) => l.startsWith("add element ip kube-proxy cluster-ips "))).toHaveLength(n);
    // The services chain holds the same two rules whatever n is.
    expect(lines.filter((l) => l.startsWith("add rule ip kube-proxy services "))).toHaveLength(2);
    expect(rules.chains).toBe(16 + 2 * (n + 1));
    const target = targetOf(n).http;
    const last = lines.filter((l) => l.startsWith("add element ip kube-proxy service-ips ")).at(-1)!;
    expect(last).toContain(`{ ${target.ip} . tcp . ${target.port} : goto service-`);
    const chain = last.split("goto ")[1]!.replace(" }", "");
    const endpointChain = lines
      .find((l) => l.startsWith(`add rule ip kube-proxy ${chain} numgen`))!
      .split("goto ")[1]!
      .replace(" }", "");
    expect(lines).toContain(`add rule ip kube-proxy ${endpointChain} meta l4proto tcp dnat to ${SERVER_IP}:8080`);
  });

  it("writes kube-proxy's cold-start transaction: one anonymous vmap and one add element per Service port", () => {
    // What makes `nft -f` superlinear (docs/lab.md): the kernel's cost of each anonymous set grows with
    // the sets already in the table, and kube-proxy's first sync creates one per Service port
    // (`numgen random mod <endpoints> vmap { … }`, writeServiceToEndpointRules), even with one endpoint.
    // knftables writes each map element as its own `add element` line; batching them changes nothing.
    const n = 1500;
    const lines = nftablesRules(n).text.split("\n");
    const anonymous = lines.filter((l) => / numgen random mod \d+ vmap \{ /.test(l));
    expect(anonymous).toHaveLength(n + 1);
    expect(anonymous.every((l) => l.includes(" mod 1 vmap { 0 : goto endpoint-"))).toBe(true);
    const elements = lines.filter((l) => l.startsWith("add element ip kube-proxy service-ips "));
    expect(elements.every((l) => l.split(" : goto ").length === 2)).toBe(true);
    // Loaded into an empty namespace: none of the flushes kube-proxy writes for chains that may exist.
    expect(lines.some((l) => /^(flush|delete) /.test(l))).toBe(false);
  });

  it("without Services writes the table, maps and base chains only", () => {
    const rules = nftablesRules(0);
    expect(rules.serviceIpsElements).toBe(0);
    expect(rules.text).not.toContain("add element ip kube-proxy service-ips");
  });
});

describe("the address plan", () => {
  it("stays inside 198.18.0.0/15 and refuses counts it cannot address", () => {
    const ports = servicePorts(32_000);
    expect(ports.every((p) => /^198\.1[89]\./.test(p.clusterIP))).toBe(true);
    expect(ports.every((p) => p.endpoints.every((e) => /^198\.18\./.test(e.ip)))).toBe(true);
    expect(new Set(ports.map((p) => `${p.clusterIP}:${p.port}`)).size).toBe(ports.length);
    expect(() => servicePorts(40_000)).toThrow(RangeError);
    expect(targetOf(0).http).toEqual({ ip: SERVER_IP, port: 8080 });
  });
});
