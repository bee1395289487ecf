import cliProgress from "cli-progress";
import type { Io } from "./cli.ts";
import type { UploadOutcome } from "./upload.ts";

export type Reporter = {
  done: (file: string, outcome: UploadOutcome) => void;
  /** The upload of `file` waits before a retry: say so, or the bar looks frozen. */
  waiting: (file: string, ms: number, reason: string) => void;
  stop: () => void;
};

/** "waiting 12 s (429 rate limited)" */
function describeWait(ms: number, reason: string): string {
  return `waiting ${Math.ceil(ms / 1000)} s (${reason})`;
}

/**
 * A progress bar with counts on a terminal; one plain line per bundle otherwise (CI logs, pipes),
 * where a redrawn bar would be noise.
 */
export function createReporter(io: Io, total: number): Reporter {
  const counts = { created: 0, exists: 0, failed: 0 };
  if (io.isTTY && total > 0) {
    const bar = new cliProgress.SingleBar(
      {
        format:
          "uploading |{bar}| {value}/{total} bundles · {created} created · {exists} already there · {failed} failed{wait}",
        stream: process.stdout,
        hideCursor: true,
        clearOnComplete: false,
      },
      cliProgress.Presets.shades_classic,
    );
    bar.start(total, 0, { ...counts, wait: "" });
    return {
      done: (_file, outcome) => {
        counts[outcome.status] += 1;
        bar.increment(1, { ...counts, wait: "" });
      },
      waiting: (_file, ms, reason) => bar.update({ ...counts, wait: ` · ${describeWait(ms, reason)}` }),
      stop: () => bar.stop(),
    };
  }
  let n = 0;
  return {
    done: (file, outcome) => {
      n += 1;
      counts[outcome.status] += 1;
      const detail =
        outcome.status === "failed"
          ? `failed: ${outcome.error}`
          : `${outcome.status === "created" ? "created" : "already there"} ${outcome.id}`;
      io.stdout(`[${n}/${total}] ${file}: ${detail}\n`);
    },
    // The bundle being uploaded is the next one.
    waiting: (file, ms, reason) => io.stdout(`[${n + 1}/${total}] ${file}: ${describeWait(ms, reason)}\n`),
    stop: () => {},
  };
}
