// Wire bytes read straight into plain objects by code generated per message (codegen/emit/decode.ts):
// no copy into linear memory, no records, no WASM. What the generated decoders share: the input and
// the position in it, the limits, the plain-object budget, and the readers of values too long to
// inline. Errors are the codec's, at the same offsets with the same field paths (the compiled
// decoders, codegen/wasm/decoder.ts, are the reference: test/functions.test.ts compares them).
import { DecodeError, stackOverflow, type ErrorCode } from "./errors.js";
import { bufferOf, byteOffsetOf, bytesOf, detachedInput, lengthOf, type BinaryInput } from "./input.js";
import { safeNumber } from "./plain.js";
import { EMPTY_BYTES } from "./input.js";
import { SHORT_STRING, shortAscii } from "./memory.js";
import { assertInitialized, budgetCap, limits, MAX_INPUT, partially, takePartial } from "./limits.js";
import { STATUS_MAX_PATH } from "./abi.js";

/**
 * An error on its way out of nested decoders: each adds the field it was reading (its name and the
 * element, -1 for none), innermost first; the top-level decode turns it into a DecodeError.
 */
export class Failure {
  readonly frames: string[] = [];
  constructor(readonly code: ErrorCode, readonly offset: number) {}
}

/** Thrown by a generated decoder for what it leaves to the records (reread()). */
const REREAD = Symbol("reread");

/**
 * A generated decoder of one message: its fields from r.p up to `end`, into `into` when given (a
 * merge), `depth` levels still allowed below it; a group's up to its end tag, `group` (else -1).
 */
export type ReadMessage<T> = (r: WireReader, end: number, depth: number, into: T | undefined, group: number) => T;

// (ignoreBOM: a leading U+FEFF of a protobuf string is text, which TextDecoder would drop by default)
const utf8 = new TextDecoder("utf-8", { ignoreBOM: true });
const utf8Strict = new TextDecoder("utf-8", { ignoreBOM: true, fatal: true });
const NodeBuffer = (globalThis as unknown as { Buffer?: { prototype: { utf8Slice(this: Uint8Array, start: number, end: number): string } } }).Buffer;
const utf8Slice = NodeBuffer?.prototype.utf8Slice;

// the bits of 64-bit values, assembled in 32-bit halves and read back as one BigInt
const halves = new Int32Array(2);
const signed64 = new BigInt64Array(halves.buffer);
const unsigned64 = new BigUint64Array(halves.buffer);
const bytes8 = new Uint8Array(8);
const float64 = new Float64Array(bytes8.buffer);
const float32 = new Float32Array(bytes8.buffer, 0, 1);

// long packed runs of doubles and floats: copied into an aligned chunk a slice at a time, read from it
const CHUNK_BYTES = 4096;
const chunk64 = new Float64Array(CHUNK_BYTES / 8), chunk32 = new Float32Array(chunk64.buffer), chunkBytes = new Uint8Array(chunk64.buffer);

export class WireReader {
  /** The input. */
  b: Uint8Array = EMPTY_BYTES;
  /** Where the next read starts. */
  p = 0;
  /** The high 32 bits of the last varint read (varint() returns the low ones). */
  hi = 0;
  maxElements = 0;
  /** What the plain objects being made may still take (ts/layout.ts plainWeight per object). */
  budget = 0;
  /** The input's buffer and offset, found (by the engine's getters) when a view of a part of it is first needed. */
  private buf: ArrayBufferLike | undefined = undefined;
  private base = 0;
  /** Set when a 64-bit value read as a number was past 2^53: the result is searched for it at the end. */
  unsafe = false;
  /** The depth of the message whose required fields may be absent (partially(): the top one), else -1. */
  partial = -1;

  /** Starts reading `bytes`. */
  reset(bytes: Uint8Array, maxElements: number, budget: number): void {
    this.b = bytes;
    this.p = 0;
    this.buf = undefined;
    this.maxElements = maxElements;
    this.budget = budget;
    this.unsafe = false;
    this.partial = -1;
    if (this.pending.size !== 0) this.pending.clear(); // (clear() makes a new table even when empty)
  }

