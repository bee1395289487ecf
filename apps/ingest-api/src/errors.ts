import type { FastifyReply, FastifyRequest } from "fastify";

/** Every error response has this shape (ErrorResponse in the OpenAPI document). */
export function sendError(
  req: FastifyRequest,
  reply: FastifyReply,
  status: number,
  error: string,
  message: string,
  extra: Record<string, unknown> = {},
) {
  return reply.status(status).send({ error, message, requestId: req.id, ...extra });
}
