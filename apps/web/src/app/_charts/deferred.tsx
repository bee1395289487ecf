"use client";

// The charts as the pages place them. The server renders each whole (its frame and static picture);
// in the browser a chart's code loads at the reader's first interaction (a move of the pointer, a
// tap, a key, focus), as Recharts already did, and until then React leaves the server's HTML as it is
// (a Suspense boundary not yet hydrated: nothing moves, focus stays). So no chart code is part of a
// page's first load: 11.4 kB gzipped of the scenario, charts and compare pages' (issue 46).
import { whenInteractive } from "@cnibench/charts/interactive";
import { type ComponentProps, type ComponentType, lazy, Suspense, useEffect } from "react";

type Charts = typeof import("@cnibench/charts");

// Listening from the module's start: React may hydrate a chart's boundary, and so ask for its code,
// only after the reader's first move, which a listener added then would miss.
const interacted = typeof window === "undefined" ? Promise.resolve() : whenInteractive();

// A click on a chart's legend before its code is in would be lost: React cannot hydrate the chart
// to handle it, so it stops the click. Such clicks are kept (listening on the window, ahead of React)
// and made again once a chart has hydrated; the legend's buttons are chart-frame.tsx's.
const legendButton = 'ul[aria-label^="Series"] button, ul[aria-label^="Series"] + p button';
const early: HTMLElement[] = [];
let loaded = false;
if (typeof window !== "undefined") {
  window.addEventListener(
    "click",
    (event) => {
      const button = !loaded && event.target instanceof Element && event.target.closest<HTMLElement>(legendButton);
      if (button) early.push(button);
    },
    true,
  );
}

async function charts(): Promise<Charts> {
  await interacted;
  const code = await import("@cnibench/charts");
  // From here React hydrates a chart at a click on it and handles the click itself.
  loaded = true;
  return code;
}

/** Beside a chart, inside its boundary: once the chart has hydrated, the legend clicks made before, again. */
function EarlyClicks() {
  useEffect(() => {
    for (const button of early.splice(0)) if (button.isConnected) button.click();
  }, []);
  return null;
}

// biome-ignore lint/suspicious/noExplicitAny: any chart's props, as React's own ComponentType<any>
function deferred<C extends ComponentType<any>>(pick: (m: Charts) => C) {
  const Chart = lazy(async () => ({ default: pick(await charts()) }));
  return function Deferred(props: ComponentProps<C>) {
    return (
      <Suspense>
        <Chart {...props} />
        <EarlyClicks />
      </Suspense>
    );
  };
}

export const LineSeriesChart = deferred((m) => m.LineSeriesChart);
export const GroupedBarChart = deferred((m) => m.GroupedBarChart);
export const HistoryChart = deferred((m) => m.HistoryChart);
