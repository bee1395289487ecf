// Preloaded into the Prisma CLI (NODE_OPTIONS --require) by migrate.ts.
// Prisma 6.19's wasm schema engine leaves a 10 s timer behind after it has finished, so every
// `prisma migrate` lingered 10 s before exiting. Timers created from inside the wasm engine are
// unref'd: a pending query still keeps the process alive through its socket.
const original = globalThis.setTimeout;
globalThis.setTimeout = function setTimeoutFromWasmUnrefd(fn, ms, ...args) {
  const timer = original(fn, ms, ...args);
  if (new Error().stack?.includes("wasm://")) timer.unref?.();
  return timer;
};
