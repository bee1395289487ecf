"use client";

import { formatParams } from "@cnibench/analysis/format";
import { type ColumnDef, flexRender, getCoreRowModel, type SortingState, useReactTable } from "@tanstack/react-table";
import { useQueryStates } from "nuqs";
import { Fragment, useMemo, useTransition } from "react";
import { Card } from "~/app/_ui/card";
import { cx } from "~/app/_ui/cx";
import { inputClass } from "~/app/_ui/field";
import { TextLink } from "~/app/_ui/link";
import { Table, TableFrame, TableHead, Td, Th, Tr } from "~/app/_ui/table";
import { FigureCell } from "./figure-cell";
import { pageParams, sortParams } from "./params";

/** A figure column: one metric at fixed params (the explorer's column catalogue). */
export type FigureColumn = {
  key: string;
  title: string;
  unit: string;
  params: Record<string, string | number | boolean>;
};

export type ScenarioRow = {
  id: string;
  label: string;
  provider: string;
  sku: string;
  kernel: string;
  kubernetesVersion: string;
  cni: { name: string; version: string; mode: string; kubeProxy: string };
  /** The CNI settings that tell it apart from the other listed scenarios, in words. */
  differingSettings: string[];
  bundleCount: number;
  keyFigures: Partial<Record<string, React.ComponentProps<typeof FigureCell>["figure"]>>;
};

const paramsTitle = (params: FigureColumn["params"]) => formatParams(params, { empty: "params not stated" });

const figureColumn = ({ key, title, unit, params }: FigureColumn): ColumnDef<ScenarioRow> => ({
  id: key,
  header: () => (
    <span title={paramsTitle(params)} className="block min-w-24">
      {title}
      <span className="block font-normal">{unit}</span>
    </span>
  ),
  accessorFn: (r) => r.keyFigures[key]?.value,
  cell: ({ row }) => <FigureCell figure={row.original.keyFigures[key]} />,
  meta: { numeric: true },
});

const columnsWith = (figures: FigureColumn[]): ColumnDef<ScenarioRow>[] => [
  {
    id: "compare",
    header: () => <span className="sr-only">Compare</span>,
    enableSorting: false,
    cell: ({ row }) => (
      <input
        type="checkbox"
        name="s"
        value={row.original.id}
        form="compare-form"
        aria-label={`Compare ${row.original.label}`}
        className="accent-blue-600"
      />
    ),
  },
  {
    id: "scenario",
    header: "Scenario",
    accessorFn: (r) => r.label,
    cell: ({ row }) => (
      <>
        <TextLink href={`/scenarios/${row.original.id}`} className="font-medium">
          {row.original.label}
        </TextLink>
        <CniLine row={row.original} />
      </>
    ),
  },
  { id: "provider", header: "Cloud", accessorFn: (r) => r.provider },
  { id: "sku", header: "Instance type", accessorFn: (r) => r.sku },
  {
    id: "kernel",
    header: () => (
      <span>
        Kernel
        <span className="block font-normal">Kubernetes</span>
      </span>
    ),
    accessorFn: (r) => r.kernel,
    cell: ({ row }) => (
      <>
        {row.original.kernel}
        <div className="text-xs text-zinc-500">{row.original.kubernetesVersion}</div>
      </>
    ),
  },
  ...figures.map(figureColumn),
  { id: "bundles", header: "Bundles", accessorFn: (r) => r.bundleCount, meta: { numeric: true } },
];

/**
 * One page of the matching scenarios, sorted by the server (apps/web/src/app/_explore/rows.ts); a
 * header click puts the sort in the URL like the filters and goes back to the first page.
 */
export function ScenarioTable({ rows, figureColumns }: { rows: ScenarioRow[]; figureColumns: FigureColumn[] }) {
  const columns = useMemo(() => columnsWith(figureColumns), [figureColumns]);
  const [pending, startTransition] = useTransition();
  const [{ sort, order }, setSort] = useQueryStates(
    { ...sortParams, ...pageParams },
    { history: "replace", shallow: false, startTransition },
  );
  const sorting: SortingState = sort ? [{ id: sort, desc: order === "desc" }] : [];
  const table = useReactTable({
    data: rows,
    columns,
    manualSorting: true,
    state: { sorting },
    onSortingChange: (updater) => {
      const next = typeof updater === "function" ? updater(sorting) : updater;
      const first = next[0];
      void setSort({
        ...(first ? { sort: first.id, order: first.desc ? "desc" : "asc" } : { sort: null, order: null }),
        page: null,
      });
    },
    getCoreRowModel: getCoreRowModel(),
  });

  return (
    <>
      {/* From md up a table; narrower, a card per scenario with its figures listed (ScenarioCards). */}
      <TableFrame aria-busy={pending} className="hidden md:block">
        <Table>
          <TableHead>
            {table.getHeaderGroups().map((group) => (
              <tr key={group.id}>
                {group.headers.map((header) => {
                  const dir = header.column.getIsSorted();
                  const numeric = (header.column.columnDef.meta as { numeric?: boolean } | undefined)?.numeric;
                  return (
                    <Th
                      key={header.id}
                      numeric={numeric}
                      aria-sort={dir === "asc" ? "ascending" : dir === "desc" ? "descending" : "none"}
                      className="align-bottom"
                    >
                      <button
                        type="button"
                        onClick={header.column.getToggleSortingHandler()}
                        className={`inline-flex items-end gap-1 hover:text-zinc-900 dark:hover:text-zinc-100 ${numeric ? "text-right" : "text-left"}`}
                      >
                        {flexRender(header.column.columnDef.header, header.getContext())}
                        <span aria-hidden className="w-3">
                          {dir === "asc" ? "▲" : dir === "desc" ? "▼" : ""}
                        </span>
                      </button>
                    </Th>
                  );
                })}
              </tr>
            ))}
          </TableHead>
          <tbody>
            {table.getRowModel().rows.map((row) => (
              <Tr key={row.id} className="hover:bg-zinc-50 dark:hover:bg-zinc-800/50">
                {row.getVisibleCells().map((cell) => {
                  const numeric = (cell.column.columnDef.meta as { numeric?: boolean } | undefined)?.numeric;
                  return (
                    <Td key={cell.id} data-column={cell.column.id} numeric={numeric} className="whitespace-nowrap">
                      {flexRender(cell.column.columnDef.cell, cell.getContext())}
                    </Td>
                  );
                })}
              </Tr>
            ))}
          </tbody>
        </Table>
      </TableFrame>
      <ScenarioCards
        rows={rows}
        figureColumns={figureColumns}
        sort={sort}
        order={order}
        onSort={(column, direction) => void setSort({ sort: column || null, order: direction, page: null })}
      />
    </>
  );
}

