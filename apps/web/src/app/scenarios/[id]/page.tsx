import { runsShown } from "@cnibench/analysis";
import type { Provenance } from "@cnibench/db";
import {
  formatDate,
  formatFigure,
  formatNumber,
  formatParams,
  qualifierWords,
  spreadWords,
  summaryStatisticsWords,
} from "@cnibench/format";
import { vocabularyLabel } from "@cnibench/schema";
import type { Metadata } from "next";
import Link from "next/link";
import type { SearchParams } from "nuqs/server";
import { cache } from "react";
import { Card } from "~/app/_ui/card";
import { TextAnchor, TextLink } from "~/app/_ui/link";
import { Notice } from "~/app/_ui/notice";
import { Table, TableFrame, TableHead } from "~/app/_ui/table";
import { Muted, Section } from "~/app/_ui/text";
import { currentAccess } from "~/auth";
import { webEnv } from "~/env";
import { cardMetadata } from "~/server/cards/card-meta";
import { loadAllRows, rowsPerMetric } from "~/server/views/rows-per-metric";
import { api, orNotFound } from "~/trpc/server";
import { deleteBundleAction, deleteCampaignAction } from "./actions";
import { HistorySection } from "./history";

// The figure rows' look, set once on each table's body rather than on each of its hundreds of cells,
// lines and links (the page goes to the browser twice: as HTML, and again in React's payload). Cells:
// params; the value, a figure; as published and the source, greyed. Lines under a figure: small print.
const measurementRows =
  "*:border-b *:border-zinc-100 *:align-top *:last:border-0 dark:*:border-zinc-800 [&>tr>td]:px-3 [&>tr>td]:py-2 " +
  "[&>tr>td:nth-child(2)]:whitespace-nowrap [&>tr>td:nth-child(2)]:text-right [&>tr>td:nth-child(2)]:tabular-nums " +
  "[&>tr>td:nth-child(n+3)]:text-zinc-600 dark:[&>tr>td:nth-child(n+3)]:text-zinc-400 " +
  "[&>tr>td>div]:whitespace-normal [&>tr>td>div]:text-xs [&>tr>td>div]:text-zinc-500 " +
  "[&_a]:hover:underline [&_summary]:cursor-pointer";

type Props = { params: Promise<{ id: string }>; searchParams: Promise<SearchParams> };

const load = cache(async (id: string) => orNotFound((await api()).scenarios.byId({ id })));

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { scenario: s } = await load((await params).id);
  return {
    title: `${s.label} on ${s.sku}`,
    description: `${s.label} on ${s.provider} ${s.sku}, kernel ${s.kernel}`,
    ...cardMetadata(`/card/scenarios/${encodeURIComponent(s.id)}.png`, `${s.label}: its environment and figures`),
  };
}

