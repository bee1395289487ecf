import type { z } from "zod";
import { comparisonBadge, verdictColor } from "~/server/cards/badge";
import type { compareOutputSchema } from "~/server/routers/compare.types";

type Comparison = z.output<typeof compareOutputSchema>;

/**
 * A comparison in a few lines, for an embed: who against whom, the compare page's summary sentences,
 * and the headline verdict the badge shows (the same words, from the same answer).
 */
export function ComparisonSummary({ data, title }: { data: Comparison; title?: string }) {
  const [baseline, ...candidates] = data.labels;
  const headline = comparisonBadge(data);
  return (
    <section aria-label="Summary" className="space-y-1">
      <h1 className="text-base font-semibold">{title ?? `${candidates.join(", ")} vs ${baseline}`}</h1>
      <p data-testid="embed-headline" className="text-lg font-medium">
        <span className="text-zinc-600 dark:text-zinc-400">{headline.label}: </span>
        <span style={{ color: verdictColor(null) === headline.color ? undefined : headline.color }}>
          {headline.value}
        </span>
      </p>
      {data.summaries.map((s) => (
        <p key={s} className="text-sm">
          {s}
        </p>
      ))}
      {data.environment.confounders.length > 0 ? (
        <p className="text-xs text-amber-800 dark:text-amber-300">
          Not like-for-like: {data.environment.confounders.join(", ")} also differ.
        </p>
      ) : null}
    </section>
  );
}
