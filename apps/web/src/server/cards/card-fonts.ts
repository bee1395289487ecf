// Fonts for the link cards (next/og, satori underneath), read from npm packages on disk: nothing is
// fetched while a card renders, and a Chinese or Korean source title gets real glyphs. Noto Sans, SC
// and KR (@fontsource, SIL Open Font License 1.1) ship each weight cut into unicode-range subsets as
// WOFF (which satori reads; not WOFF2), listed in each package's unicode.json: a card loads only the
// subsets holding its characters (a Latin card ≈35 kB, one with a Chinese title a few hundred kB)
// instead of ≈20 MB of whole CJK fonts. Satori keeps one font per name and weight, so each subset is
// passed under a name of its own ("Noto Sans SC [118]"); the cards ask for "Noto Sans" (Latin), and a
// character it lacks is drawn by the first other font passed that has it: SC's subsets, then KR's.
import fs from "node:fs/promises";
import path from "node:path";

/** The families, in the order a character is looked up: the first whose subsets cover it draws it. */
export const cardFamilies = [
  { name: "Noto Sans", id: "noto-sans" },
  { name: "Noto Sans SC", id: "noto-sans-sc" },
  { name: "Noto Sans KR", id: "noto-sans-kr" },
] as const;
export type CardFamily = (typeof cardFamilies)[number];

/** The weights the cards use: regular and bold. */
const cardWeights = [400, 700] as const;

/** A unicode.json: subset name ("latin", "[118]") → CSS unicode-range ("U+0000-00FF,U+0131,…"). */
export type UnicodeRanges = Readonly<Record<string, string>>;

/** "U+0000-00FF,U+0131" → [[0, 255], [305, 305]]. */
export function parseUnicodeRange(range: string): [number, number][] {
  return range.split(",").flatMap((part) => {
    const m = part.trim().match(/^U\+([0-9a-f]+)(?:-([0-9a-f]+))?$/i);
    if (!m?.[1]) return [];
    const from = Number.parseInt(m[1], 16);
    return [[from, m[2] ? Number.parseInt(m[2], 16) : from] as [number, number]];
  });
}

/** A subset to load: its family and the name of its file for a weight. */
export type FontSubset = { family: CardFamily; subset: string; file: (weight: number) => string };

/**
 * The subsets drawing `text`: for each character, the first family (in `cardFamilies` order) with a
 * subset covering it, and that subset; each once, Latin always (the card's own words). `uncovered`:
 * the characters no subset has (emoji), which the card must not draw — for a glyph missing from the
 * fonts it is given, next/og asks Google Fonts, and a card renders offline.
 */
export function subsetsFor(
  text: string,
  ranges: ReadonlyMap<CardFamily["id"], UnicodeRanges>,
): { subsets: FontSubset[]; uncovered: Set<string> } {
  const parsed = cardFamilies.map((family) => ({
    family,
    subsets: Object.entries(ranges.get(family.id) ?? {}).map(([subset, range]) => ({
      subset,
      spans: parseUnicodeRange(range),
    })),
  }));
  const chosen = new Map<string, FontSubset>();
  const add = (family: CardFamily, subset: string) => {
    const key = `${family.id}/${subset}`;
    // "[118]" names its file "noto-sans-sc-118-400-normal.woff".
    const slug = subset.replace(/^\[(\d+)\]$/, "$1");
    if (!chosen.has(key)) chosen.set(key, { family, subset, file: (w) => `${family.id}-${slug}-${w}-normal.woff` });
  };
  add(cardFamilies[0], "latin");
  const uncovered = new Set<string>();
  for (const ch of new Set(text)) {
    const cp = ch.codePointAt(0) ?? 0;
    const found = parsed.some(({ family, subsets }) => {
      const hit = subsets.find((s) => s.spans.some(([from, to]) => cp >= from && cp <= to));
      if (hit) add(family, hit.subset);
      return hit !== undefined;
    });
    if (!found) uncovered.add(ch);
  }
  return { subsets: [...chosen.values()], uncovered };
}

/** A font as next/og's ImageResponse takes it. */
export type CardFont = { name: string; data: ArrayBuffer; weight: (typeof cardWeights)[number]; style: "normal" };

/**
 * Where the @fontsource packages are: the nearest node_modules above the working folder (apps/web under
 * `npm start`, the image's root in the standalone server), as npm workspaces hoist them to the root.
 */
let packagesDir: Promise<string> | undefined;
function fontPackages(): Promise<string> {
  packagesDir ??= (async () => {
    for (let dir = process.cwd(); ; dir = path.dirname(dir)) {
      const candidate = path.join(dir, "node_modules", "@fontsource");
      if (
        await fs.stat(path.join(candidate, "noto-sans", "unicode.json")).then(
          () => true,
          () => false,
        )
      )
        return candidate;
      if (path.dirname(dir) === dir) throw new Error("the @fontsource packages are not installed");
    }
  })();
  return packagesDir;
}

// Read once per process: the ranges (a few kB) and each subset file a card has needed (≈40–60 kB each).
let rangesOnce: Promise<Map<CardFamily["id"], UnicodeRanges>> | undefined;
const files = new Map<string, Promise<ArrayBuffer>>();

function readRanges(): Promise<Map<CardFamily["id"], UnicodeRanges>> {
  rangesOnce ??= (async () => {
    const dir = await fontPackages();
    const read = async (f: CardFamily) =>
      [f.id, JSON.parse(await fs.readFile(path.join(dir, f.id, "unicode.json"), "utf8"))] as const;
    return new Map(await Promise.all(cardFamilies.map(read)));
  })();
  return rangesOnce;
}

function readFont(family: CardFamily, file: string): Promise<ArrayBuffer> {
  const key = `${family.id}/${file}`;
  let data = files.get(key);
  if (!data) {
    data = fontPackages()
      .then((dir) => fs.readFile(path.join(dir, family.id, "files", file)))
      .then((b) => b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer);
    // A failed read is not kept: the next card tries again.
    data.catch(() => files.delete(key));
    files.set(key, data);
  }
  return data;
}

/** The fonts a card drawing `text` needs, regular and bold, in lookup order, and the characters none has. */
export async function cardFonts(text: string): Promise<{ fonts: CardFont[]; uncovered: Set<string> }> {
  const { subsets, uncovered } = subsetsFor(text, await readRanges());
  const fonts = await Promise.all(
    subsets.flatMap((s) =>
      cardWeights.map(async (weight) => ({
        name: s.family.id === "noto-sans" && s.subset === "latin" ? s.family.name : `${s.family.name} ${s.subset}`,
        data: await readFont(s.family, s.file(weight)),
        weight,
        style: "normal" as const,
      })),
    ),
  );
  return { fonts, uncovered };
}
