import { eksVpcCni, tkeCiliumOverlay } from "@cnibench/test-support/seed-bundles";
import { describe, expect, it } from "vitest";
import type { BundleInput } from "./bundle.ts";
import { parseBundle } from "./normalise.ts";

/** Parses a bundle (normalise calls lineRateWarnings) and keeps the line-rate warnings. */
function lineRate(bundle: BundleInput) {
  const parsed = parseBundle(bundle);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
  return parsed.warnings.filter((w) => w.message.includes("NIC line rate"));
}

/** EKS scenario A (m6i.xlarge, node.nicGbps 12.5) with its first result replaced. */
function eksWith(result: BundleInput["results"][number]): BundleInput {
  const bundle = eksVpcCni();
  bundle.results[0] = result;
  return bundle;
}

describe("throughput above the NIC line rate", () => {
  it("says nothing of EKS's published figures: 12.41 and 10 Gbit/s on a 12.5 Gbit/s NIC", () => {
    expect(lineRate(eksVpcCni())).toEqual([]);
  });

  it("warns at the result with both values in Gbit/s: 4 Tbit/s on a 40 Gbit/s NIC (issue 23)", () => {
    const bundle = eksVpcCni();
    bundle.node.nicGbps = 40;
    bundle.results[1] = { metric: "udp.throughput", value: 4, unit: "Tbps" };
    expect(lineRate(bundle)).toEqual([
      {
        path: "results[1]",
        message: "udp.throughput 4,000 Gbit/s is above the NIC line rate of 40 Gbit/s (node.nicGbps)",
      },
    ]);
  });

  it("allows 2 % for rounding: 12.75 Gbit/s passes on 12.5, 12.8 does not", () => {
    expect(lineRate(eksWith({ metric: "tcp.throughput", value: 12.75, unit: "Gbps" }))).toEqual([]);
    expect(lineRate(eksWith({ metric: "tcp.throughput", value: 12.8, unit: "Gbps" })).map((w) => w.message)).toEqual([
      "tcp.throughput 12.8 Gbit/s is above the NIC line rate of 12.5 Gbit/s (node.nicGbps)",
    ]);
  });

  it("checks x. throughputs after conversion, and the largest round or bound", () => {
    // 13,100 Mbit/s is 13.1 Gbit/s.
    const sent = { metric: "x.udp.throughput.sent", value: 13_100, unit: "Mbit/s", better: "higher" } as const;
    expect(lineRate(eksWith(sent)).map((w) => w.path)).toEqual(["results[0]"]);
    // EKS's median 12.41 kept, one round of three at 19 Gbit/s.
    const rounds = { metric: "tcp.throughput", value: 12.41, unit: "Gbps", samples: [12.3, 12.41, 19] };
    expect(lineRate(eksWith(rounds)).map((w) => w.message)).toEqual([
      "tcp.throughput 19 Gbit/s is above the NIC line rate of 12.5 Gbit/s (node.nicGbps)",
    ]);
  });

  it("leaves same-node traffic, other metrics and bundles without a line rate alone", () => {
    const sameNode = { metric: "tcp.throughput", value: 40, unit: "Gbps", params: { sameNode: true } } as const;
    expect(lineRate(eksWith(sameNode))).toEqual([]);
    expect(lineRate(eksWith({ metric: "x.tcp.throughput.pps", value: 2e6, unit: "pkt/s", better: "higher" }))).toEqual(
      [],
    );
    const tke = tkeCiliumOverlay(); // node.nicGbps null: TKE does not publish it
    tke.results[0] = { metric: "tcp.throughput", value: 400, unit: "Gbps" };
    expect(lineRate(tke)).toEqual([]);
  });
});