  /**
   * n bytes of the input from p, as a Uint8Array of the engine's own (the input's slice(),
   * subarray() or constructor, even own properties of a plain Uint8Array, would run the caller's code).
   */
  view(p: number, n: number): Uint8Array {
    if (this.buf === undefined) {
      this.buf = bufferOf(this.b);
      this.base = byteOffsetOf(this.b);
    }
    return new Uint8Array(this.buf, this.base + p, n);
  }

  /**
   * A 64-bit value read as a number (--int64 number, jstype JS_NUMBER): past 2^53 it is kept as a
   * marker, and the decode fails at its end if one is still in the result (as the readers of records
   * fail: a value a later one replaced does not count, nor does one before an error in the input).
   */
  safe64(v: bigint, field: string): number {
    const n = Number(v);
    if (Number.isSafeInteger(n)) return n;
    this.unsafe = true;
    return new Unsafe(v, field) as unknown as number;
  }

  /** Entries counted into maps that hold fewer keys (a key came again), for merges into them. */
  private readonly entryCounts = new WeakMap<object, number>();

  /** The entries a map's plain object was decoded from so far: its keys, unless a key came again. */
  entries(map: object): number {
    return this.entryCounts.get(map) ?? Object.keys(map).length;
  }

  /** Records that `map` came from `count` entries (more than its keys). */
  counted(map: object, count: number): void {
    this.entryCounts.set(map, count);
  }

  fail(code: ErrorCode, at: number): never {
    throw new Failure(code, at);
  }

  /**
   * Leaves the decode to the records: a packed run of a closed enum with a value outside it (whose
   * unknown field the codec makes in its arena, where only it knows how runs of them join: see
   * codegen/emit/decode.ts rereads()).
   */
  reread(): never {
    throw REREAD;
  }

  /** A required field `name` absent at the end of its message (r.p): MISSING_REQUIRED there, naming it. */
  missing(name: string): never {
    const e = new Failure("MISSING_REQUIRED", this.p);
    e.frames.push(name);
    throw e;
  }

  /** The error e of a field's value, with the field (`name`, element `index` or -1) added to its path. */
  frame(e: unknown, name: string, index: number): unknown {
    if (e instanceof Failure) e.frames.push(index >= 0 ? `${name}[${index}]` : name);
    return e;
  }

  /** A plain object of `weight` bytes charged to the budget (as plain.ts charge()). */
  charge(weight: number): void {
    if ((this.budget -= weight) < 0) throw new DecodeError("MEMORY_BUDGET", 0, "plain objects");
  }

  /**
   * A varint at p (before end): its low 32 bits returned, the high ones in `hi`; TRUNCATED or
   * VARINT_OVERLONG (past 10 bytes, or a tenth byte above 1) at its start.
   */
  varint(end: number): number {
    const b = this.b, start = this.p;
    let p = start, lo = 0, hi = 0;
    for (let shift = 0; ; shift += 7) {
      if (p >= end) this.fail("TRUNCATED", start);
      const c = b[p++]!;
      if (shift === 63 && c > 1) this.fail("VARINT_OVERLONG", start);
      if (shift < 28) lo |= (c & 0x7f) << shift;
      else if (shift === 28) {
        lo |= c << 28;
        hi = (c & 0x7f) >>> 4;
      } else hi |= (c & 0x7f) << (shift - 32);
      if (c < 0x80) break; // (a tenth byte that goes on is above 1: overlong above)
    }
    this.p = p;
    this.hi = hi;
    return lo;
  }

  /** A tag of more than one byte (the generated loop reads one-byte tags inline; p is past the first): up to five bytes, the fifth at most 0x0f. */
  tag(end: number): number {
    const b = this.b, start = this.p - 1;
    let p = start, v = 0;
    for (let shift = 0; ; shift += 7) {
      if (p >= end) this.fail("TRUNCATED", start);
      const c = b[p++]!;
      if (shift === 28 && c > 0x0f) this.fail("VARINT_OVERLONG", start);
      v |= (c & 0x7f) << shift;
      if (c < 0x80) break;
    }
    this.p = p;
    return v >>> 0;
  }

  /** A length prefix at p: the length, p at the body; LENGTH_OUT_OF_BOUNDS at the body when it passes end. */
  len(end: number): number {
    const p = this.p;
    let n = this.b[p]!;
    if (p < end && n < 0x80) this.p = p + 1;
    else {
      n = this.varint(end);
      if (this.hi !== 0) this.fail("LENGTH_OUT_OF_BOUNDS", this.p);
      n >>>= 0;
    }
    if (n > end - this.p) this.fail("LENGTH_OUT_OF_BOUNDS", this.p);
    return n;
  }

