import { loadSeeds } from "@cnibench/test-support/web-figures";
import { describe, expect, it } from "vitest";
import { compareRows } from "../views/compare-data";
import {
  badgeColors,
  badgeHeaders,
  badgeSvg,
  comparisonBadge,
  escapeXml,
  maxChars,
  seriesBadge,
  textWidth,
  verdictColor,
} from "./badge";

/** The numbers an SVG attribute holds, e.g. width="123". */
const attr = (svg: string, name: string) => Number(svg.match(new RegExp(`\\b${name}="([\\d.]+)"`))?.[1]);

describe("escapeXml", () => {
  it("writes the five XML specials as entities and drops control characters", () => {
    expect(escapeXml(`<script>alert("x") & 'y'</script>`)).toBe(
      "&lt;script&gt;alert(&quot;x&quot;) &amp; &apos;y&apos;&lt;/script&gt;",
    );
    expect(escapeXml("a\u0000b\u001bc\td")).toBe("abc\td");
    // Already escaped text is escaped again: shown as written, never decoded.
    expect(escapeXml("&amp;")).toBe("&amp;amp;");
  });
});

describe("textWidth", () => {
  it("adds each character's class advance (Verdana 11 px) and rounds up", () => {
    // By hand: i 3.9 + m 9.9 = 13.8 → 14; "A1" 2 × 7.6 = 15.2 → 16; "ab" 2 × 6.7 = 13.4 → 14.
    expect(textWidth("im")).toBe(14);
    expect(textWidth("A1")).toBe(16);
    expect(textWidth("ab")).toBe(14);
    // A CJK character is a full em, 11 px; "−" (U+2212) is outside Latin-1 too.
    expect(textWidth("中文")).toBe(22);
    expect(textWidth("−")).toBe(11);
    expect(textWidth("")).toBe(0);
  });

  it("grows with the text and never shrinks wide text below narrow text of the same length", () => {
    expect(textWidth("WWWW")).toBeGreaterThan(textWidth("iiii"));
    expect(textWidth("38.9 Gbit/s (n=3)")).toBeGreaterThan(textWidth("38.9 Gbit/s"));
  });
});

describe("badgeSvg", () => {
  const svg = badgeSvg({ label: "tcp.throughput", value: "38.9 Gbit/s (n=3)", color: badgeColors.better });

  it("is two parts as wide as their estimated text plus 6 px either side", () => {
    const lw = textWidth("tcp.throughput") + 12;
    const vw = textWidth("38.9 Gbit/s (n=3)") + 12;
    expect(attr(svg, "width")).toBe(lw + vw);
    expect(svg).toContain(`<rect width="${lw}" height="20" fill="${badgeColors.label}"/>`);
    expect(svg).toContain(`<rect x="${lw}" width="${vw}" height="20" fill="${badgeColors.better}"/>`);
    // Each text is centred in its part.
    expect(svg).toContain(`<text x="${lw / 2}" y="14">tcp.throughput</text>`);
    expect(svg).toContain(`<text x="${lw + vw / 2}" y="14">38.9 Gbit/s (n=3)</text>`);
    expect(svg).toContain("<title>tcp.throughput: 38.9 Gbit/s (n=3)</title>");
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
  });

  it("escapes markup in the label and value, in the text and the aria-label", () => {
    const hostile = badgeSvg({
      label: `Evil <img src=x onerror="alert(1)">`,
      value: "</text><script>x</script>",
      color: "#fff",
    });
    expect(hostile).not.toContain("<img");
    expect(hostile).not.toContain("<script");
    expect(hostile).toContain("Evil &lt;img src=x onerror=&quot;alert(1)&quot;&gt;");
    expect(hostile).toContain('aria-label="Evil &lt;img');
    // Its width is the text's as shown, not as escaped.
    const lw = textWidth(`Evil <img src=x onerror="alert(1)">`) + 12;
    expect(hostile).toContain(`<rect width="${lw}" height="20"`);
  });

  it("takes only a hex colour, and cuts a long part with an ellipsis", () => {
    const odd = badgeSvg({ label: "a", value: "b", color: 'red" onload="x' });
    expect(odd).not.toContain("onload");
    expect(odd).toContain(`fill="${badgeColors.neutral}"`);
    const long = badgeSvg({ label: "x".repeat(500), value: "y", color: badgeColors.worse });
    expect(long).toContain(`${"x".repeat(maxChars - 1)}…<`);
    expect(long).not.toContain("x".repeat(maxChars));
  });
});

