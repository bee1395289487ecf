import { guideNeedLabels, providerName } from "@cnibench/analysis";
import { formatCount } from "@cnibench/format";
import { vocabularyLabel } from "@cnibench/schema";
import type { Metadata } from "next";
import type { SearchParams } from "nuqs/server";
import { Card } from "~/app/_ui/card";
import { EmptyState } from "~/app/_ui/empty-state";
import { TextLink } from "~/app/_ui/link";
import { Notice } from "~/app/_ui/notice";
import { Table, TableFrame, TableHead, Td, Tr } from "~/app/_ui/table";
import { Muted } from "~/app/_ui/text";
import { webEnv } from "~/env";
import { api } from "~/trpc/server";
import { OptionCard } from "./_answer/option-card";
import { ReasonItem } from "./_answer/reason";
import { type CloudChoice, GuideForm, type SkuChoice } from "./form";
import { guideHref, guideQuery, loadGuideParams } from "./params";

export const metadata: Metadata = { title: "Guide" };

/** Managed clouds offered even without measurements, so a user can ask and be told. */
const managedClouds = ["aks", "eks", "gke", "tke", "ack", "cce", "oke", "doks"];

const connectionWords = {
  keepalive: "keepalive connections",
  short: "short-lived connections",
  mixed: "mixed connections",
};

type GuideChoices = Awaited<ReturnType<typeof loadGuideParams>>;

export default async function GuidePage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const params = await loadGuideParams(searchParams);
  // The answer goes out with the heading, not streamed after it: React reveals a streamed part no sooner
  // than 300 ms after the first paint, which made the answer the page's late largest paint (LCP 756 ms
  // p50 against a first paint of 280). guide.recommend keeps its answer until an upload, so the first
  // byte waits for a ranking only for a question not asked since.
  return (
    <div className="space-y-6">
      <header className="space-y-1">
        <h1 className="text-xl font-semibold">Guide</h1>
        <Muted className="max-w-3xl">
          What should you run? Describe the cluster; the answer ranks the datapaths measured here, with the figures and
          the documentation behind every reason. Figures are compared only within one cloud and instance type.
        </Muted>
      </header>
      <Answer params={params} />
    </div>
  );
}

