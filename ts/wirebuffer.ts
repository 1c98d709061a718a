// Wire bytes written into one growable buffer: the primitives (varints, fixed-width values, UTF-8,
// messages opened and closed with their length back-patched) that the streaming Writer and the
// generated encoders of plain objects (encoder.ts) are built on.
import { EncodeError } from "./errors.js";
import { lengthOf } from "./input.js";
import { isWellFormed, nodeText } from "./utf16.js";

const utf8 = new TextEncoder();

// A 64-bit value goes through these to reach its two 32-bit halves: BigInt arithmetic would
// allocate a BigInt per step. Storing wraps modulo 2^64, as BigInt.asUintN(64, v) does.
export const scratch64 = new BigInt64Array(1);
export const halves = new Uint32Array(scratch64.buffer); // [lo, hi] on little-endian hosts, which WASM needs anyway

/**
 * Strings up to this many UTF-16 units are encoded by a loop (about 1.6 ns a unit); longer ones by
 * TextEncoder.encodeInto, which needs a subarray: about 60 ns a call in Node, 450 in Chromium.
 * `npm run bench:browser -- gm1-proto3` shows it (two strings of 68 and 88 characters).
 */
const SHORT_STRING = nodeText ? 64 : 256;

/** The longest string whose UTF-8 (3 bytes a UTF-16 unit at most) has a one-byte length. */
const ONE_BYTE_LENGTH = 42;

/** The most bytes a buffer holds: lengths stay below 2^31, as the codec's. */
const MAX_BUFFER = 0x7fffffff;

/**
 * Not an API: the streaming Writer holds one privately, and the encoder of plain objects extends
 * it, its field writers being free functions (encoder.ts) that reach into it.
 */
export class WireBuffer {
  buf: Uint8Array;
  dv: DataView;
  pos = 0;

  constructor(initialSize = 1024) {
    this.buf = new Uint8Array(Math.max(16, initialSize));
    this.dv = new DataView(this.buf.buffer);
  }

  /** Bytes written so far. */
  get length(): number {
    return this.pos;
  }

  /**
   * Opens a length-prefixed body without a tag: returns where it starts, for join(). Its length is
   * assumed to fit one byte; join() moves the body when it does not.
   */
  fork(): number {
    this.ensure(1);
    return ++this.pos;
  }

  /** Tag t, then fork(), with one check for room. */
  taggedFork(t: number): number {
    this.ensure(6);
    const buf = this.buf;
    let pos = this.pos;
    while (t > 0x7f) {
      buf[pos++] = (t & 0x7f) | 0x80;
      t >>>= 7;
    }
    buf[pos] = t;
    return (this.pos = pos + 2);
  }

  /** Closes the body opened at `start` (fork()), writing its length in front of it; returns the length. */
  join(start: number): number {
    const n = this.pos - start;
    if (n < 0x80) {
      this.buf[start - 1] = n;
      return n;
    }
    const size = varintSize(n);
    this.ensure(size - 1);
    this.buf.copyWithin(start + size - 1, start, this.pos);
    this.pos += size - 1;
    putVarint(this.buf, start - 1, n);
    return n;
  }

  byte(b: number): void {
    this.ensure(1);
    this.buf[this.pos++] = b;
  }

  varint32(v: number): void {
    this.ensure(5);
    const buf = this.buf;
    while (v > 0x7f) {
      buf[this.pos++] = (v & 0x7f) | 0x80;
      v >>>= 7;
    }
    buf[this.pos++] = v;
  }

  /** An int32 as protobuf writes it: a negative one as its 64-bit sign extension, ten bytes. */
  int32Varint(v: number): void {
    if (v >= 0) {
      this.varint32(v);
      return;
    }
    halves[0] = v;
    halves[1] = 0xffffffff;
    this.varintHalves();
  }

  // The 64-bit value in `halves`, read here rather than passed in: a half of 2^30 or more is no
  // small integer, and passing it to a call V8 does not inline would allocate a HeapNumber.

  /** The varint of the unsigned 64-bit value in halves. */
  varintHalves(): void {
    this.ensure(10);
    const buf = this.buf;
    let lo = halves[0]!;
    let hi = halves[1]!;
    while (hi !== 0 || lo > 0x7f) {
      buf[this.pos++] = (lo & 0x7f) | 0x80;
      lo = ((lo >>> 7) | (hi << 25)) >>> 0;
      hi >>>= 7;
    }
    buf[this.pos++] = lo;
  }

  /** The varint of the zigzag encoding of the signed 64-bit value in halves. */
  zigzagHalves(): void {
    const lo = halves[0]!;
    const hi = halves[1]!;
    const sign = hi >> 31; // all ones for negative values
    halves[0] = (lo << 1) ^ sign;
    halves[1] = ((hi << 1) | (lo >>> 31)) ^ sign;
    this.varintHalves();
  }

  /** The 8 bytes of halves (little-endian). */
  halves64(): void {
    this.ensure(8);
    this.dv.setUint32(this.pos, halves[0]!, true);
    this.dv.setUint32(this.pos + 4, halves[1]!, true);
    this.pos += 8;
  }

  fixed32Bytes(v: number): void {
    this.ensure(4);
    this.dv.setUint32(this.pos, v, true);
    this.pos += 4;
  }

  floatBytes(v: number): void {
    this.ensure(4);
    this.dv.setFloat32(this.pos, v, true);
    this.pos += 4;
  }

  doubleBytes(v: number): void {
    this.ensure(8);
    this.dv.setFloat64(this.pos, v, true);
    this.pos += 8;
  }

