import { runsShown } from "@cnibench/analysis";
import { verdictStyle } from "@cnibench/charts/format";
import {
  formatChange,
  formatFigure,
  formatNumber,
  formatParams,
  qualifierWords,
  spreadWords,
  summaryStatisticsWords,
  verdictLabel,
} from "@cnibench/format";
import { Fragment, type ReactNode } from "react";
import type { z } from "zod";
import { GroupedBarChart, LineSeriesChart } from "~/app/_charts/deferred";
import { Card } from "~/app/_ui/card";
import { TextAnchor, TextLink } from "~/app/_ui/link";
import { Notice } from "~/app/_ui/notice";
import { Table, TableFrame, TableHead, Td, Th, Tr } from "~/app/_ui/table";
import { Muted } from "~/app/_ui/text";
import type { compareOutputSchema } from "~/server/routers/compare.types";
import { foldRows, rowsPerMetric } from "~/server/views/rows-per-metric";

type Comparison = z.output<typeof compareOutputSchema>;

/**
 * Below md, a scenario's cell as a line of its own: its name (data-label, through ::before) on the
 * left, its value on the right. The cell's text stays the value, as at every other width.
 */
const stackedCell =
  "max-md:flex max-md:items-baseline max-md:justify-between max-md:gap-3 max-md:py-0.5 " +
  "max-md:before:min-w-0 max-md:before:whitespace-normal max-md:before:break-words " +
  "max-md:before:text-left max-md:before:text-xs max-md:before:text-zinc-500 " +
  "max-md:before:content-[attr(data-label)]";

/**
 * The comparison as the compare page and permalinks show it: verdicts, environment diff, table,
 * charts. With `allRowsHref`, metrics with many rows are folded and that address shows them all;
 * with `csvHref`, the verdicts' evidence downloads from there.
 */