/** The CNI under a scenario's name, and the settings that tell it apart from the others listed. */
function CniLine({ row }: { row: ScenarioRow }) {
  const c = row.cni;
  return (
    <>
      <div className="text-xs text-zinc-500">
        {c.name}
        {c.version !== "unknown" ? ` ${c.version}` : ""} · {c.mode} · kube-proxy {c.kubeProxy}
      </div>
      {row.differingSettings.length > 0 ? (
        <div className="max-w-72 whitespace-normal text-xs text-zinc-700 dark:text-zinc-300" data-testid="settings">
          {row.differingSettings.join(" · ")}
        </div>
      ) : null}
    </>
  );
}

/**
 * The narrow screen's table: a card per scenario with every chosen figure listed under its column's
 * title, and the sort as two selects (the table's headers sort from md up).
 */
function ScenarioCards({
  rows,
  figureColumns,
  sort,
  order,
  onSort,
}: {
  rows: ScenarioRow[];
  figureColumns: FigureColumn[];
  sort: string;
  order: "asc" | "desc";
  onSort: (column: string, order: "asc" | "desc") => void;
}) {
  return (
    <div className="space-y-2 md:hidden">
      <div className="flex flex-wrap items-center gap-2 text-sm">
        <label className="flex min-w-0 items-center gap-1">
          Sort by
          <select
            className={cx(inputClass, "min-w-0 max-w-56")}
            value={sort}
            onChange={(e) => onSort(e.target.value, order)}
          >
            <option value="">as listed</option>
            <option value="scenario">scenario</option>
            {figureColumns.map((c) => (
              <option key={c.key} value={c.key}>
                {c.title}
              </option>
            ))}
          </select>
        </label>
        <select
          aria-label="Order"
          className={inputClass}
          value={order}
          disabled={!sort}
          onChange={(e) => onSort(sort, e.target.value === "asc" ? "asc" : "desc")}
        >
          <option value="desc">{sort === "scenario" ? "Z to A" : "high to low"}</option>
          <option value="asc">{sort === "scenario" ? "A to Z" : "low to high"}</option>
        </select>
      </div>
      <ul className="space-y-2" aria-label="Scenarios" data-testid="scenario-cards">
        {rows.map((r) => (
          <Card as="li" padding="compact" key={r.id}>
            <div className="flex items-start gap-2">
              <input
                type="checkbox"
                name="s"
                value={r.id}
                form="compare-form"
                aria-label={`Compare ${r.label}`}
                className="mt-1 accent-blue-600"
              />
              <div className="min-w-0 flex-1 break-words">
                <TextLink href={`/scenarios/${r.id}`} className="font-medium">
                  {r.label}
                </TextLink>
                <CniLine row={r} />
                <div className="text-xs text-zinc-500">
                  {r.provider} · {r.sku} · kernel {r.kernel} · Kubernetes {r.kubernetesVersion} · {r.bundleCount}{" "}
                  {r.bundleCount === 1 ? "bundle" : "bundles"}
                </div>
              </div>
            </div>
            <dl className="mt-2 grid grid-cols-[minmax(0,1fr)_auto] gap-x-3 gap-y-1 text-sm">
              {figureColumns.map((c) => (
                <Fragment key={c.key}>
                  <dt className="text-zinc-600 dark:text-zinc-400" title={paramsTitle(c.params)}>
                    {c.title}
                  </dt>
                  <dd className="text-right" data-column={c.key}>
                    <FigureCell figure={r.keyFigures[c.key]} withUnit />
                  </dd>
                </Fragment>
              ))}
            </dl>
          </Card>
        ))}
      </ul>
    </div>
  );
}
