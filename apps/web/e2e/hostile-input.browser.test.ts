// No 5xx from any input, in the built app (issue 43): every page and route file of apps/web/src/app
// (read from the folder, not a hand list) gets U+0000, lone surrogates, broken and over-long
// %-escapes in each dynamic path segment and in each query parameter the app's pages read; every
// tRPC procedure (appRouter._def.procedures) gets hostile strings in each input field, as a
// signed-in user. Every answer is a 2xx, 3xx or 4xx, and none carries a driver's message. The
// production build global-setup.ts made (`npm start`'s), not the in-process handlers.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { driverWords, hostileUrlValues, type JsonSchema, procedureProbes } from "@cnibench/test-support/hostile";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { z } from "zod";
import { appRouter } from "../src/server/trpc/root";
import { launchBrowser, signedIn } from "./browser.ts";

const webUrl = inject("webUrl");
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const appDir = path.join(repoRoot, "apps/web/src/app");

/** "/scenarios/[id]" for app/scenarios/[id]/page.tsx; route groups dropped, private folders skipped. */
function routeTemplates(): string[] {
  const out: string[] = [];
  const walk = (dir: string, at: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory()) {
        if (entry.name.startsWith("_")) continue;
        const segment = /^\(.*\)$/.test(entry.name) ? "" : `/${entry.name}`;
        walk(path.join(dir, entry.name), `${at}${segment}`);
      } else if (/^(page\.tsx|route\.ts)$/.test(entry.name)) out.push(at || "/");
    }
  };
  walk(appDir, "");
  return out.sort();
}

/** Query parameters the pages read: nuqs parsers' keys and searchParams.get/getAll names, from the source. */
function queryNames(): string[] {
  const names = new Set<string>();
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (/\.tsx?$/.test(entry.name) && !/\.test\./.test(entry.name)) {
        const text = fs.readFileSync(full, "utf8");
        for (const m of text.matchAll(/\b([a-z][A-Za-z]*): parseAs\w+/g)) names.add(m[1]!);
        for (const m of text.matchAll(/\.get(?:All)?\("([A-Za-z][\w-]*)"\)/g)) names.add(m[1]!);
      }
    }
  };
  walk(appDir);
  return [...names].sort();
}

const inputSchema = (input: unknown) =>
  z.toJSONSchema(input as z.ZodType, { io: "input", unrepresentable: "any" }) as JsonSchema;

describe("hostile values on every page, download and procedure of the built app", () => {
  let browser: Awaited<ReturnType<typeof launchBrowser>>;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => browser?.close());

  it("answers every page and route file's hostile path and query with a 4xx (or a page), never a 5xx", async () => {
    const templates = routeTemplates();
    expect(templates).toEqual(
      expect.arrayContaining(["/", "/scenarios/[id]", "/d/[slug]/evidence.csv", "/embed/d/[slug]"]),
    );
    const names = queryNames();
    expect(names).toEqual(expect.arrayContaining(["s", "scenario", "metric"]));
    const failures: string[] = [];
    let sent = 0;
    const probe = async (url: string) => {
      sent++;
      const res = await fetch(`${webUrl}${url}`, { redirect: "manual", signal: AbortSignal.timeout(30_000) });
      const text = await res.text();
      if (res.status >= 500) failures.push(`${url.slice(0, 120)} → ${res.status} ${text.slice(0, 200)}`);
      else if (driverWords.test(text) && res.status >= 400) failures.push(`leaks: ${url.slice(0, 120)}`);
    };
    for (const template of templates) {
      const segments = template.split("/");
      const dynamic = segments.some((s) => s.startsWith("["));
      const plain = segments.map((s) => (s.startsWith("[") ? "unknown" : s)).join("/") || "/";
      for (const value of hostileUrlValues) {
        if (dynamic) await probe(segments.map((s) => (s.startsWith("[") ? value : s)).join("/"));
      }
      // Every value in one parameter of its own; the over-long and %00 ones in each name the pages read.
      for (const value of hostileUrlValues) await probe(`${plain}?x=${value}`);
      for (const name of names)
        for (const value of ["x%00", "%ED%A0%80", "x".repeat(8_000)]) {
          await probe(`${plain}?${name}=${value}`);
        }
    }
    console.log(`${sent} page and route probes over ${templates.length} files and ${names.length} query names`);
    expect(failures).toEqual([]);
  }, 900_000);

  it("answers a raw U+0000 in a procedure's address in tRPC's error shape, and one in a page's with a page", async () => {
    const call = await fetch(`${webUrl}/api/trpc/scenarios.byId?input=%7B%22id%22%3A%22x%00%22%7D`);
    expect(call.status).toBe(400);
    expect(await call.json()).toMatchObject({ error: { data: { code: "BAD_REQUEST", httpStatus: 400 } } });
    const page = await fetch(`${webUrl}/?provider=x%00`);
    expect(page.status).toBe(400);
    expect(page.headers.get("content-type")).toContain("text/html");
    expect(await page.text()).toMatch(/The query parameter (&#34;|")provider(&#34;|") is not valid text/);
    expect((await fetch(`${webUrl}/scenarios/x%00`)).status).toBe(404);
  });

  it("answers every procedure's hostile input with a 4xx, never a 5xx or a driver's message", async () => {
    const page = await signedIn(browser, webUrl, "hostile");
    const probes = procedureProbes(appRouter, inputSchema);
    const failures: string[] = [];
    for (const { path: procedure, type, field, input } of probes) {
      const json = JSON.stringify(input);
      const res =
        type === "query"
          ? await page.request.get(`${webUrl}/api/trpc/${procedure}?input=${encodeURIComponent(json)}`)
          : await page.request.post(`${webUrl}/api/trpc/${procedure}`, {
              data: json,
              headers: { "content-type": "application/json" },
            });
      const text = await res.text();
      if (res.status() >= 500) failures.push(`${procedure} ${field} → ${res.status()} ${text.slice(0, 200)}`);
      else if (driverWords.test(text)) failures.push(`leaks: ${procedure} ${field} → ${text.slice(0, 200)}`);
    }
    console.log(`${probes.length} procedure probes`);
    expect(failures).toEqual([]);
  }, 600_000);
});
