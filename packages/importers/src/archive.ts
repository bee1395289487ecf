/**
 * Archives read from bytes (no disk): .tar, .tar.gz/.tgz, .gz and .zip. The whole upload shares one
 * budget of entries and decompressed bytes, checked while inflating, so a small compressed body
 * cannot expand without bound; entry names that leave the archive (absolute, "..") refuse it.
 */
import { crc32 } from "node:zlib";
import { Gunzip, Inflate, strFromU8 } from "fflate";
import { ArchiveLimitError, type ArchiveLimits, ImportError } from "./types.ts";

export const defaultArchiveLimits: ArchiveLimits = { maxEntries: 5000, maxUnpackedBytes: 100 * 1024 * 1024 };

export type ArchiveEntry = { name: string; bytes: Uint8Array };

/** What is left of the upload's allowance; archives draw from it as they expand. */
export class ArchiveBudget {
  entries = 0;
  bytes = 0;
  constructor(readonly limits: ArchiveLimits) {}

  addEntry(archive: string): void {
    this.entries += 1;
    if (this.entries > this.limits.maxEntries) {
      throw new ArchiveLimitError(
        `${archive}: more than ${this.limits.maxEntries} archive entries (CNIBENCH_IMPORT_MAX_ENTRIES); nothing was imported`,
        "entries",
      );
    }
  }

  addBytes(archive: string, n: number): void {
    this.bytes += n;
    if (this.bytes > this.limits.maxUnpackedBytes) {
      throw new ArchiveLimitError(
        `${archive}: the archive expands beyond ${this.limits.maxUnpackedBytes} bytes (CNIBENCH_IMPORT_MAX_UNPACKED_BYTES); nothing was imported`,
        "unpacked-bytes",
      );
    }
  }
}

export type ArchiveKind = "gzip" | "zip" | "tar";

export function archiveKind(bytes: Uint8Array): ArchiveKind | undefined {
  if (bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b) return "gzip";
  if (bytes.length >= 4 && bytes[0] === 0x50 && bytes[1] === 0x4b && (bytes[2] === 0x03 || bytes[2] === 0x05))
    return "zip";
  if (isTar(bytes)) return "tar";
  return undefined;
}

function isTar(bytes: Uint8Array): boolean {
  if (bytes.length < 512) return false;
  const magic = String.fromCharCode(...bytes.subarray(257, 262));
  return magic === "ustar" || (tarChecksumOk(bytes.subarray(0, 512)) && bytes[0] !== 0);
}

/** Entries of an archive, names relative to it; junk (directories, __MACOSX, .DS_Store) left out. */
export function expandArchive(archiveName: string, bytes: Uint8Array, budget: ArchiveBudget): ArchiveEntry[] {
  const kind = archiveKind(bytes);
  if (kind === "zip") return readZip(archiveName, bytes, budget);
  if (kind === "tar") return readTar(archiveName, bytes, budget);
  if (kind === "gzip") {
    const inner = gunzipWithin(archiveName, bytes, budget);
    if (isTar(inner)) return readTar(archiveName, inner, budget, true);
    budget.addEntry(archiveName);
    const base = archiveName.split("/").pop() ?? archiveName;
    return [{ name: base.replace(/\.gz$/i, "") || "content", bytes: inner }];
  }
  throw new ImportError(`${archiveName}: not a tar, gzip or zip archive`);
}

function gunzipWithin(archiveName: string, bytes: Uint8Array, budget: ArchiveBudget): Uint8Array {
  const chunks: Uint8Array[] = [];
  let size = 0;
  let ended = false;
  // fflate's streaming Gunzip does not check a member's trailer (RFC 1952 §2.3.1: CRC-32 and ISIZE,
  // the length mod 2^32), so a corrupted archive was imported: check each member's here.
  const member = { crc: 0, size: 0 };
  const checkTrailer = (end: number) => {
    // A member is a 10-byte header, its data and the 8-byte trailer.
    if (end < 18) throw new ImportError(`${archiveName}: the gzip data is truncated (no trailer)`);
    const trailer = new DataView(bytes.buffer, bytes.byteOffset + end - 8, 8);
    const [crc, isize] = [trailer.getUint32(0, true), trailer.getUint32(4, true)];
    if (crc !== member.crc >>> 0) {
      throw new ImportError(
        `${archiveName}: the gzip data fails its CRC-32 check (the trailer says ${hex(crc)}, the data gives ${hex(member.crc)}); the archive is corrupt`,
      );
    }
    if (isize !== member.size % 2 ** 32) {
      throw new ImportError(
        `${archiveName}: the gzip data fails its length check (the trailer's ISIZE says ${isize} bytes, the data holds ${member.size}); the archive is corrupt`,
      );
    }
    member.crc = 0;
    member.size = 0;
  };
  const stream = new Gunzip((chunk, final) => {
    size += chunk.length;
    budget.addBytes(archiveName, chunk.length);
    member.crc = crc32(chunk, member.crc);
    member.size += chunk.length;
    chunks.push(chunk);
    if (final) ended = true;
  });
  // Called as the next member begins, at its first byte: the previous one's data is all out.
  stream.onmember = checkTrailer;
  try {
    // In slices: fflate inflates all it is given before calling back, so one push of a 500 KiB
    // single-member gzip held 512 MiB before the budget saw any of it. A slice inflates to 16 MiB at most.
    pushInSlices(stream, bytes);
  } catch (error) {
    if (error instanceof ArchiveLimitError) throw error;
    throw new ImportError(`${archiveName}: the gzip data is corrupt or truncated (${(error as Error).message})`);
  }
  if (!ended) throw new ImportError(`${archiveName}: the gzip data is truncated`);
  checkTrailer(bytes.length);
  return joined(chunks, size);
}

