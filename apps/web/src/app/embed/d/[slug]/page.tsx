import type { Metadata } from "next";
import type { SearchParams } from "nuqs/server";
import { api, orNotFound } from "~/trpc/server";
import { EmbedFrame, embedMetadata, themeOf } from "../../frame";
import { ComparisonSummary } from "../../summary";

export const metadata: Metadata = { ...embedMetadata, title: "Shared comparison (embed)" };

/** /embed/d/<slug>[?theme=dark|light]: a permalink's pinned summary, to whom the permalink opens (404 else). */
export default async function EmbedPermalinkPage(props: {
  params: Promise<{ slug: string }>;
  searchParams: Promise<SearchParams>;
}) {
  const { slug } = await props.params;
  const link = await orNotFound((await api()).compare.permalink({ slug }));
  return (
    <EmbedFrame theme={themeOf(await props.searchParams)} href={`/d/${encodeURIComponent(link.slug)}`}>
      <ComparisonSummary data={link.comparison} />
      <p className="text-xs text-zinc-500">
        Pinned on {link.createdAt.toISOString().slice(0, 10)} to the {link.pins.length} bundles current then.
      </p>
    </EmbedFrame>
  );
}
