// The charts page's History view shaped: which chosen scenarios it draws (at most historyView's
// maxScenarios, each once) and one chart per testbed, since scenarios.history follows a series across
// every scenario of its testbed: two chosen scenarios of one testbed have the same history.
import { historyView } from "./chart-views";

/** The chosen scenarios to draw, in the address' order without repeats, and how many more were chosen. */
export function historyScenarios(
  chosen: readonly string[] | null | undefined,
  max: number = historyView.maxScenarios,
): { ids: string[]; more: number } {
  const unique = [...new Set(chosen ?? [])].filter((id) => id.length > 0);
  return { ids: unique.slice(0, max), more: Math.max(0, unique.length - max) };
}

type TestbedView = { testbed: { key: string; workspaceId: string; scenarios: readonly { id: string }[] } };

/**
 * The answers grouped by testbed, in the order their first chosen scenario was chosen: each testbed's
 * view once, with the chosen scenarios it stands for. A null view (no such scenario, or not readable)
 * is listed in `missing`.
 */
export function historyByTestbed<V extends TestbedView>(
  answers: readonly { scenarioId: string; view: V | null }[],
): { testbeds: { scenarioIds: string[]; view: V }[]; missing: string[] } {
  const testbeds = new Map<string, { scenarioIds: string[]; view: V }>();
  const missing: string[] = [];
  for (const { scenarioId, view } of answers) {
    if (!view) {
      missing.push(scenarioId);
      continue;
    }
    // A testbed is (workspace, key); JSON keeps the pair unambiguous whatever the key holds.
    const id = JSON.stringify([view.testbed.workspaceId, view.testbed.key]);
    const known = testbeds.get(id);
    if (known) known.scenarioIds.push(scenarioId);
    else testbeds.set(id, { scenarioIds: [scenarioId], view });
  }
  return { testbeds: [...testbeds.values()], missing };
}
