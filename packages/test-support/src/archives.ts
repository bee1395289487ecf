/**
 * Archives built byte by byte for tests: tar (ustar, with lying sizes, prefixes and pax headers), zip
 * entries in a given order, and gzip and zip bombs of zeros that take milliseconds to build. Every
 * builder is deterministic: the same arguments always give the same bytes.
 */
import { gzipSync, strToU8, Zip, ZipDeflate } from "fflate";

const encode = (text: string) => strToU8(text);

export type TarEntry = {
  name: string;
  bytes?: Uint8Array;
  /** Type flag: "0" file (default), "5" directory, "L" GNU long name, "x" pax header… */
  type?: string;
  /** ustar prefix field, joined to the name with "/". */
  prefix?: string;
  /** Raw text of the size field, when it should lie (default: the octal length of bytes). */
  size?: string;
};

/** One 512-byte ustar header with a correct checksum, whatever its fields say. */
export function tarHeader(entry: TarEntry): Uint8Array {
  const header = new Uint8Array(512);
  const put = (offset: number, length: number, text: string) => header.set(encode(text).subarray(0, length), offset);
  put(0, 100, entry.name);
  put(100, 8, "0000644\0");
  put(108, 8, "0000000\0");
  put(116, 8, "0000000\0");
  put(124, 12, entry.size ?? `${(entry.bytes?.length ?? 0).toString(8).padStart(11, "0")}\0`);
  put(136, 12, "00000000000\0");
  put(156, 1, entry.type ?? "0");
  put(257, 8, "ustar\u000000");
  if (entry.prefix) put(345, 155, entry.prefix);
  header.fill(0x20, 148, 156);
  const sum = header.reduce((a, b) => a + b, 0);
  put(148, 8, `${sum.toString(8).padStart(6, "0")}\0 `);
  return header;
}

/** A tar archive (ustar) of the entries, each padded to 512 bytes, closed by two empty blocks. */
export function tar(entries: TarEntry[]): Uint8Array {
  const blocks: Uint8Array[] = [];
  for (const entry of entries) {
    blocks.push(tarHeader(entry));
    const bytes = entry.bytes ?? new Uint8Array(0);
    const padded = new Uint8Array(Math.ceil(bytes.length / 512) * 512);
    padded.set(bytes);
    blocks.push(padded);
  }
  blocks.push(new Uint8Array(1024));
  return concat(blocks);
}

/**
 * A zip archive of the entries, in order and by name as given: fflate's zipSync takes an object, so
 * an entry named "__proto__" sets its prototype there (and crashes it), and a repeated name is lost.
 */
export function zipEntries(entries: [name: string, bytes: Uint8Array][], level: 0 | 1 | 9 = 1): Uint8Array {
  const parts: Uint8Array[] = [];
  // Zip and ZipDeflate call back synchronously as data is pushed: the archive is whole on return.
  const archive = new Zip((error, chunk) => {
    if (error) throw error;
    parts.push(chunk);
  });
  for (const [name, bytes] of entries) {
    const file = new ZipDeflate(name, { level });
    archive.add(file);
    file.push(bytes, true);
  }
  archive.end();
  return concat(parts);
}

export function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let offset = 0;
  for (const p of parts) {
    out.set(p, offset);
    offset += p.length;
  }
  return out;
}

export const MiB = 1024 * 1024;
let zeroBlockCache: { gzip: Uint8Array; deflated: Uint8Array; crc: number; size: number } | undefined;

/** 8 MiB of zeros, gzipped once (~8 KiB): the brick of every bomb below. */
function zeroBlock() {
  if (!zeroBlockCache) {
    const size = 8 * MiB;
    const gzip = gzipSync(new Uint8Array(size), { level: 9 });
    // fflate writes a 10-byte gzip header (no name) and a trailer of CRC-32 and length.
    const trailer = new DataView(gzip.buffer, gzip.byteOffset + gzip.length - 8, 8);
    zeroBlockCache = { gzip, deflated: gzip.subarray(10, gzip.length - 8), crc: trailer.getUint32(0, true), size };
  }
  return zeroBlockCache;
}

/** Concatenated gzip members of zeros: gunzip reads them as one stream of `blocks` × 8 MiB. */
export function gzipOfZeros(blocks: number): Uint8Array {
  return concat(Array.from({ length: blocks }, () => zeroBlock().gzip));
}

