/**
 * A testbed: where a scenario ran, the cloud (or lab), the instance type and its NIC. Figures of two
 * testbeds answer different questions (a 40 G bare-metal NIC against a 12.5 G cloud one), so charts
 * and pairs are read within one (issue 40). Scenarios from the database fit the shape.
 */
export type TestbedFields = { provider: string; sku: string; nicGbps: number | null };

/** The testbed's identity: equal keys, one testbed. */
export const testbedKey = (s: TestbedFields): string => `${s.provider}\u0000${s.sku}\u0000${s.nicGbps ?? ""}`;

/** "on-prem · bare-metal-40g · NIC 40 Gbit/s": the testbed as a scope's button says it. */
export const testbedLabel = (s: TestbedFields): string =>
  [s.provider, s.sku, ...(s.nicGbps === null ? [] : [`NIC ${s.nicGbps} Gbit/s`])].join(" · ");
