import type { ComponentProps } from "react";
import { cx } from "./cx";

const looks = {
  /** The one thing a form is for (create, save). */
  primary: "rounded bg-blue-700 px-3 py-1 text-sm font-medium text-white hover:bg-blue-800 disabled:opacity-50",
  /** A page's own action beside its content (compare, share). */
  secondary:
    "rounded-md border border-zinc-300 bg-white px-3 py-1.5 text-sm font-medium hover:bg-zinc-100 dark:border-zinc-700 dark:bg-zinc-900 dark:hover:bg-zinc-800",
  /** A small bordered button in a line of text or the header (sign in, publish). */
  small:
    "rounded border border-zinc-300 px-2 py-1 text-sm hover:bg-zinc-100 dark:border-zinc-700 dark:hover:bg-zinc-800",
} as const;

/** A button in one of the product's looks; `type` is always said, as a form's default submits. */
export function Button({
  look,
  type,
  className,
  ...props
}: Omit<ComponentProps<"button">, "type"> & { look: keyof typeof looks; type: "submit" | "button" }) {
  return <button type={type} className={cx(looks[look], className)} {...props} />;
}
