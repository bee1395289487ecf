import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import { appRouter } from "~/server/root";
import { createContext } from "~/server/trpc";

const handler = (req: Request) => fetchRequestHandler({ endpoint: "/api/trpc", req, router: appRouter, createContext });

export { handler as GET, handler as POST };
