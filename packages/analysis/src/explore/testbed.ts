/**
 * A testbed: where a scenario ran, the cloud (or lab), the instance type and its NIC. Figures of two
 * testbeds answer different questions (a 40 G bare-metal NIC against a 12.5 G cloud one), so charts
 * and pairs are read within one (issue 40). Scenarios from the database fit the shape.
 */
export type TestbedFields = { provider: string; sku: string; nicGbps: number | null };

/** The testbed's identity, as an address carries it: "on-prem/bare-metal-40g/40"; equal keys, one testbed. */
export const testbedKey = (s: TestbedFields): string => `${s.provider}/${s.sku}/${s.nicGbps ?? "?"}`;

/** "on-prem · bare-metal-40g · NIC 40 Gbit/s": the testbed as a scope's choice says it. */
export const testbedLabel = (s: TestbedFields): string =>
  [s.provider, s.sku, ...(s.nicGbps === null ? [] : [`NIC ${s.nicGbps} Gbit/s`])].join(" · ");

export type TestbedChoice = { key: string; label: string; scenarios: number };

/** The testbeds of these scenarios, the one with the most scenarios first, then by label. */
export function testbedsOf(scenarios: readonly TestbedFields[]): TestbedChoice[] {
  const found = new Map<string, TestbedChoice>();
  for (const s of scenarios) {
    const key = testbedKey(s);
    const t = found.get(key) ?? { key, label: testbedLabel(s), scenarios: 0 };
    t.scenarios += 1;
    found.set(key, t);
  }
  return [...found.values()].sort((a, b) => b.scenarios - a.scenarios || a.label.localeCompare(b.label));
}

/** The value of a scope that mixes every testbed on purpose. */
export const allTestbeds = "all";

/**
 * The scenarios a chart draws for a testbed choice: the chosen testbed's; every one with "all"; and by
 * default (none chosen, or one no scenario is on) the testbed with the most scenarios, so a chart never
 * mixes testbeds unless asked. `chosen` is the key drawn, or "all".
 */
export function scopeToTestbed<S extends TestbedFields>(
  scenarios: readonly S[],
  testbed: string | null | undefined,
): { chosen: string; scenarios: S[]; testbeds: TestbedChoice[] } {
  const testbeds = testbedsOf(scenarios);
  if (testbed === allTestbeds || testbeds.length <= 1) {
    return {
      chosen: testbeds.length <= 1 ? (testbeds[0]?.key ?? allTestbeds) : allTestbeds,
      scenarios: [...scenarios],
      testbeds,
    };
  }
  const chosen = testbeds.some((t) => t.key === testbed) ? testbed! : testbeds[0]!.key;
  return { chosen, scenarios: scenarios.filter((s) => testbedKey(s) === chosen), testbeds };
}
