"use client";

// When the interactive charts load: at the reader's first move of the pointer, tap, wheel, key or
// focus anywhere on the page. Until then the charts are their static pictures (static-chart.tsx),
// so Recharts (98.5 kB gzipped, and about 10 kB a plot) is no part of any page's first load; a
// reader reaching for a point has moved the pointer (or pressed Tab) on the way, which loads it.
import { useSyncExternalStore } from "react";

const events = ["pointerdown", "pointermove", "touchstart", "wheel", "keydown", "focusin"] as const;
let wanted = false;
const listeners = new Set<() => void>();

function want() {
  if (wanted) return;
  wanted = true;
  for (const e of events) window.removeEventListener(e, want, true);
  for (const l of listeners) l();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  if (!wanted && listeners.size === 1) {
    for (const e of events) window.addEventListener(e, want, { capture: true, passive: true });
  }
  return () => {
    listeners.delete(listener);
  };
}

/** Whether the reader has interacted with the page yet; false on the server and while hydrating. */
export const useInteractive = (): boolean =>
  useSyncExternalStore(
    subscribe,
    () => wanted,
    () => false,
  );

/** Resolves at the reader's first interaction (at once after it): when a page loads its charts' code. */
export const whenInteractive = (): Promise<void> =>
  new Promise((resolve) => {
    if (wanted) return resolve();
    const stop = subscribe(() => {
      stop();
      resolve();
    });
  });
