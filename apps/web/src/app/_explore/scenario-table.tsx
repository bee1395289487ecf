"use client";

import { formatParams } from "@cnibench/format";
import type { ReactNode } from "react";
import { cx } from "~/app/_ui/cx";
import { inputClass } from "~/app/_ui/field";
import { TextLink } from "~/app/_ui/link";
import { useQueryUpdate } from "~/app/_ui/query-update";
import { Table, TableFrame, TableHead, Td, Th } from "~/app/_ui/table";
import type { FigureWords } from "./figure-words";
import type { TableRow } from "./table-rows";

/** A figure column: one metric at fixed params (the explorer's column catalogue). */
export type FigureColumn = {
  key: string;
  title: string;
  unit: string;
  params: Record<string, string | number | boolean>;
};

/**
 * How a column's cells read: `numeric` right-aligns them; `narrow` are their classes below md, where
 * each row is a card (see ScenarioTable); `label` names a figure in the card, as its header does.
 */
type ColumnLook = { numeric?: boolean; narrow?: string; label?: string };

/** A column: its id is its sort key in the address (rows.ts sorts by it); `unsorted` has no sort. */
type Column = ColumnLook & {
  id: string;
  header: ReactNode;
  cell: (row: TableRow) => ReactNode;
  unsorted?: boolean;
};

const paramsTitle = (params: FigureColumn["params"]) => formatParams(params, { empty: "params not stated" });

// The rows' look, set once on the body rather than on each of hundreds of cells (the table goes to the
// browser twice: as HTML, and again in React's payload): ruled rows; below md a figure reads
// "title, unit ……… value", the words coming from data-label through ::before, so the cell's text stays
// the figure alone (what sorting, copying and the browser tests read). Only figure cells have a data-label.
const rowsLook =
  "*:border-b *:border-zinc-100 *:last:border-0 dark:*:border-zinc-800 " +
  "max-md:[&>tr>[data-label]]:col-start-2 max-md:[&>tr>[data-label]]:flex max-md:[&>tr>[data-label]]:items-baseline " +
  "max-md:[&>tr>[data-label]]:justify-between max-md:[&>tr>[data-label]]:gap-3 max-md:[&>tr>[data-label]]:px-0 " +
  "max-md:[&>tr>[data-label]]:py-0.5 max-md:[&>tr>[data-label]]:before:min-w-0 " +
  "max-md:[&>tr>[data-label]]:before:whitespace-normal max-md:[&>tr>[data-label]]:before:text-left " +
  "max-md:[&>tr>[data-label]]:before:text-zinc-600 max-md:[&>tr>[data-label]]:before:content-[attr(data-label)] " +
  "dark:max-md:[&>tr>[data-label]]:before:text-zinc-400";

const figureColumn = ({ key, title, unit, params }: FigureColumn): Column => ({
  id: key,
  header: (
    <span title={paramsTitle(params)} className="block min-w-24">
      {title}
      <span className="block font-normal">{unit}</span>
    </span>
  ),
  cell: (r) => <FigureCell figure={r.figures[key]} />,
  numeric: true,
  label: unit ? `${title}, ${unit}` : title,
});

/** Said in the scenario's cell below md, where these columns are left out of the card. */
const inScenarioCell = { narrow: "max-md:hidden" } satisfies ColumnLook;

const columnsWith = (figures: FigureColumn[]): Column[] => [
  {
    id: "compare",
    header: <span className="sr-only">Compare</span>,
    unsorted: true,
    cell: (r) => (
      <input
        type="checkbox"
        name="s"
        value={r.id}
        form="compare-form"
        aria-label={`Compare ${r.label}`}
        className="accent-blue-600"
      />
    ),
    narrow: "max-md:px-0 max-md:pt-1",
  },
  {
    id: "scenario",
    header: "Scenario",
    cell: (r) => {
      return (
        <>
          <TextLink href={`/scenarios/${r.id}`} className="font-medium">
            {r.label}
          </TextLink>
          <CniLine row={r} />
          <div className="text-xs text-zinc-500 md:hidden">
            {`${r.provider} · ${r.sku} · kernel ${r.kernel} · Kubernetes ${r.kubernetesVersion} · ${r.bundleCount} ${r.bundleCount === 1 ? "bundle" : "bundles"}`}
          </div>
        </>
      );
    },
    narrow: "max-md:whitespace-normal max-md:break-words max-md:px-0 max-md:pb-1",
  },
  { id: "provider", header: "Cloud", cell: (r) => r.provider, ...inScenarioCell },
  { id: "sku", header: "Instance type", cell: (r) => r.sku, ...inScenarioCell },
  {
    id: "kernel",
    header: (
      <span>
        Kernel
        <span className="block font-normal">Kubernetes</span>
      </span>
    ),
    cell: (r) => (
      <>
        {r.kernel}
        <div className="text-xs text-zinc-500">{r.kubernetesVersion}</div>
      </>
    ),
    ...inScenarioCell,
  },
  ...figures.map(figureColumn),
  { id: "bundles", header: "Bundles", cell: (r) => r.bundleCount, numeric: true, ...inScenarioCell },
];

