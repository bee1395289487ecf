import type { HTMLAttributes } from "react";
import { cx } from "./cx";

const tones = {
  info: "border-blue-300 bg-blue-50 text-blue-900 dark:border-blue-800 dark:bg-blue-950 dark:text-blue-200",
  warning: "border-amber-300 bg-amber-50 text-amber-900 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-200",
  error: "border-red-300 bg-red-50 text-red-900 dark:border-red-800 dark:bg-red-950 dark:text-red-200",
  // The text keeps the page's colour: what a success box shows (a new token) is read and copied.
  success: "border-green-300 bg-green-50 dark:border-green-800 dark:bg-green-950",
} as const;

const paddings = { compact: "p-2", normal: "p-3" } as const;

/**
 * A coloured bordered box that tells of the page's state: info (something newer exists), warning (left
 * out, not like-for-like), error, success. The caller gives the role: `alert` for what went wrong with
 * the request, `status` for news, none for a standing note.
 */
export function Notice({
  tone,
  as: Tag = "p",
  padding = "compact",
  className,
  ...props
}: HTMLAttributes<HTMLElement> & {
  tone: keyof typeof tones;
  as?: "p" | "div" | "section";
  padding?: keyof typeof paddings;
}) {
  return <Tag className={cx("rounded border text-sm", paddings[padding], tones[tone], className)} {...props} />;
}
