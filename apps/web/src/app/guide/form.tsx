"use client";

import {
  type ConnectionPattern,
  connectionPatterns,
  type GuideNeed,
  guideNeeds,
} from "@cnibench/analysis/guide-questions";
import { type FormEvent, useState } from "react";
import { Button } from "~/app/_ui/button";
import { cardClass } from "~/app/_ui/card";
import { cx } from "~/app/_ui/cx";
import { Field, inputClass } from "~/app/_ui/field";
import { useQueryUpdate } from "~/app/_ui/query-update";
import type { GuideParams } from "./params";

const connectionWords: Record<ConnectionPattern, { label: string; hint: string }> = {
  keepalive: { label: "Keepalive", hint: "connection pools, HTTP keepalive, gRPC" },
  short: { label: "Short-lived", hint: "a new TCP connection per request" },
  mixed: { label: "Mixed", hint: "some of each" },
};

const needWords: Record<GuideNeed, { label: string; hint: string }> = {
  l7Policy: { label: "L7 (HTTP) policy", hint: "rules on paths, methods, headers" },
  fqdnPolicy: { label: "FQDN egress policy", hint: "allow egress by DNS name" },
  flowObservability: { label: "Flow observability", hint: "per-flow visibility (e.g. Hubble)" },
  udpHeavy: { label: "UDP-heavy traffic", hint: "media, DNS, QUIC at high rates" },
  latencySensitive: { label: "Latency-sensitive", hint: "every round trip counts" },
  encryptionInTransit: { label: "Encryption in transit", hint: "WireGuard or IPsec between nodes" },
  podIpRoutable: { label: "Pod IPs routable in the VPC", hint: "reach Pods directly from the network" },
  podIpScarcity: { label: "Pod IP scarcity", hint: "few VPC addresses to spare" },
};

const field = cx(inputClass, "w-full");

export type CloudChoice = { value: string; label: string };
export type SkuChoice = { value: string; provider: string; label: string };

/**
 * The guide's questions. A plain GET form, so it works without JavaScript and every answer is a URL;
 * with JavaScript the same values go into the address without a page load, and the page re-renders on
 * the server. A value left at its default stays out of the address, as the GET form's would not.
 */
export function GuideForm(props: { state: GuideParams; clouds: CloudChoice[]; skus: SkuChoice[] }) {
  const { state } = props;
  const { pending, update } = useQueryUpdate();
  const [cloud, setCloud] = useState(state.cloud);
  const skus = props.skus.filter((s) => cloud === "" || s.provider === cloud);

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const services = Number(data.get("services"));
    const connections = (data.get("connections") as ConnectionPattern | null) ?? "keepalive";
    update({
      cloud: String(data.get("cloud") ?? "") || null,
      sku: String(data.get("sku") ?? "").trim() || null,
      // Not a count: the default's (the server's parser reads the dropped key as it).
      services: Number.isInteger(services) && services >= 0 ? services : null,
      connections: connections === "keepalive" ? null : connections,
      need: data.getAll("need").filter((n): n is GuideNeed => guideNeeds.includes(n as never)),
    });
  }

  return (
    <form
      action="/guide"
      method="get"
      onSubmit={submit}
      aria-label="Your cluster"
      aria-busy={pending}
      className={cx(cardClass, "grid gap-4 p-4 md:grid-cols-2 xl:grid-cols-4")}
    >
      <div className="space-y-3">
        <Field label={<span className="mb-1 font-medium">Cloud</span>}>
          <select name="cloud" className={field} defaultValue={state.cloud} onChange={(e) => setCloud(e.target.value)}>
            <option value="">Any cloud</option>
            {props.clouds.map((c) => (
              <option key={c.value} value={c.value}>
                {c.label}
              </option>
            ))}
          </select>
        </Field>
        <Field
          label={
            <span className="mb-1 font-medium">
              Instance type <span className="font-normal text-zinc-500">(optional)</span>
            </span>
          }
        >
          <input
            name="sku"
            list="guide-skus"
            className={field}
            defaultValue={state.sku}
            placeholder="any, e.g. m6i.xlarge"
            autoComplete="off"
            spellCheck={false}
          />
          <datalist id="guide-skus">
            {skus.map((s) => (
              <option key={`${s.provider} ${s.value}`} value={s.value}>
                {s.label}
              </option>
            ))}
          </datalist>
        </Field>
        <Field label={<span className="mb-1 font-medium">Expected number of Services</span>}>
          <input
            name="services"
            type="number"
            inputMode="numeric"
            min={0}
            max={10_000_000}
            step={1}
            required
            className={`${field} tabular-nums`}
            defaultValue={state.services}
          />
        </Field>
      </div>
      <fieldset className="space-y-1 text-sm">
        <legend className="mb-1 font-medium">Connection pattern</legend>
        {connectionPatterns.map((c) => (
          <label
            key={c}
            className="flex cursor-pointer items-start gap-2 rounded px-1 py-0.5 hover:bg-zinc-50 dark:hover:bg-zinc-800"
          >
            <input
              type="radio"
              name="connections"
              value={c}
              defaultChecked={state.connections === c}
              className="mt-1 accent-blue-600"
            />
            <span>
              {connectionWords[c].label}
              <span className="block text-xs text-zinc-500">{connectionWords[c].hint}</span>
            </span>
          </label>
        ))}
      </fieldset>
      <fieldset className="space-y-1 text-sm md:col-span-2 xl:col-span-2">
        <legend className="mb-1 font-medium">Needs</legend>
        <div className="grid gap-x-4 sm:grid-cols-2">
          {guideNeeds.map((n) => (
            <label
              key={n}
              className="flex cursor-pointer items-start gap-2 rounded px-1 py-0.5 hover:bg-zinc-50 dark:hover:bg-zinc-800"
            >
              <input
                type="checkbox"
                name="need"
                value={n}
                defaultChecked={state.need.includes(n)}
                className="mt-1 accent-blue-600"
              />
              <span>
                {needWords[n].label}
                <span className="block text-xs text-zinc-500">{needWords[n].hint}</span>
              </span>
            </label>
          ))}
        </div>
      </fieldset>
      <div className="flex items-center gap-3 md:col-span-2 xl:col-span-4">
        <Button
          type="submit"
          look="primary"
          className="focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600"
        >
          Show the answer
        </Button>
        {pending ? (
          <span role="status" className="text-xs text-zinc-500">
            Working it out…
          </span>
        ) : null}
      </div>
    </form>
  );
}
