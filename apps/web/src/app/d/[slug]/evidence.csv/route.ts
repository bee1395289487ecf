import { comparisonCsv, permalinkForDownload } from "~/server/views/downloads";

/** /d/<slug>/evidence.csv: the shared comparison's verdicts with their evidence, as pinned. */
export async function GET(_req: Request, { params }: { params: Promise<{ slug: string }> }) {
  const { slug } = await params;
  const data = await permalinkForDownload(slug);
  // A slug is found only as stored (base64url), so it is safe in the header.
  return data instanceof Response ? data : comparisonCsv(data, `cnibench-compare-${slug}.csv`);
}
