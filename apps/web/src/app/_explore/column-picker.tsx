"use client";

import { formatParams } from "@cnibench/format";
import { Button } from "~/app/_ui/button";
import { Card } from "~/app/_ui/card";
import { useQueryUpdate } from "~/app/_ui/query-update";
import { type ColumnChoice, toggleColumn } from "./columns";

export type PickableColumn = {
  key: string;
  title: string;
  group: string;
  unit: string;
  params: Record<string, string | number | boolean>;
};

/**
 * Which figures the table shows, each one metric at fixed params: a disclosure of checkboxes by group
 * (keyboard: Tab to the summary, Enter or Space to open, Space to tick). A tick rewrites `col=` in the
 * address (a history entry, so Back undoes it) and the server answers with those columns.
 */
export function ColumnPicker({
  columns,
  shown,
  sort,
  choice,
}: {
  columns: PickableColumn[];
  shown: string[];
  /** The table's sort column. */
  sort: string;
  choice: ColumnChoice;
}) {
  const { pending, update } = useQueryUpdate();
  const groups = [...new Set(columns.map((c) => c.group))];
  const isDefault = shown.length === choice.defaults.length && choice.defaults.every((k) => shown.includes(k));

  // A column taken away takes its sort with it.
  const choose = (col: string[] | null) => {
    const unsorted = choice.catalogue.includes(sort) && !(col ?? choice.defaults).includes(sort);
    update({ col, ...(unsorted ? { sort: null, order: null } : {}) });
  };

  return (
    <details className="w-fit open:w-full" aria-busy={pending}>
      <summary className="w-fit cursor-pointer rounded-md border border-zinc-300 px-3 py-1.5 text-sm hover:bg-zinc-100 focus-visible:outline-2 focus-visible:outline-blue-600 dark:border-zinc-700 dark:hover:bg-zinc-800">
        Columns · {shown.length} of {columns.length}
        {pending ? <span className="ml-2 text-xs text-zinc-500">Updating…</span> : null}
      </summary>
      <Card padding="compact" className="mt-2 space-y-3">
        <p className="text-xs text-zinc-600 dark:text-zinc-400">
          Each column is one test at fixed params, so a column compares like with like; a scenario without that exact
          test shows “—”. Up to {choice.max} at once.
        </p>
        <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {groups.map((group) => (
            <fieldset key={group} className="min-w-0">
              <legend className="mb-1 text-xs font-medium uppercase tracking-wide text-zinc-500">{group}</legend>
              <ul className="space-y-0.5">
                {columns
                  .filter((c) => c.group === group)
                  .map((c) => {
                    const checked = shown.includes(c.key);
                    const id = `column-${c.key}`;
                    // The last column stays, and none is added past the maximum.
                    const locked = checked ? shown.length === 1 : shown.length >= choice.max;
                    return (
                      <li key={c.key}>
                        <label
                          htmlFor={id}
                          title={formatParams(c.params, { empty: "params not stated" })}
                          className={`flex cursor-pointer items-baseline gap-2 rounded px-1 py-0.5 text-sm hover:bg-zinc-100 dark:hover:bg-zinc-800 ${locked ? "text-zinc-400" : ""}`}
                        >
                          <input
                            id={id}
                            type="checkbox"
                            name="col"
                            value={c.key}
                            checked={checked}
                            disabled={locked}
                            onChange={(e) => choose(toggleColumn(shown, c.key, e.target.checked, choice))}
                            className="size-3.5 shrink-0 accent-blue-600"
                          />
                          <span className="min-w-0">
                            {c.title} <span className="text-xs text-zinc-500">{c.unit}</span>
                          </span>
                        </label>
                      </li>
                    );
                  })}
              </ul>
            </fieldset>
          ))}
        </div>
        {isDefault ? null : (
          <Button type="button" look="small" onClick={() => choose(null)}>
            Default columns
          </Button>
        )}
      </Card>
    </details>
  );
}
