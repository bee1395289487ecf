/**
 * Archives read from bytes (no disk): .tar, .tar.gz/.tgz, .gz and .zip. The whole upload shares one
 * budget of entries and decompressed bytes, checked while inflating, so a small compressed body
 * cannot expand without bound; entry names that leave the archive (absolute, "..") refuse it.
 * A .tar.gz is read as it inflates, entry by entry, never whole: files streamed.ts names (statexec
 * .prom) go through their reader and only its summary is kept, so a 175 MB tree of them costs a few
 * MB of memory; their bytes count against a budget of their own (maxStreamedBytes).
 */
import { crc32 } from "node:zlib";
import { Gunzip, Inflate, strFromU8 } from "fflate";
import { type StreamedReader, streamedReader } from "./streamed.ts";
import { ArchiveLimitError, type ArchiveLimits, ImportError } from "./types.ts";

// 10,000 entries: InfraBuilder's whole 2024 tree holds about 4,900 files.
export const defaultArchiveLimits: ArchiveLimits = {
  maxEntries: 10_000,
  maxUnpackedBytes: 100 * 1024 * 1024,
  maxStreamedBytes: 512 * 1024 * 1024,
};

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

  streamed = 0;
  addStreamedBytes(archive: string, n: number): void {
    this.streamed += n;
    if (this.streamed > this.limits.maxStreamedBytes) {
      throw new ArchiveLimitError(
        `${archive}: its statexec .prom files expand beyond ${this.limits.maxStreamedBytes} bytes (CNIBENCH_IMPORT_MAX_STREAMED_BYTES); nothing was imported`,
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
  if (kind === "gzip") return gunzipWithin(archiveName, bytes, budget);
  throw new ImportError(`${archiveName}: not a tar, gzip or zip archive`);
}

/**
 * A .gz: a tar inside is read as it inflates (TarStream); anything else is one file, held. The first
 * 512 inflated bytes decide which.
 */
function gunzipWithin(archiveName: string, bytes: Uint8Array, budget: ArchiveBudget): ArchiveEntry[] {
  const held: Uint8Array[] = [];
  let size = 0;
  let tar: TarStream | undefined;
  let decided = false;
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
    member.crc = crc32(chunk, member.crc);
    member.size += chunk.length;
    if (final) ended = true;
    if (tar) return tar.push(chunk);
    budget.addBytes(archiveName, chunk.length);
    held.push(chunk);
    size += chunk.length;
    if (decided || (size < 512 && !final)) return;
    decided = true;
    const start = joined(held, size);
    if (!isTar(start)) return;
    // A tar: its bytes are counted entry by entry from here on, those held and those streamed apart.
    budget.bytes -= size;
    held.length = 0;
    size = 0;
    tar = new TarStream(archiveName, budget);
    tar.push(start);
  });
  // Called as the next member begins, at its first byte: the previous one's data is all out.
  stream.onmember = checkTrailer;
  try {
    // In slices: fflate inflates all it is given before calling back, so one push of a 500 KiB
    // single-member gzip held 512 MiB before the budget saw any of it. A slice inflates to 16 MiB at most.
    pushInSlices(stream, bytes);
  } catch (error) {
    if (error instanceof ArchiveLimitError || error instanceof ImportError) throw error;
    throw new ImportError(`${archiveName}: the gzip data is corrupt or truncated (${(error as Error).message})`);
  }
  if (!ended) throw new ImportError(`${archiveName}: the gzip data is truncated`);
  checkTrailer(bytes.length);
  if (tar) return tar.end();
  budget.addEntry(archiveName);
  const base = archiveName.split("/").pop() ?? archiveName;
  return [{ name: base.replace(/\.gz$/i, "") || "content", bytes: joined(held, size) }];
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
      const reader = streamedReader(safeEntryName(archiveName, entry.name));
      budget.addEntry(archiveName);
      // The declared size is checked before inflating, the real one while inflating.
      if (reader) budget.addStreamedBytes(archiveName, entry.originalSize);
      else budget.addBytes(archiveName, entry.originalSize);
      entries.set(entry.name, zipEntryContent(archiveName, bytes, entry, reader));
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

/** An entry's bytes; a streamed one's (statexec .prom) go through its reader, and what it keeps is returned. */
function zipEntryContent(archiveName: string, d: Uint8Array, entry: ZipEntry, reader?: StreamedReader): Uint8Array {
  const data = d.subarray(entry.offset, entry.offset + entry.size);
  if (entry.compression !== 0 && entry.compression !== 8)
    throw new Error(`unknown compression type ${entry.compression}`);
  if (reader) {
    if (entry.compression === 0) reader.push(data);
    else if (entry.size > 0) inflateEntry(archiveName, entry, data, (chunk) => reader.push(chunk));
    return reader.end();
  }
  if (entry.compression === 0) return data.slice();
  if (entry.size === 0) return new Uint8Array(0);
  const chunks: Uint8Array[] = [];
  return joined(
    chunks,
    inflateEntry(archiveName, entry, data, (chunk) => chunks.push(chunk)),
  );
}

/** Inflates a deflated entry chunk by chunk into `take`, refusing more bytes than its header declares; its size. */
function inflateEntry(
  archiveName: string,
  entry: ZipEntry,
  data: Uint8Array,
  take: (chunk: Uint8Array) => void,
): number {
  let size = 0;
  const inflate = new Inflate((chunk) => {
    size += chunk.length;
    if (size > entry.originalSize) {
      throw new ImportError(
        `${archiveName}: entry "${entry.name}" inflates beyond the ${entry.originalSize} bytes its header declares; refused`,
      );
    }
    take(chunk);
  });
  pushInSlices(inflate, data);
  return size;
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

/** ustar/GNU/pax tar in memory: regular files only (links and devices are not results). */
function readTar(archiveName: string, data: Uint8Array, budget: ArchiveBudget): ArchiveEntry[] {
  const tar = new TarStream(archiveName, budget);
  tar.push(data);
  return tar.end();
}

type TarBody = {
  size: number;
  remaining: number;
  /** Where the body goes: held (its chunks), read as it comes (a streamed file), or skipped. */
  sink:
    | { kind: "held"; name: string; chunks: Uint8Array[] }
    | { kind: "streamed"; name: string; reader: StreamedReader }
    | { kind: "meta"; type: "L" | "x"; chunks: Uint8Array[] }
    | { kind: "skip" };
};

/**
 * A tar read as its bytes come (from the gzip stream, or all at once): 512-byte headers, bodies held,
 * streamed through their reader or skipped, padding passed over. Every byte is counted against the
 * budget as it passes, held ones against maxUnpackedBytes, streamed ones against maxStreamedBytes.
 */
class TarStream {
  private readonly entries: ArchiveEntry[] = [];
  private readonly header = new Uint8Array(512);
  private headerFill = 0;
  private offset = 0;
  private body: TarBody | undefined;
  private padding = 0;
  private done = false;
  private longName: string | undefined;
  private paxPath: string | undefined;

  constructor(
    private readonly archiveName: string,
    private readonly budget: ArchiveBudget,
  ) {}

  push(chunk: Uint8Array): void {
    let at = 0;
    while (at < chunk.length) {
      const left = chunk.length - at;
      if (this.done) {
        // After the end-of-archive block: padding, or a bomb behind it; counted, never kept.
        this.budget.addBytes(this.archiveName, left);
        return;
      }
      if (this.body) {
        const n = Math.min(this.body.remaining, left);
        this.bodyBytes(chunk.subarray(at, at + n));
        at += n;
        continue;
      }
      if (this.padding > 0) {
        const n = Math.min(this.padding, left);
        this.budget.addBytes(this.archiveName, n);
        this.padding -= n;
        this.offset += n;
        at += n;
        continue;
      }
      const n = Math.min(512 - this.headerFill, left);
      this.header.set(chunk.subarray(at, at + n), this.headerFill);
      this.budget.addBytes(this.archiveName, n);
      this.headerFill += n;
      this.offset += n;
      at += n;
      if (this.headerFill === 512) {
        this.headerFill = 0;
        this.readHeader(this.offset - 512);
      }
    }
  }

  end(): ArchiveEntry[] {
    if (this.body) throw new ImportError(`${this.archiveName}: the tar archive is truncated`);
    return this.entries;
  }

  private readHeader(at: number): void {
    const header = this.header;
    if (header.every((b) => b === 0)) {
      this.done = true;
      return;
    }
    if (!tarChecksumOk(header)) throw new ImportError(`${this.archiveName}: corrupt tar header at byte ${at}`);
    const size = readOctal(header, 124, 12);
    // A negative size ("-1000", checksum intact) moved the reader backwards: the same header for ever.
    if (!(size >= 0)) throw new ImportError(`${this.archiveName}: corrupt tar header at byte ${at} (size field)`);
    const type = String.fromCharCode(header[156]!);
    const prefix = readString(header, 345, 155);
    const baseName = readString(header, 0, 100);
    this.padding = Math.ceil(size / 512) * 512 - size;
    let sink: TarBody["sink"] = { kind: "skip" };
    if (type === "L" || type === "x") {
      sink = { kind: "meta", type, chunks: [] };
    } else if (type !== "g") {
      const raw = this.paxPath ?? this.longName ?? (prefix ? `${prefix}/${baseName}` : baseName);
      this.longName = undefined;
      this.paxPath = undefined;
      if (type === "0" || type === "\u0000" || type === "7") {
        const name = safeEntryName(this.archiveName, raw);
        if (!isJunk(name)) {
          this.budget.addEntry(this.archiveName);
          const reader = streamedReader(name);
          sink = reader ? { kind: "streamed", name, reader } : { kind: "held", name, chunks: [] };
        }
      }
    }
    this.body = { size, remaining: size, sink };
    if (size === 0) this.finishBody();
  }

  private bodyBytes(piece: Uint8Array): void {
    const body = this.body!;
    const { sink } = body;
    if (sink.kind === "streamed") {
      this.budget.addStreamedBytes(this.archiveName, piece.length);
      sink.reader.push(piece);
    } else {
      this.budget.addBytes(this.archiveName, piece.length);
      // Copied: a slice of the caller's buffer must not keep it alive, nor change with it.
      if (sink.kind !== "skip") sink.chunks.push(piece.slice());
    }
    body.remaining -= piece.length;
    this.offset += piece.length;
    if (body.remaining === 0) this.finishBody();
  }

  private finishBody(): void {
    const { sink, size } = this.body!;
    this.body = undefined;
    if (sink.kind === "held") this.entries.push({ name: sink.name, bytes: joined(sink.chunks, size) });
    else if (sink.kind === "streamed") this.entries.push({ name: sink.name, bytes: sink.reader.end() });
    else if (sink.kind === "meta") {
      const text = new TextDecoder().decode(joined(sink.chunks, size));
      if (sink.type === "L") {
        const nul = text.indexOf("\u0000");
        this.longName = nul === -1 ? text : text.slice(0, nul);
      } else {
        this.paxPath = /(?:^|\n)\d+ path=([^\n]*)\n/.exec(text)?.[1] ?? this.paxPath;
      }
    }
  }
}
