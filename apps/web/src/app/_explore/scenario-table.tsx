"use client";

import { type ColumnDef, flexRender, getCoreRowModel, type SortingState, useReactTable } from "@tanstack/react-table";
import { useQueryStates } from "nuqs";
import { useMemo, useTransition } from "react";
import { TextLink } from "~/app/_ui/link";
import { Table, TableFrame, TableHead, Td, Th, Tr } from "~/app/_ui/table";
import { FigureCell } from "./figure-cell";
import { pageParams, sortParams } from "./params";

export type FigureColumn = { key: string; title: string; unit: string };

export type ScenarioRow = {
  id: string;
  label: string;
  provider: string;
  sku: string;
  kernel: string;
  kubernetesVersion: string;
  cni: { name: string; version: string; mode: string; kubeProxy: string };
  bundleCount: number;
  keyFigures: Partial<Record<string, React.ComponentProps<typeof FigureCell>["figure"]>>;
};

const figureColumn = ({ key, title, unit }: FigureColumn): ColumnDef<ScenarioRow> => ({
  id: key,
  header: () => (
    <span>
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
    cell: ({ row }) => {
      const c = row.original.cni;
      return (
        <>
          <TextLink href={`/scenarios/${row.original.id}`} className="font-medium">
            {row.original.label}
          </TextLink>
          <div className="text-xs text-zinc-500">
            {c.name}
            {c.version !== "unknown" ? ` ${c.version}` : ""} · {c.mode} · kube-proxy {c.kubeProxy}
          </div>
        </>
      );
    },
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
    <TableFrame aria-busy={pending}>
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
  );
}
