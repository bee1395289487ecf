import type { ComponentProps, ReactNode } from "react";
import { cardClass } from "./card";
import { cx } from "./cx";

/**
 * The product's tables come in three looks:
 * - `framed`: a data table in a card frame (TableFrame), small grey headers, padded cells, ruled rows;
 * - `list`: a ruled list without a frame (the workspaces);
 * - `plain`: grey headers and nothing else (a workspace's tokens and permalinks).
 */
export type TableLook = "framed" | "list" | "plain";

const heads: Record<TableLook, string> = {
  framed: "border-b border-zinc-200 text-xs text-zinc-500 dark:border-zinc-800",
  list: "border-b border-zinc-200 text-zinc-500 dark:border-zinc-800",
  plain: "text-zinc-500",
};
const headerCells: Record<TableLook, string> = {
  framed: "px-3 py-2 font-medium",
  list: "py-1 font-medium",
  plain: "font-medium",
};
const rows: Record<TableLook, string> = {
  framed: "border-b border-zinc-100 last:border-0 dark:border-zinc-800",
  list: "border-b border-zinc-100 dark:border-zinc-900",
  plain: "",
};
const cells: Record<TableLook, string> = { framed: "px-3 py-2", list: "py-1", plain: "" };
/** A number: right-aligned, on one line, in tabular figures. */
const numericCell = "whitespace-nowrap text-right tabular-nums";

/**
 * The card frame around a framed table; it scrolls sideways when the table is wider than the screen.
 * Relative, so what its cells position absolutely (screen-reader-only words) scrolls with it: at the
 * initial containing block they made a 4-scenario compare 107 px wider than a 1280 px screen.
 */
export function TableFrame({ className, ...props }: ComponentProps<"div">) {
  return <div className={cx("relative overflow-x-auto", cardClass, className)} {...props} />;
}

export function Table({ className, ...props }: ComponentProps<"table">) {
  return <table className={cx("w-full text-left text-sm", className)} {...props} />;
}

export type Column = string | { key: string; label: ReactNode; numeric?: boolean };

/** The table's head: its `columns` as one header row, or `children` for header rows of its own. */
export function TableHead({
  look = "framed",
  columns,
  children,
}: {
  look?: TableLook;
  columns?: Column[];
  children?: ReactNode;
}) {
  return (
    <thead className={heads[look]}>
      {columns ? (
        <tr>
          {columns.map((c) =>
            typeof c === "string" ? (
              <Th key={c} look={look}>
                {c}
              </Th>
            ) : (
              <Th key={c.key} look={look} numeric={c.numeric}>
                {c.label}
              </Th>
            ),
          )}
        </tr>
      ) : (
        children
      )}
    </thead>
  );
}

/** A column's header cell (`scope="col"` unless told otherwise); `numeric` aligns it right. */
export function Th({
  look = "framed",
  numeric = false,
  className,
  ...props
}: ComponentProps<"th"> & { look?: TableLook; numeric?: boolean }) {
  return <th scope="col" className={cx(headerCells[look], numeric && "text-right", className)} {...props} />;
}

export function Tr({ look = "framed", className, ...props }: ComponentProps<"tr"> & { look?: TableLook }) {
  return <tr className={cx(rows[look], className) || undefined} {...props} />;
}

/** A body cell; `numeric` for a figure, `dense` for a framed table of many rows (less padding). */
export function Td({
  look = "framed",
  numeric = false,
  dense = false,
  className,
  ...props
}: ComponentProps<"td"> & { look?: TableLook; numeric?: boolean; dense?: boolean }) {
  const padding = dense && look === "framed" ? "px-3 py-1.5" : cells[look];
  return <td className={cx(padding, numeric && numericCell, className) || undefined} {...props} />;
}
