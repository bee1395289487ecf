// What the guide asks, with no imports: the guide's form in the browser reads these lists through
// `@cnibench/analysis/guide-questions` without pulling in the rest of the package.
export const connectionPatterns = ["keepalive", "short", "mixed"] as const;
export type ConnectionPattern = (typeof connectionPatterns)[number];

export const guideNeeds = [
  "l7Policy",
  "fqdnPolicy",
  "flowObservability",
  "udpHeavy",
  "latencySensitive",
  "encryptionInTransit",
  "podIpRoutable",
  "podIpScarcity",
] as const;
export type GuideNeed = (typeof guideNeeds)[number];

export const guideNeedLabels: Record<GuideNeed, string> = {
  l7Policy: "L7 (HTTP) policy",
  fqdnPolicy: "FQDN egress policy",
  flowObservability: "Flow observability",
  udpHeavy: "UDP-heavy traffic",
  latencySensitive: "Latency-sensitive",
  encryptionInTransit: "Encryption in transit",
  podIpRoutable: "Pod IPs routable in the VPC",
  podIpScarcity: "Pod IP scarcity",
};

export type GuideAnswers = {
  /** A provider slug (tke, eks, aks, gke, …); null for any cloud. */
  cloud: string | null;
  /** An instance type; null for any. */
  sku: string | null;
  /** Expected number of Services in the cluster. */
  services: number;
  connections: ConnectionPattern;
  needs: readonly GuideNeed[];
};
