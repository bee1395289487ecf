"use client";

import { Field, inputClass } from "~/app/_ui/field";
import { useQueryUpdate } from "~/app/_ui/query-update";

export type SeriesOption = { key: string; label: string; group: string };

/**
 * Which series the history section follows: a select by metric, each option its params as people read
 * them. A choice rewrites `history=` in the address (a history entry) and the server draws that series.
 */
export function HistorySelect({ options, value }: { options: SeriesOption[]; value: string }) {
  const { pending, asked, update } = useQueryUpdate();
  const groups = [...new Set(options.map((o) => o.group))];
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
            <optgroup key={group} label={group}>
              {options
                .filter((o) => o.group === group)
                .map((o) => (
                  <option key={o.key} value={o.key}>
                    {o.label}
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
