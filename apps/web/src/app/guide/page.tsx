import { guideNeedLabels, providerName } from "@cnibench/analysis";
import { formatCount, formatFigure, formatParams } from "@cnibench/analysis/format";
import { vocabularyLabel } from "@cnibench/schema";
import type { Metadata } from "next";
import { NuqsAdapter } from "nuqs/adapters/next/app";
import type { SearchParams } from "nuqs/server";
import { Suspense } from "react";
import { Card } from "~/app/_ui/card";
import { EmptyState } from "~/app/_ui/empty-state";
import { TextAnchor, TextLink } from "~/app/_ui/link";
import { Notice } from "~/app/_ui/notice";
import { Table, TableFrame, TableHead, Td, Tr } from "~/app/_ui/table";
import { Muted } from "~/app/_ui/text";
import { webEnv } from "~/env";
import type { GuideOutput } from "~/server/routers/guide.types";
import { api } from "~/trpc/server";
import { exploreHref } from "../_explore/params";
import { type CloudChoice, GuideForm, type SkuChoice } from "./form";
import { guideHref, guideQuery, loadGuideParams } from "./params";

export const metadata: Metadata = { title: "Guide" };

type Reason = GuideOutput["summary"][number];
type Evidence = Reason["evidence"][number];
type Option = GuideOutput["options"][number];
type NeedCheck = Option["needs"][number];

/** Managed clouds offered even without measurements, so a user can ask and be told. */
const managedClouds = ["aks", "eks", "gke", "tke", "ack", "cce", "oke", "doks"];

const connectionWords = {
  keepalive: "keepalive connections",
  short: "short-lived connections",
  mixed: "mixed connections",
};

type Params = Awaited<ReturnType<typeof loadGuideParams>>;

export default async function GuidePage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const params = await loadGuideParams(searchParams);
  // The heading goes out at once; the form and the answer follow when the ranking is done (a store
  // of a thousand scenarios takes a few hundred milliseconds), with a note meanwhile.
  return (
    <div className="space-y-6">
      <header className="space-y-1">
        <h1 className="text-xl font-semibold">Guide</h1>
        <Muted className="max-w-3xl">
          What should you run? Describe the cluster; the answer ranks the datapaths measured here, with the figures and
          the documentation behind every reason. Figures are compared only within one cloud and instance type.
        </Muted>
      </header>
      <Suspense key={guideHref("", params)} fallback={<Pending />}>
        <Answer params={params} />
      </Suspense>
    </div>
  );
}

function Pending() {
  return <Muted role="status">Ranking the datapaths from the figures…</Muted>;
}

