import type { HTMLAttributes } from "react";
import { cx } from "./cx";

/** The white bordered panel that groups a page's parts; without padding it frames a table. */
export const cardClass = "rounded-lg border border-zinc-200 bg-white dark:border-zinc-800 dark:bg-zinc-900";

const paddings = { none: "", compact: "p-3", normal: "p-4" } as const;

/** A panel as a div, section, fieldset or list item (`as`), with the card look. */
export function Card({
  as: Tag = "div",
  padding = "normal",
  className,
  ...props
}: HTMLAttributes<HTMLElement> & { as?: "div" | "section" | "fieldset" | "li"; padding?: keyof typeof paddings }) {
  return <Tag className={cx(cardClass, paddings[padding], className)} {...props} />;
}
