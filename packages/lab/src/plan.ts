/**
 * The lab's address plan and Service set (pure). Every address comes from 198.18.0.0/15, the range
 * RFC 2544 reserves for network benchmarking, so nothing the lab builds can be mistaken for (or route
 * to) a real network:
 *
 * - 198.18.0.0/16 is the "pod" range (kube-proxy's cluster CIDR): the client namespace is 198.18.0.1,
 *   the server namespace 198.18.0.2, and the other Services' endpoints 198.18.128.0/17 (never reached);
 * - 198.19.0.0/16 is the Service range: Service i has ClusterIP 198.19.0.0 + i + 1.
 *
 * The last Service is the target: its endpoints are the server (HTTP on 8080, iperf3 on 5201), and its
 * rules come last, so each new connection to it walks the whole iptables KUBE-SERVICES chain (the
 * worst case; kube-proxy's own order is that of a Go map, so on average half of it).
 */
import { createHash } from "node:crypto";

export const CLIENT_IP = "198.18.0.1";
export const SERVER_IP = "198.18.0.2";
export const POD_CIDR = "198.18.0.0/16";
export const SERVICE_CIDR = "198.19.0.0/16";
export const HTTP_PORT = 8080;
export const IPERF_PORT = 5201;
/** The Service port the target's HTTP is published on. */
export const SERVICE_HTTP_PORT = 80;
/** 198.19.0.0/16 holds 65,534 ClusterIPs; 198.18.128.0/17 32,766 endpoints. */
export const MAX_SERVICES = 32_000;

export type Endpoint = { ip: string; port: number };

/** One Service port as kube-proxy sees it (a ServicePortName and its endpoints). */
export type ServicePort = {
  namespace: string;
  name: string;
  portName: string;
  protocol: "tcp";
  clusterIP: string;
  port: number;
  endpoints: Endpoint[];
};

function ipAt(base: readonly [number, number, number, number], offset: number): string {
  const value = ((base[0] << 24) | (base[1] << 16) | (base[2] << 8) | base[3]) + offset;
  return [(value >>> 24) & 255, (value >>> 16) & 255, (value >>> 8) & 255, value & 255].join(".");
}

export function serviceIP(index: number): string {
  return ipAt([198, 19, 0, 0], index + 1);
}

function podIP(index: number): string {
  return ipAt([198, 18, 128, 0], index + 1);
}

/**
 * The Service ports of N Services: `lab/svc-<i>` port `http` 80 → endpoint :8080, each with one endpoint.
 * The last Service also has port `iperf` 5201 (iperf3's control and data connections), written just
 * before its `http` port so that the HTTP target is the very last rule. N = 0 gives none.
 */
export function servicePorts(count: number): ServicePort[] {
  if (!Number.isInteger(count) || count < 0 || count > MAX_SERVICES) {
    throw new RangeError(`the Service count must be a whole number from 0 to ${MAX_SERVICES}, not ${count}`);
  }
  const ports: ServicePort[] = [];
  for (let i = 0; i < count; i++) {
    const last = i === count - 1;
    const base = { namespace: "lab", name: `svc-${i}`, protocol: "tcp" as const, clusterIP: serviceIP(i) };
    if (last) {
      ports.push({ ...base, portName: "iperf", port: IPERF_PORT, endpoints: [{ ip: SERVER_IP, port: IPERF_PORT }] });
    }
    ports.push({
      ...base,
      portName: "http",
      port: SERVICE_HTTP_PORT,
      endpoints: [{ ip: last ? SERVER_IP : podIP(i), port: HTTP_PORT }],
    });
  }
  return ports;
}

/** Where the load goes for N Services: the last Service's ClusterIP, or the server itself without Services. */
export function targetOf(count: number): { http: Endpoint; iperf: Endpoint } {
  if (count === 0) return { http: { ip: SERVER_IP, port: HTTP_PORT }, iperf: { ip: SERVER_IP, port: IPERF_PORT } };
  const ip = serviceIP(count - 1);
  return { http: { ip, port: SERVICE_HTTP_PORT }, iperf: { ip, port: IPERF_PORT } };
}

/** base32 (RFC 4648, Go's base32.StdEncoding) of a SHA-256: kube-proxy's chain-name hash. */
export function sha256Base32(text: string): string {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
  const bytes = createHash("sha256").update(text).digest();
  let bits = 0;
  let value = 0;
  let out = "";
  for (const byte of bytes) {
    value = ((value << 8) | byte) & 0xffff;
    bits += 8;
    while (bits >= 5) {
      out += alphabet[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += alphabet[(value << (5 - bits)) & 31];
  return out;
}

/** "ns/name:port", kube-proxy's ServicePortName.String(). */
export function servicePortName(sp: ServicePort): string {
  return `${sp.namespace}/${sp.name}:${sp.portName}`;
}

export function endpointString(ep: Endpoint): string {
  return `${ep.ip}:${ep.port}`;
}
