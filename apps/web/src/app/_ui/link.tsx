import Link from "next/link";
import type { ComponentProps } from "react";
import { cx } from "./cx";

/** The product's link look: blue, underlined on hover. For a button that reads as a link too. */
export const linkClass = "text-blue-700 hover:underline dark:text-blue-400";

/** The link look for every link inside an element: one class on a long list, not one on each of its links. */
export const innerLinksClass = "[&_a]:text-blue-700 [&_a]:hover:underline dark:[&_a]:text-blue-400";

/** A link to a page of the app (next/link: client-side navigation, prefetch) in the link look. */
export function TextLink({ className, children, ...props }: ComponentProps<typeof Link>) {
  return (
    <Link className={cx(linkClass, className)} {...props}>
      {children}
    </Link>
  );
}

/**
 * A plain `<a>` in the link look, for what next/link must not route or prefetch: downloads, other
 * origins (the ingest API, a benchmark's source), places on the same page.
 */
export function TextAnchor({ className, children, ...props }: ComponentProps<"a">) {
  return (
    <a className={cx(linkClass, className)} {...props}>
      {children}
    </a>
  );
}

/** A link of the header: grey, darker on hover. */
export function NavLink({ className, children, ...props }: ComponentProps<typeof Link>) {
  return (
    <Link
      className={cx("text-zinc-600 hover:text-zinc-900 dark:text-zinc-400 dark:hover:text-zinc-100", className)}
      {...props}
    >
      {children}
    </Link>
  );
}
