import type { ReactNode } from "react";

/** The look of a text input or a select in a form. */
export const inputClass =
  "rounded border border-zinc-300 bg-white px-2 py-1 text-sm dark:border-zinc-700 dark:bg-zinc-900";

/** A form control under its words; the label holds the control, so clicking the words focuses it. */
export function Field({ label, children }: { label: ReactNode; children: ReactNode }) {
  return (
    // biome-ignore lint/a11y/noLabelWithoutControl: the control comes as children, which the rule cannot see
    <label className="flex flex-col text-sm">
      {label}
      {children}
    </label>
  );
}
