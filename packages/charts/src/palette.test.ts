import { describe, expect, it } from "vitest";
import { colorAt, dashAt, markerAt, markerPath, markers, palette } from "./palette";

// Colour arithmetic written out here, for the test alone, from the published formulas:
// sRGB → linear → XYZ (D65) → CIELAB as IEC 61966-2-1 and CIE 15:2004 give them; CIEDE2000 as Sharma,
// Wu and Dalal (2005), "The CIEDE2000 color-difference formula: implementation notes, supplementary
// test data, and mathematical observations", checked below against their table 1; contrast ratio and
// relative luminance as WCAG 2.1 defines them.

const channels = (hex: string): [number, number, number] => {
  const v = Number.parseInt(hex.slice(1), 16);
  return [(v >> 16) & 255, (v >> 8) & 255, v & 255].map((c) => {
    const s = c / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
};

const luminance = (hex: string): number => {
  const [r, g, b] = channels(hex);
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
};

const contrast = (a: string, b: string): number => {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
};

type Lab = [number, number, number];

function lab(hex: string): Lab {
  const [r, g, b] = channels(hex);
  const xyz = [
    (0.4124564 * r + 0.3575761 * g + 0.1804375 * b) / 0.95047,
    0.2126729 * r + 0.7151522 * g + 0.072175 * b,
    (0.0193339 * r + 0.119192 * g + 0.9503041 * b) / 1.08883,
  ];
  const [fx, fy, fz] = xyz.map((t) => (t > (6 / 29) ** 3 ? Math.cbrt(t) : t / (3 * (6 / 29) ** 2) + 4 / 29)) as Lab;
  return [116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)];
}

const rad = (deg: number) => (deg * Math.PI) / 180;
const deg = (r: number) => ((((r * 180) / Math.PI) % 360) + 360) % 360;

function deltaE2000([l1, a1, b1]: Lab, [l2, a2, b2]: Lab): number {
  const cBar = (Math.hypot(a1, b1) + Math.hypot(a2, b2)) / 2;
  const g = 0.5 * (1 - Math.sqrt(cBar ** 7 / (cBar ** 7 + 25 ** 7)));
  const [a1p, a2p] = [(1 + g) * a1, (1 + g) * a2];
  const [c1p, c2p] = [Math.hypot(a1p, b1), Math.hypot(a2p, b2)];
  const h1p = c1p === 0 ? 0 : deg(Math.atan2(b1, a1p));
  const h2p = c2p === 0 ? 0 : deg(Math.atan2(b2, a2p));
  let dh = h2p - h1p;
  if (dh > 180) dh -= 360;
  else if (dh < -180) dh += 360;
  if (c1p * c2p === 0) dh = 0;
  const dL = l2 - l1;
  const dC = c2p - c1p;
  const dH = 2 * Math.sqrt(c1p * c2p) * Math.sin(rad(dh / 2));
  const lBar = (l1 + l2) / 2;
  const cBarP = (c1p + c2p) / 2;
  const sum = h1p + h2p;
  const hBar =
    c1p * c2p === 0 ? sum : Math.abs(h1p - h2p) <= 180 ? sum / 2 : sum < 360 ? (sum + 360) / 2 : (sum - 360) / 2;
  const t =
    1 -
    0.17 * Math.cos(rad(hBar - 30)) +
    0.24 * Math.cos(rad(2 * hBar)) +
    0.32 * Math.cos(rad(3 * hBar + 6)) -
    0.2 * Math.cos(rad(4 * hBar - 63));
  const dTheta = 30 * Math.exp(-(((hBar - 275) / 25) ** 2));
  const rc = 2 * Math.sqrt(cBarP ** 7 / (cBarP ** 7 + 25 ** 7));
  const sl = 1 + (0.015 * (lBar - 50) ** 2) / Math.sqrt(20 + (lBar - 50) ** 2);
  const sc = 1 + 0.045 * cBarP;
  const sh = 1 + 0.015 * cBarP * t;
  const rt = -Math.sin(rad(2 * dTheta)) * rc;
  return Math.sqrt((dL / sl) ** 2 + (dC / sc) ** 2 + (dH / sh) ** 2 + rt * (dC / sc) * (dH / sh));
}

describe("the colour arithmetic of this test", () => {
  it("gives CIEDE2000 as Sharma et al.'s table 1 does", () => {
    const pairs: [Lab, Lab, number][] = [
      [[50, 2.6772, -79.7751], [50, 0, -82.7485], 2.0425],
      [[50, 0, 0], [50, -1, 2], 2.3669],
      [[50, 2.5, 0], [73, 25, -18], 27.1492],
      [[50, 2.5, 0], [56, -27, -3], 31.903],
      [[50, 2.5, 0], [58, 24, 15], 19.4535],
      [[2.0776, 0.0795, -1.135], [0.9033, -0.0636, -0.5514], 0.9082],
    ];
    for (const [a, b, expected] of pairs) expect(deltaE2000(a, b)).toBeCloseTo(expected, 4);
  });

  it("gives WCAG's contrast ratios and CIELAB's white", () => {
    expect(contrast("#ffffff", "#000000")).toBeCloseTo(21, 6);
    // #767676 is the lightest grey with 4.5:1 on white: 4.54.
    expect(contrast("#767676", "#ffffff")).toBeCloseTo(4.54, 2);
    const [l, a, b] = lab("#ffffff");
    expect([l, Math.abs(a), Math.abs(b)].map((v) => v.toFixed(3))).toEqual(["100.000", "0.000", "0.000"]);
  });
});

describe("the series palette", () => {
  const first24 = palette.slice(0, 24);

  it("has 24 colours, no two closer than ΔE00 15 (15.5: #c3008c and #ff0a78)", () => {
    expect(first24).toHaveLength(24);
    let closest = Number.POSITIVE_INFINITY;
    for (const [i, a] of first24.entries())
      for (const b of first24.slice(i + 1)) closest = Math.min(closest, deltaE2000(lab(a), lab(b)));
    expect(closest).toBeGreaterThanOrEqual(15);
  });

  it("keeps 3:1 against the white and the dark chart background", () => {
    for (const c of first24) {
      expect(contrast(c, "#ffffff"), c).toBeGreaterThanOrEqual(3);
      expect(contrast(c, "#18181b"), c).toBeGreaterThanOrEqual(3);
    }
  });

  it("gives each of the first 24 line series its own marker and dash pattern as well", () => {
    const styles = Array.from({ length: 24 }, (_, i) => `${markerAt(i)} ${dashAt(i)}`);
    expect(new Set(styles).size).toBe(24);
    expect(new Set(Array.from({ length: 24 }, (_, i) => colorAt(i))).size).toBe(24);
    expect(colorAt(24)).toBe(colorAt(0));
  });

  it("draws every marker as a closed path around its centre", () => {
    for (const shape of markers) {
      const d = markerPath(shape, 10, 20, 4);
      expect(d, shape).toMatch(/^M[\d.,\sLa-]+Z$/);
      // The circle is two arcs from its leftmost point; the polygons' corners lie either side of x = 10.
      const xs = [...d.matchAll(/[ML](-?[\d.]+),(-?[\d.]+)/g)].map((m) => Number(m[1]));
      if (shape === "circle") expect(xs).toEqual([6]);
      else expect((Math.min(...xs) + Math.max(...xs)) / 2, shape).toBeCloseTo(10, 1);
    }
  });
});
