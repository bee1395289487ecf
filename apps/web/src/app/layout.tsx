import type { Metadata } from "next";
import Link from "next/link";
import type { ReactNode } from "react";
import { NavLink } from "./_ui/link";
import { Account } from "./account";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "cnibench", template: "%s · cnibench" },
  description: "Kubernetes CNI datapath benchmark results: explore, compare, choose.",
};

const nav = [
  { href: "/", label: "Explore" },
  { href: "/charts", label: "Charts" },
  { href: "/compare", label: "Compare" },
  { href: "/guide", label: "Guide" },
];

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body className="min-h-screen bg-zinc-50 text-zinc-900 antialiased dark:bg-zinc-950 dark:text-zinc-100">
        <a
          href="#main"
          className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:rounded focus:bg-white focus:px-3 focus:py-1 dark:focus:bg-zinc-900"
        >
          Skip to content
        </a>
        <header className="border-b border-zinc-200 bg-white dark:border-zinc-800 dark:bg-zinc-900">
          <nav
            aria-label="Main"
            className="mx-auto flex max-w-screen-2xl flex-wrap items-center gap-x-6 gap-y-2 px-4 py-3"
          >
            <Link href="/" className="font-semibold tracking-tight">
              cnibench
            </Link>
            <ul className="flex gap-4 text-sm">
              {nav.map((item) => (
                <li key={item.href}>
                  <NavLink href={item.href}>{item.label}</NavLink>
                </li>
              ))}
            </ul>
            <span className="ml-auto hidden text-sm text-zinc-500 lg:inline">Kubernetes CNI benchmark explorer</span>
            <div className="ml-auto lg:ml-0" data-testid="account">
              <Account />
            </div>
          </nav>
        </header>
        <main id="main" className="mx-auto max-w-screen-2xl px-4 py-6">
          {children}
        </main>
      </body>
    </html>
  );
}
