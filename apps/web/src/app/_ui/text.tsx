import type { ComponentProps, ReactNode } from "react";
import { cx } from "./cx";

/** Secondary text in a paragraph: a page's description, a count, a hint beside a form. */
export function Muted({ className, ...props }: ComponentProps<"p">) {
  return <p className={cx("text-sm text-zinc-600 dark:text-zinc-400", className)} {...props} />;
}

/** A page's title with what the page is for under it; `above` goes first (a link back up). */
export function PageHeader({ title, above, children }: { title: ReactNode; above?: ReactNode; children: ReactNode }) {
  return (
    <header className="space-y-1">
      {above}
      <h1 className="text-xl font-semibold">{title}</h1>
      <Muted>{children}</Muted>
    </header>
  );
}

const headingLooks = {
  sm: "text-sm font-semibold",
  base: "font-semibold",
  lg: "text-lg font-semibold",
} as const;

/**
 * A section under its h2. With `titleId` the heading names the section (`aria-labelledby`), which
 * makes it a region landmark; without, it is a plain section.
 */
export function Section({
  title,
  titleId,
  size = "base",
  className,
  children,
}: {
  title: ReactNode;
  titleId?: string;
  size?: keyof typeof headingLooks;
  className?: string;
  children: ReactNode;
}) {
  return (
    <section aria-labelledby={titleId} className={className}>
      <h2 id={titleId} className={headingLooks[size]}>
        {title}
      </h2>
      {children}
    </section>
  );
}