const hex = (n: number) => `0x${(n >>> 0).toString(16).padStart(8, "0")}`;

/** The inflated chunks as one array of `size` bytes (Uint8Array, not Buffer: the parsers are plain JS). */
function joined(chunks: readonly Uint8Array[], size: number): Uint8Array {
  const out = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.length;
  }
  return out;
}

/** Refuses names that would leave the archive when unpacked; returns the cleaned relative name. */
export function safeEntryName(archiveName: string, raw: string): string {
  const name = raw.replace(/^(\.\/)+/, "");
  const parts = name.split("/");
  if (
    name.startsWith("/") ||
    name.includes("\\") ||
    /^[A-Za-z]:/.test(name) ||
    parts.some((p) => p === "..") ||
    name.includes("\u0000")
  ) {
    throw new ImportError(`${archiveName}: entry "${raw}" points outside the archive (absolute path or ".."); refused`);
  }
  return parts.filter((p) => p !== "" && p !== ".").join("/");
}

function isJunk(name: string): boolean {
  return name === "" || name.startsWith("__MACOSX/") || /(^|\/)\.DS_Store$/.test(name) || /(^|\/)\._[^/]*$/.test(name);
}

/** Compressed bytes per push: deflate expands at most ~1032:1, so a slice yields 16 MiB at most. */
const SLICE = 16 * 1024;

function pushInSlices(stream: { push(chunk: Uint8Array, final?: boolean): void }, bytes: Uint8Array): void {
  if (bytes.length === 0) stream.push(bytes, true);
  for (let at = 0; at < bytes.length; at += SLICE)
    stream.push(bytes.subarray(at, at + SLICE), at + SLICE >= bytes.length);
}

/**
 * Zip entries from the central directory (as fflate's unzipSync reads them, zip64 included), each
 * inflated in slices and stopped once it passes the size its header declares: unzipSync inflated
 * the whole stream and kept the declared length, so entries declaring 16 bytes but holding 8 MiB
 * of zeros cost 6 ms of CPU per MiB — half a minute for one 5 MiB upload — and passed the budget.
 */
function readZip(archiveName: string, bytes: Uint8Array, budget: ArchiveBudget): ArchiveEntry[] {
  const entries = new Map<string, Uint8Array>();
  try {
    for (const entry of zipDirectory(bytes)) {
      if (entry.name.endsWith("/")) continue;
      safeEntryName(archiveName, entry.name);
      budget.addEntry(archiveName);
      // The declared size is checked before inflating, the real one while inflating.
      budget.addBytes(archiveName, entry.originalSize);
      entries.set(entry.name, zipEntryContent(archiveName, bytes, entry));
    }
  } catch (error) {
    if (error instanceof ArchiveLimitError || error instanceof ImportError) throw error;
    throw new ImportError(`${archiveName}: the zip archive is corrupt or truncated (${(error as Error).message})`);
  }
  return [...entries].flatMap(([raw, content]) => {
    const name = safeEntryName(archiveName, raw);
    return isJunk(name) ? [] : [{ name, bytes: content }];
  });
}

type ZipEntry = { name: string; compression: number; size: number; originalSize: number; offset: number };

const u16 = (d: Uint8Array, at: number) => (d[at] ?? 0) | ((d[at + 1] ?? 0) << 8);
const u32 = (d: Uint8Array, at: number) => (u16(d, at) | (u16(d, at + 2) << 16)) >>> 0;
const u64 = (d: Uint8Array, at: number) => u32(d, at) + u32(d, at + 4) * 2 ** 32;

