// One ranked datapath of the guide's answer: its fit, needs, reasons and where it was measured.
import { guideNeedLabels, handful, providerName } from "@cnibench/analysis";
import { formatCount } from "@cnibench/format";
import { TextLink } from "~/app/_ui/link";
import type { GuideOutput } from "~/server/routers/guide.types";
import { exploreHref } from "../../_explore/params";
import { ReasonItem } from "./reason";

type Option = GuideOutput["options"][number];
type NeedCheck = Option["needs"][number];

const fitWords: Record<Option["fit"], { label: string; className: string }> = {
  good: {
    label: "meets your needs",
    className: "bg-emerald-50 text-emerald-800 dark:bg-emerald-950 dark:text-emerald-300",
  },
  partial: {
    label: "some needs only partly or undocumented",
    className: "bg-amber-50 text-amber-800 dark:bg-amber-950 dark:text-amber-300",
  },
  poor: { label: "misses a need", className: "bg-red-50 text-red-800 dark:bg-red-950 dark:text-red-300" },
};

const statusWords: Record<NeedCheck["status"], { mark: string; className: string }> = {
  met: { mark: "✓", className: "border-emerald-300 text-emerald-800 dark:border-emerald-800 dark:text-emerald-300" },
  partial: { mark: "◐", className: "border-amber-300 text-amber-800 dark:border-amber-800 dark:text-amber-300" },
  unknown: { mark: "?", className: "border-zinc-300 text-zinc-600 dark:border-zinc-700 dark:text-zinc-400" },
  unmet: { mark: "✗", className: "border-red-300 text-red-800 dark:border-red-800 dark:text-red-300" },
};

/**
 * A ranked datapath in one row: its place, name, fit, and the one line that says what puts it there;
 * where it was measured, its needs, every reason with its figures and its features open on demand.
 */
export function OptionCard(props: {
  option: Option;
  apiUrl: string;
  top: boolean;
  notBeaten: boolean;
  headingId: string;
  /** 4 under a testbed's heading. */
  level: 3 | 4;
}) {
  const o = props.option;
  const features = o.reasons.filter((r) => r.kind === "capability" && r.text.startsWith("Features:"));
  const rest = o.reasons.filter((r) => !features.includes(r));
  const { headingId } = props;
  const Heading = props.level === 4 ? "h4" : "h3";
  // A handful of names per sentence; the rest are counted, and all are in Explore.
  const here = o.scenarios.filter((s) => s.inScope).slice(0, handful);
  const elsewhere = o.scenarios.filter((s) => !s.inScope).slice(0, handful);
  const unlisted = o.scenarioCount.all - here.length - elsewhere.length;
  // Its scenarios in the explorer: where those not listed here, and the figures behind them, are.
  const moreHref = exploreHref("/", { ...o.explore, provider: o.clouds });
  return (
    <li
      aria-labelledby={headingId}
      className={`rounded-lg border bg-white px-3 py-2 dark:bg-zinc-900 ${props.top ? "border-blue-500 ring-1 ring-blue-500/40" : "border-zinc-200 dark:border-zinc-800"}`}
    >
      <div className="flex flex-wrap items-baseline gap-x-2 gap-y-1">
        <span className="rounded bg-zinc-900 px-1.5 text-sm font-semibold text-white tabular-nums dark:bg-zinc-100 dark:text-zinc-900">
          {o.rank}
        </span>
        <Heading id={headingId} className="min-w-0 break-words text-sm font-semibold">
          {o.label}
        </Heading>
        {props.notBeaten ? (
          <span className="rounded bg-blue-50 px-1.5 py-0.5 text-xs text-blue-800 dark:bg-blue-950 dark:text-blue-300">
            not beaten
          </span>
        ) : null}
        <span className={`rounded px-1.5 py-0.5 text-xs ${fitWords[o.fit].className}`}>{fitWords[o.fit].label}</span>
      </div>
      <ul aria-label="Why here" className="mt-1 text-sm">
        <ReasonItem reason={o.why} apiUrl={props.apiUrl} />
      </ul>
      {o.needs.length > 0 ? (
        <ul aria-label="Needs" className="mt-1.5 flex flex-wrap gap-1 text-xs">
          {o.needs.map((n) => (
            <li key={n.need} className={`rounded-full border px-2 py-0.5 ${statusWords[n.status].className}`}>
              <span aria-hidden="true">{statusWords[n.status].mark} </span>
              {guideNeedLabels[n.need]}
              <span className="sr-only">: {n.status}</span>
              {n.hard ? "" : <span className="text-zinc-500"> (preference)</span>}
            </li>
          ))}
        </ul>
      ) : null}
      <details className="mt-1.5 text-sm">
        <summary className="cursor-pointer text-xs text-zinc-500 hover:text-zinc-800 dark:hover:text-zinc-200">
          All {formatCount(rest.length + o.moreReasons)} reasons, where it was measured, its features
        </summary>
        <p className="mt-2 text-xs text-zinc-500">
          {here.length > 0 ? (
            <>
              Measured here as <ScenarioLinks scenarios={here} />
              {o.scenarioCount.inScope > here.length
                ? ` and ${formatCount(o.scenarioCount.inScope - here.length)} more`
                : ""}
              .{" "}
            </>
          ) : null}
          {elsewhere.length > 0 || o.scenarioCount.all > o.scenarioCount.inScope ? (
            <>
              {here.length > 0 ? "Also measured" : "Measured only outside your scope"}
              {elsewhere.length > 0 ? (
                <>
                  {" "}
                  as <ScenarioLinks scenarios={elsewhere} />
                </>
              ) : null}
              {o.scenarioCount.all - o.scenarioCount.inScope > elsewhere.length
                ? `${elsewhere.length > 0 ? " and" : ""} ${formatCount(o.scenarioCount.all - o.scenarioCount.inScope - elsewhere.length)} more`
                : ""}
              .{" "}
            </>
          ) : null}
          {unlisted > 0 ? (
            <>
              <TextLink href={moreHref}>All {formatCount(o.scenarioCount.all)} in Explore</TextLink>.{" "}
            </>
          ) : null}
          Capability rows: {o.capabilityRows.join(" + ") || "none"}.
        </p>
        <ul aria-label="Reasons" className="mt-2 space-y-2">
          {rest.map((r) => (
            <ReasonItem key={r.text} reason={r} apiUrl={props.apiUrl} moreHref={moreHref} />
          ))}
          {features.map((r) => (
            <ReasonItem key={r.text} reason={r} apiUrl={props.apiUrl} />
          ))}
        </ul>
        {o.moreReasons > 0 ? (
          <p className="mt-2 text-xs text-zinc-500">
            {formatCount(o.moreReasons)} more measured reasons; every figure is in{" "}
            <TextLink href={moreHref}>its scenarios in Explore</TextLink>.
          </p>
        ) : null}
      </details>
    </li>
  );
}

function ScenarioLinks(props: { scenarios: Option["scenarios"] }) {
  return props.scenarios.map((s, i) => (
    <span key={s.id}>
      {i > 0 ? ", " : ""}
      <TextLink href={`/scenarios/${s.id}`}>{s.label}</TextLink> ({providerName(s.provider)}
      {s.sku === "unknown" ? "" : ` ${s.sku}`})
    </span>
  ));
}
