import "server-only";
import { TRPCError } from "@trpc/server";
import { type Badge, badgeHeaders, badgeSvg } from "~/server/cards/badge";
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
  const answer = await readOrRefuse(read);
  if (answer instanceof Response) return answer;
  const { badge, isPublic } = shape(answer.data);
  return new Response(badgeSvg(badge), { headers: badgeHeaders(isPublic) });
}

/**
 * What the procedure answers this visitor (with their session), or the refusal a picture of it gets:
 * 404 when unknown or private to someone else (the same answer, so a stranger learns nothing), 400
 * when malformed. Badges and link cards (app/card) read through it.
 */
export async function readOrRefuse<T>(read: (caller: Caller) => Promise<T>): Promise<{ data: T } | Response> {
  try {
    return { data: await read(await api()) };
  } catch (error) {
    if (error instanceof TRPCError && (error.code === "NOT_FOUND" || error.code === "BAD_REQUEST")) {
      return refusal(error.code === "NOT_FOUND" ? 404 : 400);
    }
    throw error;
  }
}

export const refusal = (status: 400 | 404) =>
  new Response(status === 404 ? "not found\n" : "bad request\n", {
    status,
    headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "private, no-store" },
  });
