// Slow-loris: a client that sends its headers or its body a byte at a time is cut off (408, then the
// connection closes) once the header or request timeout has passed, instead of holding a connection
// open for as long as it likes.
import net from "node:net";
import { freshDatabase } from "@cnibench/test-support/database";
import { startIngest } from "@cnibench/test-support/ingest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const timeouts = { requestMs: 2_000, headersMs: 1_000, keepAliveMs: 1_000 };

/** Opens a connection, sends `head` then `drip` one byte every 200 ms; resolves when the server closes it. */
function dripping(base: string, head: string, drip: string) {
  const { hostname, port } = new URL(base);
  const socket = net.connect(Number(port), hostname);
  let answer = "";
  socket.on("data", (c: Buffer) => (answer += c.toString()));
  socket.on("error", () => {});
  const started = performance.now();
  socket.write(head);
  let i = 0;
  const timer = setInterval(() => {
    if (i < drip.length && socket.writable) socket.write(drip[i++]!);
  }, 200);
  const closed = new Promise<{ ms: number; answer: string }>((resolve) =>
    socket.once("close", () => {
      clearInterval(timer);
      resolve({ ms: Math.round(performance.now() - started), answer });
    }),
  );
  // Bounds the test: before the fix nothing ever closed the connection.
  const bound = setTimeout(() => socket.destroy(), 15_000);
  return closed.finally(() => clearTimeout(bound));
}

describe("slow clients", () => {
  let database: Awaited<ReturnType<typeof freshDatabase>>;
  let api: Awaited<ReturnType<typeof startIngest>>;

  beforeAll(async () => {
    database = await freshDatabase();
    api = await startIngest(database.url, { timeouts });
  });
  afterAll(async () => {
    await api?.close();
    await database?.drop();
  });

  it("cuts off a body sent a byte at a time once the request timeout has passed", async () => {
    const body = JSON.stringify({ padding: "x".repeat(500) });
    const head =
      "POST /v1/bundles HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\n" +
      `Authorization: Bearer ${api.token}\r\nContent-Length: ${body.length}\r\n\r\n`;
    const { ms, answer } = await dripping(api.base, head, body);
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(ms).toBeGreaterThanOrEqual(timeouts.requestMs - 100);
    expect(ms).toBeLessThan(timeouts.requestMs + 2_000);
  }, 20_000);

  it("cuts off headers sent a byte at a time once the header timeout has passed", async () => {
    const { ms, answer } = await dripping(api.base, "GET /healthz HTTP/1.1\r\n", "X-Slow: ".padEnd(200, "y"));
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(ms).toBeLessThan(timeouts.headersMs + 2_000);
  }, 20_000);

  it("closes an idle keep-alive connection after the keep-alive timeout", async () => {
    const { ms, answer } = await dripping(api.base, "GET /healthz HTTP/1.1\r\nHost: test\r\n\r\n", "");
    expect(answer).toMatch(/^HTTP\/1\.1 200 /);
    expect(ms).toBeLessThan(timeouts.keepAliveMs + 2_000);
  }, 20_000);

  it("still takes an upload sent at an ordinary pace", async () => {
    expect((await api.upload("{")).status).toBe(400);
  });
});
