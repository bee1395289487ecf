import { createReadStream, promises as fs } from "node:fs";
import path from "node:path";
import { type ImportFile, streamedReader } from "@cnibench/importers";

export type Unreadable = { file: string; error: string };

/** Folders that never hold results and can be huge. */
const skippedDirectories = new Set([".git", "node_modules", ".data", ".next"]);

/**
 * Reads the given files and, recursively, the files of the given directories. Names keep the
 * directory's own name ("results/scenario-a.json") so result folders and per-file environments match.
 */
export async function readInputs(
  paths: string[],
  maxFileBytes: number,
): Promise<{ files: ImportFile[]; unreadable: Unreadable[] }> {
  const files: ImportFile[] = [];
  const unreadable: Unreadable[] = [];
  const readOne = async (full: string, name: string) => {
    try {
      const stat = await fs.stat(full);
      if (stat.size > maxFileBytes) {
        unreadable.push({ file: name, error: `larger than ${maxFileBytes} bytes; not read` });
        return;
      }
      // statexec .prom files (4–8 MB each, most of an InfraBuilder tree) are read as a stream and only
      // what the importer reads of them is kept, as the ingest API does inside an archive.
      const reader = streamedReader(name);
      if (reader) {
        for await (const chunk of createReadStream(full)) reader.push(chunk as Buffer);
        files.push({ name, bytes: reader.end() });
        return;
      }
      files.push({ name, bytes: new Uint8Array(await fs.readFile(full)) });
    } catch (error) {
      unreadable.push({ file: name, error: (error as NodeJS.ErrnoException).code ?? (error as Error).message });
    }
  };
  const walk = async (dir: string, name: string) => {
    let entries: import("node:fs").Dirent[];
    try {
      entries = await fs.readdir(dir, { withFileTypes: true });
    } catch (error) {
      unreadable.push({ file: name, error: (error as NodeJS.ErrnoException).code ?? (error as Error).message });
      return;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      const full = path.join(dir, entry.name);
      const child = `${name}/${entry.name}`;
      if (entry.isDirectory()) {
        if (!skippedDirectories.has(entry.name)) await walk(full, child);
      } else if (entry.isFile()) {
        await readOne(full, child);
      }
    }
  };
  for (const given of paths) {
    const full = path.resolve(given);
    // A file keeps its name alone, except a bench.sh CNI script given on its own
    // (setup/cni-configs/flannel.sh): the importer knows it by its folder, "cni-configs".
    const parent = path.basename(path.dirname(full));
    const base = path.basename(full) || full;
    const name = parent === "cni-configs" ? `${parent}/${base}` : base;
    let stat: import("node:fs").Stats;
    try {
      stat = await fs.stat(full);
    } catch (error) {
      unreadable.push({
        file: given,
        error:
          (error as NodeJS.ErrnoException).code === "ENOENT" ? "no such file or directory" : (error as Error).message,
      });
      continue;
    }
    if (stat.isDirectory()) await walk(full, name);
    else await readOne(full, name);
  }
  return { files, unreadable };
}
