/**
 * How the fuzz properties run. `npm test` replays one fixed seed, so the suite passes or fails the
 * same way on every run and CI cannot fail by the draw; `npm run fuzz` (FUZZ_SEED=random) draws a
 * new seed per property and more runs. FUZZ_SEED=<seed> FUZZ_PATH=<path>, as fast-check prints them
 * on a failure, replay exactly that counterexample.
 */

/** The seed `npm test` uses; any fixed number would do. */
export const fixedFuzzSeed = 20261125;

const runs = Number(process.env.FUZZ_RUNS ?? 40);
const seedText = process.env.FUZZ_SEED ?? String(fixedFuzzSeed);
const seed = seedText === "random" ? undefined : Number(seedText);
if (seed !== undefined && !Number.isInteger(seed))
  throw new Error(`FUZZ_SEED must be an integer or "random", got "${seedText}"`);

/** fast-check parameters for every property of a fuzz file. */
export const fuzzSettings = {
  numRuns: runs,
  ...(seed === undefined ? {} : { seed }),
  ...(process.env.FUZZ_PATH ? { path: process.env.FUZZ_PATH } : {}),
};

/** Test time-out for a property: generous for the longer `npm run fuzz`. */
export const fuzzTimeout = (floor: number, perRun: number) => Math.max(floor, runs * perRun);

/** Printed once by each fuzz file, so a failing `npm test` says what it replayed. */
export const fuzzBanner = `fuzz: ${runs} runs a property, seed ${seed ?? "drawn per property (FUZZ_SEED=random)"}${
  process.env.FUZZ_PATH ? `, path ${process.env.FUZZ_PATH}` : ""
}`;

/** Sets an own data property, even "__proto__" (plain assignment would set the prototype instead). */
export function put(holder: object, key: string | number, value: unknown): void {
  Object.defineProperty(holder, key, {
    value: structuredClone(value),
    enumerable: true,
    writable: true,
    configurable: true,
  });
}