async function Answer({ params }: { params: Params }) {
  const query = guideQuery(params);
  const trpc = await api();
  const data = await trpc.guide.recommend(query);
  const apiUrl = webEnv().publicApiUrl;

  const cloudName = (slug: string) => vocabularyLabel("provider", slug) ?? slug;
  const measured = new Map(data.choices.clouds.map((c) => [c.value, c.scenarios]));
  const cloudValues = [...new Set([...data.choices.clouds.map((c) => c.value), ...managedClouds])];
  if (query.cloud && !cloudValues.includes(query.cloud)) cloudValues.push(query.cloud);
  const clouds: CloudChoice[] = cloudValues.map((value) => ({
    value,
    label: `${cloudName(value)} (${measured.has(value) ? `${measured.get(value)} scenarios` : "no data yet"})`,
  }));
  const skus: SkuChoice[] = data.choices.skus.map((s) => ({
    ...s,
    label: `${providerName(s.provider)} · ${s.scenarios} scenario${s.scenarios === 1 ? "" : "s"}`,
  }));

  const asked = [
    query.cloud ? cloudName(query.cloud) : "any cloud",
    ...(query.sku ? [query.sku] : []),
    `${formatCount(query.services)} Services`,
    connectionWords[query.connections],
    ...query.needs.map((n) => guideNeedLabels[n]),
  ];

  return (
    <>
      <NuqsAdapter>
        <GuideForm key={guideHref("", params)} clouds={clouds} skus={skus} />
      </NuqsAdapter>

      <section aria-labelledby="answer" className="space-y-3">
        <div>
          <h2 id="answer" className="text-lg font-semibold">
            Answer
          </h2>
          <Muted>For {asked.join(" · ")}.</Muted>
        </div>
        {data.caveats.length > 0 ? (
          <Notice tone="warning" as="div" padding="normal" role="note" aria-label="Caveats">
            <p className="mb-1 font-medium">Keep in mind</p>
            <ul className="space-y-1.5">
              {data.caveats.map((r) => (
                <ReasonItem key={r.text} reason={r} apiUrl={apiUrl} />
              ))}
            </ul>
          </Notice>
        ) : null}
        <Card>
          <ul aria-label="Summary" className="space-y-2 text-sm">
            {data.summary.map((r, i) => (
              <ReasonItem key={r.text} reason={r} apiUrl={apiUrl} lead={i === 0} />
            ))}
          </ul>
          {data.moreFindings > 0 ? (
            <p className="mt-2 text-xs text-zinc-500">
              {formatCount(data.moreFindings)} more findings like these, on other testbeds: choose a cloud or instance
              type above to see theirs.
            </p>
          ) : null}
        </Card>
      </section>

      <section aria-labelledby="ranked" className="space-y-3">
        <h2 id="ranked" className="text-lg font-semibold">
          Datapaths, ranked
        </h2>
        {data.options.length === 0 ? (
          <EmptyState>No measured datapath fits this scope.</EmptyState>
        ) : (
          <ol className="space-y-3">
            {data.options.map((o) => (
              <OptionCard key={o.id} option={o} apiUrl={apiUrl} top={o.rank === 1} />
            ))}
          </ol>
        )}
      </section>

      {data.unmeasured.length > 0 ? (
        <section aria-labelledby="unmeasured" className="space-y-2">
          <h2 id="unmeasured" className="text-lg font-semibold">
            Also possible, not measured here
          </h2>
          <Muted>From the capability matrix only: no figures, so not ranked.</Muted>
          <TableFrame>
            <Table>
              <TableHead columns={["Datapath", "Your needs"]} />
              <tbody>
                {data.unmeasured.map((u) => (
                  <Tr key={u.id} className="align-top">
                    <th scope="row" className="px-3 py-2 text-left font-normal">
                      {u.label}
                    </th>
                    <Td>
                      {u.needs.length === 0 ? (
                        <span className="text-zinc-500">tick a need above to check it here</span>
                      ) : (
                        <ul className="space-y-1">
                          {u.reasons.map((r) => (
                            <ReasonItem key={r.text} reason={r} apiUrl={apiUrl} />
                          ))}
                        </ul>
                      )}
                    </Td>
                  </Tr>
                ))}
              </tbody>
            </Table>
          </TableFrame>
        </section>
      ) : null}

      <footer className="space-y-1 border-t border-zinc-200 pt-3 text-xs text-zinc-500 dark:border-zinc-800">
        <p>
          How the ranking works: datapaths missing a need you ticked come last (then those that offer it only partly or
          whose docs do not say); then the measured performance for your traffic, when the verdicts separate the
          datapaths (better or worse beyond each metric's margin, as in compare); then the features each offers.
          Crossovers are interpolated between measured steps; anything past the measured range is marked extrapolated.
        </p>
        <p>
          Capability matrix v{data.capabilitiesVersion}, every cell with its source. Figures: the current ones of{" "}
          {data.scope.scenarioCount} scenario{data.scope.scenarioCount === 1 ? "" : "s"} in scope (
          {data.scope.clouds.map(providerName).join(", ") || "none"}).
        </p>
      </footer>
    </>
  );
}

const kindStyles: Record<Reason["kind"], string> = {
  measured: "border-emerald-300 text-emerald-800 dark:border-emerald-800 dark:text-emerald-300",
  extrapolated: "border-violet-300 text-violet-800 dark:border-violet-800 dark:text-violet-300",
  capability: "border-sky-300 text-sky-800 dark:border-sky-800 dark:text-sky-300",
  caveat: "border-amber-400 text-amber-800 dark:border-amber-700 dark:text-amber-300",
};

const effectMarks: Record<Reason["effect"], { mark: string; words: string; className: string }> = {
  for: { mark: "+", words: "speaks for it", className: "text-emerald-700 dark:text-emerald-400" },
  against: { mark: "−", words: "speaks against it", className: "text-red-700 dark:text-red-400" },
  neutral: { mark: "·", words: "information", className: "text-zinc-400" },
};

function hostOf(url: string): string {
  try {
    return new URL(url).hostname.replace(/^www\./, "");
  } catch {
    return url;
  }
}

function ReasonItem(props: { reason: Reason; apiUrl: string; lead?: boolean; moreHref?: string }) {
  const r = props.reason;
  const effect = effectMarks[r.effect];
  const evidence = r.evidence;
  const more = r.evidenceCount - evidence.length;
  const sources = [...new Map(r.sources.map((s) => [s.url, s])).values()];
  return (
    <li className="flex gap-2">
      <span aria-hidden="true" className={`w-3 shrink-0 text-center font-semibold ${effect.className}`}>
        {effect.mark}
      </span>
      <div className="min-w-0 space-y-1">
        <p className={props.lead ? "font-medium" : undefined}>
          <span className="sr-only">{effect.words}: </span>
          <span
            className={`mr-1.5 inline-block rounded border px-1 align-[1px] text-[10px] font-medium uppercase tracking-wide ${kindStyles[r.kind]}`}
          >
            {r.kind}
          </span>
          {r.text}
        </p>
        {evidence.length === 0 ? null : r.evidenceCount <= 4 ? (
          <EvidenceList evidence={evidence} apiUrl={props.apiUrl} />
        ) : (
          <details className="text-xs">
            <summary className="cursor-pointer text-zinc-500 hover:text-zinc-800 dark:hover:text-zinc-200">
              Evidence: {formatCount(r.evidenceCount)} figures{more > 0 ? `, the first ${evidence.length} listed` : ""}
            </summary>
            <EvidenceList evidence={evidence} apiUrl={props.apiUrl} />
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
              {sources.map((s) => (
                <li key={s.url}>
                  {s.label}:{" "}
                  <TextAnchor href={s.url} rel="noreferrer" target="_blank">
                    {s.url.replace(/^https:\/\/(www\.)?/, "")}
                  </TextAnchor>
                </li>
              ))}
            </ul>
          </details>
        )}
      </div>
    </li>
  );
}

function EvidenceList(props: { evidence: Evidence[]; apiUrl: string }) {
  return (
    <ul aria-label="Evidence" className="mt-1 flex flex-wrap gap-1 text-xs">
      {props.evidence.map((e) => (
        <li
          key={`${e.bundleId} ${e.metric} ${JSON.stringify(e.params)}`}
          className="rounded border border-zinc-200 px-1.5 py-0.5 text-zinc-700 dark:border-zinc-700 dark:text-zinc-300"
        >
          <TextLink href={`/scenarios/${e.scenarioId}`}>{e.scenarioLabel}</TextLink>{" "}
          <span className="tabular-nums">{formatFigure(e)}</span>
          <span className="text-zinc-500">
            {" "}
            {e.metric}
            {Object.keys(e.params).length > 0 ? ` (${formatParams(e.params)})` : ""}
          </span>{" "}
          <TextAnchor href={`${props.apiUrl}/v1/bundles/${e.bundleId}`}>bundle</TextAnchor>
        </li>
      ))}
    </ul>
  );
}

function SourceLinks(props: { sources: Reason["sources"] }) {
  return props.sources.map((s, i) => (
    <span key={s.url}>
      {i > 0 ? ", " : ""}
      <TextAnchor href={s.url} title={s.label} rel="noreferrer" target="_blank">
        {hostOf(s.url)}
      </TextAnchor>
    </span>
  ));
}

const fitWords: Record<Option["fit"], { label: string; className: string }> = {
  good: {
    label: "meets your needs",
    className: "bg-emerald-50 text-emerald-800 dark:bg-emerald-950 dark:text-emerald-300",
  },
  partial: {
    label: "some needs only partly or undocumented",
    className: "bg-amber-50 text-amber-800 dark:bg-amber-950 dark:text-amber-300",
  },
  poor: { label: "misses a need", className: "bg-red-50 text-red-800 dark:bg-red-950 dark:text-red-300" },
};

const statusWords: Record<NeedCheck["status"], { mark: string; className: string }> = {
  met: { mark: "✓", className: "border-emerald-300 text-emerald-800 dark:border-emerald-800 dark:text-emerald-300" },
  partial: { mark: "◐", className: "border-amber-300 text-amber-800 dark:border-amber-800 dark:text-amber-300" },
  unknown: { mark: "?", className: "border-zinc-300 text-zinc-600 dark:border-zinc-700 dark:text-zinc-400" },
  unmet: { mark: "✗", className: "border-red-300 text-red-800 dark:border-red-800 dark:text-red-300" },
};

function OptionCard(props: { option: Option; apiUrl: string; top: boolean }) {
  const o = props.option;
  const features = o.reasons.filter((r) => r.kind === "capability" && r.text.startsWith("Features:"));
  const rest = o.reasons.filter((r) => !features.includes(r));
  const headingId = `option-${o.rank}`;
  const here = o.scenarios.filter((s) => s.inScope);
  const elsewhere = o.scenarios.filter((s) => !s.inScope);
  const unlisted = o.scenarioCount.all - o.scenarios.length;
  // Its scenarios in the explorer: where those not listed here, and the figures behind them, are.
  const moreHref = exploreHref("/", { ...o.explore, provider: o.clouds });
  return (
    <li
      aria-labelledby={headingId}
      className={`rounded-lg border bg-white p-4 dark:bg-zinc-900 ${props.top ? "border-blue-500 ring-1 ring-blue-500/40" : "border-zinc-200 dark:border-zinc-800"}`}
    >
      <div className="flex flex-wrap items-baseline gap-x-3 gap-y-1">
        <span className="rounded bg-zinc-900 px-1.5 text-sm font-semibold text-white tabular-nums dark:bg-zinc-100 dark:text-zinc-900">
          {o.rank}
        </span>
        <h3 id={headingId} className="text-base font-semibold">
          {o.label}
        </h3>
        <span className={`rounded px-1.5 py-0.5 text-xs ${fitWords[o.fit].className}`}>{fitWords[o.fit].label}</span>
      </div>
      {o.needs.length > 0 ? (
        <ul aria-label="Needs" className="mt-2 flex flex-wrap gap-1 text-xs">
          {o.needs.map((n) => (
            <li key={n.need} className={`rounded-full border px-2 py-0.5 ${statusWords[n.status].className}`}>
              <span aria-hidden="true">{statusWords[n.status].mark} </span>
              {guideNeedLabels[n.need]}
              <span className="sr-only">: {n.status}</span>
              {n.hard ? "" : <span className="text-zinc-500"> (preference)</span>}
            </li>
          ))}
        </ul>
      ) : null}
      <p className="mt-2 text-xs text-zinc-500">
        {here.length > 0 ? (
          <>
            Measured here as <ScenarioLinks scenarios={here} />
            {o.scenarioCount.inScope > here.length
              ? ` and ${formatCount(o.scenarioCount.inScope - here.length)} more`
              : ""}
            .{" "}
          </>
        ) : null}
        {elsewhere.length > 0 || o.scenarioCount.all > o.scenarioCount.inScope ? (
          <>
            {here.length > 0 ? "Also measured" : "Measured only outside your scope"}
            {elsewhere.length > 0 ? (
              <>
                {" "}
                as <ScenarioLinks scenarios={elsewhere} />
              </>
            ) : null}
            {o.scenarioCount.all - o.scenarioCount.inScope > elsewhere.length
              ? `${elsewhere.length > 0 ? " and" : ""} ${formatCount(o.scenarioCount.all - o.scenarioCount.inScope - elsewhere.length)} more`
              : ""}
            .{" "}
          </>
        ) : null}
        {unlisted > 0 ? (
          <>
            <TextLink href={moreHref}>All {formatCount(o.scenarioCount.all)} in Explore</TextLink>.{" "}
          </>
        ) : null}
        Capability rows: {o.capabilityRows.join(" + ") || "none"}.
      </p>
      <ul className="mt-3 space-y-2 text-sm">
        {rest.map((r) => (
          <ReasonItem key={r.text} reason={r} apiUrl={props.apiUrl} moreHref={moreHref} />
        ))}
      </ul>
      {o.moreReasons > 0 ? (
        <p className="mt-2 text-xs text-zinc-500">
          {formatCount(o.moreReasons)} more measured reasons, on other testbeds: choose a cloud or instance type above,
          or see <TextLink href={moreHref}>its scenarios in Explore</TextLink>.
        </p>
      ) : null}
      {features.length > 0 ? (
        <details className="mt-2 text-sm">
          <summary className="cursor-pointer text-xs text-zinc-500 hover:text-zinc-800 dark:hover:text-zinc-200">
            All features, with sources
          </summary>
          <ul className="mt-2 space-y-2">
            {features.map((r) => (
              <ReasonItem key={r.text} reason={r} apiUrl={props.apiUrl} />
            ))}
          </ul>
        </details>
      ) : null}
    </li>
  );
}

function ScenarioLinks(props: { scenarios: Option["scenarios"] }) {
  return props.scenarios.map((s, i) => (
    <span key={s.id}>
      {i > 0 ? ", " : ""}
      <TextLink href={`/scenarios/${s.id}`}>{s.label}</TextLink> ({providerName(s.provider)}
      {s.sku === "unknown" ? "" : ` ${s.sku}`})
    </span>
  ));
}