type Order = "asc" | "desc";

/**
 * A header's click: a column not sorted by sorts its figures high to low and its words A to Z, a second
 * click the other way, a third back to as listed.
 */
function nextSort(column: Column, sort: string, order: Order): { sort: string; order: Order } | null {
  const first: Order = column.numeric ? "desc" : "asc";
  if (sort !== column.id) return { sort: column.id, order: first };
  return order === first ? { sort: column.id, order: first === "desc" ? "asc" : "desc" } : null;
}

/**
 * One page of the matching scenarios, sorted by the server (apps/web/src/app/_explore/rows.ts); a
 * header click puts the sort in the URL like the filters and goes back to the first page. Below md the
 * same table stacks: each row a card with the scenario's name, settings and environment, then its
 * figures listed under their columns' titles, and two selects sort it (the headers are not shown).
 */
export function ScenarioTable(props: {
  rows: TableRow[];
  figureColumns: FigureColumn[];
  /** The sort the server listed the rows in: a column id, or "" as listed. */
  sort: string;
  order: Order;
}) {
  const columns = columnsWith(props.figureColumns);
  const { pending, asked, update } = useQueryUpdate("replace");
  // The sort asked for shows at once, while the server sorts.
  const sort = asked ? (asked.get("sort") ?? "") : props.sort;
  const order: Order = asked ? (asked.get("order") === "asc" ? "asc" : "desc") : props.order;
  // Desc is the address's default, so it stays out of it; a new sort starts at the first page.
  const sortBy = (next: { sort: string; order: Order } | null) =>
    update({ sort: next?.sort || null, order: next?.order === "asc" ? "asc" : null, page: null });

  return (
    <>
      <NarrowSort
        figureColumns={props.figureColumns}
        sort={sort}
        order={order}
        onSort={(column, direction) => sortBy({ sort: column, order: direction })}
      />
      <TableFrame aria-busy={pending}>
        <Table className="max-md:block max-md:[&>tbody]:block max-md:[&>thead]:hidden">
          <TableHead>
            <tr>
              {columns.map((column) => {
                const dir = sort === column.id ? order : null;
                return (
                  <Th
                    key={column.id}
                    numeric={column.numeric}
                    aria-sort={dir === "asc" ? "ascending" : dir === "desc" ? "descending" : "none"}
                    className="align-bottom"
                  >
                    {column.unsorted ? (
                      column.header
                    ) : (
                      <button
                        type="button"
                        onClick={() => sortBy(nextSort(column, sort, order))}
                        className={`inline-flex items-end gap-1 hover:text-zinc-900 dark:hover:text-zinc-100 ${column.numeric ? "text-right" : "text-left"}`}
                      >
                        {column.header}
                        <span aria-hidden className="w-3">
                          {dir === "asc" ? "▲" : dir === "desc" ? "▼" : ""}
                        </span>
                      </button>
                    )}
                  </Th>
                );
              })}
            </tr>
          </TableHead>
          <tbody className={rowsLook}>
            {props.rows.map((row) => (
              <tr
                key={row.id}
                className="hover:bg-zinc-50 max-md:grid max-md:grid-cols-[auto_minmax(0,1fr)] max-md:gap-x-2 max-md:px-3 max-md:py-2 dark:hover:bg-zinc-800/50"
              >
                {columns.map((column) => (
                  <Td
                    key={column.id}
                    data-column={column.id}
                    data-label={column.label}
                    numeric={column.numeric}
                    // A numeric cell is on one line already.
                    className={cx(!column.numeric && "whitespace-nowrap", column.narrow)}
                  >
                    {column.cell(row)}
                  </Td>
                ))}
              </tr>
            ))}
          </tbody>
        </Table>
      </TableFrame>
    </>
  );
}

/** The CNI under a scenario's name, and the settings that tell it apart from the others listed. */
function CniLine({ row }: { row: TableRow }) {
  return (
    <>
      <div className="text-xs text-zinc-500">{row.cni}</div>
      {row.settings ? (
        <div className="max-w-72 whitespace-normal text-xs text-zinc-700 max-md:max-w-none dark:text-zinc-300">
          {row.settings}
        </div>
      ) : null}
    </>
  );
}

/**
 * A headline figure in its cell: the median of its latest campaign's runs with their number
 * ("9.41 Gbit/s · n=3"); hovering tells the spread and params (figure-words.ts).
 */
function FigureCell({ figure }: { figure?: FigureWords }) {
  if (!figure) return <span className="text-zinc-400">—</span>;
  return (
    // Tabular figures come from the cell, a numeric one.
    <span title={figure.title}>
      {figure.value}
      <span className="text-xs text-zinc-500">{` · n=${figure.n}`}</span>
    </span>
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
