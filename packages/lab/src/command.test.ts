import { labSweepFile } from "@cnibench/test-support/lab-figures";
import { describe, expect, it } from "vitest";
import { type LabIo, runLab } from "./command.ts";
import { ipvsWords } from "./runner.ts";

function io(env: Record<string, string | undefined> = {}) {
  let out = "";
  let err = "";
  const value: LabIo = {
    stdout: (t) => {
      out += t;
    },
    stderr: (t) => {
      err += t;
    },
    env,
  };
  return { io: value, out: () => out, err: () => err };
}

// Usage errors are found before anything is checked or built, so these need no root.
describe("cnibench lab flags", () => {
  it("prints its usage with --help", async () => {
    const c = io();
    expect(await runLab(["--help"], c.io)).toBe(0);
    expect(c.out()).toContain("Usage: cnibench lab");
    expect(c.out()).toContain("apt-get install -y iproute2 iptables nftables iperf3 wrk");
  });

  it.each([
    [["--runs", "0"], "--runs must be a whole number ≥ 1"],
    [["--services", "0,40000"], "--services: at most 32000"],
    [["--services", "0,many"], '"many" is not a Service count'],
    [["--modes", "iptables,userspace"], '--modes: unknown mode "userspace"'],
    [["--iptables-backend", "xt"], "--iptables-backend must be legacy or nft"],
    [["--api", "http://127.0.0.1:4000"], "--api needs an upload token"],
    [["--bogus"], "Unknown option '--bogus'"],
  ])("refuses %j with exit 2", async (args, message) => {
    const c = io();
    expect(await runLab(args, c.io)).toBe(2);
    expect(c.err()).toContain(message);
  });
});

describe("cnibench lab --summary", () => {
  it("prints a sweep written with --out, needing neither root nor tools", async () => {
    const c = io();
    expect(await runLab(["--summary", labSweepFile], c.io)).toBe(0);
    expect(c.out()).toContain("## Short-connection request rate (req/s)");
    expect(c.out()).toContain("| Services | iptables | nftables | nftables vs iptables |");
    expect(c.err()).toBe("");
  });
});

describe("IPVS", () => {
  it("is named, never silently missing: not available without ip_vs, not built yet with it", () => {
    expect(ipvsWords(false)).toBe("IPVS: not available on this kernel (no ip_vs)");
    expect(ipvsWords(true)).toBe("IPVS: not built yet (the kernel has ip_vs; docs/lab.md)");
  });

  it("is a mode one may ask for, and the usage says what it answers", async () => {
    const c = io();
    expect(await runLab(["--help"], c.io)).toBe(0);
    expect(c.out()).toContain("ipvs says why it is not built");
  });
});
