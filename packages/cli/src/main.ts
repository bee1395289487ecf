import { run } from "./cli.ts";

/** Entry of the `cnibench` command (bin/cnibench.js). */
export async function main(argv: string[]): Promise<void> {
  process.exitCode = await run(argv, {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    isTTY: Boolean(process.stdout.isTTY),
    // biome-ignore lint/style/noProcessEnv: the command's one read of the environment; run() takes it as an argument
    env: process.env,
  });
}
