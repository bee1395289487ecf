import { scenarioCard } from "~/server/cards/card";
import { refusal } from "../../../badge/respond";
import { cardResponse, pngName } from "../../respond";

/** /card/scenarios/<id>.png: a scenario's link card, to whom the scenario opens (404 to anyone else). */
export async function GET(_req: Request, { params }: { params: Promise<{ file: string }> }) {
  const id = pngName((await params).file);
  if (!id) return refusal(404);
  return cardResponse(
    (caller) => caller.scenarios.byId({ id }),
    (view) => scenarioCard(view),
  );
}
