// A short list of sources shows each as its site's name. Three pages of kubernetes.io read
// "kubernetes.io, kubernetes.io, kubernetes.io": where a site repeats, its pages are told apart by
// the last part of their path. A long list is grouped by label, so nine pages of one capability row
// do not repeat its name nine times.

// On a code host the repository is the site: "github.com" alone named Antrea's, kube-router's and
// Flannel's docs alike.
const codeHosts = new Set(["github.com", "gitlab.com"]);
const host = (url: URL) => {
  const site = url.hostname.replace(/^www\./, "");
  const repo = url.pathname.split("/").filter(Boolean).slice(0, 2);
  return codeHosts.has(site) && repo.length === 2 ? `${site}/${repo.join("/")}` : site;
};
const lastPart = (url: URL) => url.pathname.split("/").filter(Boolean).at(-1);

/** Each source's link text: its site, or where the site repeats in the list, site/…/last-part-of-path. */
export function sourceNames(urls: readonly string[]): string[] {
  const parsed = urls.map((u) => URL.parse(u));
  const sites = parsed.map((u) => (u ? host(u) : null));
  return urls.map((raw, i) => {
    const url = parsed[i];
    const site = sites[i];
    if (!url || !site) return raw;
    const repeated = sites.filter((s) => s === site).length > 1;
    const part = lastPart(url);
    return repeated && part ? `${site}/…/${part}` : site;
  });
}

/** Sources grouped by label in order of first appearance: nine Cilium pages are listed under one "Cilium VXLAN/Geneve overlay". */
export function sourcesByLabel<T extends { label: string }>(sources: readonly T[]): [string, T[]][] {
  const groups = new Map<string, T[]>();
  for (const s of sources) groups.set(s.label, [...(groups.get(s.label) ?? []), s]);
  return [...groups];
}
