import type { Metadata } from "next";
import type { ReactNode } from "react";

/** Embeds are for other sites' frames, not for search engines. */
export const embedMetadata: Metadata = { robots: { index: false, follow: false } };

export type Theme = "light" | "dark" | null;

/** `?theme=dark|light`; anything else (or none) follows the reader's prefers-color-scheme. */
export function themeOf(search: Record<string, string | string[] | undefined>): Theme {
  const t = search.theme;
  return t === "dark" || t === "light" ? t : null;
}

// The root layout draws the site's header around every page: an embed hides it (and the skip link),
// and takes the whole frame. `data-theme` on the frame forces the `dark:` variant either way
// (globals.css).
const css = `body:has([data-embed]){background:transparent}
body:has([data-embed])>header,body:has([data-embed])>a[href="#main"]{display:none}
body:has([data-embed])>main{max-width:none;padding:0}`;

/**
 * An embed's page: its content in a frame of its own colours, and a small "cnibench" link back to the
 * full page. Links open outside the frame (`<base target>`): the full pages refuse to be framed.
 */
export function EmbedFrame(props: { theme: Theme; href: string; children: ReactNode }) {
  return (
    <div
      data-embed=""
      data-theme={props.theme ?? undefined}
      style={props.theme ? { colorScheme: props.theme } : undefined}
      className="min-h-screen space-y-2 bg-white p-3 text-zinc-900 dark:bg-zinc-950 dark:text-zinc-100"
    >
      <style>{css}</style>
      <base target="_blank" />
      {props.children}
      <p className="text-right text-xs text-zinc-500">
        <a href={props.href} target="_blank" rel="noopener" className="font-semibold hover:underline">
          cnibench
        </a>
      </p>
    </div>
  );
}
