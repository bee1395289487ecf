import type { Verdict } from "@cnibench/format";

// How series are told apart: a colour each for up to 24, and a second channel that needs no colour
// (a marker shape and a dash pattern on lines; legend order on bars, the same left to right).
//
// The colours: the four Okabe–Ito colours that keep a 3:1 contrast (WCAG 2.1 non-text) on both the
// white and the dark (#18181b, zinc-900) chart background, then twenty chosen as Glasbey et al. (2007,
// "Colour displays for categorical images") choose theirs: each next one is, among the sRGB colours on
// a 5/255 grid with that contrast on both backgrounds and CIELAB chroma ≥ 20, the farthest by CIEDE2000
// from those already chosen. No two of the 24 are closer than ΔE00 15.5 (palette.test.ts). A series'
// colour is by its rank (or its page's colorIndex), so the top series drawn first have the first, most
// distinct colours, and each keeps its colour when others are hidden or shown.
// Variants of one CNI (seven Cilium set-ups in InfraBuilder's tree) do not share a hue family: seven
// shades of one hue are not told apart at a glance; the family is in the label, and legends keep the
// explorer's order, which puts a family's variants side by side.
export const palette = [
  "#0072b2",
  "#d55e00",
  "#009e73",
  "#cc79a7",
  "#736900",
  "#8c00ff",
  "#c80a3c",
  "#695f82",
  "#9187f5",
  "#4ba0af",
  "#aa916e",
  "#73a000",
  "#326e69",
  "#c3008c",
  "#875f50",
  "#28731e",
  "#eb6e69",
  "#f500ff",
  "#78825f",
  "#915a05",
  "#ff0a78",
  "#a59100",
  "#3c96ff",
  "#555ac3",
] as const;

export const colorAt = (i: number): string => palette[i % palette.length] as string;

/** Marker shapes of line points, in the order series take them. */
export const markers = ["circle", "square", "triangle", "diamond", "cross", "triangle-down"] as const;
export type MarkerShape = (typeof markers)[number];

export const markerAt = (i: number): MarkerShape => markers[i % markers.length] as MarkerShape;

/**
 * Dash patterns of lines, so they stay apart in greyscale prints too. A pattern holds for a run of
 * `markers.length` series, so the first 24 series each have their own shape and pattern.
 */
const dashes = ["", "6 3", "2 2", "8 3 2 3"];
export const dashAt = (i: number): string => dashes[Math.floor(i / markers.length) % dashes.length] as string;

const n = (v: number) => Number(v.toFixed(2));

/**
 * The SVG path of a marker centred on (cx, cy), of about the area of a circle of radius r, so no
 * shape looks heavier than another. Closed outlines, to be drawn filled or hollow.
 */
export function markerPath(shape: MarkerShape, cx: number, cy: number, r: number): string {
  const poly = (points: [number, number][]) => `M${points.map(([x, y]) => `${n(cx + x)},${n(cy + y)}`).join("L")}Z`;
  switch (shape) {
    case "circle":
      return `M${n(cx - r)},${n(cy)}a${n(r)},${n(r)} 0 1,0 ${n(2 * r)},0a${n(r)},${n(r)} 0 1,0 ${n(-2 * r)},0Z`;
    case "square": {
      const h = 0.886 * r; // side √π·r
      return poly([
        [-h, -h],
        [h, -h],
        [h, h],
        [-h, h],
      ]);
    }
    case "diamond": {
      const d = 1.253 * r; // half-diagonal √(π/2)·r
      return poly([
        [0, -d],
        [d, 0],
        [0, d],
        [-d, 0],
      ]);
    }
    case "triangle":
    case "triangle-down": {
      // Equilateral, side 2.694·r; centred on its centroid.
      const half = 1.347 * r;
      const s = shape === "triangle" ? 1 : -1;
      return poly([
        [0, -1.555 * r * s],
        [half, 0.778 * r * s],
        [-half, 0.778 * r * s],
      ]);
    }
    case "cross": {
      // A plus sign: arms 0.7·r wide reaching 1.3·r from the centre.
      const [w, l] = [0.35 * r, 1.3 * r];
      return poly([
        [-w, -l],
        [w, -l],
        [w, -w],
        [l, -w],
        [l, w],
        [w, w],
        [w, l],
        [-w, l],
        [-w, w],
        [-l, w],
        [-l, -w],
        [-w, -w],
      ]);
    }
  }
}

/** A verdict's colour on a change point: the palette's vermilion-red and green, 3:1 on both backgrounds. */
export const shiftColor = (verdict: Verdict): string =>
  verdict === "worse" ? "#c80a3c" : verdict === "better" ? "#009e73" : "currentColor";
