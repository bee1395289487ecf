import type { Qualifier as ContractQualifier } from "@cnibench/schema";
import type { Qualifier as StoredQualifier } from "./generated/prisma/client.ts";

// Prisma enum members cannot contain "-", so the contract's "at-most" is the member at_most (the
// database value itself is "at-most", see @map in schema.prisma).
export const contractQualifier: Record<StoredQualifier, ContractQualifier> = {
  approx: "approx",
  at_most: "at-most",
  at_least: "at-least",
  range: "range",
};
