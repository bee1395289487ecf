export * from "./iptables.ts";
export * from "./nftables.ts";
export * from "./plan.ts";