  /** The 64 bits of the last varint read (its low half `lo`), signed. */
  int64(lo: number): bigint {
    halves[0] = lo;
    halves[1] = this.hi;
    return signed64[0]!;
  }

  uint64(lo: number): bigint {
    halves[0] = lo;
    halves[1] = this.hi;
    return unsigned64[0]!;
  }

  sint64(lo: number): bigint {
    // zigzag: (v >>> 1) ^ -(v & 1), in halves
    const hi = this.hi, neg = -(lo & 1);
    halves[0] = ((lo >>> 1) | (hi << 31)) ^ neg;
    halves[1] = (hi >>> 1) ^ neg;
    return signed64[0]!;
  }

  /** Whether the last varint read (its low half `lo`) is not zero: a bool's 64 bits. */
  bool(lo: number): boolean {
    return lo !== 0 || this.hi !== 0;
  }

  /** n bytes at p, checked: TRUNCATED at p when fewer are left before end. */
  private fixed(n: number, end: number): number {
    const p = this.p;
    if (end - p < n) this.fail("TRUNCATED", p);
    this.p = p + n;
    return p;
  }

  fixed32(end: number): number {
    const b = this.b, p = this.fixed(4, end);
    return (b[p]! | (b[p + 1]! << 8) | (b[p + 2]! << 16) | (b[p + 3]! << 24)) >>> 0;
  }

  sfixed32(end: number): number {
    return this.fixed32(end) | 0;
  }

  /** A fixed64's two halves into the scratch words. */
  private fixed64At(end: number): void {
    const b = this.b, p = this.fixed(8, end);
    halves[0] = b[p]! | (b[p + 1]! << 8) | (b[p + 2]! << 16) | (b[p + 3]! << 24);
    halves[1] = b[p + 4]! | (b[p + 5]! << 8) | (b[p + 6]! << 16) | (b[p + 7]! << 24);
  }

  fixed64(end: number): bigint {
    this.fixed64At(end);
    return unsigned64[0]!;
  }

  sfixed64(end: number): bigint {
    this.fixed64At(end);
    return signed64[0]!;
  }

  double(end: number): number {
    const b = this.b, p = this.fixed(8, end);
    // byte by byte into an aligned scratch (a DataView made per decode costs more)
    bytes8[0] = b[p]!; bytes8[1] = b[p + 1]!; bytes8[2] = b[p + 2]!; bytes8[3] = b[p + 3]!;
    bytes8[4] = b[p + 4]!; bytes8[5] = b[p + 5]!; bytes8[6] = b[p + 6]!; bytes8[7] = b[p + 7]!;
    return float64[0]!;
  }

  /**
   * The packed run of doubles (`width` 8) or floats (4) from p to stop (packed() checked it),
   * appended to `to`. Runs past 64 bytes are copied into an aligned chunk a slice at a time and read
   * from it: a value assembled byte by byte took 3x the records' time on 1M doubles in Chromium
   * (npm run bench:browser -- packed-double).
   */
  floats(stop: number, to: number[], width: number): number[] {
    if (stop - this.p <= 64) {
      if (width === 8) while (this.p < stop) to.push(this.double(stop));
      else while (this.p < stop) to.push(this.float(stop));
      return to;
    }
    let k = to.length;
    const out = this.extend(to, (stop - this.p) / width);
    for (let p = this.p; p < stop; ) {
      const n = Math.min(stop - p, CHUNK_BYTES), count = n / width;
      chunkBytes.set(this.view(p, n));
      if (width === 8) for (let i = 0; i < count; i++) out[k++] = chunk64[i]!;
      else for (let i = 0; i < count; i++) out[k++] = chunk32[i]!;
      p += n;
    }
    this.p = stop;
    return out;
  }

  /**
   * `to` with room for `count` more elements at its end, for the caller to store by index: a new
   * array made at its whole length, to's elements copied. A long packed run appended one push at a
   * time costs 3-4x (1M values: about 20 ms against 5 in Node 24, the array growing in steps).
   */
  extend<T>(to: T[], count: number): T[] {
    const n = to.length, out = new Array<T>(n + count);
    for (let i = 0; i < n; i++) out[i] = to[i]!;
    return out;
  }

