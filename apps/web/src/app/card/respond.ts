import "server-only";
import { ImageResponse } from "next/og";
import type { ReactElement } from "react";
import { currentUserId } from "~/auth";
import { cardSize, mapText, textOf } from "~/server/cards/card";
import { cardFonts } from "~/server/cards/card-fonts";
import type { api } from "~/trpc/server";
import { readOrRefuse, refusal } from "../badge/respond";

type Caller = Awaited<ReturnType<typeof api>>;

/**
 * A card route's answer: the PNG card of what the procedure lets this visitor read (the page's own
 * read, with the visitor's session), else 404 — unknown, private to someone else (an unfurler comes
 * without cookies), or nothing to draw — or 400 for a malformed request. What a signed-out visitor
 * may read is public: only then may caches keep the card (five minutes, as badges); a signed-in
 * visitor's card may show private data and is kept by no one.
 */
export async function cardResponse<T>(
  read: (caller: Caller) => Promise<T>,
  draw: (data: T) => ReactElement | null,
): Promise<Response> {
  const answer = await readOrRefuse(read);
  if (answer instanceof Response) return answer;
  const drawn = draw(answer.data);
  if (!drawn) return refusal(404);
  const isPublic = (await currentUserId()) === null;
  const { fonts, uncovered } = await cardFonts(textOf(drawn));
  // A character no font has would make next/og fetch one from the network: it is drawn as "?".
  const card =
    uncovered.size === 0 ? drawn : mapText(drawn, (t) => [...t].map((ch) => (uncovered.has(ch) ? "?" : ch)).join(""));
  // Rendered whole before answering, so a failure is a 500 rather than a cut-off picture.
  const png = await new ImageResponse(card as ReactElement, { ...cardSize, fonts }).arrayBuffer();
  return new Response(png, {
    headers: {
      "content-type": "image/png",
      "cache-control": isPublic ? "public, max-age=300" : "private, no-store",
    },
  });
}

/** `<name>.png` of a card route's last segment: the permalink's slug or the scenario's id. */
export const pngName = (file: string): string | null => file.match(/^([\w-]{1,100})\.png$/)?.[1] ?? null;
