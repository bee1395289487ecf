// Connection set-up latency through a Service, run inside the client namespace: connect() one at a
// time for <ms> milliseconds (at most 5,000 connections), each closed with a reset so no TIME_WAIT is
// left behind. With "check" instead, one HTTP GET. Prints JSON.
// Usage: node connect-probe.mjs <ip> <port> <ms> | node connect-probe.mjs check <ip> <port>
import { request } from "node:http";
import { connect } from "node:net";

const args = process.argv.slice(2);
if (args[0] === "check") {
  const req = request({ host: args[1], port: Number(args[2]), path: "/", timeout: 5000 }, (res) => {
    res.resume();
    res.on("end", () => process.stdout.write(`${JSON.stringify({ status: res.statusCode })}\n`));
  });
  req.on("timeout", () => req.destroy(new Error("timed out after 5 s")));
  req.on("error", (error) => process.stdout.write(`${JSON.stringify({ error: error.message })}\n`));
  req.end();
} else {
  const [host, port, ms] = [args[0], Number(args[1]), Number(args[2])];
  const deadline = performance.now() + ms;
  const samples = [];
  let errors = 0;
  const once = () =>
    new Promise((resolve) => {
      const start = process.hrtime.bigint();
      const socket = connect({ host, port });
      socket.setTimeout(3000, () => {
        errors++;
        socket.destroy();
        resolve();
      });
      socket.once("connect", () => {
        samples.push(Number(process.hrtime.bigint() - start) / 1000);
        socket.resetAndDestroy();
        resolve();
      });
      socket.once("error", () => {
        errors++;
        resolve();
      });
    });
  while (performance.now() < deadline && samples.length < 5000) await once();
  process.stdout.write(`${JSON.stringify({ samples, errors })}\n`);
}
