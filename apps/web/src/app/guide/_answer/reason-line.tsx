"use client";
// A reason of the guide's answer: its words, its kind, whether it speaks for or against, its evidence and
// sources. A client component for the size of the page (see ./evidence-list): it gets the reason's words
// and links, not the element tree of every reason.
import { formatCount } from "@cnibench/format";
import { TextAnchor, TextLink } from "~/app/_ui/link";
import { EvidenceList } from "./evidence-list";
import type { ReasonView } from "./reason";
import { sourceNames, sourcesByLabel } from "./source-names";

const kindStyles: Record<ReasonView["kind"], string> = {
  measured: "border-emerald-300 text-emerald-800 dark:border-emerald-800 dark:text-emerald-300",
  extrapolated: "border-violet-300 text-violet-800 dark:border-violet-800 dark:text-violet-300",
  capability: "border-sky-300 text-sky-800 dark:border-sky-800 dark:text-sky-300",
  caveat: "border-amber-400 text-amber-800 dark:border-amber-700 dark:text-amber-300",
};

const effectMarks: Record<ReasonView["effect"], { mark: string; words: string; className: string }> = {
  for: { mark: "+", words: "speaks for it", className: "text-emerald-700 dark:text-emerald-400" },
  against: { mark: "−", words: "speaks against it", className: "text-red-700 dark:text-red-400" },
  neutral: { mark: "·", words: "information", className: "text-zinc-400" },
};

export function ReasonLine(props: { reason: ReasonView; apiUrl: string; lead?: boolean; moreHref?: string }) {
  const r = props.reason;
  const effect = effectMarks[r.effect];
  const { figures, sources } = r;
  const more = r.evidenceCount - figures.length;
  return (
    <li className="flex gap-2">
      <span aria-hidden="true" className={`w-3 shrink-0 text-center font-semibold ${effect.className}`}>
        {effect.mark}
      </span>
      <div className="min-w-0 space-y-1 break-words">
        <p className={props.lead ? "font-medium" : undefined}>
          <span className="sr-only">{effect.words}: </span>
          <span
            className={`mr-1.5 inline-block rounded border px-1 align-[1px] text-[10px] font-medium uppercase tracking-wide ${kindStyles[r.kind]}`}
          >
            {r.kind}
          </span>
          {r.text}
          {r.rest ? (
            <>
              {" "}
              <TextLink href={r.rest.href}>The {formatCount(r.rest.count)} more in Explore</TextLink>.
            </>
          ) : null}
        </p>
        {figures.length === 0 ? null : r.evidenceCount <= 4 ? (
          <EvidenceList figures={figures} apiUrl={props.apiUrl} />
        ) : (
          <details className="text-xs">
            <summary className="cursor-pointer text-zinc-500 hover:text-zinc-800 dark:hover:text-zinc-200">
              Evidence: {formatCount(r.evidenceCount)} figures{more > 0 ? `, the first ${figures.length} listed` : ""}
            </summary>
            <EvidenceList figures={figures} apiUrl={props.apiUrl} />
            {more > 0 && props.moreHref ? (
              <p className="mt-1 text-zinc-500">
                {formatCount(more)} more not listed;{" "}
                <TextLink href={props.moreHref}>this datapath's scenarios in Explore</TextLink>
              </p>
            ) : null}
          </details>
        )}
        {sources.length === 0 ? null : sources.length <= 3 ? (
          <p className="text-xs text-zinc-500">
            Source{sources.length === 1 ? "" : "s"}: <SourceLinks sources={sources} />
          </p>
        ) : (
          <details className="text-xs text-zinc-500">
            <summary className="cursor-pointer hover:text-zinc-800 dark:hover:text-zinc-200">
              Sources: {sources.length} pages
            </summary>
            <ul className="mt-1 space-y-0.5">
              {sourcesByLabel(sources).map(([label, pages]) => (
                <li key={label}>
                  {label}:{" "}
                  {pages.length === 1 ? (
                    <SourceUrl source={pages[0]!} />
                  ) : (
                    <ul className="ml-3">
                      {pages.map((s) => (
                        <li key={s.url}>
                          <SourceUrl source={s} />
                        </li>
                      ))}
                    </ul>
                  )}
                </li>
              ))}
            </ul>
          </details>
        )}
      </div>
    </li>
  );
}

/** A page and what it backs: "docs.cilium.io/…/envoy/ (L7 (HTTP) policy)". */
function SourceUrl(props: { source: ReasonView["sources"][number] }) {
  const { url, about } = props.source;
  return (
    <>
      {/* A documentation path has no spaces: let it break anywhere rather than widen a phone's page. */}
      <TextAnchor href={url} rel="noreferrer" target="_blank" className="break-all">
        {url.replace(/^https:\/\/(www\.)?/, "")}
      </TextAnchor>
      {` (${about})`}
    </>
  );
}

function SourceLinks(props: { sources: ReasonView["sources"] }) {
  const names = sourceNames(props.sources.map((s) => s.url));
  return props.sources.map((s, i) => (
    <span key={s.url}>
      {i > 0 ? ", " : ""}
      <TextAnchor href={s.url} title={`${s.label}: ${s.about}`} rel="noreferrer" target="_blank">
        {names[i]}
      </TextAnchor>
    </span>
  ));
}