export default async function ScenarioPage({ params, searchParams }: Props) {
  const { id } = await params;
  const { all } = await loadAllRows(searchParams);
  const view = await load(id);
  const { scenario: s } = view;
  const bundleById = new Map(view.bundles.map((b) => [b.id, b]));
  // Bundles of a figure's latest campaign are current; the others hold older runs only.
  const current = new Set(view.groups.flatMap((g) => g.rows.flatMap((r) => r.summary.campaignBundleIds)));
  const apiUrl = webEnv().publicApiUrl;
  const owner = (await currentAccess()).roles[s.workspaceId] === "owner";

  const environment: [string, string][] = [
    ["Cloud", `${vocabularyLabel("provider", s.provider) ?? s.provider} (${s.provider})`],
    ["Region", s.region],
    ["Kubernetes", s.kubernetesVersion],
    ["Nodes", s.nodeCount === null ? "unknown" : String(s.nodeCount)],
    [
      "Instance type",
      [
        s.sku,
        s.vcpus !== null ? `${formatNumber(s.vcpus)} vCPU` : null,
        s.memoryGiB !== null ? `${formatNumber(s.memoryGiB)} GiB` : null,
        s.nicGbps !== null ? `NIC ${formatNumber(s.nicGbps)} Gbit/s` : null,
      ]
        .filter(Boolean)
        .join(" · "),
    ],
    ["OS", s.os],
    ["Kernel", s.kernel],
    ["CNI", `${vocabularyLabel("cniName", s.cni.name) ?? s.cni.name} ${s.cni.version}`],
    ["Mode", vocabularyLabel("cniMode", s.cni.mode) ?? s.cni.mode],
    ["kube-proxy", vocabularyLabel("kubeProxy", s.cni.kubeProxy) ?? s.cni.kubeProxy],
  ];
  const settings = Object.entries(s.cni.settings);
  const figureCount = view.groups.reduce((n, g) => n + g.rows.length, 0);

  return (
    <article className="space-y-8">
      <header>
        <nav aria-label="Breadcrumb" className="text-sm text-zinc-500">
          <Link href="/" className="hover:underline">
            Explore
          </Link>{" "}
          / scenario
        </nav>
        <h1 className="mt-1 text-2xl font-semibold">{s.label}</h1>
        <Muted className="mt-1">
          {/* Figures are (metric, params) rows; runs are every stored value of them (3 runs: 3 values a figure). */}
          {formatNumber(figureCount)} {figureCount === 1 ? "figure" : "figures"}
          {view.measurementCount !== figureCount
            ? ` (${formatNumber(view.measurementCount)} values of their runs)`
            : ""}{" "}
          from {view.bundles.length} {view.bundles.length === 1 ? "bundle" : "bundles"}
          {" · "}
          <TextAnchor href={`/scenarios/${s.id}/figures.csv`} download>
            Download CSV
          </TextAnchor>
          {" · "}
          <TextAnchor href={`/scenarios/${s.id}/figures.json`} download>
            Download JSON
          </TextAnchor>
        </Muted>
      </header>

      <Card as="section" aria-labelledby="env-heading">
        <h2 id="env-heading" className="text-sm font-semibold">
          Environment
        </h2>
        <dl className="mt-3 grid grid-cols-1 gap-x-6 gap-y-2 text-sm sm:grid-cols-2 lg:grid-cols-3">
          {environment.map(([k, v]) => (
            <div key={k} className="flex gap-2">
              <dt className="w-28 shrink-0 text-zinc-500">{k}</dt>
              <dd className="min-w-0 break-words">{v}</dd>
            </div>
          ))}
          <div className="flex gap-2 sm:col-span-2 lg:col-span-3">
            <dt className="w-28 shrink-0 text-zinc-500">Settings</dt>
            <dd className="min-w-0 break-words font-mono text-xs leading-5">
              {settings.length === 0 ? "none given" : settings.map(([k, v]) => `${k}=${String(v)}`).join("  ")}
            </dd>
          </div>
        </dl>
      </Card>

      <HistorySection scenarioId={s.id} groups={view.groups} searchParams={searchParams} />

      <Section title="Measurements" titleId="figures-heading" size="lg" className="space-y-6">
        {view.warnings.length > 0 ? (
          <Notice
            tone="warning"
            as="section"
            padding="normal"
            aria-labelledby="upload-warnings-heading"
            data-testid="upload-warnings"
          >
            <h3 id="upload-warnings-heading" className="font-semibold">
              Warnings from the uploads
            </h3>
            <ul className="mt-1 space-y-1">
              {view.warnings.map((w) => (
                <li key={`${w.path}\u0000${w.message}`} className="break-words">
                  <span aria-hidden="true">⚠ </span>
                  {w.message} ·{" "}
                  <a href={`#bundle-${w.bundleIds[0]}`} className="underline">
                    its bundle
                  </a>
                  {w.bundleIds.length > 1 ? ` and ${w.bundleIds.length - 1} more` : ""}
                </li>
              ))}
            </ul>
          </Notice>
        ) : null}
        {view.groups.map((g) => (
          <section key={g.metric} aria-labelledby={`m-${g.metric}`}>
            <h3 id={`m-${g.metric}`} className="text-sm font-semibold">
              {g.label}{" "}
              <span className="font-normal text-zinc-500">
                ({g.unit}
                {g.better !== "none" ? `, ${g.better} is better` : ""})
              </span>{" "}
              <code className="text-xs font-normal text-zinc-500">{g.metric}</code>
            </h3>
            <TableFrame className="mt-2">
              <Table className="min-w-[40rem] table-fixed">
                <colgroup>
                  <col className="w-[34%]" />
                  <col className="w-[22%]" />
                  <col className="w-[14%]" />
                  <col className="w-[30%]" />
                </colgroup>
                <TableHead
                  columns={["Params", { key: "value", label: "Value", numeric: true }, "As published", "Source"]}
                />
                <tbody className={measurementRows}>
                  {(all ? g.rows : g.rows.slice(0, rowsPerMetric)).map((row) => {
                    const [f] = row.runs;
                    const bundle = bundleById.get(f.bundleId);
                    const d = row.summary.distribution;
                    const shown = { ...f, value: d?.median ?? row.value };
                    // A bundle's own summary statistics; a campaign of several bundles is summarised by its runs.
                    const stated = row.runs.length === 1 ? f.summaryStatistics : null;
                    return (
                      <tr key={f.id}>
                        <td>
                          {formatParams(row.params)}
                          {row.warnings.map((w) => (
                            <p
                              key={`${w.bundleId}\u0000${w.path}\u0000${w.message}`}
                              data-testid="figure-warning"
                              className="mt-1 break-words text-xs text-amber-800 dark:text-amber-300"
                            >
                              <span aria-hidden="true">⚠ </span>
                              <span className="sr-only">Warning: </span>
                              {w.message}{" "}
                              <a href={`#bundle-${w.bundleId}`} className="underline">
                                its bundle
                              </a>
                            </p>
                          ))}
                        </td>
                        <td
                          title={
                            [f.qualifier ? qualifierWords[f.qualifier] : null, d ? spreadWords(d, f.unit) : null]
                              .filter(Boolean)
                              .join("; ") || undefined
                          }
                        >
                          {formatFigure(shown)}
                          <span className="text-xs text-zinc-500">
                            {` · n=${runsShown({ summary: row.summary, summaryStatistics: stated })}`}
                          </span>
                          {stated ? (
                            <div data-testid="summary-statistics">
                              {summaryStatisticsWords(stated, f.unit, bundle?.collectorName)}
                            </div>
                          ) : f.samplesAre === "clients" && f.samples.length > 1 ? (
                            <div data-testid="clients">{`one run of ${f.samples.length} concurrent clients`}</div>
                          ) : null}
                          {d ? (
                            <div data-testid="spread">
                              {`min–max ${formatNumber(d.min)}–${formatNumber(d.max)}${
                                d.cv !== null ? ` · CV ${(d.cv * 100).toFixed(1)} %` : ""
                              }${d.sd !== null ? ` · sd ${formatNumber(d.sd)}` : ""}`}
                            </div>
                          ) : null}
                        </td>
                        <td>
                          <span className="whitespace-nowrap">
                            {`${formatNumber(f.publishedValue)} ${f.publishedUnit}`}
                          </span>
                          {/* Beside a median of several runs, the value as published is one run's: say so. */}
                          {row.summary.n > 1 ? (
                            <div data-testid="published-run">{`one run's, of ${formatDate(f.measuredAt)}`}</div>
                          ) : null}
                          {f.aggregate ? <div>{f.aggregate}</div> : null}
                        </td>
                        <td>
                          <a href={`#bundle-${f.bundleId}`}>
                            {bundle?.sourceSection ?? bundle?.sourceTitle ?? f.bundleId}
                          </a>
                          {row.summary.n > 1 ? (
                            <details className="mt-1 text-xs" data-testid="campaign-runs">
                              <summary>
                                {`latest campaign: ${row.summary.n} runs${
                                  row.runs.length > 1 ? ` from ${row.runs.length} bundles` : ""
                                }`}
                              </summary>
                              <ul className="mt-1 space-y-0.5">
                                {row.runs.map((r) => {
                                  const value =
                                    r.samples.length > 1
                                      ? `${r.samples.map((v) => formatNumber(v)).join(", ")} ${r.unit}`
                                      : formatFigure(r);
                                  return (
                                    <li key={r.id}>
                                      {`${value} on ${formatDate(r.measuredAt)} · `}
                                      <a href={`#bundle-${r.bundleId}`}>its bundle</a>
                                    </li>
                                  );
                                })}
                              </ul>
                            </details>
                          ) : null}
                          {row.olderRuns > 0 ? (
                            <details className="mt-1 text-xs">
                              <summary>
                                {`${row.olderRuns} older ${row.olderRuns === 1 ? "run" : "runs"} (earlier campaigns)${
                                  row.history.length < row.olderRuns ? `, the latest ${row.history.length} here` : ""
                                }`}
                              </summary>
                              <ul className="mt-1 space-y-0.5">
                                {row.history.map((h) => (
                                  <li key={h.id}>
                                    {`${formatFigure(h)} on ${formatDate(h.measuredAt)} · `}
                                    <a href={`#bundle-${h.bundleId}`}>bundle</a>
                                  </li>
                                ))}
                              </ul>
                              {row.history.length < row.olderRuns ? (
                                <a href={`/scenarios/${s.id}/figures.json`} download>
                                  every run in figures.json
                                </a>
                              ) : null}
                            </details>
                          ) : null}
                        </td>
                      </tr>
                    );
                  })}
                </tbody>
              </Table>
            </TableFrame>
            {!all && g.rows.length > rowsPerMetric ? (
              <Muted className="mt-1">
                {rowsPerMetric} of {formatNumber(g.rows.length)} rows shown.{" "}
                <TextLink href={`/scenarios/${s.id}?all=true#m-${g.metric}`}>Show every row</TextLink> or download{" "}
                <TextAnchor href={`/scenarios/${s.id}/figures.csv`} download>
                  figures.csv
                </TextAnchor>
                .
              </Muted>
            ) : null}
          </section>
        ))}
      </Section>

      <Section title="Provenance" titleId="prov-heading" size="lg">
        {owner ? <CampaignDeletes scenarioId={s.id} bundles={view.bundles} /> : null}
        <ol className="mt-2 space-y-3">
          {view.bundles.map((b) => (
            <Card
              as="li"
              padding="compact"
              key={b.id}
              id={`bundle-${b.id}`}
              className="text-sm target:ring-2 target:ring-blue-500"
            >
              <div className="flex flex-wrap items-baseline gap-x-2">
                {b.sourceUrl ? (
                  <TextAnchor href={b.sourceUrl} className="font-medium" rel="noreferrer">
                    {b.sourceTitle ?? b.sourceUrl}
                  </TextAnchor>
                ) : (
                  <span className="font-medium">{b.sourceTitle ?? "Uploaded bundle"}</span>
                )}
                {b.sourcePublishedAt ? <span className="text-zinc-500">published {b.sourcePublishedAt}</span> : null}
                {!current.has(b.id) ? (
                  <span className="rounded bg-zinc-100 px-1.5 text-xs text-zinc-600 dark:bg-zinc-800 dark:text-zinc-400">
                    older
                  </span>
                ) : null}
              </div>
              {b.sourceSection ? <Muted>{b.sourceSection}</Muted> : null}
              <p className="mt-1 text-xs text-zinc-500">
                {b.measurementCount} figures · cluster {b.clusterName} · run {formatDate(b.runAt)} · uploaded{" "}
                {formatDate(b.receivedAt)}
                {b.collectorName
                  ? ` · collector ${b.collectorName}${b.collectorVersion ? ` ${b.collectorVersion}` : ""}`
                  : ""}
                {b.campaign ? ` · campaign ${b.campaign}` : ""}
                {" · "}
                <a href={`${apiUrl}/v1/bundles/${b.id}`} className="hover:underline">
                  bundle {b.id}
                </a>
              </p>
              {b.collectorCommand ? (
                <code className="mt-1 block break-all text-xs text-zinc-500">{b.collectorCommand}</code>
              ) : null}
              {owner ? (
                <ConfirmDelete
                  summary="Delete this bundle…"
                  action={deleteBundleAction}
                  fields={{ bundleId: b.id }}
                  className="mt-1 text-xs"
                >
                  Its {b.measurementCount} figures go too; permalinks that pinned it will say it was deleted.
                </ConfirmDelete>
              ) : null}
            </Card>
          ))}
        </ol>
      </Section>
    </article>
  );
}

