"use client";

import { type ReactNode, useActionState, useState, useTransition } from "react";
import { Button } from "~/app/_ui/button";
import { Field, inputClass } from "~/app/_ui/field";
import { TextLink } from "~/app/_ui/link";
import { Notice } from "~/app/_ui/notice";
import { type ActionState, createTokenAction, uploadAction } from "./actions";

type Action = (state: ActionState, form: FormData) => Promise<ActionState>;

function Outcome({ state }: { state: ActionState }) {
  if (state?.error)
    return (
      <p role="alert" className="text-sm text-red-700 dark:text-red-400">
        {state.error}
      </p>
    );
  if (state?.done && !state.token)
    return (
      <p role="status" className="text-sm text-green-800 dark:text-green-400">
        {state.done}
      </p>
    );
  return null;
}

/** A form whose server action answers in words under it (errors name the field and why). */
export function ActionForm(props: { action: Action; children: ReactNode; className?: string; label: string }) {
  const [state, formAction, pending] = useActionState(props.action, null);
  return (
    <form action={formAction} aria-label={props.label} className="space-y-1">
      <fieldset disabled={pending} className={props.className ?? "flex flex-wrap items-end gap-2"}>
        {props.children}
      </fieldset>
      <Outcome state={state} />
    </form>
  );
}

/** Creates an upload or read token and shows it once, with the curl command that uses it. */
export function TokenForm({ slug, apiUrl }: { slug: string; apiUrl: string }) {
  const [state, formAction, pending] = useActionState(createTokenAction, null);
  return (
    <form action={formAction} aria-label="Create an upload token" className="space-y-2">
      <input type="hidden" name="slug" value={slug} />
      <div className="flex flex-wrap items-end gap-2">
        <Field label="Token name">
          <input name="name" required maxLength={60} placeholder="ci-cluster-a" className={inputClass} />
        </Field>
        <Field label="Scope">
          <select name="scope" defaultValue="upload" className={inputClass}>
            <option value="upload">upload — store and read</option>
            <option value="read">read — metrics feed and reads only</option>
          </select>
        </Field>
        <Button type="submit" look="primary" disabled={pending}>
          Create token
        </Button>
      </div>
      <Outcome state={state} />
      {state?.token ? (
        <Notice tone="success" as="div" role="status" className="space-y-1">
          <p>
            Token <strong>{state.done}</strong> — copy it now, it is not shown again.{" "}
            {state.scope === "read"
              ? "It reads this workspace only and cannot upload."
              : "It uploads into this workspace only."}
          </p>
          <code
            data-testid="new-token"
            className="block select-all break-all rounded bg-white p-1 font-mono text-xs dark:bg-zinc-900"
          >
            {state.token}
          </code>
          <pre className="overflow-x-auto whitespace-pre-wrap rounded bg-white p-1 font-mono text-xs dark:bg-zinc-900">
            {state.scope === "read"
              ? `curl -sS ${apiUrl}/v1/workspaces/${slug}/metrics -H "Authorization: Bearer ${state.token}"`
              : `curl -sS -X POST ${apiUrl}/v1/bundles -H "Authorization: Bearer ${state.token}" \\\n  -H "Content-Type: application/json" --data-binary @bundle.json`}
          </pre>
        </Notice>
      ) : null}
    </form>
  );
}

/** Drop (or pick) bundle files to store them in the workspace, one after the other, with progress. */
export function UploadDrop({ slug }: { slug: string }) {
  const [results, setResults] = useState<(ActionState & { file: string; n: number })[]>([]);
  const [over, setOver] = useState(false);
  const [pending, startTransition] = useTransition();
  const send = (files: FileList | null) => {
    if (!files?.length) return;
    const list = [...files];
    startTransition(async () => {
      for (const file of list) {
        const outcome = await uploadAction(slug, file.name, await file.text());
        setResults((r) => [...r, { ...outcome, file: file.name, n: r.length }]);
      }
    });
  };
  return (
    <div className="space-y-2">
      <label
        onDragOver={(e) => {
          e.preventDefault();
          setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={(e) => {
          e.preventDefault();
          setOver(false);
          send(e.dataTransfer.files);
        }}
        className={`flex cursor-pointer flex-col items-center rounded-lg border-2 border-dashed p-6 text-sm ${over ? "border-blue-600 bg-blue-50 dark:bg-blue-950" : "border-zinc-300 dark:border-zinc-700"}`}
      >
        <span>{pending ? "Uploading…" : "Drop bundle files (cnibench/bundle@1 JSON) here, or choose them"}</span>
        <input
          type="file"
          accept=".json,application/json"
          multiple
          className="sr-only"
          aria-label="Bundle files to upload"
          onChange={(e) => send(e.currentTarget.files)}
        />
      </label>
      <ul aria-live="polite" className="space-y-1 text-sm">
        {results.map((r) => (
          <li key={r.n} className={r.error ? "text-red-700 dark:text-red-400" : ""}>
            {r.error ?? r.done}{" "}
            {r.scenarioId ? (
              <TextLink href={`/scenarios/${r.scenarioId}`} className="underline">
                open the scenario
              </TextLink>
            ) : null}
          </li>
        ))}
      </ul>
    </div>
  );
}