describe("verdictColor and headers", () => {
  it("colours better green, worse red, everything else grey", () => {
    expect(verdictColor("better")).toBe(badgeColors.better);
    expect(verdictColor("worse")).toBe(badgeColors.worse);
    for (const v of ["equivalent", "small-but-real", "inconclusive", "not-comparable", "missing", null] as const) {
      expect(verdictColor(v)).toBe(badgeColors.neutral);
    }
  });

  it("lets caches keep public badges for five minutes and private ones not at all", () => {
    expect(badgeHeaders(true)).toMatchObject({ "cache-control": "public, max-age=300" });
    expect(badgeHeaders(false)).toMatchObject({ "cache-control": "private, no-store" });
  });
});

describe("comparisonBadge", () => {
  const cell = (
    percent: number | null,
    verdict: "better" | "worse" | "equivalent" | null,
    p: number | null = null,
  ) => ({
    delta: percent === null ? null : { percent },
    verdict,
    indicative: p === null,
    evidence: p === null ? null : { pAdjusted: p },
  });
  const base = cell(null, null);

  it("heads with a decided verdict before a larger undecided change, then the smallest p", () => {
    const badge = comparisonBadge({
      labels: ["iptables", "Cilium"],
      rows: [
        { label: "RTT", params: {}, cells: [base, cell(80, "equivalent", 0.5)] },
        { label: "RPS", params: { services: 30000 }, cells: [base, cell(42, "better", 0.01)] },
        { label: "CPU", params: {}, cells: [base, cell(-60, "worse", 0.04)] },
      ],
    });
    expect(badge).toEqual({
      label: "Cilium vs iptables @ services 30,000",
      value: "+42 % RPS (better)",
      color: badgeColors.better,
    });
  });

  it("says so when no row has a change to show", () => {
    expect(comparisonBadge({ labels: ["a", "b"], rows: [] })).toEqual({
      label: "b vs a",
      value: "no figure to compare",
      color: badgeColors.neutral,
    });
  });

  it("words the TKE overlay against iptables from the real comparison", () => {
    const tke = loadSeeds({
      a: ["tke-a-iptables-main.json", "tke-a-iptables-service-scale.json"],
      c: ["tke-c-cilium-overlay-main.json", "tke-c-cilium-overlay-service-scale.json"],
    });
    const rows = compareRows(tke.scenarios, tke.figures);
    const badge = comparisonBadge({ labels: ["kube-proxy iptables", "Cilium Overlay"], rows });
    expect(badge.label).toMatch(/^Cilium Overlay vs kube-proxy iptables/);
    // Single runs a side: every verdict is indicative, so the largest decided change heads.
    expect(badge.value).toMatch(/^[+−][\d,.]+ % .+ \((better|worse) · single value\)$/);
    expect([badgeColors.better, badgeColors.worse]).toContain(badge.color);
  });
});

describe("seriesBadge", () => {
  const series = {
    metric: "tcp.throughput",
    params: { streams: 8, path: "pod-pod" },
    unit: "Gbit/s",
    campaigns: [
      { n: 3, median: 30.2 },
      { n: 3, median: 38.9 },
    ],
    changePoints: [] as { index: number; verdict: "better" | "worse" }[],
  };

  it("shows the latest campaign's median and runs, grey when it shifted nothing", () => {
    expect(seriesBadge(series)).toEqual({
      label: "tcp.throughput path pod-pod · streams 8",
      value: "38.9 Gbit/s (n=3)",
      color: badgeColors.neutral,
    });
  });

  it("takes the colour of a shift at the latest campaign only", () => {
    expect(seriesBadge({ ...series, changePoints: [{ index: 1, verdict: "better" }] }).color).toBe(badgeColors.better);
    expect(seriesBadge({ ...series, changePoints: [{ index: 0, verdict: "worse" }] }).color).toBe(badgeColors.neutral);
    expect(seriesBadge({ ...series, campaigns: [] }).value).toBe("no campaign");
  });
});
