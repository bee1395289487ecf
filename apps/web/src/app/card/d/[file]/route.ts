import { comparisonCard } from "~/server/cards/card";
import { refusal } from "../../../badge/respond";
import { cardResponse, pngName } from "../../respond";

/** /card/d/<slug>.png: a permalink's link card, its most significant verdicts, to whom the permalink opens. */
export async function GET(_req: Request, { params }: { params: Promise<{ file: string }> }) {
  const slug = pngName((await params).file);
  if (!slug || slug.length > 40) return refusal(404);
  return cardResponse(
    (caller) => caller.compare.permalink({ slug }),
    (link) => comparisonCard(link.comparison, `Shared comparison, pinned ${link.createdAt.toISOString().slice(0, 10)}`),
  );
}
