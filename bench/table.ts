// One row of `npm run bench`'s table: a figure, what it is set against, and whether it meets its target.
export type BenchRow = {
  /** ingest, reads 1M, reads 10M, pages, start-up */
  part: string;
  /** what was measured, e.g. "explore fn p50/p95 ms" */
  what: string;
  /** the figure itself, as printed */
  figure: string;
  /** what it is compared with (COPY, hand SQL, …), as printed */
  against?: string;
  /** the target in words, e.g. "≤ 2× SQL + 5 ms" */
  target?: string;
  /** met, missed, or undefined when the row has no target */
  met?: boolean;
};

export const ms = (n: number) => n.toFixed(1);

/** 1000000 → "1M", 20000 → "20k": a store size as the table names it. */
export const sizeLabel = (n: number) => (n >= 1e6 ? `${n / 1e6}M` : `${n / 1e3}k`);

export function printTable(title: string, rows: BenchRow[]): void {
  console.log(`\n${title}`);
  console.table(
    rows.map((r) => ({
      part: r.part,
      what: r.what,
      figure: r.figure,
      against: r.against ?? "",
      target: r.target ?? "",
      "": r.met === undefined ? "" : r.met ? "met" : "MISSED",
    })),
  );
}
