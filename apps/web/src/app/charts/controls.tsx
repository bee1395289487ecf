"use client";

import { useRouter } from "next/navigation";
import { useOptimistic, useTransition } from "react";

/** One value of a control and the address that shows it, built by the page with its own serializer. */
export type Choice = { value: string; label: string; href: string };
export type Control = { kind: "select" | "toggle"; label: string; value: string; choices: Choice[] };
type Go = (choice: Choice, show: (value: string) => void) => void;

const select = "rounded border border-zinc-300 bg-white px-2 py-1 text-sm dark:border-zinc-700 dark:bg-zinc-900";

/**
 * The current view's choices; each is a new URL the server renders. The addresses come from the
 * server, so the page needs no URL-state library in the browser.
 */
export function ChartControls(props: { controls: Control[] }) {
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  const go: Go = (choice, show) =>
    startTransition(() => {
      show(choice.value); // the new value at once, while the server renders its chart
      router.push(choice.href, { scroll: false });
    });

  return (
    <div className="flex flex-wrap items-center gap-x-5 gap-y-2" aria-busy={pending}>
      {props.controls.map((c) => (
        <ControlInput key={c.label} control={c} go={go} />
      ))}
      {pending ? (
        <span role="status" className="text-xs text-zinc-500">
          Updating…
        </span>
      ) : null}
    </div>
  );
}

function ControlInput({ control, go }: { control: Control; go: Go }) {
  const [value, show] = useOptimistic(control.value);
  const choose = (v: string) => {
    const choice = control.choices.find((c) => c.value === v);
    if (choice) go(choice, show);
  };

  if (control.kind === "select") {
    return (
      <label className="flex min-w-0 max-w-full items-center gap-1 text-sm">
        <span className="text-xs text-zinc-500">{control.label}</span>
        {/* min-w-0: long metric names would otherwise push the page wider than a 390 px screen */}
        <select className={`${select} min-w-0 max-w-full`} value={value} onChange={(e) => choose(e.target.value)}>
          {control.choices.map((c) => (
            <option key={c.value} value={c.value}>
              {c.label}
            </option>
          ))}
        </select>
      </label>
    );
  }
  return (
    <fieldset className="flex items-center gap-1">
      <legend className="sr-only">{control.label}</legend>
      <span className="mr-1 text-xs text-zinc-500">{control.label}</span>
      {control.choices.map((c) => (
        <label
          key={c.value}
          className={`cursor-pointer rounded border px-2 py-0.5 text-sm has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-blue-600 ${c.value === value ? "border-blue-600 bg-blue-50 text-blue-800 dark:bg-blue-950 dark:text-blue-200" : "border-zinc-300 dark:border-zinc-700"}`}
        >
          <input
            type="radio"
            className="sr-only"
            name={control.label}
            value={c.value}
            checked={c.value === value}
            onChange={() => choose(c.value)}
          />
          {c.label}
        </label>
      ))}
    </fieldset>
  );
}
