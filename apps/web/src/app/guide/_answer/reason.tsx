// A reason of the guide's answer, as the page lists it: the server words its figures and links, and the
// client component ./reason-line draws it from those few words (see there why).
import { formatFigure, formatParams } from "@cnibench/format";
import type { GuideOutput } from "~/server/routers/guide.types";
import { exploreHref } from "../../_explore/params";
import type { EvidenceFigure } from "./evidence-list";
import { ReasonLine } from "./reason-line";

type Reason = GuideOutput["summary"][number];

/** What the reason line draws: the reason with its figures formatted, its sources once each, its links made. */
export type ReasonView = Pick<Reason, "text" | "kind" | "effect" | "evidenceCount" | "sources"> & {
  figures: EvidenceFigure[];
  /** The names the text left out, and the explorer's page that lists them. */
  rest: { count: number; href: string } | null;
};

function reasonView(r: Reason): ReasonView {
  return {
    text: r.text,
    kind: r.kind,
    effect: r.effect,
    evidenceCount: r.evidenceCount,
    sources: [...new Map(r.sources.map((s) => [s.url, s])).values()],
    figures: r.evidence.map((e) => ({
      scenarioId: e.scenarioId,
      scenarioLabel: e.scenarioLabel,
      bundleId: e.bundleId,
      figure: formatFigure(e),
      metric: Object.keys(e.params).length > 0 ? `${e.metric} (${formatParams(e.params)})` : e.metric,
    })),
    rest: r.rest ? { count: r.rest.count, href: exploreHref("/", r.rest.explore) } : null,
  };
}

export function ReasonItem(props: { reason: Reason; apiUrl: string; lead?: boolean; moreHref?: string }) {
  return <ReasonLine {...props} reason={reasonView(props.reason)} />;
}
