"use client";

import { useQueryStates } from "nuqs";
import { useTransition } from "react";
import { chartParams, type View } from "./params";

const select = "rounded border border-zinc-300 bg-white px-2 py-1 text-sm dark:border-zinc-700 dark:bg-zinc-900";

function Toggle<T extends string>(props: {
  label: string;
  value: T;
  options: readonly { value: T; label: string }[];
  onChange: (v: T) => void;
}) {
  return (
    <fieldset className="flex items-center gap-1">
      <legend className="sr-only">{props.label}</legend>
      <span className="mr-1 text-xs text-zinc-500">{props.label}</span>
      {props.options.map((o) => (
        <label
          key={o.value}
          className={`cursor-pointer rounded border px-2 py-0.5 text-sm has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-blue-600 ${o.value === props.value ? "border-blue-600 bg-blue-50 text-blue-800 dark:bg-blue-950 dark:text-blue-200" : "border-zinc-300 dark:border-zinc-700"}`}
        >
          <input
            type="radio"
            className="sr-only"
            name={props.label}
            value={o.value}
            checked={o.value === props.value}
            onChange={() => props.onChange(o.value)}
          />
          {o.label}
        </label>
      ))}
    </fieldset>
  );
}

/** The current view's choices; each change is a new URL the server renders. */
export function ChartControls(props: { view: View; metrics: { key: string; label: string }[]; xParams: string[] }) {
  const [pending, startTransition] = useTransition();
  const [state, set] = useQueryStates(chartParams, { shallow: false, history: "push", startTransition });

  return (
    <div className="flex flex-wrap items-center gap-x-5 gap-y-2" aria-busy={pending}>
      {props.view === "crossover" ? (
        <>
          <label className="flex items-center gap-1 text-sm">
            <span className="text-xs text-zinc-500">Metric</span>
            <select
              className={select}
              value={state.metric}
              onChange={(e) => void set({ metric: e.target.value, where: e.target.value === "http.rps" ? null : [] })}
            >
              {props.metrics.map((m) => (
                <option key={m.key} value={m.key}>
                  {m.label}
                </option>
              ))}
            </select>
          </label>
          <label className="flex items-center gap-1 text-sm">
            <span className="text-xs text-zinc-500">against</span>
            <select className={select} value={state.x} onChange={(e) => void set({ x: e.target.value })}>
              {props.xParams.map((x) => (
                <option key={x} value={x}>
                  {x}
                </option>
              ))}
            </select>
          </label>
          <Toggle
            label="Values"
            value={state.y}
            options={[
              { value: "absolute", label: "absolute" },
              { value: "degradation", label: "degradation %" },
            ]}
            onChange={(y) => void set({ y })}
          />
          <Toggle
            label="x axis"
            value={state.scale}
            options={[
              { value: "linear", label: "linear" },
              { value: "log", label: "log" },
            ]}
            onChange={(scale) => void set({ scale })}
          />
        </>
      ) : null}
      {props.view === "latency" ? (
        <Toggle
          label="Percentile"
          value={state.percentile}
          options={[
            { value: "p50", label: "p50" },
            { value: "p90", label: "p90" },
            { value: "p99", label: "p99" },
          ]}
          onChange={(percentile) => void set({ percentile })}
        />
      ) : null}
      {pending ? (
        <span role="status" className="text-xs text-zinc-500">
          Updating…
        </span>
      ) : null}
    </div>
  );
}