function* zipDirectory(d: Uint8Array): Generator<ZipEntry> {
  let end = d.length - 22;
  while (end >= 0 && u32(d, end) !== 0x06054b50) {
    if (d.length - end > 65558) break;
    end -= 1;
  }
  if (end < 0 || u32(d, end) !== 0x06054b50) throw new Error("no end of central directory");
  let count = u16(d, end + 10);
  let at = u32(d, end + 16);
  let zip64 = end >= 20 && u32(d, end - 20) === 0x07064b50;
  if (zip64) {
    const end64 = u64(d, end - 12);
    zip64 = u32(d, end64) === 0x06064b50;
    if (zip64) {
      count = u64(d, end64 + 32);
      at = u64(d, end64 + 48);
    }
  }
  for (let i = 0; i < count; i++) {
    if (at + 46 > d.length || u32(d, at) !== 0x02014b50) throw new Error(`bad central directory entry ${i + 1}`);
    const nameLength = u16(d, at + 28);
    const extraLength = u16(d, at + 30);
    const name = strFromU8(d.subarray(at + 46, at + 46 + nameLength), !(u16(d, at + 8) & 0x800));
    let size = u32(d, at + 20);
    let originalSize = u32(d, at + 24);
    let local = u32(d, at + 42);
    const extra = at + 46 + nameLength;
    if (zip64 && (size === 0xffffffff || originalSize === 0xffffffff || local === 0xffffffff)) {
      for (let e = extra; e + 4 < extra + extraLength; e += 4 + u16(d, e + 2)) {
        if (u16(d, e) !== 1) continue;
        let field = e + 4;
        // Only the fields whose 32-bit value is 0xffffffff are there, in this order.
        if (originalSize === 0xffffffff) {
          originalSize = u64(d, field);
          field += 8;
        }
        if (size === 0xffffffff) {
          size = u64(d, field);
          field += 8;
        }
        if (local === 0xffffffff) local = u64(d, field);
        break;
      }
    }
    const offset = local + 30 + u16(d, local + 26) + u16(d, local + 28);
    if (offset + size > d.length) throw new Error(`entry "${name}" lies beyond the end of the archive`);
    yield { name, compression: u16(d, at + 10), size, originalSize, offset };
    at = extra + extraLength + u16(d, at + 32);
  }
}

function zipEntryContent(archiveName: string, d: Uint8Array, entry: ZipEntry): Uint8Array {
  const data = d.subarray(entry.offset, entry.offset + entry.size);
  if (entry.compression === 0) return data.slice();
  if (entry.compression !== 8) throw new Error(`unknown compression type ${entry.compression}`);
  if (entry.size === 0) return new Uint8Array(0);
  const chunks: Uint8Array[] = [];
  let size = 0;
  const inflate = new Inflate((chunk) => {
    size += chunk.length;
    if (size > entry.originalSize) {
      throw new ImportError(
        `${archiveName}: entry "${entry.name}" inflates beyond the ${entry.originalSize} bytes its header declares; refused`,
      );
    }
    chunks.push(chunk);
  });
  pushInSlices(inflate, data);
  return joined(chunks, size);
}

function readString(block: Uint8Array, start: number, length: number): string {
  const slice = block.subarray(start, start + length);
  const end = slice.indexOf(0);
  return new TextDecoder().decode(end === -1 ? slice : slice.subarray(0, end));
}

function readOctal(block: Uint8Array, start: number, length: number): number {
  if ((block[start]! & 0x80) !== 0) {
    // GNU base-256 for sizes above 8 GiB: far above any limit here.
    return Number.MAX_SAFE_INTEGER;
  }
  const text = readString(block, start, length).trim();
  return text === "" ? 0 : Number.parseInt(text, 8);
}

function tarChecksumOk(header: Uint8Array): boolean {
  let sum = 0;
  for (let i = 0; i < 512; i++) sum += i >= 148 && i < 156 ? 32 : header[i]!;
  return sum === readOctal(header, 148, 8);
}

/** ustar/GNU/pax tar: regular files only (links and devices are not results). */
function readTar(archiveName: string, data: Uint8Array, budget: ArchiveBudget, counted = false): ArchiveEntry[] {
  const entries: ArchiveEntry[] = [];
  let offset = 0;
  let longName: string | undefined;
  let paxPath: string | undefined;
  while (offset + 512 <= data.length) {
    const header = data.subarray(offset, offset + 512);
    if (header.every((b) => b === 0)) break;
    if (!tarChecksumOk(header)) throw new ImportError(`${archiveName}: corrupt tar header at byte ${offset}`);
    const size = readOctal(header, 124, 12);
    // A negative size ("-1000", checksum intact) moved the reader backwards: the same header for ever.
    if (!(size >= 0)) throw new ImportError(`${archiveName}: corrupt tar header at byte ${offset} (size field)`);
    const type = String.fromCharCode(header[156]!);
    const prefix = readString(header, 345, 155);
    const baseName = readString(header, 0, 100);
    offset += 512;
    if (offset + size > data.length) throw new ImportError(`${archiveName}: the tar archive is truncated`);
    const body = data.subarray(offset, offset + size);
    offset += Math.ceil(size / 512) * 512;
    if (type === "L") {
      longName = readString(body, 0, body.length);
      continue;
    }
    if (type === "x") {
      paxPath = /(?:^|\n)\d+ path=([^\n]*)\n/.exec(new TextDecoder().decode(body))?.[1] ?? paxPath;
      continue;
    }
    if (type === "g") continue;
    const raw = paxPath ?? longName ?? (prefix ? `${prefix}/${baseName}` : baseName);
    longName = undefined;
    paxPath = undefined;
    if (type !== "0" && type !== "\u0000" && type !== "7") continue;
    const name = safeEntryName(archiveName, raw);
    if (isJunk(name)) continue;
    budget.addEntry(archiveName);
    if (!counted) budget.addBytes(archiveName, size);
    entries.push({ name, bytes: body.slice() });
  }
  return entries;
}