  /** The varints of the run from p to stop: its bytes that end one. */
  count(p: number, stop: number): number {
    const b = this.b;
    let count = 0;
    for (let i = p; i < stop; i++) if (b[i]! < 0x80) count++;
    return count;
  }

  float(end: number): number {
    const b = this.b, p = this.fixed(4, end);
    bytes8[0] = b[p]!; bytes8[1] = b[p + 1]!; bytes8[2] = b[p + 2]!; bytes8[3] = b[p + 3]!;
    return float32[0]!;
  }

  /** A string field's value at p (length-prefixed), its UTF-8 checked when `check`: INVALID_UTF8 at the body. */
  string(end: number, check: boolean): string {
    const n = this.len(end);
    const b = this.b, p = this.p;
    this.p = p + n;
    if (n === 0) return "";
    if (n <= SHORT_STRING) {
      const s = shortAscii(b, p, n);
      if (s !== undefined) return s;
    } else if (check && utf8Slice !== undefined) {
      // Node: ASCII needs no check, and Buffer#utf8Slice costs less than a TextDecoder call
      let bits = 0;
      for (let i = p, e = p + n; i < e; i++) bits |= b[i]!;
      if (bits < 0x80) return utf8Slice.call(b, p, p + n);
    }
    if (check) {
      try {
        return utf8Strict.decode(this.view(p, n));
      } catch {
        return this.fail("INVALID_UTF8", p);
      }
    }
    return utf8Slice !== undefined ? utf8Slice.call(b, p, p + n) : utf8.decode(this.view(p, n));
  }

  /** A bytes field's value at p: a copy (one frozen empty array for all empty ones, as memory.ts bytesAt). */
  bytes(end: number): Uint8Array {
    const n = this.len(end), p = this.p;
    this.p = p + n;
    if (n === 0) return EMPTY_BYTES;
    const out = new Uint8Array(n);
    this.copy(p, n, out, 0);
    return out;
  }

  /** n bytes of the input from p into out at `at`: short ones by a loop (a view per copy costs more). */
  private copy(p: number, n: number, out: Uint8Array, at: number): void {
    if (n <= 16) for (let i = 0, b = this.b; i < n; i++) out[at + i] = b[p + i]!;
    else out.set(this.view(p, n), at);
  }

  /**
   * A packed run at p of elements `width` bytes wide (0: varints): its end, after the codec's checks
   * against an array of `size` elements: PACKED_LENGTH (fixed widths that do not divide it) or
   * TRUNCATED (varints not ending on a terminator) and TOO_MANY_ELEMENTS, at the run.
   */
  packed(end: number, width: number, size: number, weight: number): number {
    const n = this.len(end), p = this.p, stop = p + n;
    if (n === 0) return stop;
    let count: number;
    if (width !== 0) {
      if (n % width !== 0) this.fail("PACKED_LENGTH", p);
      count = n / width;
    } else {
      if (this.b[stop - 1]! >= 0x80) this.fail("TRUNCATED", stop);
      count = this.count(p, stop);
    }
    if (count > this.maxElements - size) this.fail("TOO_MANY_ELEMENTS", p);
    this.charge(count * weight);
    return stop;
  }

  /**
   * A packed run of varints at p, for an array of `size` elements: its end, after packed()'s checks
   * but its budget, which the caller charges for the elements it adds. The elements are counted only
   * when the run's bytes could pass maxElements (a second pass over every byte: a vector tile's
   * geometry took a fifth of its decode).
   */
  packedVarints(end: number, size: number): number {
    const n = this.len(end), p = this.p, stop = p + n;
    if (n === 0) return stop;
    const b = this.b;
    if (b[stop - 1]! >= 0x80) this.fail("TRUNCATED", stop);
    if (n > this.maxElements - size && this.count(p, stop) > this.maxElements - size) this.fail("TOO_MANY_ELEMENTS", p);
    return stop;
  }

  /** One more element of an array of `size`, at the field starting at `at`: TOO_MANY_ELEMENTS there past maxElements. */
  room(size: number, at: number, weight: number): void {
    if (size >= this.maxElements) this.fail("TOO_MANY_ELEMENTS", at);
    this.charge(weight);
  }

