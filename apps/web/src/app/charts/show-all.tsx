"use client";

import { ShowAllContext } from "@cnibench/charts/frame";
import { useRouter } from "next/navigation";
import { type ReactNode, useOptimistic, useTransition } from "react";

/**
 * Whether the page's charts draw all their series or the top ones: one click on any chart's "Show
 * all" shows all on every chart, and the address keeps it (`all=1`), so a shared link or a change of
 * view shows what the reader chose. The addresses come from the server, as the controls' do.
 */
export function ShowAllScope(props: { all: boolean; allHref: string; topHref: string; children: ReactNode }) {
  const router = useRouter();
  const [all, show] = useOptimistic(props.all);
  const [, startTransition] = useTransition();
  const setAll = (next: boolean) =>
    startTransition(() => {
      show(next); // at once, while the server renders the same charts under the new address
      router.replace(next ? props.allHref : props.topHref, { scroll: false });
    });
  return <ShowAllContext value={{ all, setAll }}>{props.children}</ShowAllContext>;
}
