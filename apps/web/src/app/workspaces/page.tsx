import type { Metadata } from "next";
import { Button } from "~/app/_ui/button";
import { Field, inputClass } from "~/app/_ui/field";
import { TextLink } from "~/app/_ui/link";
import { Table, TableHead, Td, Tr } from "~/app/_ui/table";
import { Muted, PageHeader, Section } from "~/app/_ui/text";
import { currentUserId, signInEnabled } from "~/auth";
import { api } from "~/trpc/server";
import { createWorkspaceAction } from "./actions";
import { ActionForm } from "./forms";

export const metadata: Metadata = { title: "Workspaces" };

export default async function WorkspacesPage() {
  const [workspaces, userId] = await Promise.all([(await api()).workspaces.list(), currentUserId()]);
  return (
    <div className="max-w-3xl space-y-6">
      <PageHeader title="Workspaces">
        Every bundle belongs to one workspace. Public ones anyone may browse; private ones only their members. Explore,
        charts, compare and the guide show every workspace you may read.
      </PageHeader>
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
