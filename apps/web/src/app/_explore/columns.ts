// The column picker's URL arithmetic, kept apart from its component so it is tested without a browser.
// Keys and order come from the server (columnCatalogue in @cnibench/analysis): the browser never loads
// the analysis package for this.

export type ColumnChoice = {
  /** Every column key in catalogue order: the order the table shows its columns in. */
  catalogue: readonly string[];
  /** What the table shows without `col=`. */
  defaults: readonly string[];
  /** At most this many at once. */
  max: number;
};

/**
 * The address's `col=` values after ticking (`on`) or unticking one column of those shown: in
 * catalogue order; null when that is the default set, so the address stays short. The last column
 * stays (a table without figures says nothing), and none is added past `max`.
 */
export function toggleColumn(
  shown: readonly string[],
  key: string,
  on: boolean,
  { catalogue, defaults, max }: ColumnChoice,
): string[] | null {
  const next = new Set(shown);
  if (on && next.size < max) next.add(key);
  if (!on && next.size > 1) next.delete(key);
  const ordered = catalogue.filter((k) => next.has(k));
  const isDefault = ordered.length === defaults.length && defaults.every((k) => next.has(k));
  return isDefault ? null : ordered;
}
