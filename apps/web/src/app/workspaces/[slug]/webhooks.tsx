"use client";

// The workspace page's Webhooks section (owners; issues 27, 41 alerts): the webhooks with their events,
// pause and delete, a form adding one whose signing secret is shown once, and the delivery log.
import { useActionState } from "react";
import { Button } from "~/app/_ui/button";
import { Field, inputClass } from "~/app/_ui/field";
import { Notice } from "~/app/_ui/notice";
import { Table, TableHead } from "~/app/_ui/table";
import { Muted } from "~/app/_ui/text";
import type { DeliveryView as Delivery, WebhookView as Hook } from "~/server/routers/webhooks.types";
import { createWebhookAction, deleteWebhookAction, pauseWebhookAction } from "../actions";
import { ActionForm } from "../forms";

const eventWords = { "campaign-worse": "campaign worse", "change-point": "change point" } as const;
const when = (d: Date | null) => (d ? new Date(d).toISOString().slice(0, 16).replace("T", " ") : "—");

function statusWords(d: Delivery): string {
  const tries = `${d.attempts} ${d.attempts === 1 ? "try" : "tries"}`;
  if (d.status === "delivered") return `delivered ${when(d.deliveredAt)} (${tries})`;
  if (d.status === "failed") return `failed after ${tries}: ${d.lastError ?? "?"}`;
  return d.attempts > 0 ? `retrying ${when(d.nextAttemptAt)} (${tries}: ${d.lastError ?? "?"})` : "queued";
}

export function Webhooks({ slug, hooks, log }: { slug: string; hooks: Hook[]; log: Delivery[] }) {
  const urlOf = new Map(hooks.map((h) => [h.id, h.url]));
  return (
    <div className="space-y-3">
      <Muted>
        Told once per campaign, when it is complete (its collector closed it, or no bundle came for the quiet period):
        if it is worse than the previous campaign of its testbed, or brings a change point. Deliveries are signed:{" "}
        <code>X-Cnibench-Signature: sha256=</code>HMAC-SHA256 of <code>X-Cnibench-Timestamp</code>, a dot and the body,
        with the secret (docs/alerts.md).
      </Muted>
      {hooks.length > 0 ? (
        <Table>
          <TableHead
            look="plain"
            columns={[
              "URL",
              "Format",
              "Events",
              "Created (UTC)",
              { key: "pause", label: <span className="sr-only">Pause or resume</span> },
              { key: "delete", label: <span className="sr-only">Delete</span> },
            ]}
          />
          <tbody>
            {hooks.map((h) => (
              <tr key={h.id}>
                <td className="max-w-xs break-all font-mono text-xs">
                  {h.url}
                  {h.disabled ? <span className="ml-1 font-sans text-zinc-500">(paused)</span> : null}
                </td>
                <td>{h.format === "slack" ? "Slack" : "JSON"}</td>
                <td>{h.events.map((e) => eventWords[e]).join(", ")}</td>
                <td>{when(h.createdAt)}</td>
                <td>
                  <ActionForm
                    action={pauseWebhookAction}
                    label={`${h.disabled ? "Resume" : "Pause"} the webhook ${h.url}`}
                  >
                    <input type="hidden" name="slug" value={slug} />
                    <input type="hidden" name="id" value={h.id} />
                    <input type="hidden" name="paused" value={h.disabled ? "false" : "true"} />
                    <button type="submit" className="text-xs hover:underline">
                      {h.disabled ? "Resume" : "Pause"}
                    </button>
                  </ActionForm>
                </td>
                <td>
                  <ActionForm action={deleteWebhookAction} label={`Delete the webhook ${h.url}`}>
                    <input type="hidden" name="slug" value={slug} />
                    <input type="hidden" name="id" value={h.id} />
                    <button type="submit" className="text-xs text-red-700 hover:underline dark:text-red-400">
                      Delete
                    </button>
                  </ActionForm>
                </td>
              </tr>
            ))}
          </tbody>
        </Table>
      ) : null}
      <WebhookForm slug={slug} />
      {log.length > 0 ? (
        <Table aria-label="Webhook deliveries">
          <TableHead look="plain" columns={["Queued (UTC)", "Event", "About", "To", "Status"]} />
          <tbody>
            {log.map((d) => (
              <tr key={d.id}>
                <td>{when(d.createdAt)}</td>
                <td>{eventWords[d.event]}</td>
                <td>{d.about}</td>
                <td className="max-w-[12rem] truncate font-mono text-xs">{urlOf.get(d.webhookId) ?? "—"}</td>
                <td className={d.status === "failed" ? "text-red-700 dark:text-red-400" : ""}>{statusWords(d)}</td>
              </tr>
            ))}
          </tbody>
        </Table>
      ) : (
        <p className="text-sm">No delivery yet.</p>
      )}
    </div>
  );
}

/** Adds a webhook and shows its secret once. */
function WebhookForm({ slug }: { slug: string }) {
  const [state, formAction, pending] = useActionState(createWebhookAction, null);
  return (
    <form action={formAction} aria-label="Add a webhook" className="space-y-2">
      <input type="hidden" name="slug" value={slug} />
      <div className="flex flex-wrap items-end gap-2">
        <Field label="URL (http or https)">
          <input
            name="url"
            type="url"
            required
            maxLength={2000}
            placeholder="https://hooks.slack.com/services/…"
            className={inputClass}
          />
        </Field>
        <Field label="Format">
          <select name="format" defaultValue="slack" className={inputClass}>
            <option value="slack">Slack-compatible</option>
            <option value="json">generic JSON</option>
          </select>
        </Field>
        <fieldset className="flex gap-3 text-sm">
          <legend className="sr-only">Events</legend>
          {(["campaign-worse", "change-point"] as const).map((e) => (
            <label key={e} className="flex items-center gap-1">
              <input type="checkbox" name="events" value={e} defaultChecked /> {eventWords[e]}
            </label>
          ))}
        </fieldset>
        <Button type="submit" look="primary" disabled={pending}>
          Add webhook
        </Button>
      </div>
      {state?.error ? (
        <p role="alert" className="text-sm text-red-700 dark:text-red-400">
          {state.error}
        </p>
      ) : null}
      {state?.secret ? (
        <Notice tone="success" as="div" role="status" className="space-y-1">
          <p>
            Webhook to <strong className="break-all">{state.done}</strong> added. Its signing secret — copy it now, it
            is not shown again:
          </p>
          <code
            data-testid="new-webhook-secret"
            className="block select-all break-all rounded bg-white p-1 font-mono text-xs dark:bg-zinc-900"
          >
            {state.secret}
          </code>
        </Notice>
      ) : null}
    </form>
  );
}
