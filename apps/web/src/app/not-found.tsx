import Link from "next/link";

export default function NotFound() {
  return (
    <div className="mx-auto max-w-lg rounded-lg border border-dashed border-zinc-300 p-8 text-center dark:border-zinc-700">
      <h1 className="text-lg font-semibold">Page not found</h1>
      <p className="mt-2 text-sm text-zinc-600 dark:text-zinc-400">
        Nothing lives at this address. Start from the{" "}
        <Link href="/" className="text-blue-700 hover:underline dark:text-blue-400">
          explorer
        </Link>
        .
      </p>
    </div>
  );
}
