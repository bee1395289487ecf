import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { BundleInput } from "@cnibench/schema";
import { describe, expect, it } from "vitest";
import { flagFor, type Io, run } from "./cli.ts";
import { readRetryAfter, uploadBundle } from "./upload.ts";

const fixtures = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../importers/fixtures");
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const bundle = { schema: "cnibench/bundle@1" } as BundleInput;

function answer(status: number, body: unknown, headers: Record<string, string> = {}) {
  return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", ...headers } });
}

function scripted(...steps: (Response | Error)[]) {
  const calls: RequestInit[] = [];
  const urls: string[] = [];
  const fake = (async (url: string, init: RequestInit) => {
    calls.push(init);
    urls.push(url);
    const step = steps.shift();
    if (!step) throw new Error("no more answers");
    if (step instanceof Error) throw step;
    return step;
  }) as unknown as typeof fetch;
  return { fake, calls, urls };
}

function capture(overrides: Partial<Io> = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const io: Io = {
    stdout: (t) => out.push(t),
    stderr: (t) => err.push(t),
    isTTY: false,
    env: {},
    sleep: async () => {},
    ...overrides,
  };
  return { io, out: () => out.join(""), err: () => err.join("") };
}

describe("uploadBundle", () => {
  it("retries 5xx answers and network errors with exponential backoff, honouring Retry-After", async () => {
    const refused = Object.assign(new TypeError("fetch failed"), { cause: { code: "ECONNREFUSED" } });
    const { fake, calls } = scripted(
      answer(503, { error: "database_unavailable", message: "retry" }, { "retry-after": "3" }),
      refused,
      answer(500, { error: "internal_error", message: "oops" }),
      answer(201, { id: "b1", webUrl: "http://web/scenarios/s1" }),
    );
    const waits: number[] = [];
    const outcome = await uploadBundle(bundle, {
      server: "http://api/",
      token: "t",
      retries: 4,
      backoffMs: 500,
      fetch: fake,
      sleep: async (ms) => {
        waits.push(ms);
      },
    });
    expect(outcome).toEqual({ status: "created", id: "b1", webUrl: "http://web/scenarios/s1", attempts: 4 });
    expect(waits).toEqual([3000, 1000, 2000]);
    expect(calls[0]?.headers).toMatchObject({ authorization: "Bearer t", "content-type": "application/json" });
  });

  it("treats 200 as already there and 4xx as final, with the server's issues", async () => {
    const exists = await uploadBundle(bundle, {
      server: "http://api",
      token: "t",
      retries: 3,
      backoffMs: 1,
      fetch: scripted(answer(200, { id: "b1" })).fake,
    });
    expect(exists).toMatchObject({ status: "exists", id: "b1", attempts: 1 });
    const invalid = await uploadBundle(bundle, {
      server: "http://api",
      token: "t",
      retries: 3,
      backoffMs: 1,
      fetch: scripted(
        answer(422, { message: "breaks the contract", issues: [{ path: "node.sku", message: "required" }] }),
      ).fake,
    });
    expect(invalid).toEqual({
      status: "failed",
      error: "HTTP 422: breaks the contract (node.sku: required)",
      attempts: 1,
    });
  });

  it("gives up after the retries, saying so", async () => {
    const outcome = await uploadBundle(bundle, {
      server: "http://api",
      token: "t",
      retries: 2,
      backoffMs: 1,
      fetch: scripted(answer(502, {}), answer(502, {}), answer(502, {})).fake,
      sleep: async () => {},
    });
    expect(outcome).toMatchObject({
      status: "failed",
      attempts: 3,
      error: expect.stringMatching(/^HTTP 502.*gave up after 3 attempts/),
    });
  });
});

// The server's own answers (apps/ingest-api/src/server.ts): per-token rate limit, database outage.
const rateLimited = (seconds: string) =>
  answer(
    429,
    { error: "rate_limited", message: "More than 600 requests a minute with this token; retry in 12 s." },
    { "retry-after": seconds },
  );
