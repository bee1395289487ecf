import { TRPCError } from "@trpc/server";
import type { Metadata } from "next";
import { notFound } from "next/navigation";
import type { SearchParams } from "nuqs/server";
import { api } from "~/trpc/server";
import { compareHref, loadCompareParams, marginItems, readMargins } from "../../compare/params";
import { EmbedFrame, embedMetadata, themeOf } from "../frame";
import { ComparisonSummary } from "../summary";

export const metadata: Metadata = { ...embedMetadata, title: "Compare (embed)" };

/**
 * /embed/compare?<the compare page's address>[&theme=dark|light]: its summary from the same procedure,
 * to whom the compare page shows it; fewer than 2 readable scenarios is a 404.
 */
export default async function EmbedComparePage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const search = await searchParams;
  const { s, margin } = await loadCompareParams(search);
  const chosen = [...new Set(s ?? [])];
  const { margins } = readMargins(margin);
  if (chosen.length < 2 || chosen.length > 4) notFound();
  let data: Awaited<ReturnType<Awaited<ReturnType<typeof api>>["compare"]["view"]>>;
  try {
    data = await (await api()).compare.view({ scenarioIds: chosen, margins });
  } catch (error) {
    if (error instanceof TRPCError && (error.code === "BAD_REQUEST" || error.code === "NOT_FOUND")) notFound();
    throw error;
  }
  if (data.scenarios.length < 2) notFound();
  return (
    <EmbedFrame
      theme={themeOf(search)}
      href={compareHref("/compare", { s: data.scenarios.map((x) => x.id), margin: marginItems(margins) })}
    >
      <ComparisonSummary data={data} />
    </EmbedFrame>
  );
}
