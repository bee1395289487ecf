import { TRPCError } from "@trpc/server";
import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { cache } from "react";
import { webEnv } from "~/env";
import { api } from "~/trpc/server";
import {
  removeMemberAction,
  revokePermalinkAction,
  revokeTokenAction,
  setMemberAction,
  setVisibilityAction,
} from "../actions";
import { ActionForm, buttonClass, inputClass, TokenForm, UploadDrop } from "../forms";

type Props = { params: Promise<{ slug: string }> };

const load = cache(async (slug: string) => {
  try {
    return await (await api()).workspaces.bySlug({ slug });
  } catch (error) {
    if (error instanceof TRPCError && (error.code === "NOT_FOUND" || error.code === "BAD_REQUEST")) notFound();
    throw error;
  }
});

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  return { title: (await load((await params).slug)).name };
}

const rank = { viewer: 1, member: 2, owner: 3 } as const;
const date = (d: Date | null) => (d ? d.toISOString().slice(0, 16).replace("T", " ") : "—");

export default async function WorkspacePage({ params }: Props) {
  const w = await load((await params).slug);
  const role = w.role ? rank[w.role] : 0;
  const hidden = <input type="hidden" name="slug" value={w.slug} />;
  return (
    <div className="max-w-3xl space-y-8">
      <header className="space-y-1">
        <p className="text-sm">
          <Link href="/workspaces" className="text-blue-700 hover:underline dark:text-blue-400">
            Workspaces
          </Link>
        </p>
        <h1 className="text-xl font-semibold">{w.name}</h1>
        <p className="text-sm text-zinc-600 dark:text-zinc-400">
          <span className="font-mono">{w.slug}</span> · {w.visibility} · {w.bundles} bundles
          {w.role ? ` · you are ${w.role === "owner" ? "an owner" : `a ${w.role}`}` : ""}
        </p>
      </header>

      {role >= rank.member ? (
        <section className="space-y-2">
          <h2 className="font-semibold">Upload</h2>
          <UploadDrop slug={w.slug} />
        </section>
      ) : null}

      {role >= rank.owner ? (
        <section className="space-y-2">
          <h2 className="font-semibold">Visibility</h2>
          <ActionForm action={setVisibilityAction} label="Visibility">
            {hidden}
            <select name="visibility" defaultValue={w.visibility} aria-label="Visibility" className={inputClass}>
              <option value="private">private — members only</option>
              <option value="public">public — anyone</option>
            </select>
            <button type="submit" className={buttonClass}>
              Save
            </button>
          </ActionForm>
        </section>
      ) : null}

      {role >= rank.viewer ? (
        <section className="space-y-2">
          <h2 className="font-semibold">Members</h2>
          <ul className="divide-y divide-zinc-100 text-sm dark:divide-zinc-900">
            {w.members.map((m) => (
              <li key={m.id} className="flex items-center gap-3 py-1">
                <span>{m.email ?? m.name}</span>
                <span className="text-zinc-500">{m.role}</span>
                {role >= rank.owner ? (
                  <div className="ml-auto">
                    <RowAction
                      action={removeMemberAction}
                      label={`Remove ${m.email ?? m.name}`}
                      slug={w.slug}
                      field="userId"
                      value={m.id}
                    >
                      Remove
                    </RowAction>
                  </div>
                ) : null}
              </li>
            ))}
          </ul>
          {role >= rank.owner ? (
            <ActionForm action={setMemberAction} label="Add a member">
              {hidden}
              <label className="flex flex-col text-sm">
                E-mail (they must have signed in once)
                <input name="email" type="email" required className={inputClass} />
              </label>
              <label className="flex flex-col text-sm">
                Role
                <select name="role" defaultValue="member" className={inputClass}>
                  <option value="viewer">viewer — browse</option>
                  <option value="member">member — browse, tokens, upload</option>
                  <option value="owner">owner — everything</option>
                </select>
              </label>
              <button type="submit" className={buttonClass}>
                Add or change
              </button>
            </ActionForm>
          ) : null}
        </section>
      ) : null}

      {role >= rank.member ? (
        <section className="space-y-2">
          <h2 className="font-semibold">Upload tokens</h2>
          <p className="text-sm text-zinc-600 dark:text-zinc-400">
            A token uploads into this workspace only (curl, <code>npx cnibench upload</code>). Only its hash is kept.
          </p>
          {w.tokens.length > 0 ? (
            <table className="w-full text-left text-sm">
              <thead className="text-zinc-500">
                <tr>
                  <th className="font-medium">Name</th>
                  <th className="font-medium">Created by</th>
                  <th className="font-medium">Created (UTC)</th>
                  <th className="font-medium">Last used</th>
                  <th className="font-medium">Status</th>
                </tr>
              </thead>
              <tbody>
                {w.tokens.map((t) => (
                  <tr key={t.name}>
                    <td className="font-mono">{t.name}</td>
                    <td>{t.createdBy ?? "command line"}</td>
                    <td>{date(t.createdAt)}</td>
                    <td>{date(t.lastUsedAt)}</td>
                    <td>
                      {t.revokedAt ? (
                        `revoked ${date(t.revokedAt)}`
                      ) : role >= rank.owner ? (
                        <RowAction
                          action={revokeTokenAction}
                          label={`Revoke ${t.name}`}
                          slug={w.slug}
                          field="name"
                          value={t.name}
                        >
                          Revoke
                        </RowAction>
                      ) : (
                        "live"
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          ) : null}
          <TokenForm slug={w.slug} apiUrl={webEnv().publicApiUrl} />
        </section>
      ) : null}

      {role >= rank.owner ? (
        <section className="space-y-2">
          <h2 className="font-semibold">Permalinks</h2>
          <p className="text-sm text-zinc-600 dark:text-zinc-400">
            Every shared comparison that pins this workspace’s bundles. One pinning a private workspace is public only
            once an owner of each has agreed; delete one to close it for everyone.
          </p>
          {w.permalinks.length > 0 ? (
            <table className="w-full text-left text-sm">
              <thead className="text-zinc-500">
                <tr>
                  <th className="font-medium">Permalink</th>
                  <th className="font-medium">Created (UTC)</th>
                  <th className="font-medium">Pins</th>
                  <th className="font-medium">Status</th>
                  <th className="font-medium">
                    <span className="sr-only">Delete</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {w.permalinks.map((l) => (
                  <tr key={l.slug}>
                    <td>
                      <Link
                        href={`/d/${l.slug}`}
                        className="font-mono text-blue-700 hover:underline dark:text-blue-400"
                      >
                        /d/{l.slug}
                      </Link>
                    </td>
                    <td>{date(l.createdAt)}</td>
                    <td>
                      {l.scenarios} scenarios, {l.bundles} bundles
                      {l.otherWorkspaces > 0
                        ? `, ${l.otherWorkspaces} other workspace${l.otherWorkspaces === 1 ? "" : "s"}`
                        : ""}
                    </td>
                    <td>{l.published ? "public" : l.approved ? "agreed here, waiting for others" : "private"}</td>
                    <td>
                      <RowAction
                        action={revokePermalinkAction}
                        label={`Delete /d/${l.slug}`}
                        slug={w.slug}
                        field="permalink"
                        value={l.slug}
                      >
                        Delete
                      </RowAction>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          ) : (
            <p className="text-sm">None yet.</p>
          )}
        </section>
      ) : null}

      <p className="text-sm">
        <Link href="/" className="text-blue-700 hover:underline dark:text-blue-400">
          Explore
        </Link>{" "}
        shows this workspace’s scenarios beside every other workspace you may read.
      </p>
    </div>
  );
}

/** A row's one destructive action (remove, revoke, delete): a small red button posting one field. */
function RowAction(props: {
  action: Parameters<typeof ActionForm>[0]["action"];
  label: string;
  slug: string;
  field: string;
  value: string;
  children: string;
}) {
  return (
    <ActionForm action={props.action} label={props.label}>
      <input type="hidden" name="slug" value={props.slug} />
      <input type="hidden" name={props.field} value={props.value} />
      <button type="submit" className="text-xs text-red-700 hover:underline dark:text-red-400">
        {props.children}
      </button>
    </ActionForm>
  );
}
