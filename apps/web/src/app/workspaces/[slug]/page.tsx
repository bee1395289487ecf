import type { Metadata } from "next";
import { cache } from "react";
import { Button } from "~/app/_ui/button";
import { Field, inputClass } from "~/app/_ui/field";
import { TextLink } from "~/app/_ui/link";
import { Table, TableHead } from "~/app/_ui/table";
import { Muted, PageHeader, Section } from "~/app/_ui/text";
import { webEnv } from "~/env";
import { api, orNotFound } from "~/trpc/server";
import {
  inviteAction,
  removeMemberAction,
  revokePermalinkAction,
  revokeTokenAction,
  setRoleAction,
  setVisibilityAction,
  withdrawInvitationAction,
} from "../actions";
import { ActionForm, TokenForm, UploadDrop } from "../forms";
import { Webhooks } from "./webhooks";

type Props = { params: Promise<{ slug: string }> };

const load = cache(async (slug: string) => orNotFound((await api()).workspaces.bySlug({ slug })));

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  return { title: (await load((await params).slug)).name };
}

const rank = { viewer: 1, member: 2, owner: 3 } as const;
/** A token's scope as the list says it: a read token never uploads. */
const scopeWords = { upload: "upload", read: "read-only" } as const;
const date = (d: Date | null) => (d ? d.toISOString().slice(0, 16).replace("T", " ") : "—");

