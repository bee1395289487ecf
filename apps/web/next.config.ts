import type { NextConfig } from "next";

const config: NextConfig = {
  // Workspace packages ship TypeScript source (see their exports maps).
  transpilePackages: [
    "@cnibench/schema",
    "@cnibench/db",
    "@cnibench/settings",
    "@cnibench/charts",
    "@cnibench/analysis",
    "@cnibench/format",
  ],
  // Prisma's runtime loads its wasm query compiler at run time; leave it and pg unbundled.
  // prom-client (the server's own metrics) reads process internals at run time: unbundled too.
  serverExternalPackages: ["@prisma/client", "@prisma/adapter-pg", "pg", "prom-client"],
  poweredByHeader: false,
  // Container images (apps/web/Dockerfile) ship .next/standalone: the server and only the files it needs.
  // `next start`, which `npm start` runs, still serves this build (it warns that standalone exists).
  output: "standalone",
  // The link cards read font subsets by name at run time (src/server/cards/card-fonts.ts), which tracing
  // cannot follow: the regular and bold WOFF files and their unicode tables go into the image.
  outputFileTracingIncludes: {
    "/card/**": [
      "../../node_modules/@fontsource/noto-sans*/unicode.json",
      "../../node_modules/@fontsource/noto-sans*/files/*-400-normal.woff",
      "../../node_modules/@fontsource/noto-sans*/files/*-700-normal.woff",
    ],
  },
  // Bundles dropped on a workspace page travel in a server action: allow the upload's own limit
  // (10 MiB, checked again by the workspaces.upload input) instead of the 1 MB default.
  experimental: {
    serverActions: { bodySizeLimit: "11mb" },
    // The stylesheet (7 kB gzipped Tailwind) goes inline: a first visit paints without waiting for a
    // stylesheet request that lands among the script chunks (LCP p50 ≈100 ms lower on four of five
    // pages in two A/B runs of npm run bench; README, Performance). Production builds only.
    inlineCss: true,
  },
};

export default config;
