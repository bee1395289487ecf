// The guide's questions in the URL, so an answer is a permalink: cloud, instance type, Service
// count, connection pattern and needs. Shared by the server page (to ask) and the form (to change).
import { connectionPatterns, guideNeeds } from "@cnibench/analysis/guide-questions";
import {
  createLoader,
  createSerializer,
  parseAsInteger,
  parseAsNativeArrayOf,
  parseAsString,
  parseAsStringLiteral,
} from "nuqs/server";

const defaultServices = 1000;

const guideParams = {
  /** A provider slug; empty for any cloud. */
  cloud: parseAsString.withDefault(""),
  /** An instance type; empty for any. */
  sku: parseAsString.withDefault(""),
  services: parseAsInteger.withDefault(defaultServices),
  connections: parseAsStringLiteral(connectionPatterns).withDefault("keepalive"),
  need: parseAsNativeArrayOf(parseAsStringLiteral(guideNeeds)).withDefault([]),
};

export const loadGuideParams = createLoader(guideParams);
export const guideHref = createSerializer(guideParams);

export type GuideParams = Awaited<ReturnType<typeof loadGuideParams>>;

/** The procedure's input from the URL: empty means any, the count is kept in range. */
export function guideQuery(p: GuideParams) {
  return {
    cloud: p.cloud.trim() === "" ? null : p.cloud.trim().toLowerCase().slice(0, 50),
    sku: p.sku.trim() === "" ? null : p.sku.trim().slice(0, 100),
    services: Math.min(10_000_000, Math.max(0, Number.isFinite(p.services) ? p.services : defaultServices)),
    connections: p.connections,
    needs: [...new Set(p.need)],
  };
}
