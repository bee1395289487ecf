"use client";

import { formatParams } from "@cnibench/format";
import { type ColumnDef, flexRender, getCoreRowModel, type SortingState, useReactTable } from "@tanstack/react-table";
import { useQueryStates } from "nuqs";
import { useMemo, useTransition } from "react";
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

/**
 * How a column's cells read: `numeric` right-aligns them; `narrow` are their classes below md, where
 * each row is a card (see ScenarioTable); `label` names a figure in the card, as its header does.
 */
type ColumnLook = { numeric?: boolean; narrow?: string; label?: string };
const lookOf = (column: { columnDef: ColumnDef<ScenarioRow> }) => (column.columnDef.meta ?? {}) as ColumnLook;

const paramsTitle = (params: FigureColumn["params"]) => formatParams(params, { empty: "params not stated" });

// Below md a figure reads "title, unit ……… value": the words come from data-label through ::before,
// so the cell's text stays the figure alone (what sorting, copying and the browser tests read).
const narrowFigure =
  "max-md:col-start-2 max-md:flex max-md:items-baseline max-md:justify-between max-md:gap-3 max-md:px-0 max-md:py-0.5 " +
  "max-md:before:min-w-0 max-md:before:whitespace-normal max-md:before:text-left max-md:before:text-zinc-600 " +
  "max-md:before:content-[attr(data-label)] dark:max-md:before:text-zinc-400";

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
  meta: { numeric: true, narrow: narrowFigure, label: unit ? `${title}, ${unit}` : title } satisfies ColumnLook,
});

/** Said in the scenario's cell below md, where these columns are left out of the card. */
const inScenarioCell = { narrow: "max-md:hidden" } satisfies ColumnLook;

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
    meta: { narrow: "max-md:px-0 max-md:pt-1" } satisfies ColumnLook,
  },
  {
    id: "scenario",
    header: "Scenario",
    accessorFn: (r) => r.label,
    cell: ({ row }) => {
      const r = row.original;
      return (
        <>
          <TextLink href={`/scenarios/${r.id}`} className="font-medium">
            {r.label}
          </TextLink>
          <CniLine row={r} />
          <div className="text-xs text-zinc-500 md:hidden">
            {r.provider} · {r.sku} · kernel {r.kernel} · Kubernetes {r.kubernetesVersion} · {r.bundleCount}{" "}
            {r.bundleCount === 1 ? "bundle" : "bundles"}
          </div>
        </>
      );
    },
    meta: { narrow: "max-md:whitespace-normal max-md:break-words max-md:px-0 max-md:pb-1" } satisfies ColumnLook,
  },
  { id: "provider", header: "Cloud", accessorFn: (r) => r.provider, meta: inScenarioCell },
  { id: "sku", header: "Instance type", accessorFn: (r) => r.sku, meta: inScenarioCell },
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
    meta: inScenarioCell,
  },
  ...figures.map(figureColumn),
  {
    id: "bundles",
    header: "Bundles",
    accessorFn: (r) => r.bundleCount,
    meta: { numeric: true, ...inScenarioCell } satisfies ColumnLook,
  },
];

/**
 * One page of the matching scenarios, sorted by the server (apps/web/src/app/_explore/rows.ts); a
 * header click puts the sort in the URL like the filters and goes back to the first page. Below md the
 * same table stacks: each row a card with the scenario's name, settings and environment, then its
 * figures listed under their columns' titles, and two selects sort it (the headers are not shown).
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
      <NarrowSort
        figureColumns={figureColumns}
        sort={sort}
        order={order}
        onSort={(column, direction) => void setSort({ sort: column || null, order: direction, page: null })}
      />
      <TableFrame aria-busy={pending}>
        <Table className="max-md:block max-md:[&>tbody]:block max-md:[&>thead]:hidden">
          <TableHead>
            {table.getHeaderGroups().map((group) => (
              <tr key={group.id}>
                {group.headers.map((header) => {
                  const dir = header.column.getIsSorted();
                  const { numeric } = lookOf(header.column);
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
              <Tr
                key={row.id}
                className="hover:bg-zinc-50 max-md:grid max-md:grid-cols-[auto_minmax(0,1fr)] max-md:gap-x-2 max-md:px-3 max-md:py-2 dark:hover:bg-zinc-800/50"
              >
                {row.getVisibleCells().map((cell) => {
                  const { numeric, narrow, label } = lookOf(cell.column);
                  return (
                    <Td
                      key={cell.id}
                      data-column={cell.column.id}
                      data-label={label}
                      numeric={numeric}
                      className={cx("whitespace-nowrap", narrow)}
                    >
                      {flexRender(cell.column.columnDef.cell, cell.getContext())}
                    </Td>
                  );
                })}
              </Tr>
            ))}
          </tbody>
        </Table>
      </TableFrame>
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
        <div className="max-w-72 whitespace-normal text-xs text-zinc-700 max-md:max-w-none dark:text-zinc-300">
          {row.differingSettings.join(" · ")}
        </div>
      ) : null}
    </>
  );
}

/** The sort where the table's headers are not shown (below md): a column, and which way. */
function NarrowSort({
  figureColumns,
  sort,
  order,
  onSort,
}: {
  figureColumns: FigureColumn[];
  sort: string;
  order: "asc" | "desc";
  onSort: (column: string, order: "asc" | "desc") => void;
}) {
  return (
    <div className="mb-2 flex flex-wrap items-center gap-2 text-sm md:hidden">
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
  );
}
