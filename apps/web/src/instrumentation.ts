import { webEnv } from "./env";

/**
 * Next.js calls this once as the server starts, before it serves a request. A bad setting stops the
 * server with a message naming the variable: Next.js itself would only log the error and keep serving
 * pages that all fail.
 */
export function register(): void {
  try {
    webEnv();
  } catch (error) {
    console.error((error as Error).message);
    process.exit(1);
  }
}
