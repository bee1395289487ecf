// Twelve nightly campaigns of one testbed with a regression injected, for the history, alert and gate
// tests: pod-to-pod TCP throughput near a 10 Gbit/s NIC's 9.4 Gbit/s, each night a small drift of its
// own (0.5 %), each of its 3 runs 2 % noise around it; from night 9 on, 8 % less, on kernel 6.8.

/** mulberry32: a seeded uniform generator, so every run of a test sees the same numbers. */
export const mulberry32 = (seed: number) => () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), seed | 1);
  t = (t + Math.imul(t ^ (t >>> 7), t | 61)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};

/** The twelve nights drawn with seed 27 (standard normal noise as 12 uniforms − 6, Irwin–Hall). */
export function nightlyCampaigns(seed = 27) {
  const random = mulberry32(seed);
  const normal = () => Array.from({ length: 12 }, random).reduce((a, b) => a + b, 0) - 6;
  return Array.from({ length: 12 }, (_, i) => {
    const night = i + 1;
    const level = 9.4 * (night >= 9 ? 0.92 : 1) * (1 + 0.005 * normal());
    return {
      night,
      campaign: `nightly-${String(night).padStart(2, "0")}`,
      kernel: night >= 9 ? "6.8" : "6.1",
      runs: Array.from({ length: 3 }, () => Math.round(level * (1 + 0.02 * normal()) * 1000) / 1000),
    };
  });
}
