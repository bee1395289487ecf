import { scenarioForDownload, scenarioJson } from "~/server/views/downloads";

export async function GET(_req: Request, { params }: { params: Promise<{ id: string }> }) {
  const view = await scenarioForDownload((await params).id);
  return view instanceof Response ? view : scenarioJson(view);
}
