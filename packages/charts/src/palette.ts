// Okabe–Ito: eight colours told apart with every common colour-vision deficiency. Yellow is last:
// it is the one that fades on a white background.
export const palette = ["#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#7f7f7f", "#F0E442"];

export const colorAt = (i: number): string => palette[i % palette.length] as string;

/** Dash patterns so lines stay apart in greyscale prints too. */
const dashes = ["", "6 3", "2 3", "8 3 2 3"];
export const dashAt = (i: number): string => dashes[Math.floor(i / palette.length + i) % dashes.length] as string;
