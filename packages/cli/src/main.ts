import { run } from "./cli.ts";

/** Entry of the `cnibench` command (bin/cnibench.js). */
export async function main(argv: string[]): Promise<void> {
  process.exitCode = await run(argv, {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    isTTY: Boolean(process.stdout.isTTY),
    env: process.env,
  });
}
