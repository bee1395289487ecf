"use client";

import type { Facet, FacetKey } from "@cnibench/analysis";
import { useState } from "react";
import { cx } from "~/app/_ui/cx";
import { linkClass } from "~/app/_ui/link";
import { useQueryUpdate } from "~/app/_ui/query-update";

/**
 * Facet checkboxes. Ticking one rewrites the URL (a history entry, so Back undoes it) and the server
 * page renders the new result; counts come from the server.
 */
export function FacetPanel({ facets }: { facets: Facet[] }) {
  const { pending, asked, update } = useQueryUpdate();
  const activeCount = facets.reduce((n, f) => n + f.values.filter((v) => v.selected).length, 0);
  // Narrow screens show the table first; the filters fold away behind a button.
  const [open, setOpen] = useState(false);

  const toggle = (key: FacetKey, value: string, on: boolean) => {
    update((query) => {
      const current = query.getAll(key);
      return { [key]: on ? [...current, value] : current.filter((v) => v !== value), page: null };
    });
  };

  return (
    <aside aria-label="Filters" aria-busy={pending} className="space-y-4">
      <button
        type="button"
        aria-expanded={open}
        aria-controls="facet-list"
        onClick={() => setOpen(!open)}
        className="w-full rounded-md border border-zinc-300 px-3 py-1.5 text-left text-sm lg:hidden dark:border-zinc-700"
      >
        Filters{activeCount > 0 ? ` · ${activeCount} active` : ""} {open ? "▴" : "▾"}
      </button>
      <div id="facet-list" className={`space-y-4 ${open ? "" : "hidden"} lg:block`}>
        <div className="flex items-center justify-between">
          <h2 className="text-sm font-semibold">Filters</h2>
          {pending ? (
            <span role="status" className="text-xs text-zinc-500">
              Updating…
            </span>
          ) : activeCount > 0 ? (
            <button
              type="button"
              className={cx(linkClass, "text-xs underline-offset-2")}
              onClick={() => update({ ...Object.fromEntries(facets.map((f) => [f.key, null])), page: null })}
            >
              Clear all
            </button>
          ) : null}
        </div>
        {facets
          .filter((f) => f.values.length > 0)
          .map((facet) => (
            <fieldset key={facet.key} className="min-w-0">
              <legend className="mb-1 text-xs font-medium uppercase tracking-wide text-zinc-500">{facet.title}</legend>
              <ul className="max-h-48 space-y-0.5 overflow-y-auto pr-1">
                {facet.values.map((v) => {
                  const id = `facet-${facet.key}-${v.value}`;
                  return (
                    <li key={v.value}>
                      <label
                        htmlFor={id}
                        className={`flex cursor-pointer items-center gap-2 rounded px-1 py-0.5 text-sm hover:bg-zinc-100 dark:hover:bg-zinc-800 ${v.count === 0 && !v.selected ? "text-zinc-400" : ""}`}
                      >
                        <input
                          id={id}
                          type="checkbox"
                          name={facet.key}
                          value={v.value}
                          checked={asked ? asked.getAll(facet.key).includes(v.value) : v.selected}
                          onChange={(e) => toggle(facet.key, v.value, e.target.checked)}
                          className="size-3.5 accent-blue-600"
                        />
                        <span
                          className="min-w-0 flex-1 truncate"
                          title={v.label === v.value ? v.label : `${v.label} (${v.value})`}
                        >
                          {v.label}
                        </span>
                        <span className="tabular-nums text-xs text-zinc-500">{v.count}</span>
                      </label>
                    </li>
                  );
                })}
              </ul>
            </fieldset>
          ))}
      </div>
    </aside>
  );
}