const databaseDown = (retryAfter: string) =>
  answer(
    503,
    { error: "database_unavailable", message: "The database is unreachable; nothing was stored. Retry later." },
    { "retry-after": retryAfter },
  );

describe("retries on 429 and 503 after Retry-After", () => {
  const upload = (fake: typeof fetch, retries = 4) => {
    const waits: [number, string][] = [];
    const slept: number[] = [];
    const outcome = uploadBundle(bundle, {
      server: "http://api",
      token: "t",
      retries,
      backoffMs: 500,
      fetch: fake,
      sleep: async (ms) => {
        slept.push(ms);
      },
      onWait: (ms, reason) => waits.push([ms, reason]),
    });
    return { outcome, waits, slept };
  };

  it("waits the Retry-After of a 429, then succeeds (no longer final)", async () => {
    const { fake, calls } = scripted(rateLimited("12"), answer(201, { id: "b1" }));
    const { outcome, waits, slept } = upload(fake);
    expect(await outcome).toEqual({ status: "created", id: "b1", attempts: 2 });
    expect(waits).toEqual([[12_000, "429 rate limited"]]);
    expect(slept).toEqual([12_000]);
    expect(calls).toHaveLength(2);
  });

  it("waits the Retry-After of a 503, given in seconds or as an HTTP date, then succeeds", async () => {
    const inTwentySeconds = new Date(Date.now() + 20_000).toUTCString();
    const { fake } = scripted(databaseDown("5"), databaseDown(inTwentySeconds), answer(200, { id: "b1" }));
    const { outcome, waits } = upload(fake);
    expect(await outcome).toEqual({ status: "exists", id: "b1", attempts: 3 });
    expect(waits.map(([, reason]) => reason)).toEqual(["503 database unavailable", "503 database unavailable"]);
    expect(waits[0]?.[0]).toBe(5_000);
    // An HTTP date has whole seconds: 19 to 20 s from now.
    expect(waits[1]?.[0]).toBeGreaterThan(18_000);
    expect(waits[1]?.[0]).toBeLessThanOrEqual(20_000);
  });

  it("heeds a Retry-After past the 30 s backoff cap, up to 120 s; backs off exponentially without one", async () => {
    const { fake } = scripted(
      rateLimited("45"),
      rateLimited("600"),
      answer(429, { error: "rate_limited", message: "slow down" }),
      answer(502, {}),
      answer(201, { id: "b1" }),
    );
    const { outcome, slept } = upload(fake);
    expect(await outcome).toMatchObject({ status: "created", attempts: 5 });
    // 45 s as asked; 600 s capped at 120 s; then 500 ms doubled per attempt: 2 s (3rd), 4 s (4th).
    expect(slept).toEqual([45_000, 120_000, 2_000, 4_000]);
  });

  it("gives up on a 429 only when the retries are spent, saying so", async () => {
    const { fake } = scripted(rateLimited("1"), rateLimited("1"));
    const { outcome } = upload(fake, 1);
    expect(await outcome).toEqual({
      status: "failed",
      attempts: 2,
      error: "HTTP 429: More than 600 requests a minute with this token; retry in 12 s. (gave up after 2 attempts)",
    });
  });

  it("reads Retry-After as seconds or an HTTP date (RFC 9110 example); nothing for absent, zero, past or garbage", () => {
    const now = Date.parse("Wed, 21 Oct 2015 07:28:00 GMT");
    expect(readRetryAfter("120", now)).toBe(120_000);
    expect(readRetryAfter("Wed, 21 Oct 2015 07:28:12 GMT", now)).toBe(12_000);
    for (const none of [null, "0", "Wed, 21 Oct 2015 07:27:00 GMT", "soon"]) {
      expect(readRetryAfter(none, now), String(none)).toBeUndefined();
    }
  });
});