/**
 * One gzip member inflating to `length` zeros (rounded up to 1 + 258·k), written bit by bit in
 * milliseconds: a fixed-Huffman block of one literal 0 and then "copy 258 bytes from 1 back", 13 bits
 * each. The trailer's CRC is left 0: every reader is stopped by its budget long before reaching it.
 */
export function gzipOfZerosOneMember(length: number): Uint8Array {
  const copies = Math.ceil((length - 1) / 258);
  const out = new Uint8Array(10 + Math.ceil((3 + 8 + copies * 13 + 7) / 8) + 8);
  out.set([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff]);
  let bit = 10 * 8;
  const bits = (value: number, n: number) => {
    for (let i = 0; i < n; i++, bit++) if ((value >> i) & 1) out[bit >> 3]! |= 1 << (bit & 7);
  };
  // Huffman codes go most significant bit first.
  const code = (value: number, n: number) => {
    for (let i = n - 1; i >= 0; i--, bit++) if ((value >> i) & 1) out[bit >> 3]! |= 1 << (bit & 7);
  };
  bits(1, 1); // last block
  bits(1, 2); // fixed Huffman codes
  code(0x30, 8); // literal 0
  for (let i = 0; i < copies; i++) {
    code(0xc5, 8); // length 258 (code 285)
    code(0, 5); // distance 1
  }
  code(0, 7); // end of block
  const trailer = new DataView(out.buffer, out.length - 8);
  trailer.setUint32(4, (1 + copies * 258) % 2 ** 32, true);
  return out;
}

/**
 * A zip of `entries` deflated entries of 8 MiB of zeros each, written by hand so the same compressed
 * block serves every entry; `declaredSize` makes the headers lie about the unpacked size.
 */
export function zipOfZeros(entries: number, declaredSize?: number): Uint8Array {
  const { deflated, crc, size } = zeroBlock();
  const locals: Uint8Array[] = [];
  const centrals: Uint8Array[] = [];
  let offset = 0;
  for (let i = 0; i < entries; i++) {
    const name = encode(`zeros-${i}.txt`);
    const local = new DataView(new ArrayBuffer(30));
    local.setUint32(0, 0x04034b50, true);
    local.setUint16(4, 20, true);
    local.setUint16(8, 8, true); // deflate
    local.setUint16(12, 0x21, true); // 1980-01-01
    local.setUint32(14, crc, true);
    local.setUint32(18, deflated.length, true);
    local.setUint32(22, declaredSize ?? size, true);
    local.setUint16(26, name.length, true);
    const central = new DataView(new ArrayBuffer(46));
    central.setUint32(0, 0x02014b50, true);
    central.setUint16(4, 20, true);
    central.setUint16(6, 20, true);
    central.setUint16(10, 8, true);
    central.setUint16(14, 0x21, true);
    central.setUint32(16, crc, true);
    central.setUint32(20, deflated.length, true);
    central.setUint32(24, declaredSize ?? size, true);
    central.setUint16(28, name.length, true);
    central.setUint32(42, offset, true);
    locals.push(new Uint8Array(local.buffer), name, deflated);
    centrals.push(new Uint8Array(central.buffer), name);
    offset += 30 + name.length + deflated.length;
  }
  const directory = concat(centrals);
  const end = new DataView(new ArrayBuffer(22));
  end.setUint32(0, 0x06054b50, true);
  end.setUint16(8, entries, true);
  end.setUint16(10, entries, true);
  end.setUint32(12, directory.length, true);
  end.setUint32(16, offset, true);
  return concat([...locals, directory, new Uint8Array(end.buffer)]);
}

/** Deterministic pseudo-random bytes (xorshift32): "random" input that is the same on every run. */
export function noise(length: number, seed = 0x9e3779b9): Uint8Array {
  const out = new Uint8Array(length);
  let x = seed >>> 0 || 1;
  for (let i = 0; i < length; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out[i] = x & 0xff;
  }
  return out;
}

/** "<length> key=value\n", the length counting the whole record, its own digits included. */
export function paxRecord(key: string, value: string): string {
  const rest = ` ${key}=${value}\n`;
  let length = rest.length + 1;
  while (`${length}${rest}`.length !== length) length += 1;
  return `${length}${rest}`;
}
