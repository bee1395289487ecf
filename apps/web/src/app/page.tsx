import { columnInfo, columnKeys, defaultColumns, maxColumns } from "@cnibench/analysis";
import type { Metadata } from "next";
import Link from "next/link";
import type { SearchParams } from "nuqs/server";
import { pageApi } from "~/trpc/server";
import { ColumnPicker } from "./_explore/column-picker";
import { FacetPanel } from "./_explore/facet-panel";
import { exploreInput } from "./_explore/input";
import { exploreHref, loadExploreParams } from "./_explore/params";
import { pageOf, sortScenarios } from "./_explore/rows";
import { ScenarioTable } from "./_explore/scenario-table";
import { tableRows } from "./_explore/table-rows";
import { Button } from "./_ui/button";
import { EmptyState } from "./_ui/empty-state";
import { TextAnchor, TextLink } from "./_ui/link";
import { Muted } from "./_ui/text";
import { chartsHref } from "./charts/params";

export const metadata: Metadata = { title: "Explore" };

export default async function ExplorePage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const params = await loadExploreParams(searchParams);
  const { input, filters, sort, order } = exploreInput(params);
  const view = await (await pageApi()).scenarios.explore(input);
  const filtered = view.scenarios.length !== view.total;
  const shown = pageOf(sortScenarios(view.scenarios, sort, order), params.page);
  const shownColumns = view.columns.map((c) => c.key);

  return (
    <div className="grid gap-6 lg:grid-cols-[16rem_minmax(0,1fr)]">
      <FacetPanel facets={view.facets} />
      <section aria-labelledby="scenarios-heading" className="min-w-0">
        <div className="flex flex-wrap items-baseline justify-between gap-2">
          <h1 id="scenarios-heading" className="text-xl font-semibold">
            Scenarios
          </h1>
          <Muted className="flex items-baseline gap-3">
            <span role="status">
              {filtered ? `${view.scenarios.length} of ${view.total} scenarios match` : `${view.total} scenarios`}
            </span>
            {view.scenarios.length > 0 ? (
              <TextLink href={chartsHref("/charts", { ...filters, view: "crossover" })}>
                Chart {filtered ? "these" : "all"} →
              </TextLink>
            ) : null}
          </Muted>
        </div>
        <Muted className="mt-1">
          Each scenario is one environment — cluster, node and CNI configuration — that results were measured in. Each
          column is one test at fixed params, measured without extra Services, policy or Hubble; a scenario without that
          exact test shows “—”. Hover a figure for its spread and params.
        </Muted>
        {view.total > 0 ? (
          <div className="mt-3 flex flex-wrap items-start gap-x-4 gap-y-2">
            <ColumnPicker
              columns={columnInfo()}
              shown={shownColumns}
              sort={sort}
              choice={{ catalogue: columnKeys, defaults: defaultColumns, max: maxColumns }}
            />
            {view.scenarios.length > 0 ? (
              <TextAnchor
                className="py-1.5 text-sm"
                href={exploreHref("/explore.csv", { ...params, page: null })}
                download
              >
                Download CSV
              </TextAnchor>
            ) : null}
          </div>
        ) : null}
        <div className="mt-4">
          {view.total === 0 ? (
            <EmptyState title="No results yet.">
              Upload a bundle to the ingest API (<code>POST /v1/bundles</code>) and it will appear here.
            </EmptyState>
          ) : view.scenarios.length === 0 ? (
            <EmptyState title="No scenarios match these filters.">
              <ul className="mt-2 space-y-1">
                {view.dropHints.map((hint) => (
                  <li key={hint.key}>
                    <TextLink className="underline-offset-2" href={exploreHref("/", { ...params, [hint.key]: null })}>
                      Drop “{hint.title}: {hint.values.join(", ")}”
                    </TextLink>{" "}
                    to see {hint.matchesWithout} {hint.matchesWithout === 1 ? "scenario" : "scenarios"}
                  </li>
                ))}
              </ul>
            </EmptyState>
          ) : (
            <>
              <ScenarioTable
                rows={tableRows(shown.rows, shownColumns)}
                figureColumns={view.columns}
                sort={sort}
                order={order}
              />
              {shown.pages > 1 ? (
                <Pages
                  {...shown}
                  count={view.scenarios.length}
                  href={(page) => exploreHref("/", { ...params, page: page === 1 ? null : page })}
                />
              ) : null}
              <form id="compare-form" action="/compare" method="get" className="mt-3 flex items-center gap-3 text-sm">
                <Button type="submit" look="secondary">
                  Compare selected
                </Button>
                <span className="text-zinc-500">
                  Tick 2–4 scenarios; the topmost is the baseline (you can change it on the next page).
                </span>
              </form>
            </>
          )}
        </div>
      </section>
    </div>
  );
}

/** Previous / next page links under the table, with where this page sits among the matches. */
function Pages(props: {
  page: number;
  pages: number;
  from: number;
  to: number;
  count: number;
  href: (page: number) => string;
}) {
  const link =
    "rounded-md border border-zinc-300 px-3 py-1 hover:bg-zinc-100 dark:border-zinc-700 dark:hover:bg-zinc-800";
  const fmt = new Intl.NumberFormat("en-US");
  return (
    <nav aria-label="Pages" className="mt-3 flex flex-wrap items-center gap-3 text-sm">
      {props.page > 1 ? (
        <Link className={link} href={props.href(props.page - 1)} rel="prev">
          ← Previous
        </Link>
      ) : null}
      <span className="text-zinc-600 dark:text-zinc-400">
        Scenarios {fmt.format(props.from)}–{fmt.format(props.to)} of {fmt.format(props.count)} · page {props.page} of{" "}
        {props.pages}
      </span>
      {props.page < props.pages ? (
        <Link className={link} href={props.href(props.page + 1)} rel="next">
          Next →
        </Link>
      ) : null}
    </nav>
  );
}