/**
 * An owner's "Delete this campaign (n bundles)", one per named campaign of the scenario's bundles: what
 * one import or CLI run stored, removed at once. n counts the campaign's bundles in every scenario of
 * the workspace, as the delete does; a bundle that is a campaign of its own has "Delete this bundle".
 */
function CampaignDeletes({ scenarioId, bundles }: { scenarioId: string; bundles: Provenance[] }) {
  const campaigns = new Map<string, { total: number; here: number }>();
  for (const b of bundles) {
    if (b.campaign === null) continue;
    const c = campaigns.get(b.campaign) ?? { total: b.campaignBundles, here: 0 };
    campaigns.set(b.campaign, { ...c, here: c.here + 1 });
  }
  if (campaigns.size === 0) return null;
  return (
    <ul className="mt-2 space-y-1 text-xs">
      {[...campaigns].map(([campaign, { total, here }]) => (
        <li key={campaign}>
          <ConfirmDelete
            summary={`Delete this campaign (${total} ${total === 1 ? "bundle" : "bundles"})…`}
            action={deleteCampaignAction}
            fields={{ scenarioId, campaign }}
          >
            Campaign <code className="break-all">{campaign}</code>: its {total}{" "}
            {total === 1 ? "bundle goes" : "bundles go"}
            {total > here ? ` (${total - here} of them in other scenarios)` : ""} with their figures; permalinks that
            pinned them will say they were deleted.
          </ConfirmDelete>
        </li>
      ))}
    </ul>
  );
}

/** A delete behind a confirmation step: the summary opens what goes, and the button deletes it. */
function ConfirmDelete(props: {
  summary: string;
  action: (form: FormData) => Promise<void>;
  fields: Record<string, string>;
  className?: string;
  children: React.ReactNode;
}) {
  return (
    <details className={props.className}>
      <summary className="cursor-pointer text-red-700 dark:text-red-400">{props.summary}</summary>
      <form action={props.action} className="mt-1 flex items-center gap-2">
        {Object.entries(props.fields).map(([name, value]) => (
          <input key={name} type="hidden" name={name} value={value} />
        ))}
        <span>{props.children}</span>
        <button type="submit" className="rounded bg-red-700 px-2 py-0.5 font-medium text-white">
          Delete
        </button>
      </form>
    </details>
  );
}
