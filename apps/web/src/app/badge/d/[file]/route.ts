import { comparisonBadge } from "~/server/cards/badge";
import { badgeResponse, refusal } from "../../respond";

/**
 * /badge/d/<slug>.svg: a permalink's headline verdict as a badge, to whom the permalink opens (404 to
 * anyone else); public caches may keep it once the permalink is published.
 */
export async function GET(_req: Request, { params }: { params: Promise<{ file: string }> }) {
  const slug = (await params).file.match(/^([\w-]{1,40})\.svg$/)?.[1];
  if (!slug) return refusal(404);
  return badgeResponse(
    (caller) => caller.compare.permalink({ slug }),
    (link) => ({ badge: comparisonBadge(link.comparison), isPublic: link.published }),
  );
}
