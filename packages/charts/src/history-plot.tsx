"use client";

// HistoryChart's interactive plot: Recharts, loaded once the reader interacts (interactive.ts).
import { formatFigure, formatNumber } from "@cnibench/format";
import { useState } from "react";
import {
  ErrorBar,
  Line,
  LineChart,
  useChartWidth,
  usePlotArea,
  useXAxisScale,
  useYAxisScale,
  XAxis,
  YAxis,
} from "recharts";
import type { ChartState } from "./chart-frame";
import { runsWords } from "./format";
import {
  type HistoryGeometry,
  type HistoryPoint,
  historyMargin,
  isoDay,
  labelLines,
  lineHeight,
  type MarkerGroup,
  shiftWords,
} from "./geometry";
import { seriesId } from "./history-chart";
import { shiftColor } from "./palette";
import { Gridlines, Rule, useAxis, valueAxis } from "./rule";
import { PointTarget, type TooltipAt, TooltipBox } from "./tooltip";

export default function HistoryPlot({
  state,
  height,
  top,
  points,
  geometry: g,
  color,
  ...props
}: {
  points: HistoryPoint[];
  /** Its axes, markers and steps, as the static picture draws them. */
  geometry: HistoryGeometry;
  color: string;
  height: number;
  top: number;
  label: string;
  yLabel: string;
  unit: string;
  state: ChartState;
}) {
  const [hovered, setHovered] = useState<{ point: HistoryPoint; at: TooltipAt } | null>(null);
  const { groups, steps } = g;
  const xAxis = useAxis(g.xTicks, g.xDomain);
  const yAxis = useAxis(g.yTicks, g.yDomain);
  return (
    <>
      <LineChart
        responsive
        style={{ width: "100%", height: height + g.rows * lineHeight }}
        margin={{ ...historyMargin, top }}
        data={points}
      >
        <Gridlines />
        <XAxis
          type="number"
          dataKey="x"
          {...xAxis}
          stroke="currentColor"
          label={{ value: "Campaign date (UTC)", position: "insideBottom", offset: -16, fill: "currentColor" }}
        />
        <YAxis type="number" {...valueAxis(`${props.yLabel} (${props.unit})`)} {...yAxis} />
        {groups.map((g) => (
          <Rule key={`rule-${g.at}`} x={g.x} dash={g.shift ? "" : "4 4"} opacity={g.shift ? 0.9 : 0.6} />
        ))}
        {state.visible(seriesId)
          ? steps.map((s) => <Step key={`step-${s.from}`} from={s.from} to={s.to} y={s.mean} color={color} />)
          : null}
        {state.visible(seriesId) ? (
          <Line
            name={props.label}
            dataKey="y"
            stroke={color}
            strokeWidth={2}
            isAnimationActive={false}
            dot={(d: { cx?: number; cy?: number; payload?: HistoryPoint; index?: number }) => (
              <CampaignDot
                key={`dot-${d.index}`}
                cx={d.cx}
                cy={d.cy}
                color={color}
                point={d.payload}
                unit={props.unit}
                onSelect={(p) =>
                  state.setSelected({
                    series: `${p.campaign} (${isoDay(p.x)})`,
                    point: { x: p.x, y: p.y, n: p.n, whisker: [p.min, p.max], links: p.links },
                    unit: props.unit,
                  })
                }
                onHover={(at) => setHovered(at && d.payload ? { point: d.payload, at } : null)}
              />
            )}
            activeDot={{ r: 6, pointerEvents: "none" }}
          >
            <ErrorBar dataKey={whiskerOf} width={5} stroke={color} strokeWidth={1.5} isAnimationActive={false} />
          </Line>
        ) : null}
        {groups.map((g) => (
          <MarkerLabels key={`labels-${g.at}`} group={g} />
        ))}
      </LineChart>
      {hovered ? (
        <TooltipBox at={hovered.at}>
          <CampaignTooltip point={hovered.point} unit={props.unit} groups={groups} />
        </TooltipBox>
      ) : null}
    </>
  );
}

/** A point's whisker as ErrorBar wants it: distances below and above its median. */
const whiskerOf = (p: HistoryPoint): [number, number] => [p.y - p.min, p.max - p.y];