async function Answer({ params }: { params: GuideChoices }) {
  const query = guideQuery(params);
  const trpc = await api();
  const data = await trpc.guide.recommend(query);
  const apiUrl = webEnv().publicApiUrl;

  const cloudName = (slug: string) => vocabularyLabel("provider", slug) ?? slug;
  const measured = new Map(data.choices.clouds.map((c) => [c.value, c.scenarios]));
  const cloudValues = [...new Set([...data.choices.clouds.map((c) => c.value), ...managedClouds])];
  if (query.cloud && !cloudValues.includes(query.cloud)) cloudValues.push(query.cloud);
  const clouds: CloudChoice[] = cloudValues.map((value) => ({
    value,
    label: `${cloudName(value)} (${measured.has(value) ? `${measured.get(value)} scenarios` : "no data yet"})`,
  }));
  const skus: SkuChoice[] = data.choices.skus.map((s) => ({
    ...s,
    label: `${providerName(s.provider)} · ${s.scenarios} scenario${s.scenarios === 1 ? "" : "s"}`,
  }));

  const asked = [
    query.cloud ? cloudName(query.cloud) : "any cloud",
    ...(query.sku ? [query.sku] : []),
    `${formatCount(query.services)} Services`,
    connectionWords[query.connections],
    ...query.needs.map((n) => guideNeedLabels[n]),
  ];

  // One ranking, or one per testbed (each option's card with its place there).
  const optionById = new Map(data.options.map((o) => [o.id, o]));
  const rankings =
    data.byTestbed.length > 0
      ? data.byTestbed.map((x) => ({
          testbed: x.testbed as string | null,
          places: x.places.map((p) => ({
            option: {
              ...optionById.get(p.id)!,
              rank: p.rank,
              tier: p.tier,
              why: p.why,
              reasons: p.reasons,
              moreReasons: p.moreReasons,
              scenarios: p.scenarios,
              scenarioCount: p.scenarioCount,
            },
            notBeaten: p.notBeaten,
          })),
        }))
      : [
          {
            testbed: null,
            places: data.options.map((o) => ({
              option: o,
              notBeaten: data.notBeaten.length > 1 && data.notBeaten.includes(o.id),
            })),
          },
        ];

  // The answer itself first (the lead, what nothing beats, what could not rank); the findings after the ranking.
  const answer = data.summary.slice(0, Math.max(1, data.leadCount));
  const findings = data.summary.slice(answer.length);

  return (
    <>
      <GuideForm key={guideHref("", params)} state={params} clouds={clouds} skus={skus} />

      <section aria-labelledby="answer" className="space-y-3">
        <div>
          <h2 id="answer" className="text-lg font-semibold">
            Answer
          </h2>
          <Muted>For {asked.join(" · ")}.</Muted>
        </div>
        <Card>
          <ul aria-label="Summary" className="space-y-2 text-sm">
            {answer.map((r, i) => (
              <ReasonItem key={r.text} reason={r} apiUrl={apiUrl} lead={i === 0} />
            ))}
          </ul>
        </Card>
        {data.caveats.length > 0 ? (
          <Notice tone="warning" as="div" padding="normal" role="note" aria-label="Caveats">
            <p className="mb-1 font-medium">Keep in mind</p>
            <ul className="space-y-1.5">
              {data.caveats.map((r) => (
                <ReasonItem key={r.text} reason={r} apiUrl={apiUrl} />
              ))}
            </ul>
          </Notice>
        ) : null}
      </section>

      <section aria-labelledby="ranked" className="space-y-2">
        <h2 id="ranked" className="text-lg font-semibold">
          Datapaths, ranked
        </h2>
        {data.byTestbed.length > 0 ? (
          <Muted>
            Per testbed: no test ran datapaths of two testbeds side by side, so each is ranked on its own figures. A
            datapath measured on several is listed under each
            {data.moreTestbeds.length > 0 ? `; the first ${formatCount(data.byTestbed.length)} are ranked here` : ""}.
          </Muted>
        ) : null}
        {data.options.length === 0 ? (
          <EmptyState>No measured datapath fits this scope.</EmptyState>
        ) : (
          rankings.map((list, i) => (
            <div key={list.testbed ?? ""} className="space-y-1.5">
              {list.testbed ? (
                <h3 id={`testbed-${i}`} className="pt-1 text-base font-semibold">
                  On {list.testbed}
                </h3>
              ) : null}
              <ol className="space-y-1.5" aria-labelledby={list.testbed ? `testbed-${i}` : undefined}>
                {list.places.map(({ option, notBeaten }) => (
                  <OptionCard
                    key={option.id}
                    option={option}
                    apiUrl={apiUrl}
                    top={option.rank === 1}
                    notBeaten={notBeaten}
                    headingId={`option-${list.testbed ? `${i}-` : ""}${option.rank}`}
                    level={list.testbed ? 4 : 3}
                  />
                ))}
              </ol>
            </div>
          ))
        )}
        {data.moreTestbeds.length > 0 ? (
          <div className="space-y-1.5">
            <h3 id="more-testbeds" className="pt-1 text-base font-semibold">
              {formatCount(data.moreTestbeds.length)} more testbed{data.moreTestbeds.length === 1 ? "" : "s"}
            </h3>
            <Muted>Each ranked on its own figures: open one for its answer.</Muted>
            <ul aria-labelledby="more-testbeds" className="flex flex-wrap gap-x-5 gap-y-1 text-sm">
              {data.moreTestbeds.map((t) => (
                <li key={t.testbed}>
                  <TextLink
                    href={guideHref("/guide", {
                      ...params,
                      cloud: t.provider,
                      // The form offers no unpublished instance type: the cloud's answer holds its testbed.
                      sku: t.sku === "unknown" ? "" : t.sku,
                    })}
                  >
                    {t.testbed}
                  </TextLink>{" "}
                  <span className="text-zinc-500">
                    · {formatCount(t.options)} datapath{t.options === 1 ? "" : "s"}
                  </span>
                </li>
              ))}
            </ul>
          </div>
        ) : null}
      </section>

      {findings.length > 0 ? (
        <section aria-labelledby="findings" className="space-y-2">
          <h2 id="findings" className="text-lg font-semibold">
            What the figures show
          </h2>
          <Card>
            <ul aria-label="Findings" className="space-y-2 text-sm">
              {findings.map((r) => (
                <ReasonItem key={r.text} reason={r} apiUrl={apiUrl} />
              ))}
            </ul>
            {data.moreFindings > 0 ? (
              <p className="mt-2 text-xs text-zinc-500">
                {formatCount(data.moreFindings)} more findings like these, on other testbeds: choose a cloud or instance
                type above to see theirs.
              </p>
            ) : null}
          </Card>
        </section>
      ) : null}

      {data.closest.length > 0 ? (
        <section aria-labelledby="closest" className="space-y-2">
          <h2 id="closest" className="text-lg font-semibold">
            Closest evidence
          </h2>
          <details className="text-sm">
            <summary className="cursor-pointer text-zinc-600 hover:text-zinc-900 dark:text-zinc-400 dark:hover:text-zinc-100">
              {formatCount(data.closest.length)} finding{data.closest.length === 1 ? "" : "s"} from other clouds or
              instance types, on what you asked and nothing here measured; never ranked on
            </summary>
            <ul aria-label="Closest evidence" className="mt-2 space-y-2">
              {data.closest.map((r) => (
                <ReasonItem key={r.text} reason={r} apiUrl={apiUrl} />
              ))}
            </ul>
          </details>
        </section>
      ) : null}

      {data.unmeasured.length > 0 ? (
        <section aria-labelledby="unmeasured" className="space-y-2">
          <h2 id="unmeasured" className="text-lg font-semibold">
            Also possible, not measured here
          </h2>
          <Muted>From the capability matrix only: no figures, so not ranked.</Muted>
          <TableFrame>
            <Table>
              <TableHead columns={["Datapath", "Your needs"]} />
              <tbody>
                {data.unmeasured.map((u) => (
                  <Tr key={u.id} className="align-top">
                    <th scope="row" className="px-3 py-2 text-left font-normal">
                      {u.label}
                    </th>
                    <Td>
                      {u.needs.length === 0 ? (
                        <span className="text-zinc-500">tick a need above to check it here</span>
                      ) : (
                        <ul className="space-y-1">
                          {u.reasons.map((r) => (
                            <ReasonItem key={r.text} reason={r} apiUrl={apiUrl} />
                          ))}
                        </ul>
                      )}
                    </Td>
                  </Tr>
                ))}
              </tbody>
            </Table>
          </TableFrame>
        </section>
      ) : null}

      <footer className="space-y-1 border-t border-zinc-200 pt-3 text-xs text-zinc-500 dark:border-zinc-800">
        <p>
          How the ranking works (docs/guide.md): datapaths missing a need you ticked come last (then those that offer it
          only partly or whose docs do not say). Among the rest, each figure measured in your scope compares them pair
          by pair with the verdicts of compare (better or worse beyond each metric's margin); a figure where both reach
          the NIC's line rate or bare metal cannot tell them apart. Datapaths no other beats across the board — at least
          as good on every figure and better on one — come first; only among those do your answers' weights order them,
          then the features each offers. A datapath with no figure of its own in what you asked about, or none for your
          traffic, comes after those that have one. Every datapath below the first says what puts it there. CPU ranks
          only when it counts every mode (softirq included). Figures from other clouds or instance types are never
          ranked on, save short-connection rates against the Service count: a testbed without them reads each datapath
          on the line of its Service proxy's program from one that has them, and the answer says whose. References (bare
          metal, host network) are the yardstick, never ranked.
        </p>
        <p>
          Capability matrix v{data.capabilitiesVersion}, every cell with its source. Figures: the current ones of{" "}
          {data.scope.scenarioCount} scenario{data.scope.scenarioCount === 1 ? "" : "s"} in scope (
          {data.scope.clouds.map(providerName).join(", ") || "none"}).
        </p>
      </footer>
    </>
  );
}
