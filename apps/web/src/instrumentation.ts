import { inNodeRuntime, webEnv } from "./env";

/**
 * Next.js calls this once as the server starts, before it serves a request. A bad setting stops the
 * server with a message naming the variable: Next.js itself would only log the error and keep serving
 * pages that all fail. Then, in the Node.js runtime, the server's own metrics start on their port.
 */
export async function register(): Promise<void> {
  let env: ReturnType<typeof webEnv>;
  try {
    env = webEnv();
  } catch (error) {
    console.error((error as Error).message);
    process.exit(1);
    return; // process.exit is stubbed in tests
  }
  if (inNodeRuntime && env.CNIBENCH_WEB_METRICS_PORT > 0) {
    const [{ serveWebMetrics }, { db }] = await Promise.all([
      import("./server/http/app-metrics"),
      import("./server/trpc/db"),
    ]);
    await serveWebMetrics(db(), env.CNIBENCH_HOST, env.CNIBENCH_WEB_METRICS_PORT);
  }
}
