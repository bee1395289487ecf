import { connection } from "next/server";
import { api } from "~/trpc/server";

export default async function HomePage() {
  await connection(); // always render with current data
  const scenarios = await (await api()).scenarios.list();

  return (
    <section aria-labelledby="scenarios-heading">
      <h1 id="scenarios-heading" className="text-xl font-semibold">
        Scenarios
      </h1>
      <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">
        Each scenario is one environment — cluster, node and CNI configuration — that results were measured in.
      </p>
      {scenarios.length === 0 ? (
        <div className="mt-6 rounded-lg border border-dashed border-zinc-300 p-8 text-center dark:border-zinc-700">
          <p className="font-medium">No results yet.</p>
          <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">
            Upload a bundle to the ingest API (<code>POST /v1/bundles</code>) and it will appear here.
          </p>
        </div>
      ) : (
        <div className="mt-4 overflow-x-auto rounded-lg border border-zinc-200 bg-white dark:border-zinc-800 dark:bg-zinc-900">
          <table className="w-full text-left text-sm">
            <thead className="border-b border-zinc-200 text-xs uppercase tracking-wide text-zinc-500 dark:border-zinc-800">
              <tr>
                <th scope="col" className="px-3 py-2">
                  Scenario
                </th>
                <th scope="col" className="px-3 py-2">
                  Cloud
                </th>
                <th scope="col" className="px-3 py-2">
                  Instance type
                </th>
                <th scope="col" className="px-3 py-2">
                  Kernel
                </th>
                <th scope="col" className="px-3 py-2">
                  Kubernetes
                </th>
                <th scope="col" className="px-3 py-2">
                  CNI · mode · kube-proxy
                </th>
                <th scope="col" className="px-3 py-2 text-right">
                  Bundles
                </th>
                <th scope="col" className="px-3 py-2 text-right">
                  Measurements
                </th>
              </tr>
            </thead>
            <tbody>
              {scenarios.map((s) => (
                <tr key={s.id} className="border-b border-zinc-100 last:border-0 dark:border-zinc-800">
                  <td className="px-3 py-2 font-medium">{s.label}</td>
                  <td className="px-3 py-2">{s.provider}</td>
                  <td className="px-3 py-2">{s.sku}</td>
                  <td className="px-3 py-2">{s.kernel}</td>
                  <td className="px-3 py-2">{s.kubernetesVersion}</td>
                  <td className="px-3 py-2">
                    {s.cni.name} {s.cni.version !== "unknown" ? s.cni.version : ""} · {s.cni.mode} · {s.cni.kubeProxy}
                  </td>
                  <td className="px-3 py-2 text-right tabular-nums">{s.bundleCount}</td>
                  <td className="px-3 py-2 text-right tabular-nums">{s.measurementCount}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
