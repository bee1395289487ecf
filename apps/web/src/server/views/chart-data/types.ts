// What every chart shaper shares besides the current figures (packages/db's LatestFigure).
import type { LatestFigure } from "@cnibench/db";

export type SeriesInfo = { id: string; label: string };
export type Params = LatestFigure["params"];
