import { useRouter } from "next/navigation";
import { useOptimistic, useTransition } from "react";

/** New values for keys of the address's query; null drops a key (its value is the default). */
export type QueryChange = Record<string, string | number | readonly string[] | null>;

/**
 * Changes the address's query and lets the server render the page for it, in a transition. The pages
 * read their query with nuqs's parsers on the server (each `params.ts`); the browser only writes it,
 * with the router every page already loads, so no URL-state library ships to it (issue 46: ≤ 150 kB
 * of script a page). `push` makes a history entry, so Back undoes the change.
 *
 * `asked` is the query being rendered, null once the address says it: controls show it at once, and a
 * change made meanwhile (a second tick) is worked out from it, so both count.
 */
export function useQueryUpdate(history: "push" | "replace" = "push") {
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  const [asked, ask] = useOptimistic<URLSearchParams | null>(null);
  const update = (change: QueryChange | ((query: URLSearchParams) => QueryChange)) => {
    const query = new URLSearchParams(asked ?? window.location.search);
    for (const [key, value] of Object.entries(typeof change === "function" ? change(query) : change)) {
      query.delete(key);
      for (const v of value === null ? [] : typeof value === "object" ? value : [value]) query.append(key, String(v));
    }
    const search = query.toString();
    startTransition(() => {
      ask(query);
      router[history](`${window.location.pathname}${search ? `?${search}` : ""}`, { scroll: false });
    });
  };
  return { pending, asked, update };
}
