import { defaultArchiveLimits } from "@cnibench/importers";
import { tar } from "@cnibench/test-support/archives";
import { iperf3Fixture, labEnvironment } from "@cnibench/test-support/fixtures";
import { expect, it } from "vitest";
import { type ImportJob, runImportJob } from "./import-job.ts";
import { fromReply, toReply } from "./import-reply.ts";

const job = (files: number, limits = defaultArchiveLimits): ImportJob => ({
  filename: "runs.tar",
  bytes: tar(Array.from({ length: files }, (_, i) => ({ name: `runs/${i}/iperf3.json`, bytes: iperf3Fixture() }))),
  environment: labEnvironment,
  format: "auto",
  limits,
});

/** As import-pool.ts's worker posts it: cloned, its parts moved. */
const posted = (result: ReturnType<typeof runImportJob>) => {
  const reply = toReply(result);
  return structuredClone(reply, { transfer: reply.parts });
};

it("gives back a result of several parts whole, its files and bundles in order", async () => {
  const result = runImportJob(job(600));
  expect(result.kind).toBe("ready");
  const reply = posted(result);
  expect(reply.parts).toHaveLength(3);
  expect(await fromReply(reply)).toEqual(result);
});

it("gives back a result without files as it is", async () => {
  const result = runImportJob(job(3, { ...defaultArchiveLimits, maxEntries: 2 }));
  expect(result.kind).toBe("limit");
  const reply = posted(result);
  expect(reply.parts).toHaveLength(0);
  expect(await fromReply(reply)).toEqual(result);
});
