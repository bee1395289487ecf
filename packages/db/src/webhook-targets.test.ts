import { parseAllowList } from "@cnibench/settings/allow-list";
import { describe, expect, it } from "vitest";
import {
  addressAllowed,
  RefusedTargetError,
  refusedTargetWords,
  type TargetPolicy,
  targetLookup,
  urlAllowed,
} from "./webhook-targets.ts";

const publicOnly: TargetPolicy = { allow: [], ownPorts: [] };
const allowed = (text: string, policy = publicOnly) => urlAllowed(policy, new URL(text));

describe("where webhooks may post, by default", () => {
  // Each form from issue 41 that was accepted; the WHATWG URL parser turns decimal and hex hosts into
  // dotted quads (2130706433 = 0x7f000001 = 127.0.0.1, by hand: 127·2^24 + 1).
  it.each([
    ["loopback", "http://127.0.0.1:8080/"],
    ["loopback name", "http://localhost/"],
    ["a name under localhost", "http://api.localhost/"],
    ["unspecified", "http://0.0.0.0/"],
    ["decimal", "http://2130706433/"],
    ["hex", "http://0x7f000001/"],
    ["octal-ish dotted", "http://0177.0.0.1/"],
    ["IPv6 loopback", "http://[::1]/"],
    ["IPv4-mapped IPv6", "http://[::ffff:127.0.0.1]/"],
    ["IPv4-mapped IPv6, hex", "http://[::ffff:7f00:1]/"],
    ["link-local metadata", "http://169.254.169.254/latest/meta-data/"],
    ["metadata name", "http://metadata.google.internal/computeMetadata/v1/"],
    ["metadata name, trailing dot", "http://metadata.google.internal./"],
    ["private 10/8", "http://10.1.2.3/"],
    ["private 172.16/12", "http://172.20.0.1/"],
    ["private 192.168/16", "http://192.168.1.1/"],
    ["shared 100.64/10", "http://100.64.0.1/"],
    ["unique-local fd00::/8", "http://[fd00::1]/"],
    ["IPv6 link-local", "http://[fe80::1]/"],
  ])("refuses %s (%s)", (_, url) => {
    expect(allowed(url)).toBe(false);
  });

  it("accepts public addresses and names", () => {
    expect(allowed("https://hooks.slack.com/services/T/B/x")).toBe(true);
    expect(allowed("http://8.8.8.8/")).toBe(true);
    expect(allowed("http://[2606:4700:4700::1111]/")).toBe(true);
  });

  it("checks a name's addresses at connect time: localhost resolves to loopback and is refused", async () => {
    const outcome = await new Promise<{ error: Error | null; address: unknown }>((resolve) =>
      targetLookup(publicOnly, 80)("localhost", { all: true }, (error, address) => resolve({ error, address })),
    );
    expect(outcome.error).toBeInstanceOf(RefusedTargetError);
    expect(outcome.error?.message).toBe(refusedTargetWords);
  });
});

describe("the operator's allow-list (CNIBENCH_WEBHOOK_ALLOW)", () => {
  const policy: TargetPolicy = {
    allow: parseAllowList("127.0.0.1/32, 10.20.0.0/16 fd12::/64"),
    ownPorts: [4000, 3000],
  };

  it("lets listed ranges in, and only those", () => {
    expect(addressAllowed(policy, "127.0.0.1", 8080)).toBe(true);
    expect(addressAllowed(policy, "::ffff:127.0.0.1", 8080)).toBe(true);
    expect(addressAllowed(policy, "127.0.0.2", 8080)).toBe(false);
    expect(addressAllowed(policy, "10.20.255.1", 443)).toBe(true);
    expect(addressAllowed(policy, "10.21.0.1", 443)).toBe(false);
    expect(addressAllowed(policy, "fd12::5", 443)).toBe(true);
    expect(addressAllowed(policy, "fd13::5", 443)).toBe(false);
    expect(addressAllowed(policy, "169.254.169.254", 80)).toBe(false);
  });

  it("still refuses the installation's own ports on an allowed address", () => {
    expect(allowed("http://127.0.0.1:4000/v1/bundles", policy)).toBe(false);
    expect(allowed("http://127.0.0.1:3000/", policy)).toBe(false);
    expect(allowed("http://127.0.0.1:4001/", policy)).toBe(true);
  });

  it("lets a name resolving into a listed range in at connect time", async () => {
    const outcome = await new Promise<{ error: Error | null; address: unknown }>((resolve) =>
      targetLookup(policy, 8080)("localhost", { all: true }, (error, address) => resolve({ error, address })),
    );
    // localhost may resolve to ::1 too (not listed): then the whole name is refused, as it should be.
    const addresses = (outcome.address as { address: string }[]) ?? [];
    if (outcome.error) expect(outcome.error).toBeInstanceOf(RefusedTargetError);
    else expect(addresses.every((a) => a.address === "127.0.0.1")).toBe(true);
  });
});
