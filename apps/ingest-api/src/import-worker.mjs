// The entry of an import worker thread. ingest-api runs its TypeScript under tsx (`node --import tsx`
// in `npm start` and the Docker image, vitest in the tests), and on Node 20 a worker thread inherits
// neither loader: tsx's tsImport loads import-worker.ts and everything it imports, whatever the host.
import { tsImport } from "tsx/esm/api";

await tsImport("./import-worker.ts", import.meta.url);
