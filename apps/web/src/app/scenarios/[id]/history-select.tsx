"use client";

import { Field, inputClass } from "~/app/_ui/field";
import { useQueryUpdate } from "~/app/_ui/query-update";

/**
 * A metric's series as the select lists them: each a [key, params in words] pair, not an object per
 * option naming its metric again (a scenario has hundreds of series, and they travel to the browser).
 */
export type SeriesGroup = { label: string; options: [key: string, label: string][] };

/**
 * Which series the history section follows: a select by metric, each option its params as people read
 * them. A choice rewrites `history=` in the address (a history entry) and the server draws that series.
 */
export function HistorySelect({ groups, value }: { groups: SeriesGroup[]; value: string }) {
  const { pending, asked, update } = useQueryUpdate();
  return (
    <div className="flex flex-wrap items-end gap-2" aria-busy={pending}>
      <Field label="Series">
        <select
          className={`${inputClass} mt-1 max-w-full`}
          value={asked?.get("history") ?? value}
          onChange={(e) => update({ history: e.target.value })}
          data-testid="history-series"
        >
          {groups.map((group) => (
            <optgroup key={group.label} label={group.label}>
              {group.options.map(([key, label]) => (
                <option key={key} value={key}>
                  {label}
                </option>
              ))}
            </optgroup>
          ))}
        </select>
      </Field>
      {pending ? <span className="pb-1 text-xs text-zinc-500">Updating…</span> : null}
    </div>
  );
}
