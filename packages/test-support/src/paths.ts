import path from "node:path";
import { fileURLToPath } from "node:url";

/** The repository's root folder (packages/test-support/src/../../..). */
export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
