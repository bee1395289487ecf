/** Display formatting for sentences next to charts: en-US, grouped digits, Unicode minus. */

const cache = new Map<string, Intl.NumberFormat>();

function formatter(options: Intl.NumberFormatOptions): Intl.NumberFormat {
  const key = JSON.stringify(options);
  let found = cache.get(key);
  if (!found) {
    found = new Intl.NumberFormat("en-US", options);
    cache.set(key, found);
  }
  return found;
}

/** A figure with at most `significantDigits` significant digits: 19649.5 → "19,650". */
export function formatNumber(value: number, significantDigits = 4): string {
  return formatter({ maximumSignificantDigits: significantDigits }).format(value).replace("-", "−");
}

/** A signed percentage with `fractionDigits` decimals: −29.1 → "−29.1%", 2.2 → "+2.2%". */
export function formatPercent(percent: number, fractionDigits = 1, signed = true): string {
  return formatter({
    minimumFractionDigits: fractionDigits,
    maximumFractionDigits: fractionDigits,
    signDisplay: signed ? "exceptZero" : "auto",
  })
    .format(percent)
    .replace("-", "−")
    .concat("%");
}