export function CompareReport({
  data,
  apiUrl,
  allRowsHref,
  csvHref,
}: {
  data: Comparison;
  apiUrl: string;
  allRowsHref: string | null;
  csvHref?: string;
}) {
  const [, ...candidates] = data.labels;
  const { shown, folded } = foldRows(data.rows, allRowsHref === null ? Number.POSITIVE_INFINITY : rowsPerMetric);
  return (
    <div className="space-y-6">
      <section aria-label="Summary" className="space-y-1">
        {/* The decided effects read first and large; the counts per figure family after them, smaller. */}
        {data.summaries.map((s) => {
          const at = s.indexOf(" By family: ");
          return (
            <p key={s} className="text-lg font-medium">
              {at < 0 ? s : s.slice(0, at)}
              {at < 0 ? null : (
                <span className="block text-sm font-normal text-zinc-600 dark:text-zinc-400">{s.slice(at + 1)}</span>
              )}
            </p>
          );
        })}
      </section>

      <Card as="section" aria-labelledby="env-heading">
        <h2 id="env-heading" className="text-sm font-semibold">
          Environment differences
        </h2>
        {data.environment.confounders.length > 0 ? (
          <Notice tone="warning" role="alert" className="mt-2">
            Not like-for-like: {data.environment.confounders.join(", ")} also{" "}
            {data.environment.confounders.length === 1 ? "differs" : "differ"}, so not every difference below is the
            datapath's.
          </Notice>
        ) : (
          <Muted className="mt-1">Like-for-like: only the CNI configuration differs.</Muted>
        )}
        {data.environment.differing.length > 0 ? (
          <div className="mt-3 overflow-x-auto">
            {/* A plain table, not Table (w-full): this one is only as wide as its columns. Below md each
                field is a block, each scenario's value after its name, as in the figure table: four
                scenarios in five columns at 390 px broke "5.15.0-92-generic" over four lines. */}
            <table className="text-left text-sm max-md:block max-md:[&>tbody]:block max-md:[&>thead]:hidden">
              <TableHead look="plain">
                <tr>
                  <Th look="plain" className="py-1 pr-4 text-xs">
                    Field
                  </Th>
                  {data.labels.map((l, i) => (
                    <Th key={l} look="plain" className="py-1 pr-4 text-xs">
                      {l}
                      {i === 0 ? " (baseline)" : ""}
                    </Th>
                  ))}
                </tr>
              </TableHead>
              <tbody>
                {data.environment.differing.map((d) => (
                  <Tr key={d.key} look="plain" className="max-md:block max-md:py-1">
                    <th
                      scope="row"
                      className={`py-1 pr-4 font-normal max-md:block max-md:pb-0 ${d.cni ? "text-zinc-600 dark:text-zinc-400" : "text-amber-800 dark:text-amber-300"}`}
                    >
                      {d.label}
                    </th>
                    {d.values.map((v, i) => (
                      <Td
                        key={`${d.key}-${data.scenarios[i]?.id}`}
                        look="plain"
                        className={`py-1 pr-4 font-mono text-xs max-md:pr-0 max-md:text-right max-md:[overflow-wrap:anywhere] max-md:before:font-sans ${stackedCell}`}
                        data-label={`${data.labels[i]}${i === 0 ? " (baseline)" : ""}`}
                      >
                        {v}
                      </Td>
                    ))}
                  </Tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : null}
      </Card>

      <section aria-labelledby="table-heading">
        <h2 id="table-heading" className="text-lg font-semibold">
          Every figure, against {data.labels[0]}
        </h2>
        <p className="mt-1 text-xs text-zinc-500">
          Verdicts: with 2 or more runs on both sides, the ratio new/base and its 95 % interval (Welch's t on log
          values, p adjusted for the figures compared at once) against the metric's margin δ: better or worse beyond it,
          equivalent or small but real within it, else inconclusive with the runs that would decide. A single value on a
          side (a single run, or a published median without its runs) gets an indicative verdict from the margin.
          Approximate and bounded figures are “not comparable” unless their bounds decide. A value is its latest
          campaign's median (or the mean its tool published), n its runs; the % beside it is the change its verdict
          judged, with runs the ratio of their geometric means, which can differ from the ratio of the medians. Open a
          verdict for its evidence; docs/verdicts.md in the repository has the formulas.
          {csvHref ? (
            <>
              {" "}
              <TextAnchor href={csvHref} download>
                Download CSV
              </TextAnchor>{" "}
              of every verdict with its evidence.
            </>
          ) : null}
        </p>
        <Margins margins={data.margins} />
        {/* From md up a table; narrower, each row is a card: the figure's name, then each scenario's
            value after its name and its verdict (classes max-md:…), so nothing scrolls sideways and
            an open verdict's evidence wraps to the screen. One table either way: rows keep their
            data-testid and their <tr>. */}
        <TableFrame className="mt-2">
          <Table data-testid="compare-table" className="max-md:block max-md:[&>tbody]:block max-md:[&>thead]:hidden">
            {/* Two header rows: each scenario's name centred over its own value and verdict columns, with a
                rule on its left, then what each column holds, so no name reads as its neighbour's header. */}
            <TableHead>
              <tr>
                <Th rowSpan={2} className="align-bottom">
                  Metric · params
                </Th>
                <Th numeric rowSpan={2} className="align-bottom" data-scenario-header={0}>
                  {data.labels[0]} <span className="font-normal text-zinc-500">(baseline)</span>
                </Th>
                {candidates.map((l, i) => (
                  <Th
                    key={l}
                    colSpan={2}
                    className="border-l border-zinc-200 text-center dark:border-zinc-800"
                    data-scenario-header={i + 1}
                  >
                    {l}
                  </Th>
                ))}
              </tr>
              <tr>
                {candidates.map((l) => (
                  <Fragment key={l}>
                    <Th numeric className="border-l border-zinc-200 pt-0 text-xs font-normal dark:border-zinc-800">
                      value (change)
                    </Th>
                    <Th className="pt-0 text-xs font-normal">verdict</Th>
                  </Fragment>
                ))}
              </tr>
            </TableHead>
            <tbody>
              {shown.map((r) => (
                <Tr key={r.key} className="max-md:block max-md:py-1.5">
                  <th scope="row" className="px-3 py-1.5 font-normal max-md:block max-md:pb-1 max-md:pt-0">
                    <span className="font-medium">{r.label}</span>{" "}
                    <span className="text-xs text-zinc-500">{formatParams(r.params)}</span>
                  </th>
                  {r.cells.map((c, i) => {
                    const id = data.scenarios[i]?.id ?? String(i);
                    const label = `${data.labels[i]}${i === 0 ? " (baseline)" : ""}`;
                    if (i === 0) {
                      return (
                        <Td key={id} numeric dense className={stackedCell} data-label={label}>
                          <FigureValue figure={c.figure} apiUrl={apiUrl} />
                        </Td>
                      );
                    }
                    // The % is the change the verdict judged (with runs, of their geometric means), so
                    // the number and the badge beside it never disagree; its basis is in the tooltip.
                    const change = c.change;
                    return (
                      <Fragment key={id}>
                        <Td
                          numeric
                          dense
                          className={`md:border-l md:border-zinc-200 md:dark:border-zinc-800 ${stackedCell}`}
                          data-label={label}
                        >
                          <span>
                            <FigureValue figure={c.figure} apiUrl={apiUrl} />
                            {change ? (
                              <span
                                className="ml-1 text-xs text-zinc-500"
                                title={`${change.basis}, as the verdict judged it`}
                              >
                                ({formatChange(change.percent)})
                              </span>
                            ) : null}
                          </span>
                        </Td>
                        {/* Wraps: a caveat ("while moving 62.5 % less traffic") under its badge, not past the box. */}
                        <td className="min-w-[7rem] px-2 py-1.5 max-md:block max-md:px-3 max-md:pt-0 max-md:text-right">
                          {c.verdict ? (
                            <Evidence why={c.why}>
                              <span className={`rounded px-1.5 py-0.5 text-xs ${verdictStyle[c.verdict]}`}>
                                {verdictLabel(c.verdict, c.indicative)}
                              </span>
                            </Evidence>
                          ) : null}
                          {c.caveat ? (
                            <span className="block text-xs text-amber-800 dark:text-amber-300">{c.caveat.text}</span>
                          ) : null}
                        </td>
                      </Fragment>
                    );
                  })}
                </Tr>
              ))}
            </tbody>
          </Table>
        </TableFrame>
        {folded.length > 0 && allRowsHref ? (
          <Muted className="mt-2">
            {rowsPerMetric} rows per metric shown; not shown:{" "}
            {folded.map((f) => `${formatNumber(f.more)} more of ${f.label}`).join(", ")}.{" "}
            <TextLink href={allRowsHref}>Show all {formatNumber(data.rows.length)} rows</TextLink>
          </Muted>
        ) : null}
      </section>

      {data.crossover.series.length > 0 ? (
        <LineSeriesChart
          title={`${data.crossover.title} by Services (short connections)`}
          summary={
            <ul>
              {(data.crossover.sentences.length > 0
                ? data.crossover.sentences
                : ["No line overtakes another within the measured range"]
              ).map((s) => (
                <li key={s}>{s}.</li>
              ))}
            </ul>
          }
          series={data.crossover.series.map((s) => ({
            id: s.id,
            label: s.label,
            points: s.points.map((p) => ({
              ...p,
              n: p.summary?.n,
              links: [{ label: "bundle", href: `${apiUrl}/v1/bundles/${p.bundleId}` }],
            })),
          }))}
          markers={data.crossover.markers}
          xLabel="Services (count)"
          yLabel={`${data.crossover.title} (${data.crossover.unit})`}
          unit={data.crossover.unit}
          filename="cnibench-compare-crossover"
        />
      ) : null}
      {data.latency.length > 0 ? (
        <div className="grid gap-5 xl:grid-cols-2">
          {data.latency.map((c) => (
            <GroupedBarChart
              key={c.metric}
              title={`${c.title}, p99`}
              series={c.series}
              data={c.data.map((d) => ({
                ...d,
                values: Object.fromEntries(
                  Object.entries(d.values).map(([id, v]) => [id, v && { ...v, n: v.summary?.n }]),
                ),
              }))}
              categoryLabel="params"
              yLabel={c.unit}
              unit={c.unit}
              filename={`cnibench-compare-${c.metric}`}
            />
          ))}
        </div>
      ) : null}
      <p className="text-sm">
        <TextLink href={`/charts?${data.scenarios.map((s) => `scenario=${s.id}`).join("&")}`}>
          All charts for these scenarios →
        </TextLink>
      </p>
    </div>
  );
}

/** The margin δ of each metric compared, saying where it differs from the catalogue's. */
function Margins({ margins }: { margins: Comparison["margins"] }) {
  if (margins.length === 0) return null;
  return (
    <p className="mt-1 text-xs text-zinc-600 dark:text-zinc-400" data-testid="margins">
      <span className="font-medium">Margins δ:</span>{" "}
      {margins.map((m, i) => (
        <Fragment key={m.metric}>
          {i > 0 ? ", " : ""}
          {m.label} ±{formatNumber(m.percent)} %
          {m.overridden ? (
            <strong className="font-medium text-amber-800 dark:text-amber-300">
              {" "}
              (catalogue ±{formatNumber(m.standard)} %)
            </strong>
          ) : null}
        </Fragment>
      ))}
      . Other margins for one comparison: margin=metric:percent in the compare address, e.g. &margin=tcp.throughput:3.
    </p>
  );
}

/**
 * A verdict that opens on its evidence: a disclosure works with a keyboard (Enter, Space), a touch and
 * a screen reader, where a title tooltip needs a mouse. On a narrow screen the evidence takes the
 * card's width, so opening it never widens the page.
 */
function Evidence({ why, children }: { why: string | null; children: ReactNode }) {
  if (!why) return children;
  return (
    <details className="group inline-block align-top max-md:block">
      <summary className="cursor-pointer list-none rounded focus-visible:outline-2 focus-visible:outline-blue-600 [&::-webkit-details-marker]:hidden">
        {children}
        <span aria-hidden="true" className="ml-0.5 inline-block text-[10px] text-zinc-500 group-open:rotate-90">
          ▸
        </span>
        <span className="sr-only"> evidence</span>
      </summary>
      <p className="mt-1 w-64 max-w-[70vw] whitespace-normal break-words text-left text-xs text-zinc-600 max-md:w-auto max-md:max-w-none dark:text-zinc-400">
        {why}
      </p>
    </details>
  );
}

function FigureValue({
  figure,
  apiUrl,
}: {
  figure: Comparison["rows"][number]["cells"][number]["figure"];
  apiUrl: string;
}) {
  if (!figure) return <span className="text-zinc-400">—</span>;
  const d = figure.summary.distribution;
  const stated = figure.summaryStatistics;
  const title = [
    figure.qualifier ? qualifierWords[figure.qualifier] : null,
    d ? spreadWords(d, figure.unit) : null,
    stated ? summaryStatisticsWords(stated, figure.unit) : null,
  ]
    .filter(Boolean)
    .join("; ");
  return (
    <span title={title || undefined}>
      <a className="hover:underline" href={`${apiUrl}/v1/bundles/${figure.bundleId}`}>
        {formatFigure(figure)}
      </a>
      <span className="ml-1 text-xs text-zinc-500">n={runsShown(figure)}</span>
    </span>
  );
}
