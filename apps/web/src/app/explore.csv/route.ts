import { exploreCsv, exploreForDownload } from "~/server/views/downloads";
import { exploreInput } from "../_explore/input";
import { loadExploreParams } from "../_explore/params";
import { sortScenarios } from "../_explore/rows";

/**
 * /explore.csv?<the explorer's address>: its table as filtered and sorted there (every page), with the
 * chosen columns (`col=`); open to whom the explorer is, showing each visitor what it shows them.
 */
export async function GET(req: Request) {
  const { input, sort, order } = exploreInput(loadExploreParams(req));
  const view = await exploreForDownload(input);
  return view instanceof Response ? view : exploreCsv(view, sortScenarios(view.scenarios, sort, order));
}
