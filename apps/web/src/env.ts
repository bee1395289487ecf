import "server-only";
import { z } from "zod";

const schema = z.object({
  DATABASE_URL: z.string().refine((v) => /^postgres(ql)?:\/\//.test(v) && URL.canParse(v), "must be a postgres:// URL"),
});

let cached: z.infer<typeof schema> | undefined;

/** Read lazily: `next build` runs without a database, pages need one only when they render. */
export function webEnv(): z.infer<typeof schema> {
  if (cached) return cached;
  const parsed = schema.safeParse(process.env);
  if (!parsed.success) {
    throw new Error(
      `web: invalid environment: ${parsed.error.issues.map((i) => `${i.path.join(".")} ${i.message}`).join("; ")}`,
    );
  }
  cached = parsed.data;
  return cached;
}
