// The lab's HTTP server, run inside the server namespace: a small fixed body on every path.
// Usage: node http-server.mjs <port>. Prints "ready" once listening; exits on SIGTERM.
import { createServer } from "node:http";

const port = Number(process.argv[2] ?? 8080);
const body = Buffer.from("ok\n");
const server = createServer((_req, res) => {
  res.writeHead(200, { "content-type": "text/plain", "content-length": body.length });
  res.end(body);
});
server.keepAliveTimeout = 60_000;
server.listen({ port, host: "0.0.0.0", backlog: 4096 }, () => process.stdout.write("ready\n"));
process.on("SIGTERM", () => process.exit(0));
