"use client";

// Listens for the reader's first interaction from the first page they open, whatever it is. Charts
// load their code at that interaction (_charts/deferred.tsx); a page with charts reached later by a
// link inside the app renders them in the browser, and its click has then already counted — without
// this, a chart first loaded after that click would stay blank until the next move of the pointer.
import { whenInteractive } from "@cnibench/charts/interactive";

if (typeof window !== "undefined") void whenInteractive();

export function InteractionListener() {
  return null;
}