describe("cnibench upload", () => {
  // The netperf file holds two runs (two bundles); the flags give what it does not say.
  const netperf = path.join(fixtures, "real/netperf/netperf_tcp_crr_k8s_kep_kubeproxy_flowtables.txt");
  const netperfArgs = [
    "upload",
    "--cluster=lab",
    "--provider=on-prem",
    "--sku=r6i.2xlarge",
    "--cni=cilium",
    "--mode=native",
    "--kernel=6.1",
  ];

  it("gate: refuses an answer that is not a gate result (the API's contract) rather than reading it as one", async () => {
    const { fake, urls } = scripted(
      answer(201, { id: "b1" }),
      answer(201, { id: "b2" }),
      answer(200, { outcome: "pass" }),
      answer(202, { campaign: "c", scenarios: 0 }),
    );
    const { io, err } = capture({ fetch: fake, env: { CNIBENCH_TOKEN: "t" } });
    const code = await run(["gate", "--campaign=c", ...netperfArgs.slice(1), netperf], io);
    expect(urls.map((u) => new URL(u).pathname)).toEqual([
      "/v1/bundles",
      "/v1/bundles",
      "/v1/gate",
      "/v1/campaigns/close",
    ]);
    expect(code).toBe(69);
    expect(err()).toContain("cnibench gate: the answer is not a gate result (candidate: ");
  });

  it("maps environment keys to flags", () => {
    expect(["kubeProxy", "memoryGiB", "nodeCount", "k8s", "cniVersion"].map(flagFor)).toEqual([
      "kube-proxy",
      "memory-gib",
      "node-count",
      "k8s",
      "cni-version",
    ]);
  });

  it("--dry-run prints the bundles and a per-file summary, exit 1 when a file failed", async () => {
    const { io, out, err } = capture();
    const code = await run(
      [
        "upload",
        "--dry-run",
        "--cluster=lab",
        "--provider=on-prem",
        "--sku=r6i.2xlarge",
        "--cni=cilium",
        "--mode=native",
        "--param",
        "path=pod-pod",
        path.join(fixtures, "real/iperf3"),
        path.join(fixtures, "real/netperf/netperf_omni_csv_example_from_manual.txt"),
      ],
      io,
    );
    expect(code).toBe(1);
    const bundles = JSON.parse(out()) as BundleInput[];
    expect(bundles).toHaveLength(2);
    expect(bundles[0]?.node.kernel).toBe("5.4.104+"); // from the iperf3 file's start.system_info
    expect(bundles[0]?.results[0]?.params).toEqual({ path: "pod-pod", streams: 1 });
    expect(err()).toContain("✓ iperf3/iperf3_tcp_1stream_k8s_pod_cloudpilot.json [iperf3]: 1 bundle built");
    expect(err()).toContain("✗ netperf_omni_csv_example_from_manual.txt [netperf]: missing node.kernel (--kernel)");
  });

  it("uploads each bundle with plain progress lines when stdout is not a terminal", async () => {
    const { fake } = scripted(answer(201, { id: "b1" }), answer(200, { id: "b2" }));
    const { io, out } = capture({ fetch: fake, env: { CNIBENCH_TOKEN: "from-env" } });
    const code = await run(
      [
        "upload",
        "--cluster=lab",
        "--provider=on-prem",
        "--sku=r6i.2xlarge",
        "--cni=cilium",
        "--mode=native",
        "--kernel=6.1",
        path.join(fixtures, "real/netperf/netperf_tcp_crr_k8s_kep_kubeproxy_flowtables.txt"),
      ],
      io,
    );
    expect(code).toBe(0);
    expect(out()).toContain("[1/2] netperf_tcp_crr_k8s_kep_kubeproxy_flowtables.txt: created b1\n");
    expect(out()).toContain("[2/2] netperf_tcp_crr_k8s_kep_kubeproxy_flowtables.txt#run 2: already there b2\n");
    expect(out()).toContain("✓ netperf_tcp_crr_k8s_kep_kubeproxy_flowtables.txt [netperf]: 1 created, 1 already there");
    expect(out()).toMatch(/1 bundle\(s\) created, 1 already there, 0 upload\(s\) failed, 0 file\(s\) failed/);
  });

  it("says what it waits for between retries, then carries on", async () => {
    const { fake } = scripted(
      rateLimited("12"),
      answer(201, { id: "b1" }),
      databaseDown("5"),
      answer(201, { id: "b2" }),
    );
    const { io, out } = capture({ fetch: fake, env: { CNIBENCH_TOKEN: "t" } });
    const code = await run([...netperfArgs, netperf], io);
    expect(code).toBe(0);
    expect(out()).toContain(
      "[1/2] netperf_tcp_crr_k8s_kep_kubeproxy_flowtables.txt: waiting 12 s (429 rate limited)\n" +
        "[1/2] netperf_tcp_crr_k8s_kep_kubeproxy_flowtables.txt: created b1\n" +
        "[2/2] netperf_tcp_crr_k8s_kep_kubeproxy_flowtables.txt#run 2: waiting 5 s (503 database unavailable)\n" +
        "[2/2] netperf_tcp_crr_k8s_kep_kubeproxy_flowtables.txt#run 2: created b2\n",
    );
  });

  it("uploads the bundles that can be, lists each refused one with its reason, and exits 1", async () => {
    const { fake } = scripted(
      answer(201, { id: "b1" }),
      answer(422, { message: "breaks the contract", issues: [{ path: "node.sku", message: "required" }] }),
    );
    const { io, out } = capture({ fetch: fake, env: { CNIBENCH_TOKEN: "t" } });
    expect(await run([...netperfArgs, netperf], io)).toBe(1);
    expect(out()).toContain(
      "  ✗ netperf_tcp_crr_k8s_kep_kubeproxy_flowtables.txt [netperf]: 1 created, 1 failed\n" +
        "      HTTP 422: breaks the contract (node.sku: required)\n",
    );
    expect(out()).toMatch(/1 bundle\(s\) created, 0 already there, 1 upload\(s\) failed, 0 file\(s\) failed/);
  });

  it("uploads the bundles of one invocation as one campaign: derived from the files, the same on a re-run", async () => {
    const netperf = path.join(fixtures, "real/netperf/netperf_tcp_crr_k8s_kep_kubeproxy_flowtables.txt");
    const argv = [
      "upload",
      "--token=t",
      "--cluster=lab",
      "--provider=on-prem",
      "--sku=x",
      "--cni=cilium",
      "--mode=native",
    ];
    const campaignsSent = async (extra: string[]) => {
      const { fake, calls, urls } = scripted(answer(201, { id: "b1" }), answer(201, { id: "b2" }), answer(202, {}));
      const { io, out } = capture({ fetch: fake });
      expect(await run([...argv, ...extra, netperf], io)).toBe(0);
      const campaignOf = (c: RequestInit) => (JSON.parse(String(c.body)) as BundleInput).campaign;
      const sent = calls.filter((_, i) => urls[i]?.endsWith("/v1/bundles")).map(campaignOf);
      // Then the campaign is closed, once: the workspace's alerts judge it now (docs/alerts.md).
      expect(urls.filter((u) => u.endsWith("/v1/campaigns/close"))).toHaveLength(1);
      expect(urls.at(-1)).toMatch(/\/v1\/campaigns\/close$/);
      expect(campaignOf(calls.at(-1)!)).toBe(sent[0]);
      return { sent, out: out() };
    };
    const first = await campaignsSent(["--kernel=6.1"]);
    expect(first.sent).toHaveLength(2);
    expect(first.sent[0]).toMatch(/^import-[0-9a-f]{16}$/);
    expect(first.sent[1]).toBe(first.sent[0]);
    expect(first.out).toContain(`campaign ${first.sent[0]}\n`);
    // The same files again: the same campaign, so the same bundles (the server answers "already there").
    expect((await campaignsSent(["--kernel=6.1"])).sent).toEqual(first.sent);
    // Other bundles: another campaign.
    expect((await campaignsSent(["--kernel=6.2"])).sent[0]).not.toBe(first.sent[0]);
    // --campaign names it, trimmed.
    const named = await campaignsSent(["--kernel=6.1", "--campaign", " upgrade-2026-11 "]);
    expect(named.sent).toEqual(["upgrade-2026-11", "upgrade-2026-11"]);
    expect(named.out).toContain("campaign upgrade-2026-11\n");
  });

  it("says which campaign runs already stored stay in, when it is not this invocation's", async () => {
    const netperf = path.join(fixtures, "real/netperf/netperf_tcp_crr_k8s_kep_kubeproxy_flowtables.txt");
    const { fake } = scripted(
      answer(200, { id: "b1", campaign: "import-0123456789abcdef" }),
      answer(200, { id: "b2", campaign: "import-0123456789abcdef" }),
    );
    const { io, out } = capture({ fetch: fake });
    const argv = ["upload", "--token=t", "--cluster=lab", "--provider=on-prem", "--sku=x", "--kernel=6.1"];
    expect(await run([...argv, "--cni=cilium", "--mode=native", "--campaign=renamed", netperf], io)).toBe(0);
    expect(out()).toMatch(/0 bundle\(s\) created, 2 already there/);
    expect(out()).toContain("campaign renamed\n2 already there stay in campaign import-0123456789abcdef\n");
  });

  it("says when environment flags have no effect on a file: a bundle states its own environment", async () => {
    const example = path.join(repoRoot, "examples/bundle.json");
    const { io, err } = capture();
    expect(await run(["upload", "--dry-run", "--sku=x", "--kernel=6.1", "--param", "path=pod-pod", example], io)).toBe(
      0,
    );
    expect(err()).toContain(
      "      warning: --sku, --kernel, --param have no effect on a bundle: it states its own environment\n",
    );
    // Without flags, nothing to say.
    const quiet = capture();
    expect(await run(["upload", "--dry-run", example], quiet.io)).toBe(0);
    expect(quiet.err()).not.toContain("no effect");
  });

  it("reads a bench.sh CNI script given on its own (cni-configs/<setup>.sh) with its runs", async () => {
    const tree = path.join(fixtures, "real/infrabuilder-2024");
    const { io, err } = capture();
    const args = ["upload", "--dry-run", "--provider=on-prem", "--sku=bare-metal-40g", "--cluster=ib"];
    await run([...args, path.join(tree, "flannel"), path.join(tree, "setup/cni-configs/flannel.sh")], io);
    // Before: "flannel.sh: skipped (not a format cnibench imports)"; now read as the setup's configuration.
    expect(err()).toContain(
      "  - cni-configs/flannel.sh: skipped (the CNI configuration of setup flannel, read with its runs)",
    );
  });

  it("--dry-run prints the bundles with their campaign; a bundle naming its own keeps it", async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "cnibench-cli-campaign-"));
    try {
      const own = { ...JSON.parse(readFileSync(path.join(repoRoot, "examples/bundle.json"), "utf8")), campaign: "own" };
      writeFileSync(path.join(dir, "a-own.json"), JSON.stringify(own));
      writeFileSync(path.join(dir, "b-none.json"), readFileSync(path.join(repoRoot, "examples/bundle.json")));
      const { io, out, err } = capture();
      expect(await run(["upload", "--dry-run", "--campaign=upgrade", dir], io)).toBe(0);
      expect((JSON.parse(out()) as BundleInput[]).map((b) => b.campaign)).toEqual(["own", "upgrade"]);
      expect(err()).toContain("campaign upgrade\n");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("refuses bad usage with exit 2: no token, bad flag values, unknown flags, no paths", async () => {
    const cases: [string[], RegExp][] = [
      [["upload", "x.json"], /no upload token/],
      [["upload", "--token=t", "--node-count=three", "x.json"], /--node-count: must be a positive whole number/],
      [["upload", "--token=t", "--colour=red", "x.json"], /Unknown option '--colour'/],
      [["upload", "--token=t", "--campaign=  ", "x.json"], /--campaign must be 1 to 200 characters/],
      [["upload", "--token=t", `--campaign=${"x".repeat(201)}`, "x.json"], /--campaign must be 1 to 200 characters/],
      [["upload", "--token=t"], /give at least one file or directory/],
      [["download"], /unknown command "download"/],
    ];
    for (const [argv, message] of cases) {
      const { io, err } = capture();
      expect(await run(argv, io), argv.join(" ")).toBe(2);
      expect(err()).toMatch(message);
    }
  });
});
