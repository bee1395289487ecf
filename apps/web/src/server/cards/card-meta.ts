import "server-only";
import type { Metadata } from "next";
import { webEnv } from "~/env";
import { cardSize } from "./card";

/**
 * A page's link card for unfurlers: og:image and twitter:image (summary_large_image) at its card route,
 * made absolute against the public web address (CNIBENCH_PUBLIC_WEB_URL), as unfurlers require.
 */
export function cardMetadata(path: string, alt: string) {
  return {
    metadataBase: new URL(webEnv().publicWebUrl),
    openGraph: { images: [{ url: path, ...cardSize, alt, type: "image/png" }] },
    twitter: { card: "summary_large_image", images: [{ url: path, alt }] },
  } satisfies Metadata;
}
