import { comparisonCard } from "~/server/cards/card";
import { refusal } from "../../badge/respond";
import { loadCompareParams, readMargins } from "../../compare/params";
import { cardResponse } from "../respond";

/**
 * /card/compare.png?<the compare page's query>: the comparison's link card from the same procedure,
 * to whom the page shows it; fewer than 2 readable scenarios is a 404.
 */
export async function GET(req: Request) {
  const { s, margin } = loadCompareParams(new URL(req.url).searchParams);
  const chosen = [...new Set(s ?? [])];
  if (chosen.length < 2 || chosen.length > 4) return refusal(404);
  return cardResponse(
    (caller) => caller.compare.view({ scenarioIds: chosen, margins: readMargins(margin).margins }),
    (data) => (data.scenarios.length < 2 ? null : comparisonCard(data, "Compare")),
  );
}