/** A campaign in one sentence, for screen readers. */
const describe = (p: HistoryPoint, unit: string): string =>
  `${p.campaign}, ${isoDay(p.x)}: median ${formatFigure({ value: p.y, unit })}${p.n > 1 ? `, ${runsWords({ n: p.n, whisker: [p.min, p.max] })}` : ", 1 run"}${p.ranOn ? `; ${p.ranOn}` : ""}`;

/** The mean of a stretch between change points: a horizontal dashed step from its first campaign to its last. */
function Step(props: { from: number; to: number; y: number; color: string }) {
  const plot = usePlotArea();
  const xScale = useXAxisScale();
  const yScale = useYAxisScale();
  const [x1, x2, y] = [xScale?.(props.from), xScale?.(props.to), yScale?.(props.y)];
  if (!plot || x1 === undefined || x2 === undefined || y === undefined) return null;
  return (
    <line
      data-step=""
      x1={x1 - 6}
      x2={x2 + 6}
      y1={y}
      y2={y}
      stroke={props.color}
      strokeWidth={1.5}
      strokeDasharray="8 3"
      strokeOpacity={0.7}
    />
  );
}

/**
 * A marker's labels above the plot, from its row down: what changed, then the shift in its verdict's
 * colour; beside the marker, or before it near the right edge.
 */
function MarkerLabels({ group }: { group: MarkerGroup }) {
  const plot = usePlotArea();
  const x = useXAxisScale()?.(group.x);
  if (!plot || x === undefined || !Number.isFinite(x)) return null;
  const { before } = group;
  const y0 = 10 + group.row * lineHeight;
  return (
    <g
      data-marker=""
      data-change-point={group.shift?.verdict}
      fontSize={12}
      textAnchor={before ? "end" : "start"}
      fill="currentColor"
    >
      <line x1={x} x2={x} y1={y0 - 8} y2={plot.y} stroke="currentColor" strokeOpacity={0.3} />
      {group.annotations.map((label, k) => (
        <text key={label} data-annotation="" x={before ? x - 4 : x + 4} y={y0 + k * lineHeight}>
          {label}
        </text>
      ))}
      {group.shift ? (
        <text
          data-shift=""
          x={before ? x - 4 : x + 4}
          y={y0 + group.annotations.length * lineHeight}
          fill={shiftColor(group.shift.verdict)}
          fontWeight={600}
        >
          {shiftWords(group.shift)}
        </text>
      ) : null}
    </g>
  );
}

function CampaignDot(props: {
  cx?: number;
  cy?: number;
  color: string;
  point?: HistoryPoint;
  unit: string;
  onSelect: (p: HistoryPoint) => void;
  onHover: (at: TooltipAt | null) => void;
}) {
  const width = useChartWidth() ?? 0;
  const { cx, cy, point } = props;
  if (cx === undefined || cy === undefined || !point) return null;
  return (
    <g>
      <circle cx={cx} cy={cy} r={4} fill={props.color} pointerEvents="none" />
      <PointTarget
        at={{ x: cx, y: cy, width }}
        label={describe(point, props.unit)}
        data={{ "data-campaign": point.campaign }}
        onSelect={() => props.onSelect(point)}
        onHover={props.onHover}
      />
    </g>
  );
}

/** What a hovered campaign says: its name and day, median, runs, what it ran on, and what changed at it. */
function CampaignTooltip(props: { point: HistoryPoint; unit: string; groups: readonly MarkerGroup[] }) {
  const { point } = props;
  const group = props.groups.find((g) => g.at === point.x);
  return (
    <>
      <div className="font-medium">
        {point.campaign} · {isoDay(point.x)}
      </div>
      <div className="tabular-nums">median {formatFigure({ value: point.y, unit: props.unit })}</div>
      <div className="text-zinc-500">
        {point.n > 1 ? runsWords({ n: point.n, whisker: [point.min, point.max] }) : `n=1 run, ${formatNumber(point.y)}`}
      </div>
      {point.ranOn ? <div className="text-zinc-500">{point.ranOn}</div> : null}
      {group ? <div>{labelLines(group).join(" · ")}</div> : null}
    </>
  );
}
