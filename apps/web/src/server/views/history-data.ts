// A series' history as the chart draws it (scenarios.history): each campaign a point at its runs'
// median with min–max whiskers, the change points found in them (packages/analysis change-points.ts),
// and a marker wherever what the campaigns ran on changed (CNI version, kernel, OS, Kubernetes version).
import { type ChangePoint, detectChangePoints } from "@cnibench/analysis";
import type { SeriesHistory } from "@cnibench/db";
import type { HistoryView } from "../routers/history.types";

type ChangePointView = HistoryView["changePoints"][number];

/** The view of a history: pure, so the same campaigns always give the same change points. */
export function historyData(history: SeriesHistory): HistoryView {
  const campaigns = history.campaigns.map((c, index) => ({ ...c, index, x: c.measuredAt.getTime(), y: c.median }));
  const analysis = detectChangePoints(
    campaigns.map((c) => ({ id: c.campaign, runs: c.runs, annotations: c.annotations })),
    {
      metric: history.metric,
      ...(history.unit === null ? {} : { unit: history.unit }),
      ...(history.better === null ? {} : { better: history.better }),
    },
  );
  const changePoints = analysis.changePoints.flatMap((point): ChangePointView[] => {
    const at = campaigns[point.index];
    return at ? [changePointView(point, at)] : [];
  });
  return {
    testbed: history.testbed,
    metric: history.metric,
    params: history.params,
    unit: history.unit,
    better: history.better,
    campaigns,
    totalCampaigns: history.totalCampaigns,
    changePoints,
    changePointsReason: analysis.reason,
    annotations: campaigns.flatMap((c) =>
      c.changes.map((change) => ({
        ...change,
        index: c.index,
        x: c.x,
        campaign: c.campaign,
        measuredAt: c.measuredAt,
      })),
    ),
  };
}

function changePointView(
  point: ChangePoint,
  at: { campaign: string; scenarioId: string; measuredAt: Date; x: number },
): ChangePointView {
  const evidence = point.verdict.evidence;
  return {
    index: point.index,
    campaign: at.campaign,
    scenarioId: at.scenarioId,
    measuredAt: at.measuredAt,
    x: at.x,
    before: point.before,
    after: point.after,
    changePercent: point.changePercent,
    p: point.p,
    verdict: point.verdict.verdict,
    direction: point.direction,
    marginPercent: "marginPercent" in evidence ? evidence.marginPercent : null,
    annotations: point.annotations,
  };
}
