/** Writes generated/openapi.json; run after changing a route's schemas or the contract, and commit the result. */
import { mkdirSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { generatedOpenApi } from "../src/openapi.ts";

const path = fileURLToPath(generatedOpenApi.path);
mkdirSync(new URL(".", generatedOpenApi.path), { recursive: true });
writeFileSync(path, generatedOpenApi.text());
console.log(`wrote ${path}`);
