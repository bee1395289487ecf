// Webhook receivers on loopback for the alert tests: one that records what it is sent (and answers
// what `status` says), and a blackhole that accepts connections and never answers.
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createServer as createTcpServer, type Socket, type Server as TcpServer } from "node:net";

export type Received = { path: string; headers: IncomingHttpHeaders; body: string; status: number; at: number };

/** An HTTP receiver recording every request; `status(path, n)` answers the n-th request to a path (200). */
export async function startReceiver(status: (path: string, n: number) => number = () => 200) {
  const received: Received[] = [];
  const counts = new Map<string, number>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const path = req.url ?? "";
      const n = (counts.get(path) ?? 0) + 1;
      counts.set(path, n);
      const code = status(path, n);
      received.push({
        path,
        headers: req.headers,
        body: Buffer.concat(chunks).toString("utf8"),
        status: code,
        at: Date.now(),
      });
      res.writeHead(code).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A TCP server that accepts every connection and never answers: a receiver that hangs. */
export async function startBlackhole() {
  const sockets = new Set<Socket>();
  const server: TcpServer = createTcpServer((socket) => {
    sockets.add(socket);
    socket.on("error", () => {});
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    /** Connections accepted so far. */
    accepted: () => sockets.size,
    close: () => {
      for (const s of sockets) s.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
