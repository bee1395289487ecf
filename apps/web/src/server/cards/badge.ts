// Badges for READMEs: a shields-style flat SVG in two parts, a grey label and a value coloured by its
// verdict. Pure: the route handlers (app/badge/…) read the procedures and hand the words here.
import type { Params } from "@cnibench/analysis";
import { formatChange, formatFigure, formatParams, type Verdict, verdictLabel } from "@cnibench/format";

/** A badge's colours: better green, worse red, anything else (equivalent, inconclusive, none) grey. */
export const badgeColors = { better: "#1a7f37", worse: "#cf222e", neutral: "#6e7781", label: "#555" } as const;

export function verdictColor(verdict: Verdict | null | undefined): string {
  return verdict === "better" ? badgeColors.better : verdict === "worse" ? badgeColors.worse : badgeColors.neutral;
}

/** Text for an SVG's text nodes and attributes: the five XML specials as entities, control characters dropped. */
export function escapeXml(text: string): string {
  return (
    text
      // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are not allowed in XML
      .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g, "")
      .replace(/&/g, "&amp;")
      .replace(/</g, "&lt;")
      .replace(/>/g, "&gt;")
      .replace(/"/g, "&quot;")
      .replace(/'/g, "&apos;")
  );
}

/**
 * The width of `text` in 11 px Verdana (the badge's font), estimated from its characters, as there is
 * no font to measure with on the server: an advance per character class, taken from Verdana's metrics
 * at 11 px and rounded up — narrow (i j l t I f r . , : ; ! | ' and space) 3.9 px, wide (m w M W @ % and
 * the em dash) 9.9 px, other capitals and digits 7.6 px (Verdana's digits are capital-wide), other
 * lowercase 6.7 px, and anything outside Latin-1 (CJK, symbols) 11 px, a full em. An estimate errs
 * wide rather than clip: text is centred in its part, so a little extra room only widens the margin.
 */
export function textWidth(text: string): number {
  let width = 0;
  for (const ch of text) {
    if (/[ijltIfr.,:;!|' ]/.test(ch)) width += 3.9;
    else if (/[mwMW@%—]/.test(ch)) width += 9.9;
    else if (/[A-Z0-9]/.test(ch)) width += 7.6;
    else if (/[a-z]/.test(ch)) width += 6.7;
    else if ((ch.codePointAt(0) ?? 0) <= 0xff) width += 6.7;
    else width += 11;
  }
  return Math.ceil(width);
}

/** Room either side of a part's text, in px. */
const padding = 6;
/** Past this many characters a part is cut with an ellipsis: a badge is a line, not a paragraph. */
export const maxChars = 90;

const cut = (text: string): string => {
  const chars = [...text.replace(/\s+/g, " ").trim()];
  return chars.length > maxChars ? `${chars.slice(0, maxChars - 1).join("")}…` : chars.join("");
};

export type Badge = { label: string; value: string; color: string };

/** The SVG document of a badge: two parts, each as wide as its estimated text plus padding either side. */
export function badgeSvg(badge: Badge): string {
  const label = cut(badge.label);
  const value = cut(badge.value);
  const lw = textWidth(label) + 2 * padding;
  const vw = textWidth(value) + 2 * padding;
  const w = lw + vw;
  // Only a colour of ours, never a caller's string, goes into the fill.
  const color = /^#[0-9a-f]{3,6}$/i.test(badge.color) ? badge.color : badgeColors.neutral;
  const title = escapeXml(`${label}: ${value}`);
  const l = escapeXml(label);
  const v = escapeXml(value);
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="20" role="img" aria-label="${title}">`,
    `<title>${title}</title>`,
    `<linearGradient id="s" x2="0" y2="100%"><stop offset="0" stop-color="#bbb" stop-opacity=".1"/><stop offset="1" stop-opacity=".1"/></linearGradient>`,
    `<clipPath id="r"><rect width="${w}" height="20" rx="3" fill="#fff"/></clipPath>`,
    `<g clip-path="url(#r)"><rect width="${lw}" height="20" fill="${badgeColors.label}"/><rect x="${lw}" width="${vw}" height="20" fill="${color}"/><rect width="${w}" height="20" fill="url(#s)"/></g>`,
    `<g fill="#fff" text-anchor="middle" font-family="Verdana,Geneva,DejaVu Sans,sans-serif" font-size="11">`,
    `<text x="${lw / 2}" y="15" fill="#010101" fill-opacity=".3">${l}</text><text x="${lw / 2}" y="14">${l}</text>`,
    `<text x="${lw + vw / 2}" y="15" fill="#010101" fill-opacity=".3">${v}</text><text x="${lw + vw / 2}" y="14">${v}</text>`,
    "</g></svg>",
  ].join("");
}

/** What a comparison's badge needs of the compare procedure's answer (compare.view, compare.permalink). */
export type ComparisonForBadge = {
  labels: readonly string[];
  rows: readonly {
    label: string;
    params: Params;
    cells: readonly {
      delta: { percent: number | null } | null;
      verdict: Verdict | null;
      indicative: boolean;
      evidence: { pAdjusted: number | null } | null;
    }[];
  }[];
};

const decisive = (v: Verdict | null) => v === "better" || v === "worse";

/**
 * A comparison's rows by significance for the first candidate against the baseline: a decided verdict
 * (better or worse) before any other, a tested one before an indicative single run, then the smallest
 * adjusted p, then the largest change; the table's order breaks ties. Rows without a change are left out.
 */
export function significantRows<R extends ComparisonForBadge["rows"][number]>(rows: readonly R[]): R[] {
  const rank = (r: R) => {
    const cell = r.cells[1];
    return [
      decisive(cell?.verdict ?? null) ? 0 : 1,
      cell?.indicative ? 1 : 0,
      cell?.evidence?.pAdjusted ?? Number.POSITIVE_INFINITY,
      -Math.abs(cell?.delta?.percent ?? 0),
    ];
  };
  return rows
    .filter((r) => r.cells[1]?.delta?.percent != null)
    .map((r, i) => ({ r, key: rank(r), i }))
    .sort((a, b) => {
      for (let k = 0; k < a.key.length; k++) {
        const d = (a.key[k] ?? 0) - (b.key[k] ?? 0);
        if (d !== 0) return d;
      }
      return a.i - b.i;
    })
    .map(({ r }) => r);
}

/**
 * A comparison's headline, its most significant row (significantRows):
 * "Cilium vs iptables @ services 30,000: +42 % HTTP requests per second".
 */
export function comparisonBadge(c: ComparisonForBadge): Badge {
  const [baseline = "", candidate = ""] = c.labels;
  const head = significantRows(c.rows)[0];
  const cell = head?.cells[1];
  if (!head || !cell?.delta || cell.delta.percent === null) {
    return { label: `${candidate} vs ${baseline}`, value: "no figure to compare", color: badgeColors.neutral };
  }
  const at = formatParams(head.params, { empty: "" });
  const verdict = cell.verdict ? ` (${verdictLabel(cell.verdict, cell.indicative)})` : "";
  return {
    label: `${candidate} vs ${baseline}${at ? ` @ ${at}` : ""}`,
    value: `${formatChange(cell.delta.percent)} ${head.label}${verdict}`,
    color: verdictColor(cell.verdict),
  };
}

/** What a series' badge needs of scenarios.history's answer. */
export type SeriesForBadge = {
  metric: string;
  params: Params;
  unit: string | null;
  campaigns: readonly { n: number; median: number }[];
  changePoints: readonly { index: number; verdict: Verdict }[];
};

/**
 * A series' latest campaign: "tcp.throughput path pod-pod · streams 8: 38.9 Gbit/s (n=3)", its
 * median of n runs. Coloured by the verdict of a shift found at that campaign (it moved the series
 * better or worse than the campaigns before it), grey when it shifted nothing.
 */
export function seriesBadge(s: SeriesForBadge): Badge {
  const at = formatParams(s.params, { empty: "" });
  const label = `${s.metric}${at ? ` ${at}` : ""}`;
  const last = s.campaigns.length - 1;
  const latest = s.campaigns[last];
  if (!latest) return { label, value: "no campaign", color: badgeColors.neutral };
  const shift = s.changePoints.find((p) => p.index === last);
  return {
    label,
    value: `${formatFigure({ value: latest.median, unit: s.unit ?? "" })} (n=${latest.n})`,
    color: verdictColor(shift?.verdict),
  };
}

/** The headers of a badge: cached by anyone for public data, by no one for private. */
export function badgeHeaders(isPublic: boolean): HeadersInit {
  return {
    "content-type": "image/svg+xml; charset=utf-8",
    "cache-control": isPublic ? "public, max-age=300" : "private, no-store",
  };
}
