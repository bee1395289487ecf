export { GroupedBarChart } from "./bar-chart";
export { ChartFrame } from "./chart-frame";
export { anyWhisker, runsWords, verdictStyle, versusWords } from "./format";
export { LineSeriesChart } from "./line-chart";
export { colorAt, palette } from "./palette";
export type { BarDatum, ChartMarker, ChartPoint, ChartSeries } from "./types";
