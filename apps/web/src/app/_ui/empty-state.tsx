import type { ReactNode } from "react";
import { cx } from "./cx";

const box = "rounded-lg border border-dashed border-zinc-300 p-8 text-center dark:border-zinc-700";
const quiet = "text-sm text-zinc-600 dark:text-zinc-400";

/**
 * Where a list or chart would be but there is nothing to show: a dashed box saying why, and what to do.
 * With a title, the title stands above the words; without, the words fill the box.
 */
export function EmptyState({ title, children }: { title?: ReactNode; children: ReactNode }) {
  if (title === undefined) return <div className={cx(box, quiet)}>{children}</div>;
  return (
    <div className={box}>
      <p className="font-medium">{title}</p>
      <div className={cx("mt-1", quiet)}>{children}</div>
    </div>
  );
}

/** A page that is not there (not-found.tsx): the empty state as the page, its title the page's h1. */
export function MissingPage({ title, children }: { title: ReactNode; children: ReactNode }) {
  return (
    <div className={cx("mx-auto max-w-lg", box)}>
      <h1 className="text-lg font-semibold">{title}</h1>
      <p className={cx("mt-2", quiet)}>{children}</p>
    </div>
  );
}
