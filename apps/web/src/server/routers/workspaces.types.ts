import { z } from "zod";

const role = z.enum(["viewer", "member", "owner"]);
const visibility = z.enum(["public", "private"]);
export const slugSchema = z
  .string()
  .min(2, "at least 2 characters")
  .max(40, "at most 40 characters")
  .regex(/^[a-z0-9][a-z0-9-]*$/, "lowercase letters, digits and dashes, starting with a letter or digit");

export const workspaceRefSchema = z.object({ slug: slugSchema });
export const bundleRefSchema = z.object({ bundleId: z.string().min(1).max(100) });
/** A campaign of the workspace of a scenario (the page it is deleted from); names are 1–200 characters. */
export const campaignRefSchema = z.object({
  scenarioId: z.string().min(1).max(100),
  campaign: z.string().min(1).max(200),
});
export const createWorkspaceInputSchema = z.object({
  slug: slugSchema,
  name: z.string().trim().min(1, "give it a name").max(100),
  visibility,
});
export const visibilityInputSchema = workspaceRefSchema.extend({ visibility });
const email = z.email().max(254);
/** An address invited with a role; it joins only once the user holding it accepts. */
export const inviteInputSchema = workspaceRefSchema.extend({ email, role });
export const withdrawInvitationInputSchema = workspaceRefSchema.extend({ email });
export const removeMemberInputSchema = workspaceRefSchema.extend({ userId: z.string().min(1).max(100) });
export const setRoleInputSchema = removeMemberInputSchema.extend({ role });
export const invitationRefSchema = z.object({ id: z.string().min(1).max(100) });

/** The answer to an invitation: byte for byte the same whether or not anyone holds the address. */
export const invitedSchema = z.object({ slug: z.string(), role, status: z.literal("invited") });

/** An invitation waiting for the signed-in user: the workspace, the role offered, who invited them. */
export const invitationSchema = z.object({
  id: z.string(),
  role,
  createdAt: z.date(),
  workspace: z.object({ slug: z.string(), name: z.string() }),
  invitedBy: z.string().nullable(),
});
export const tokenInputSchema = workspaceRefSchema.extend({
  name: z
    .string()
    .trim()
    .min(1, "give it a name")
    .max(60)
    .regex(/^[\w.-]+$/, "letters, digits, dots, dashes and underscores"),
});
/** A token's scope: upload (store and read) or read, which reads the workspace only (dashboards, scrapers). */
export const tokenScopeSchema = z.enum(["upload", "read"]);
/** A new token: upload by default. */
export const createTokenInputSchema = tokenInputSchema.extend({ scope: tokenScopeSchema.default("upload") });
export const uploadInputSchema = workspaceRefSchema.extend({
  filename: z.string().max(300),
  // The web upload takes a bundle's JSON text; the ingest API takes the same (and larger) files.
  text: z
    .string()
    .min(1, "the file is empty")
    .max(10 * 1024 * 1024, "larger than 10 MiB: upload it with the CLI"),
});

export const workspaceSummarySchema = z.object({
  id: z.string(),
  slug: z.string(),
  name: z.string(),
  visibility,
  bundles: z.number().int(),
  role: role.nullable(),
});

export const workspaceDetailSchema = workspaceSummarySchema.extend({
  members: z.array(z.object({ id: z.string(), email: z.string().nullable(), name: z.string().nullable(), role })),
  tokens: z.array(
    z.object({
      name: z.string(),
      scope: tokenScopeSchema,
      createdAt: z.date(),
      lastUsedAt: z.date().nullable(),
      revokedAt: z.date().nullable(),
      /** Who created it (their address or name); null for tokens made with `npm run token`. */
      createdBy: z.string().nullable(),
    }),
  ),
  /** Pending invitations: the address invited (lower-cased) and the role offered (owners only; empty for anyone else). */
  invitations: z.array(z.object({ email: z.string(), role, createdAt: z.date() })),
  /** Every permalink that pins the workspace's bundles (owners only; empty for anyone else). */
  permalinks: z.array(
    z.object({
      slug: z.string(),
      createdAt: z.date(),
      scenarios: z.number().int(),
      bundles: z.number().int(),
      otherWorkspaces: z.number().int(),
      approved: z.boolean(),
      published: z.boolean(),
    }),
  ),
});