  /**
   * A field nothing reads, its tag (at `at`) read: skipped, p past it. Field number 0, wire types 6
   * and 7 and end-group tags are errors at the field; groups are skipped to their end tag, `depth`
   * levels allowed below.
   */
  skipField(tag: number, at: number, end: number, depth: number): void {
    if (tag < 8) this.fail("INVALID_FIELD_NUMBER", at);
    const wt = tag & 7;
    if (wt === 4) this.fail("UNMATCHED_END_GROUP", at);
    if (wt > 5) this.fail("INVALID_WIRE_TYPE", at);
    this.skip(wt, tag >>> 3, end, depth);
  }

  /**
   * A field the message does not read (skipField()), added to its list of runs of unknown fields
   * (returned): one run per stretch of them, each counted against maxElements as the codec counts
   * them (TOO_MANY_ELEMENTS at the field that starts one too many).
   */
  unknown(tag: number, at: number, end: number, depth: number, runs: number[] | undefined): number[] {
    this.skipField(tag, at, end, depth);
    return this.keep(at, runs);
  }

  /** The field from `at` to p, read (a closed enum's value outside it), added to the runs of unknown fields as unknown() adds one. */
  keep(at: number, runs: number[] | undefined): number[] {
    if (runs === undefined) runs = [];
    else if (runs[runs.length - 1] === at) {
      runs[runs.length - 1] = this.p;
      return runs;
    }
    if (runs.length >>> 1 >= this.maxElements) this.fail("TOO_MANY_ELEMENTS", at);
    this.charge(32); // (a run's bytes are the input's: it holds no more than them)
    runs.push(at, this.p);
    return runs;
  }

  /** Messages of this decode with unknown fields, and their runs: copied into `$unknown` once the decode succeeds. */
  private readonly pending = new Map<object, number[]>();

  /** A message's runs of unknown fields so far in this decode (a merge goes on from them). */
  unknownOf(message: object): number[] | undefined {
    return this.pending.size === 0 ? undefined : this.pending.get(message);
  }

  /**
   * Records a message's runs of unknown fields (its `$unknown` is made at the end of the decode:
   * merge by merge it was copied again and again); `replaced`, the object a merge made it from, has none.
   */
  unknownFields(message: object, runs: number[], replaced?: object): void {
    if (replaced !== undefined) this.pending.delete(replaced);
    this.pending.set(message, runs);
  }

  /** The decode succeeded: each message's `$unknown`, its runs copied out of the input once. */
  settle(): void {
    if (this.pending.size === 0) return;
    for (const [message, runs] of this.pending) {
      let size = 0;
      for (let i = 0; i < runs.length; i += 2) size += runs[i + 1]! - runs[i]!;
      const out = new Uint8Array(size);
      for (let i = 0, at = 0; i < runs.length; i += 2) {
        const from = runs[i]!, n = runs[i + 1]! - from;
        this.copy(from, n, out, at);
        at += n;
      }
      (message as { $unknown?: Uint8Array }).$unknown = out;
    }
    this.pending.clear();
  }

  /** A value of wire type wt (0, 1, 2, 3 or 5) at p skipped; a group's fields `depth` levels deep, the group itself an error at 0. */
  private skip(wt: number, number: number, end: number, depth: number): void {
    switch (wt) {
      case 0: this.varint(end); return;
      case 1: this.fixed(8, end); return;
      case 5: this.fixed(4, end); return;
      case 2: {
        const n = this.len(end); // (before p is read: len() moves it)
        this.p += n;
        return;
      }
    }
    // a group: its fields to its end tag
    if (depth <= 0) this.fail("DEPTH_LIMIT", this.p);
    for (;;) {
      if (this.p >= end) this.fail("UNTERMINATED_GROUP", this.p);
      const start = this.p++;
      const tag = this.tag(end);
      if (tag < 8) this.fail("INVALID_FIELD_NUMBER", start);
      const inner = tag & 7;
      if (inner === 4) {
        if (tag >>> 3 === number) return;
        this.fail("UNMATCHED_END_GROUP", start);
      }
      if (inner > 5) this.fail("INVALID_WIRE_TYPE", start);
      this.skip(inner, tag >>> 3, end, depth - 1);
    }
  }
}

