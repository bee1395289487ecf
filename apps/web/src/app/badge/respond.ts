import "server-only";
import { TRPCError } from "@trpc/server";
import { type Badge, badgeHeaders, badgeSvg } from "~/server/badge";
import { api } from "~/trpc/server";

type Caller = Awaited<ReturnType<typeof api>>;

/**
 * A badge route's answer: the badge of what the procedure lets this visitor read, else 404 (unknown,
 * or private to someone else: the same answer, so a stranger learns nothing) or 400 for a malformed
 * request. `isPublic` says whether anyone may see it, so caches may keep it.
 */
export async function badgeResponse<T>(
  read: (caller: Caller) => Promise<T>,
  shape: (data: T) => { badge: Badge; isPublic: boolean },
): Promise<Response> {
  let data: T;
  try {
    data = await read(await api());
  } catch (error) {
    if (error instanceof TRPCError && (error.code === "NOT_FOUND" || error.code === "BAD_REQUEST")) {
      return refusal(error.code === "NOT_FOUND" ? 404 : 400);
    }
    throw error;
  }
  const { badge, isPublic } = shape(data);
  return new Response(badgeSvg(badge), { headers: badgeHeaders(isPublic) });
}

export const refusal = (status: 400 | 404) =>
  new Response(status === 404 ? "not found\n" : "bad request\n", {
    status,
    headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "private, no-store" },
  });