  /** A length-prefixed UTF-8 string; false (and nothing written) when it holds a lone surrogate, which has no UTF-8 form. */
  utf8(s: string): boolean {
    const most = s.length * 3;
    const room = varintSize(most);
    this.ensure(room + most);
    const start = this.pos + room;
    let n: number;
    if (s.length <= SHORT_STRING) {
      n = encodeShort(s, this.buf, start);
      if (n < 0) return false;
    } else {
      if (!isWellFormed(s)) return false;
      n = utf8.encodeInto(s, this.buf.subarray(start, start + most)).written;
    }
    const need = varintSize(n);
    if (need < room) this.buf.copyWithin(this.pos + need, start, start + n);
    this.varint32(n);
    this.pos += n;
    return true;
  }

  /**
   * Tag t, then string s length-prefixed (utf8()); a short string after a one-byte tag, most
   * fields' strings, with one check for room.
   */
  stringField(t: number, s: string): boolean {
    const n = s.length;
    if (t > 0x7f || n > ONE_BYTE_LENGTH) {
      this.varint32(t);
      return this.utf8(s);
    }
    this.ensure(2 + n * 3);
    const buf = this.buf, pos = this.pos;
    const m = encodeShort(s, buf, pos + 2);
    if (m < 0) return false;
    buf[pos] = t;
    buf[pos + 1] = m;
    this.pos = pos + 2 + m;
    return true;
  }

  // (lengths by lengthOf: a subclass's length getter may say anything, and set() copies them all)

  /** Length-prefixed bytes. */
  lengthPrefixed(v: Uint8Array): void {
    this.varint32(lengthOf(v));
    this.raw(v);
  }

  /** Bytes as they are. */
  raw(v: Uint8Array): void {
    const n = lengthOf(v);
    this.ensure(n);
    this.buf.set(v, this.pos);
    this.pos += n;
  }

  ensure(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    if (this.pos + n > MAX_BUFFER) {
      throw new EncodeError("MESSAGE_TOO_LARGE", "", `encoded message is larger than the limit (${MAX_BUFFER} bytes)`);
    }
    let grown: Uint8Array;
    try {
      grown = new Uint8Array(Math.min(Math.max(this.buf.length * 2, this.pos + n), MAX_BUFFER));
    } catch {
      throw new EncodeError("OUT_OF_MEMORY", "", "the encoded message's buffer could not grow");
    }
    grown.set(this.buf.subarray(0, this.pos));
    this.buf = grown;
    this.dv = new DataView(grown.buffer);
  }
}

/**
 * The varint of uint32 x into buf at pos; returns the position after it. For runs written forward
 * only, five bytes reserved a value: a value under 2^14 takes one or two bytes without a branch on
 * which, both written and the position moved past what the value needs, so the byte after a
 * one-byte value is overwritten (never where bytes after it are kept, as a length patched in front
 * of a body). A branch there, on a run mixing both sizes, was a third of a map tile's encode
 * (npm run bench -- map-tile).
 */
export function putVarint32(buf: Uint8Array, pos: number, x: number): number {
  if (x < 0x4000) {
    const more = (0x7f - x) >>> 31; // 1 when x needs a second byte
    buf[pos] = (x & 0x7f) | (more << 7);
    buf[pos + 1] = x >>> 7;
    return pos + 1 + more;
  }
  while (x > 0x7f) {
    buf[pos++] = (x & 0x7f) | 0x80;
    x >>>= 7;
  }
  buf[pos] = x;
  return pos + 1;
}

/** The varint of uint32 x into buf at pos, its bytes only. */
function putVarint(buf: Uint8Array, pos: number, x: number): void {
  while (x > 0x7f) {
    buf[pos++] = (x & 0x7f) | 0x80;
    x >>>= 7;
  }
  buf[pos] = x;
}

export function varintSize(n: number): number {
  return n < 0x80 ? 1 : n < 0x4000 ? 2 : n < 0x200000 ? 3 : n < 0x10000000 ? 4 : 5;
}

/** UTF-8 of a string into buf at pos (room for 3 bytes per unit is there): the bytes written, or -1 at a lone surrogate. */
function encodeShort(s: string, buf: Uint8Array, pos: number): number {
  const n = s.length;
  let i = 0;
  for (; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0x80) break;
    buf[pos + i] = c;
  }
  if (i === n) return n; // ASCII, most strings
  const start = pos;
  pos += i;
  for (; i < n; i++) {
    let c = s.charCodeAt(i);
    if (c < 0x80) {
      buf[pos++] = c;
    } else if (c < 0x800) {
      buf[pos++] = 0xc0 | (c >> 6);
      buf[pos++] = 0x80 | (c & 0x3f);
    } else if (c >= 0xd800 && c <= 0xdfff) {
      const d = s.charCodeAt(i + 1); // NaN past the end
      if (c > 0xdbff || !(d >= 0xdc00 && d <= 0xdfff)) return -1;
      c = 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00);
      i++;
      buf[pos++] = 0xf0 | (c >> 18);
      buf[pos++] = 0x80 | ((c >> 12) & 0x3f);
      buf[pos++] = 0x80 | ((c >> 6) & 0x3f);
      buf[pos++] = 0x80 | (c & 0x3f);
    } else {
      buf[pos++] = 0xe0 | (c >> 12);
      buf[pos++] = 0x80 | ((c >> 6) & 0x3f);
      buf[pos++] = 0x80 | (c & 0x3f);
    }
  }
  return pos - start;
}