/** The reader of decodes: one at a time (nothing a decoder calls runs the caller's code, but setters on Object.prototype: see readMessage). */
const reader = new WireReader();

/**
 * A message's bytes as a plain object, read by its generated decoder `read`: the input checks and
 * limits of decode() (maxMessageSize, maxDepth, maxElements, the memory budget of plain objects),
 * errors as DecodeError with the path from `typeName`. What `read` leaves to them (reread()), and
 * where the JS stack runs out before maxDepth, `records` decodes instead (the message type's decode
 * through records); without them the second is DEPTH_LIMIT. Inside partially(), the top message's
 * required fields may be absent (and so through `records`).
 */
export function readMessage<T>(typeName: string, read: ReadMessage<T>, input: BinaryInput, records?: () => T): T {
  const partial = takePartial(); // (first: an operation that fails still spends it)
  const bytes = bytesOf(input, typeName, "decode");
  const size = lengthOf(bytes);
  if (size === 0) {
    const e = detachedInput(bytes, 0);
    if (e !== undefined) throw e;
  }
  assertInitialized();
  if (size > MAX_INPUT) throw new DecodeError("MESSAGE_TOO_LARGE", 0, "");
  if (size > limits.maxMessageSize) throw new DecodeError("MESSAGE_TOO_LARGE", 0, typeName);
  // (a decode started from inside another, by a setter on Object.prototype a map key reached, reads with a reader of its own)
  const r = reader.b === EMPTY_BYTES ? reader : new WireReader();
  r.reset(bytes, limits.maxElements, budgetCap(0, limits.maxAmplification, size));
  if (partial) r.partial = limits.maxDepth;
  try {
    const message = read(r, size, limits.maxDepth, undefined, -1);
    r.settle();
    if (r.unsafe) checkSafe(message);
    return message;
  } catch (e) {
    if (e === REREAD || stackOverflow(e)) {
      r.reset(EMPTY_BYTES, 0, 0);
      if (records !== undefined) return partial ? partially(records) : records();
      if (e === REREAD) throw new Error(`hppproto: ${typeName}'s generated decoder left a decode to records it was not given`);
      throw new DecodeError("DEPTH_LIMIT", 0, typeName); // (as the codec's decodes say it)
    }
    if (!(e instanceof Failure)) throw e;
    // the outermost frames, as many as the codec's Status keeps, and "…" for the rest as it says it
    let path = typeName;
    const last = Math.max(0, e.frames.length - STATUS_MAX_PATH);
    for (let i = e.frames.length - 1; i >= last; i--) path += `.${e.frames[i]}`;
    if (last > 0) path += ".…";
    throw new DecodeError(e.code, e.offset, path);
  } finally {
    r.reset(EMPTY_BYTES, 0, 0); // (the input is not kept alive)
  }
}

/** A 64-bit value past 2^53 that the reader of a number form met (WireReader.safe64). */
class Unsafe {
  constructor(readonly value: bigint, readonly field: string) {}
}

/** Throws for the first Unsafe left in a decoded message, in the order the readers of records read fields (plain.ts safeNumber's error). */
function checkSafe(value: unknown): void {
  if (value instanceof Unsafe) safeNumber(value.value, value.field);
  if (typeof value !== "object" || value === null || value instanceof Uint8Array) return;
  if (Array.isArray(value)) for (const v of value) checkSafe(v);
  else for (const k of Object.keys(value)) checkSafe((value as Record<string, unknown>)[k]);
}

/**
 * A message type's decode() through its generated decoder (generated code's `decode` part, so that
 * only programs with generated decoders carry this module): readMessage() with the records given.
 */
export function readerOf<T>(typeName: string, read: ReadMessage<T>): (input: BinaryInput, records: () => T) => T {
  return (input, records) => readMessage(typeName, read, input, records);
}

/** What generated code's decodeX is when its message has a generated decoder: readMessage() of it (generated code's, not an API). */
export function readFunction<T>(typeName: string, read: ReadMessage<T>, records?: (input: BinaryInput) => T): (input: BinaryInput) => T {
  return records === undefined ? (input) => readMessage(typeName, read, input) : (input) => readMessage(typeName, read, input, () => records(input));
}
