import { comparisonCsv, comparisonForDownload } from "~/server/views/downloads";
import { loadCompareParams, readMargins } from "../params";

/** /compare/evidence.csv?s=<id>&s=<id>&margin=…: the compare page's verdicts with their evidence. */
export async function GET(req: Request) {
  const { s, margin } = loadCompareParams(req);
  const data = await comparisonForDownload([...new Set(s)], readMargins(margin).margins);
  return data instanceof Response ? data : comparisonCsv(data);
}
