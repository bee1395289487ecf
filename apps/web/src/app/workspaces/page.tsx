import type { Metadata } from "next";
import { Button } from "~/app/_ui/button";
import { Field, inputClass } from "~/app/_ui/field";
import { TextLink } from "~/app/_ui/link";
import { Table, TableHead, Td, Tr } from "~/app/_ui/table";
import { Muted, PageHeader, Section } from "~/app/_ui/text";
import { currentUserId, signInEnabled } from "~/auth";
import { api } from "~/trpc/server";
import { acceptInvitationAction, createWorkspaceAction, declineInvitationAction } from "./actions";
import { ActionForm } from "./forms";

export const metadata: Metadata = { title: "Workspaces" };

export default async function WorkspacesPage() {
  const caller = await api();
  const [workspaces, invitations, userId] = await Promise.all([
    caller.workspaces.list(),
    caller.workspaces.invitations(),
    currentUserId(),
  ]);
  return (
    <div className="max-w-3xl space-y-6">
      <PageHeader title="Workspaces">
        Every bundle belongs to one workspace. Public ones anyone may browse; private ones only their members. Explore,
        charts, compare and the guide show every workspace you may read.
      </PageHeader>
      {invitations.length > 0 ? (
        <Section title="Invitations" titleId="invitations" className="space-y-2">
          <Muted>
            You join a workspace only once you accept. Its owners see your address as invited either way: declining does
            not tell them you have an account.
          </Muted>
          <ul className="divide-y divide-zinc-100 text-sm dark:divide-zinc-900">
            {invitations.map((i) => (
              <li key={i.id} className="flex flex-wrap items-center gap-3 py-1">
                <span>
                  <strong>{i.workspace.name}</strong>{" "}
                  <span className="font-mono text-xs text-zinc-500">{i.workspace.slug}</span>
                </span>
                <span className="text-zinc-500">
                  as a {i.role}
                  {i.invitedBy ? `, invited by ${i.invitedBy}` : ""}
                </span>
                <div className="ml-auto flex gap-2">
                  <ActionForm action={acceptInvitationAction} label={`Accept ${i.workspace.name}`}>
                    <input type="hidden" name="id" value={i.id} />
                    <Button type="submit" look="primary">
                      Accept
                    </Button>
                  </ActionForm>
                  <ActionForm action={declineInvitationAction} label={`Decline ${i.workspace.name}`}>
                    <input type="hidden" name="id" value={i.id} />
                    <Button type="submit" look="small">
                      Decline
                    </Button>
                  </ActionForm>
                </div>
              </li>
            ))}
          </ul>
        </Section>
      ) : null}
      <Table>
        <TableHead look="list" columns={["Workspace", "Visibility", "Bundles", "Your role"]} />
        <tbody>
          {workspaces.map((w) => (
            <Tr key={w.id} look="list">
              <Td look="list">
                <TextLink href={`/workspaces/${w.slug}`}>{w.name}</TextLink>{" "}
                <span className="font-mono text-xs text-zinc-500">{w.slug}</span>
              </Td>
              <Td look="list">{w.visibility}</Td>
              <Td look="list" className="tabular-nums">
                {w.bundles}
              </Td>
              <Td look="list">{w.role ?? "—"}</Td>
            </Tr>
          ))}
        </tbody>
      </Table>
      <Section title="New workspace" className="space-y-2">
        {userId ? (
          <ActionForm action={createWorkspaceAction} label="New workspace">
            <Field label="Name">
              <input name="name" required maxLength={100} placeholder="Platform team" className={inputClass} />
            </Field>
            <Field label="Address (slug)">
              <input
                name="slug"
                required
                pattern="[a-z0-9][a-z0-9\-]*"
                minLength={2}
                maxLength={40}
                placeholder="platform-team"
                title="lowercase letters, digits and dashes"
                className={inputClass}
              />
            </Field>
            <Field label="Visibility">
              <select name="visibility" defaultValue="private" className={inputClass}>
                <option value="private">private — members only</option>
                <option value="public">public — anyone</option>
              </select>
            </Field>
            <Button type="submit" look="primary">
              Create
            </Button>
          </ActionForm>
        ) : (
          <Muted>
            {signInEnabled() ? "Sign in to create a workspace." : "Sign-in is not configured on this installation."}
          </Muted>
        )}
      </Section>
    </div>
  );
}
