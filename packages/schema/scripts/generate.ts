/** Writes generated/*.json from the zod source; run after changing the contract and commit the result. */
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { generatedFiles } from "../src/json-schema.ts";

const outDir = join(dirname(fileURLToPath(import.meta.url)), "..", "generated");
mkdirSync(outDir, { recursive: true });
for (const [name, text] of Object.entries(generatedFiles())) {
  writeFileSync(join(outDir, name), text);
  console.log(`wrote ${join("generated", name)}`);
}
