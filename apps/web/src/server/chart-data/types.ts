// Every chart shaper reads the same figure the read models return, so it is named once here.
import type { chartView } from "@cnibench/db";

/** A current figure as chartView and compareView return it. */
export type Figure = Awaited<ReturnType<typeof chartView>>["figures"][number];

export type SeriesInfo = { id: string; label: string };
export type Params = Figure["params"];
