"use client";

// The charts as the pages place them. The server renders each whole (its frame and static picture);
// in the browser a chart's code loads at the reader's first interaction (a move of the pointer, a
// tap, a key, focus), as Recharts already did, and until then React leaves the server's HTML as it is
// (a Suspense boundary not yet hydrated: nothing moves, focus stays). So no chart code is part of a
// page's first load: 11.4 kB gzipped of the scenario, charts and compare pages' (issue 46).
import { whenInteractive } from "@cnibench/charts/interactive";
import { type ComponentProps, type ComponentType, lazy, Suspense } from "react";

type Charts = typeof import("@cnibench/charts");

// Listening from the module's start: React may hydrate a chart's boundary, and so ask for its code,
// only after the reader's first move, which a listener added then would miss.
const interacted = typeof window === "undefined" ? Promise.resolve() : whenInteractive();

async function charts(): Promise<Charts> {
  await interacted;
  return import("@cnibench/charts");
}

// biome-ignore lint/suspicious/noExplicitAny: any chart's props, as React's own ComponentType<any>
function deferred<C extends ComponentType<any>>(pick: (m: Charts) => C) {
  const Chart = lazy(async () => ({ default: pick(await charts()) }));
  return function Deferred(props: ComponentProps<C>) {
    return (
      <Suspense>
        <Chart {...props} />
      </Suspense>
    );
  };
}

export const LineSeriesChart = deferred((m) => m.LineSeriesChart);
export const GroupedBarChart = deferred((m) => m.GroupedBarChart);
export const HistoryChart = deferred((m) => m.HistoryChart);
