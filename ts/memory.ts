// Typed arrays over the WASM linear memory. Growth replaces memory.buffer and detaches every array
// made over the old one, so the runtime calls sync() after each call into WASM that can allocate;
// getters never cache arrays of their own.

import { EMPTY_BYTES, lengthOf } from "./input.js";
import { nodeText } from "./utf16.js";

// (ignoreBOM: a leading U+FEFF of a protobuf string is text, which TextDecoder would drop by default)
const utf8 = new TextDecoder("utf-8", { ignoreBOM: true });

// In Node, Buffer#utf8Slice decodes with a smaller fixed cost than TextDecoder (about 60 ns against
// 90 ns a call, measured on Node 20); browsers have no Buffer and use TextDecoder.
interface Utf8Slicer {
  utf8Slice(start: number, end: number): string;
}
const NodeBuffer = (globalThis as unknown as { Buffer?: { from(b: ArrayBuffer): Utf8Slicer } }).Buffer;

/**
 * ASCII strings up to this many bytes are built in JS; longer or non-ASCII ones go to Buffer#utf8Slice
 * (Node: about 60 ns a call, which pays from about 12 bytes) or TextDecoder (browsers: about 230 ns
 * a call in Chromium whatever the length up to 128 bytes; the JS build costs about 1.9 ns a byte
 * there, and pays up to about 110). Measured per length against each, in Chromium 156 and Node 24;
 * `npm run bench:browser` shows the effect on whole messages.
 */
export const SHORT_STRING = nodeText ? 12 : 112;

/** The string of the len bytes at p (at most SHORT_STRING) if they are all ASCII, built in JS; else undefined. */
export function shortAscii(m: Uint8Array, p: number, len: number): string | undefined {
  if (len > 16) return asciiCodes(m, p, len);
  let bits = 0;
  for (let i = p, end = p + len; i < end; i++) bits |= m[i]!;
  return bits < 0x80 ? ascii(m, p, len) : undefined;
}

export class Memory {
  buffer!: ArrayBuffer;
  u8!: Uint8Array;
  i32!: Int32Array;
  u32!: Uint32Array;
  f32!: Float32Array;
  f64!: Float64Array;
  i64!: BigInt64Array;
  u64!: BigUint64Array;
  private slicer: Utf8Slicer | undefined;

  constructor(readonly memory: WebAssembly.Memory) {
    this.refresh();
  }

  sync(): void {
    // Growth detaches the old buffer, which empties every array over it: checking a length is far
    // cheaper than reading memory.buffer (an API call, ~15 ns in V8) after every call into WASM.
    if (this.u8.length === 0) this.refresh();
  }

  /**
   * Copies the bytes of v to p. `at` and `n` are v's byteOffsetOf() and lengthOf() read before p
   * was allocated: if that allocation grew memory it detached every array over the old buffer, so a
   * v now empty was an alias of memory, and its bytes are copied from where it was.
   */
  copyIn(v: Uint8Array, at: number, n: number, p: number): void {
    if (lengthOf(v) === n) this.u8.set(v, p);
    else this.u8.copyWithin(p, at, at + n);
  }

  private refresh(): void {
    // Everything made first, then stored with u8 last: a call that throws on the way (the JS stack
    // running out inside a deeply nested callback) leaves u8 detached, so the next sync() refreshes
    // again. (Found by review: the Buffer that decodes strings was left over the detached buffer,
    // and every later long or non-ASCII string read as "".)
    const b = this.memory.buffer;
    const slicer = NodeBuffer?.from(b);
    const i32 = new Int32Array(b), u32 = new Uint32Array(b), f32 = new Float32Array(b), f64 = new Float64Array(b);
    const i64 = new BigInt64Array(b), u64 = new BigUint64Array(b), u8 = new Uint8Array(b);
    this.buffer = b;
    this.slicer = slicer;
    this.i32 = i32;
    this.u32 = u32;
    this.f32 = f32;
    this.f64 = f64;
    this.i64 = i64;
    this.u64 = u64;
    this.u8 = u8;
  }

