// Every address of the example installation (https://cnibench.example.com) that the user docs and
// action.yml give must work against the shipped Ingress: an API address (--api, --server, api-url,
// CNIBENCH_API) must be one under which the API's /v1/… routes reach ingest-api; a full URL must reach
// the app that has its route. Routing follows Kubernetes' `Prefix` rule: the longest path whose
// '/'-separated elements begin the request's path wins.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { read, repoRoot } from "./inspect.ts";

const ingress = parse(read("deploy/kubernetes/components/ingress/ingress.yaml"));
const rule = ingress.spec.rules[0];
const host: string = rule.host;
const paths: { path: string; pathType: string; backend: { service: { name: string } } }[] = rule.http.paths;

/** The Service the Ingress sends a request path to (longest matching Prefix), or undefined. */
function backendOf(requestPath: string): string | undefined {
  const elements = (p: string) => p.split("/").filter(Boolean);
  const request = elements(requestPath);
  const matching = paths.filter((p) => p.pathType === "Prefix" && elements(p.path).every((e, i) => request[i] === e));
  matching.sort((a, b) => elements(b.path).length - elements(a.path).length);
  return matching[0]?.backend.service.name;
}

/** The ingest API's routes, from its route files, as patterns (`:id` matches one element). */
const apiRoutes = fs
  .readdirSync(path.join(repoRoot, "apps/ingest-api/src/routes"))
  .filter((f) => f.endsWith(".ts") && !f.endsWith(".test.ts"))
  .flatMap((f) => [
    ...read(`apps/ingest-api/src/routes/${f}`).matchAll(/app\.(?:get|post|put|delete)(?:<[^>]*>)?\(\s*"([^"]+)"/g),
  ])
  .map((m) => new RegExp(`^${m[1]!.replace(/:[a-zA-Z]+/g, "[^/]+")}$`));

const documents = [
  "README.md",
  "action.yml",
  "deploy/README.md",
  ...fs.readdirSync(path.join(repoRoot, "docs")).map((f) => `docs/${f}`),
].filter((f) => f.endsWith(".md") || f.endsWith(".yml"));

type Found = { file: string; line: number; url: URL; apiBase: boolean };

function found(): Found[] {
  const out: Found[] = [];
  for (const file of documents) {
    read(file)
      .split("\n")
      .forEach((text, i) => {
        for (const m of text.matchAll(/https?:\/\/[A-Za-z0-9.-]+(?::\d+)?[^\s`"')\]<>]*/g)) {
          if (!URL.canParse(m[0])) continue; // a placeholder such as https://…
          const url = new URL(m[0]);
          if (!url.hostname.startsWith("cnibench.example")) continue;
          const before = text.slice(0, m.index);
          out.push({
            file,
            line: i + 1,
            url,
            apiBase: /(--api|--server|api-url|CNIBENCH_API|api|API's address, e\.g\.)[=:\s]*$/i.test(before),
          });
        }
      });
  }
  return out;
}

describe("the docs' addresses against the shipped Ingress", () => {
  const urls = found();

  it("finds the example installation's addresses in the docs", () => {
    // docs/ci.md alone gives seven (gate, curl, the action, GitLab, Tekton); fewer means the scan broke.
    expect(urls.length).toBeGreaterThanOrEqual(7);
    expect(urls.some((u) => u.apiBase)).toBe(true);
  });

  it("routes the API's /v1 to ingest-api and the web app's /api to web", () => {
    expect(backendOf("/v1/bundles")).toBe("cnibench-ingest-api");
    expect(backendOf("/v1")).toBe("cnibench-ingest-api");
    expect(backendOf("/v1x/bundles")).toBe("cnibench-web");
    expect(backendOf("/api/v1/gate")).toBe("cnibench-web");
    expect(backendOf("/api/auth/callback/oidc")).toBe("cnibench-web");
  });

  it("gives only addresses that reach the app serving them", () => {
    const wrong: string[] = [];
    for (const { file, line, url, apiBase } of urls) {
      const where = `${file}:${line} ${url.href}`;
      if (url.hostname !== host || url.port !== "" || url.protocol !== "https:") {
        wrong.push(`${where}: the Ingress serves https://${host} only`);
        continue;
      }
      const base = url.pathname.replace(/\/$/, "");
      if (apiBase) {
        // The CLI and the action append /v1/… to the address they are given.
        if (backendOf(`${base}/v1/bundles`) !== "cnibench-ingest-api" || base !== "")
          wrong.push(`${where}: an API address must be https://${host} (the Ingress serves /v1 at the root)`);
      } else if (backendOf(base) === "cnibench-ingest-api") {
        if (!apiRoutes.some((r) => r.test(base))) wrong.push(`${where}: ingest-api has no route ${base}`);
      } else if (base.startsWith("/v1") || /\/v1\//.test(base)) {
        wrong.push(`${where}: an API path the Ingress sends to the web app`);
      }
    }
    expect(wrong).toEqual([]);
  });
});