export default async function WorkspacePage({ params }: Props) {
  const w = await load((await params).slug);
  const role = w.role ? rank[w.role] : 0;
  const hidden = <input type="hidden" name="slug" value={w.slug} />;
  const caller = role >= rank.owner ? await api() : null;
  const [hooks, log] = caller
    ? await Promise.all([caller.webhooks.list({ slug: w.slug }), caller.webhooks.deliveries({ slug: w.slug })])
    : [[], []];
  return (
    <div className="max-w-3xl space-y-8">
      <PageHeader
        title={w.name}
        above={
          <p className="text-sm">
            <TextLink href="/workspaces">Workspaces</TextLink>
          </p>
        }
      >
        <span className="font-mono">{w.slug}</span> · {w.visibility} · {w.bundles} bundles
        {w.role ? ` · you are ${w.role === "owner" ? "an owner" : `a ${w.role}`}` : ""}
      </PageHeader>

      {role >= rank.member ? (
        <Section title="Upload" className="space-y-2">
          <UploadDrop slug={w.slug} />
        </Section>
      ) : null}

      {role >= rank.owner ? (
        <Section title="Visibility" className="space-y-2">
          <ActionForm action={setVisibilityAction} label="Visibility">
            {hidden}
            <select name="visibility" defaultValue={w.visibility} aria-label="Visibility" className={inputClass}>
              <option value="private">private — members only</option>
              <option value="public">public — anyone</option>
            </select>
            <Button type="submit" look="primary">
              Save
            </Button>
          </ActionForm>
        </Section>
      ) : null}

      {role >= rank.viewer ? (
        <Section title="Members" titleId="members" className="space-y-2">
          <ul className="divide-y divide-zinc-100 text-sm dark:divide-zinc-900">
            {w.members.map((m) => (
              <li key={m.id} className="flex flex-wrap items-center gap-3 py-1">
                <span>{m.email ?? m.name}</span>
                {role >= rank.owner ? (
                  <>
                    <ActionForm action={setRoleAction} label={`Role of ${m.email ?? m.name}`}>
                      {hidden}
                      <input type="hidden" name="userId" value={m.id} />
                      <RoleSelect label={`Role of ${m.email ?? m.name}`} value={m.role} />
                      <Button type="submit" look="small">
                        Change
                      </Button>
                    </ActionForm>
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
                  </>
                ) : (
                  <span className="text-zinc-500">{m.role}</span>
                )}
              </li>
            ))}
            {/* Until they accept, an owner sees only the address they invited: not whether it has an account. */}
            {w.invitations.map((i) => (
              <li key={i.email} className="flex flex-wrap items-center gap-3 py-1">
                <span>{i.email}</span>
                <span className="text-zinc-500">invited as {i.role}</span>
                <div className="ml-auto">
                  <RowAction
                    action={withdrawInvitationAction}
                    label={`Withdraw the invitation of ${i.email}`}
                    slug={w.slug}
                    field="email"
                    value={i.email}
                  >
                    Withdraw
                  </RowAction>
                </div>
              </li>
            ))}
          </ul>
          {role >= rank.owner ? (
            <>
              <ActionForm action={inviteAction} label="Invite someone">
                {hidden}
                <Field label="E-mail">
                  <input name="email" type="email" required maxLength={254} className={inputClass} />
                </Field>
                <Field label="Role">
                  <RoleSelect value="member" />
                </Field>
                <Button type="submit" look="primary">
                  Invite
                </Button>
              </ActionForm>
              <Muted>
                They join once they accept, signed in with that verified address (now or later); you see whether they
                have, not whether the address has an account.
              </Muted>
            </>
          ) : null}
        </Section>
      ) : null}

      {role >= rank.member ? (
        <Section title="Upload tokens" className="space-y-2">
          <Muted>
            A token uploads into this workspace only (curl, <code>npx cnibench upload</code>); a read-only one reads its
            figures (the metrics feed, JSON) and uploads nothing. Only its hash is kept.
          </Muted>
          {w.tokens.length > 0 ? (
            // Six columns outgrow a phone: each on one line, the table scrolls sideways on its own.
            <div className="overflow-x-auto">
              <Table className="whitespace-nowrap [&_td]:pr-4 [&_th]:pr-4">
                <TableHead
                  look="plain"
                  columns={["Name", "Scope", "Created by", "Created (UTC)", "Last used", "Status"]}
                />
                <tbody>
                  {w.tokens.map((t) => (
                    <tr key={t.name}>
                      <td className="font-mono">{t.name}</td>
                      <td>{scopeWords[t.scope]}</td>
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
              </Table>
            </div>
          ) : null}
          <TokenForm slug={w.slug} apiUrl={webEnv().publicApiUrl} />
        </Section>
      ) : null}

      {role >= rank.owner ? (
        <Section title="Permalinks" className="space-y-2">
          <Muted>
            Every shared comparison that pins this workspace’s bundles. One pinning a private workspace is public only
            once an owner of each has agreed; delete one to close it for everyone.
          </Muted>
          {w.permalinks.length > 0 ? (
            <Table>
              <TableHead
                look="plain"
                columns={[
                  "Permalink",
                  "Created (UTC)",
                  "Pins",
                  "Status",
                  { key: "delete", label: <span className="sr-only">Delete</span> },
                ]}
              />
              <tbody>
                {w.permalinks.map((l) => (
                  <tr key={l.slug}>
                    <td>
                      <TextLink href={`/d/${l.slug}`} className="font-mono">
                        /d/{l.slug}
                      </TextLink>
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
            </Table>
          ) : (
            <p className="text-sm">None yet.</p>
          )}
        </Section>
      ) : null}

      {role >= rank.owner ? (
        <Section title="Webhooks" className="space-y-2">
          <Webhooks slug={w.slug} hooks={hooks} log={log} />
        </Section>
      ) : null}

      <p className="text-sm">
        <TextLink href="/">Explore</TextLink> shows this workspace’s scenarios beside every other workspace you may
        read.
      </p>
    </div>
  );
}

/** The three roles, each with what it may do. */
function RoleSelect({ value, label }: { value: string; label?: string }) {
  return (
    <select name="role" defaultValue={value} aria-label={label} className={inputClass}>
      <option value="viewer">viewer — browse</option>
      <option value="member">member — browse, tokens, upload</option>
      <option value="owner">owner — everything</option>
    </select>
  );
}

/** A row's one destructive action (remove, withdraw, revoke, delete): a small red button posting one field. */
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
