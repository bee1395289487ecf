#!/usr/bin/env node
// The `cnibench` command. The CLI is TypeScript run through tsx — the repo's one TS loader, as
// `npm start` uses it — registered here, in-process, so exit codes and signals are the CLI's own.
import { register } from "tsx/esm/api";

register();
const { main } = await import("../src/main.ts");
await main(process.argv.slice(2));
