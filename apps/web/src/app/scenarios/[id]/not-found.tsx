import Link from "next/link";

export default function ScenarioNotFound() {
  return (
    <div className="mx-auto max-w-lg rounded-lg border border-dashed border-zinc-300 p-8 text-center dark:border-zinc-700">
      <h1 className="text-lg font-semibold">No such scenario</h1>
      <p className="mt-2 text-sm text-zinc-600 dark:text-zinc-400">
        The link may be mistyped, or the scenario's bundles were deleted. Find it again from the{" "}
        <Link href="/" className="text-blue-700 hover:underline dark:text-blue-400">
          explorer
        </Link>
        .
      </p>
    </div>
  );
}
