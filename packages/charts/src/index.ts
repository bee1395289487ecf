export { GroupedBarChart } from "./bar-chart";
export { ChartFrame, ShowAllContext } from "./chart-frame";
export { anyWhisker, runsWords, verdictStyle, versusWords } from "./format";
export type { HistoryAnnotation, HistoryPoint, HistoryShift } from "./geometry";
export { HistoryChart } from "./history-chart";
export { LineSeriesChart } from "./line-chart";
export { colorAt, palette } from "./palette";
export type { Better } from "./top";
export type { BarDatum, ChartMarker, ChartPoint, ChartRule, ChartSeries, GroupReference, SeriesInfo } from "./types";
