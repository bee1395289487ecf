import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { webBuildInputsDigest } from "./web-build.ts";

// A checkout's shape as the digest walks it: the web app, the packages it builds from, the lock file
// and the Prisma schema.
const roots: string[] = [];
function checkout(): { root: string; write: (file: string, text: string) => void } {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "cnibench-digest-"));
  roots.push(root);
  const write = (file: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    fs.writeFileSync(path.join(root, file), text);
  };
  write("apps/web/src/app/page.tsx", "export default function Page() { return null; }\n");
  for (const dir of ["schema", "db", "charts", "analysis"]) write(`packages/${dir}/src/index.ts`, "export {};\n");
  write("package-lock.json", "{}\n");
  write("prisma/schema.prisma", "// schema\n");
  return { root, write };
}

afterEach(() => {
  for (const root of roots.splice(0)) fs.rmSync(root, { recursive: true, force: true });
});

describe("webBuildInputsDigest", () => {
  it("moves with a source and stays with build outputs: .next, a build moved aside, tsbuildinfo", () => {
    const { root, write } = checkout();
    const before = webBuildInputsDigest(root);
    write("apps/web/.next/BUILD_ID", "abc\n");
    write("apps/web/.next-aside/server/page.js", "built\n");
    write("apps/web/tsconfig.tsbuildinfo", '{"version":"5"}\n');
    write("apps/web/src/app/page.test.tsx", "// a test\n");
    expect(webBuildInputsDigest(root)).toBe(before);
    write("apps/web/src/app/page.tsx", "export default function Page() { return 1; }\n");
    expect(webBuildInputsDigest(root)).not.toBe(before);
  });
});