  /**
   * ASCII text the runtime copied into memory at [sourceStart, sourceEnd) (ProtoJSON being read):
   * strings inside it are slices of the JS string, not decoded again.
   */
  private sourceText = "";
  private sourceStart = 0;
  private sourceEnd = 0;

  /** Strings read from [start, start + text.length) are text's own until clearSource(). */
  setSource(text: string, start: number): void {
    this.sourceText = text;
    this.sourceStart = start;
    this.sourceEnd = start + text.length;
  }

  clearSource(): void {
    this.sourceText = "";
    this.sourceStart = this.sourceEnd = 0;
  }

  /** UTF-8 at [ptr, ptr+len); malformed bytes become U+FFFD. */
  str(ptr: number, len: number): string {
    if (len === 0) return "";
    if (ptr + len <= this.sourceEnd && ptr >= this.sourceStart) return this.sourceText.slice(ptr - this.sourceStart, ptr - this.sourceStart + len);
    if (len <= SHORT_STRING) {
      const s = shortAscii(this.u8, ptr, len);
      if (s !== undefined) return s;
    }
    return this.decodeUtf8(ptr, len);
  }

  private decodeUtf8(ptr: number, len: number): string {
    return this.slicer ? this.slicer.utf8Slice(ptr, ptr + len) : utf8.decode(this.u8.subarray(ptr, ptr + len));
  }

  /** A string slot (data pointer, length) at addr. */
  strAt(addr: number): string {
    const w = addr >>> 2;
    return this.str(this.u32[w]!, this.u32[w + 1]!);
  }

  /** A copy of a bytes slot at addr, safe to keep. */
  bytesAt(addr: number): Uint8Array {
    const w = addr >>> 2;
    const p = this.u32[w]!;
    const n = this.u32[w + 1]!;
    // An empty field is common (proto3 leaves bytes unset) and an empty slice() costs ~190 ns in
    // V8 (an off-heap allocation): every empty field is one frozen empty array, which holds nothing.
    return n === 0 ? EMPTY_BYTES : this.u8.slice(p, p + n);
  }
}

const char = String.fromCharCode;

/** Short ASCII strings: fromCharCode with the codes as arguments beats any decoder call (measured). */
function ascii(m: Uint8Array, p: number, len: number): string {
  switch (len) {
    case 1: return char(m[p]!);
    case 2: return char(m[p]!, m[p + 1]!);
    case 3: return char(m[p]!, m[p + 1]!, m[p + 2]!);
    case 4: return char(m[p]!, m[p + 1]!, m[p + 2]!, m[p + 3]!);
    case 5: return char(m[p]!, m[p + 1]!, m[p + 2]!, m[p + 3]!, m[p + 4]!);
    case 6: return char(m[p]!, m[p + 1]!, m[p + 2]!, m[p + 3]!, m[p + 4]!, m[p + 5]!);
    case 7: return char(m[p]!, m[p + 1]!, m[p + 2]!, m[p + 3]!, m[p + 4]!, m[p + 5]!, m[p + 6]!);
    case 8: return char(m[p]!, m[p + 1]!, m[p + 2]!, m[p + 3]!, m[p + 4]!, m[p + 5]!, m[p + 6]!, m[p + 7]!);
    default: return char(m[p]!, m[p + 1]!, m[p + 2]!, m[p + 3]!, m[p + 4]!, m[p + 5]!, m[p + 6]!, m[p + 7]!) + ascii(m, p + 8, len - 8);
  }
}

/** One array of char codes per length, reused: fromCharCode.apply on an array of exactly the string's length. */
const codeArrays: number[][] = [];

/** The string of len bytes at p if they are all ASCII, else undefined (the copy and the check in one pass). */
function asciiCodes(m: Uint8Array, p: number, len: number): string | undefined {
  let codes = codeArrays[len];
  if (codes === undefined) codes = codeArrays[len] = new Array<number>(len).fill(0);
  let bits = 0;
  for (let i = 0; i < len; i++) {
    const c = m[p + i]!;
    bits |= c;
    codes[i] = c;
  }
  return bits < 0x80 ? char.apply(null, codes) : undefined;
}
