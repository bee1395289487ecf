import { toCsv } from "@cnibench/schema/csv";

// Export of what a chart shows. Written by hand: it is a few lines of DOM (serialise the chart's own
// SVG; draw it on a canvas for PNG), where an HTML-to-image library would re-render the whole page.

function download(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement("a");
  a.href = url;
  a.download = filename;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** The chart's SVG as a standalone file, with computed colours inlined so it renders anywhere. */
function svgMarkup(svg: SVGSVGElement): string {
  const clone = svg.cloneNode(true) as SVGSVGElement;
  clone.setAttribute("xmlns", "http://www.w3.org/2000/svg");
  const { width, height } = svg.getBoundingClientRect();
  clone.setAttribute("width", String(Math.round(width)));
  clone.setAttribute("height", String(Math.round(height)));
  const background = document.createElementNS("http://www.w3.org/2000/svg", "rect");
  background.setAttribute("width", "100%");
  background.setAttribute("height", "100%");
  background.setAttribute("fill", getComputedStyle(document.body).backgroundColor || "#fff");
  clone.insertBefore(background, clone.firstChild);
  // Text colour comes from CSS (currentColor); fix it in the file.
  const color = getComputedStyle(svg).color;
  clone.setAttribute("color", color);
  clone.setAttribute("font-family", getComputedStyle(svg).fontFamily);
  return new XMLSerializer().serializeToString(clone);
}

export function downloadSvg(svg: SVGSVGElement, filename: string): void {
  download(new Blob([svgMarkup(svg)], { type: "image/svg+xml" }), `${filename}.svg`);
}

export async function downloadPng(svg: SVGSVGElement, filename: string, scale = 2): Promise<void> {
  const { width, height } = svg.getBoundingClientRect();
  const image = new Image();
  const url = URL.createObjectURL(new Blob([svgMarkup(svg)], { type: "image/svg+xml" }));
  try {
    await new Promise<void>((resolve, reject) => {
      image.onload = () => resolve();
      image.onerror = () => reject(new Error("the chart could not be drawn as an image"));
      image.src = url;
    });
    const canvas = document.createElement("canvas");
    canvas.width = Math.round(width * scale);
    canvas.height = Math.round(height * scale);
    const ctx = canvas.getContext("2d");
    if (!ctx) throw new Error("no 2D canvas");
    ctx.scale(scale, scale);
    ctx.drawImage(image, 0, 0, width, height);
    const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, "image/png"));
    if (!blob) throw new Error("the PNG could not be encoded");
    download(blob, `${filename}.png`);
  } finally {
    URL.revokeObjectURL(url);
  }
}

export function downloadCsv(
  rows: readonly (readonly (string | number | null | undefined)[])[],
  filename: string,
): void {
  download(new Blob([toCsv(rows)], { type: "text/csv;charset=utf-8" }), `${filename}.csv`);
}
