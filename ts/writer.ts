// The streaming writer: protobuf wire format written field by field into one reusable buffer, for
// hand-rolled or very large messages (the protozero model). No intermediate objects: nested
// messages are opened with fork() and closed with join(), which back-patches their length.
import { EncodeError } from "./errors.js";
import { bytesOf, type BinaryInput } from "./input.js";
import { isWellFormed } from "./utf16.js";
import { copyBytes } from "./copy.js";

const utf8 = new TextEncoder();
const U64_MAX = (1n << 64n) - 1n;
const I64_MIN = -(1n << 63n);
const I64_MAX = (1n << 63n) - 1n;

// A 64-bit value goes through these to reach its two 32-bit halves: BigInt arithmetic would
// allocate a BigInt per step. Storing wraps modulo 2^64, as BigInt.asUintN(64, v) does.
const scratch64 = new BigInt64Array(1);
const halves = new Uint32Array(scratch64.buffer); // [lo, hi] on little-endian hosts, which WASM needs anyway


/** Strings up to this many UTF-16 units are encoded by a loop; longer ones by TextEncoder.encodeInto, which needs a subarray. */
const SHORT_STRING = 64;

const enum Wire { Varint = 0, Fixed64 = 1, Len = 2, Fixed32 = 5 }

export class Writer {
  private buf: Uint8Array;
  private dv: DataView;
  private pos = 0;
  /** Start of each open message's body (its one-byte length placeholder sits just before it), depth entries deep. */
  private open = new Int32Array(16);
  private depth = 0;

  constructor(initialSize = 1024) {
    this.buf = new Uint8Array(Math.max(16, initialSize));
    this.dv = new DataView(this.buf.buffer);
  }

  /** Bytes written so far. */
  get length(): number {
    return this.pos;
  }

  /**
   * Starts over, keeping the buffer and the fork stack: a writer reused for every message allocates
   * nothing once they have grown to the largest message (finishInto() to take the bytes out).
   */
  reset(): this {
    this.pos = 0;
    this.depth = 0;
    return this;
  }

  /**
   * The bytes written, as a view of the writer's buffer (no copy, but one view object): valid until
   * the next write after reset(). slice() it to keep it longer.
   */
  finish(): Uint8Array {
    this.checkClosed();
    return this.buf.subarray(0, this.pos);
  }

  /**
   * Copies the bytes written into target (a Uint8Array, ArrayBuffer, SharedArrayBuffer or other
   * ArrayBufferView) at byte offset; BUFFER_TOO_SMALL leaves target untouched.
   */
  finishInto(target: BinaryInput, offset = 0): number {
    this.checkClosed();
    const into = bytesOf(target, "Writer", "finishInto");
    if (!(offset >= 0 && offset <= into.length && this.pos <= into.length - offset)) {
      throw new EncodeError("BUFFER_TOO_SMALL", "", `${this.pos} bytes do not fit at offset ${offset} of a ${into.length}-byte buffer`);
    }
    copyBytes(this.buf, 0, this.pos, into, offset);
    return this.pos;
  }

  // ---- fields ----

  int32(field: number, v: number): this {
    if ((v | 0) !== v) throw range(field, v, "a 32-bit signed integer");
    this.tag(field, Wire.Varint);
    return v >= 0 ? this.varint32(v) : this.negativeInt32(v);
  }
  uint32(field: number, v: number): this {
    if (v >>> 0 !== v) throw range(field, v, "a 32-bit unsigned integer");
    return this.tag(field, Wire.Varint).varint32(v);
  }
  sint32(field: number, v: number): this {
    if ((v | 0) !== v) throw range(field, v, "a 32-bit signed integer");
    return this.tag(field, Wire.Varint).varint32(((v << 1) ^ (v >> 31)) >>> 0);
  }
  /** Enum values are written as int32. */
  enum(field: number, v: number): this {
    return this.int32(field, v);
  }
  bool(field: number, v: boolean): this {
    if (typeof v !== "boolean") throw range(field, v, "a boolean");
    return this.tag(field, Wire.Varint).byte(v ? 1 : 0);
  }
  int64(field: number, v: bigint | number): this {
    split64(field, v, I64_MIN, I64_MAX);
    return this.tag(field, Wire.Varint).varintHalves();
  }
  uint64(field: number, v: bigint | number): this {
    split64(field, v, 0n, U64_MAX);
    return this.tag(field, Wire.Varint).varintHalves();
  }
  sint64(field: number, v: bigint | number): this {
    split64(field, v, I64_MIN, I64_MAX);
    return this.tag(field, Wire.Varint).zigzagHalves();
  }
  fixed32(field: number, v: number): this {
    if (v >>> 0 !== v) throw range(field, v, "a 32-bit unsigned integer");
    this.tag(field, Wire.Fixed32).ensure(4);
    this.dv.setUint32(this.pos, v, true);
    this.pos += 4;
    return this;
  }
  sfixed32(field: number, v: number): this {
    if ((v | 0) !== v) throw range(field, v, "a 32-bit signed integer");
    return this.fixed32(field, v >>> 0);
  }
  fixed64(field: number, v: bigint | number): this {
    split64(field, v, 0n, U64_MAX);
    return this.tag(field, Wire.Fixed64).halves64();
  }
  sfixed64(field: number, v: bigint | number): this {
    split64(field, v, I64_MIN, I64_MAX);
    return this.tag(field, Wire.Fixed64).halves64();
  }
  float(field: number, v: number): this {
    if (typeof v !== "number") throw range(field, v, "a number");
    this.tag(field, Wire.Fixed32).ensure(4);
    this.dv.setFloat32(this.pos, v, true);
    this.pos += 4;
    return this;
  }
  double(field: number, v: number): this {
    if (typeof v !== "number") throw range(field, v, "a number");
    this.tag(field, Wire.Fixed64).ensure(8);
    this.dv.setFloat64(this.pos, v, true);
    this.pos += 8;
    return this;
  }

  /** A string field, UTF-8. A lone surrogate is an error (it has no UTF-8 form). */
  string(field: number, s: string): this {
    if (typeof s !== "string") throw range(field, s, "a string");
    if (!isWellFormed(s)) throw new EncodeError("INVALID_UTF16", `field ${field}`, "string holds a lone surrogate");
    this.tag(field, Wire.Len);
    const most = s.length * 3;
    const room = varintSize(most);
    this.ensure(room + most);
    const start = this.pos + room;
    const n = s.length <= SHORT_STRING ? encodeShort(s, this.buf, start) : utf8.encodeInto(s, this.buf.subarray(start, start + most)).written;
    const need = varintSize(n);
    if (need < room) this.buf.copyWithin(this.pos + need, start, start + n);
    this.varint32(n);
    this.pos += n;
    return this;
  }

  /** A bytes field, or a message encoded elsewhere (e.g. by MessageType.encode). */
  bytes(field: number, v: Uint8Array): this {
    if (!(v instanceof Uint8Array)) throw range(field, v, "a Uint8Array");
    this.tag(field, Wire.Len).varint32(v.length);
    this.ensure(v.length);
    this.buf.set(v, this.pos);
    this.pos += v.length;
    return this;
  }

  // ---- packed repeated fields: one length-delimited run ----

  packedDouble(field: number, values: ArrayLike<number>): this {
    if (values instanceof Float64Array) {
      const n = values.length;
      this.tag(field, Wire.Len).varint32(n * 8).ensure(n * 8);
      this.buf.set(new Uint8Array(values.buffer, values.byteOffset, n * 8), this.pos); // little-endian hosts
      this.pos += n * 8;
      return this;
    }
    return this.packedRun(field, values, Writer.doubleElement);
  }
  packedFloat(field: number, values: ArrayLike<number>): this {
    if (values instanceof Float32Array) {
      const n = values.length;
      this.tag(field, Wire.Len).varint32(n * 4).ensure(n * 4);
      this.buf.set(new Uint8Array(values.buffer, values.byteOffset, n * 4), this.pos); // little-endian hosts
      this.pos += n * 4;
      return this;
    }
    return this.packedRun(field, values, Writer.floatElement);
  }
  packedFixed32(field: number, values: ArrayLike<number>): this {
    return this.packedRun(field, values, Writer.fixed32Element);
  }
  packedInt32(field: number, values: ArrayLike<number>): this {
    return this.packedRun(field, values, Writer.int32Element);
  }
  packedUint32(field: number, values: ArrayLike<number>): this {
    return this.packedRun(field, values, Writer.uint32Element);
  }
  packedSint32(field: number, values: ArrayLike<number>): this {
    return this.packedRun(field, values, Writer.sint32Element);
  }
  packedBool(field: number, values: ArrayLike<boolean>): this {
    return this.packedRun(field, values, Writer.boolElement);
  }
  packedInt64(field: number, values: ArrayLike<bigint | number>): this {
    return this.packedRun(field, values, Writer.int64Element);
  }
  packedUint64(field: number, values: ArrayLike<bigint | number>): this {
    return this.packedRun(field, values, Writer.uint64Element);
  }
  packedSint64(field: number, values: ArrayLike<bigint | number>): this {
    return this.packedRun(field, values, Writer.sint64Element);
  }

  // packed elements: (writer, value, field for errors), static so that no closure is made per call
  private static fixed32Element(w: Writer, v: number, field: number): void {
    if (v >>> 0 !== v) throw range(field, v, "a 32-bit unsigned integer");
    w.ensure(4);
    w.dv.setUint32(w.pos, v, true);
    w.pos += 4;
  }
  private static int32Element(w: Writer, v: number, field: number): void {
    if ((v | 0) !== v) throw range(field, v, "a 32-bit signed integer");
    if (v >= 0) w.varint32(v);
    else w.negativeInt32(v);
  }
  private static uint32Element(w: Writer, v: number, field: number): void {
    if (v >>> 0 !== v) throw range(field, v, "a 32-bit unsigned integer");
    w.varint32(v);
  }
  private static sint32Element(w: Writer, v: number, field: number): void {
    if ((v | 0) !== v) throw range(field, v, "a 32-bit signed integer");
    w.varint32(((v << 1) ^ (v >> 31)) >>> 0);
  }
  private static boolElement(w: Writer, v: boolean, field: number): void {
    if (typeof v !== "boolean") throw range(field, v, "a boolean");
    w.byte(v ? 1 : 0);
  }
  private static doubleElement(w: Writer, v: number, field: number): void {
    if (typeof v !== "number") throw range(field, v, "a number");
    w.ensure(8);
    w.dv.setFloat64(w.pos, v, true);
    w.pos += 8;
  }
  private static floatElement(w: Writer, v: number, field: number): void {
    if (typeof v !== "number") throw range(field, v, "a number");
    w.ensure(4);
    w.dv.setFloat32(w.pos, v, true);
    w.pos += 4;
  }
  private static int64Element(w: Writer, v: bigint | number, field: number): void {
    split64(field, v, I64_MIN, I64_MAX);
    w.varintHalves();
  }
  private static uint64Element(w: Writer, v: bigint | number, field: number): void {
    split64(field, v, 0n, U64_MAX);
    w.varintHalves();
  }
  private static sint64Element(w: Writer, v: bigint | number, field: number): void {
    split64(field, v, I64_MIN, I64_MAX);
    w.zigzagHalves();
  }

  /** A run whose byte length is only known once written: written after a placeholder, then patched. */
  private packedRun<T>(field: number, values: ArrayLike<T>, write: (w: Writer, v: T, field: number) => void): this {
    const before = this.pos;
    this.fork(field);
    const n = values.length;
    let i = 0;
    try {
      for (; i < n; i++) write(this, values[i]!, field);
    } catch (e) {
      // a bad element: the field is taken back whole
      this.depth--;
      this.pos = before;
      throw e instanceof EncodeError ? new EncodeError(e.code, `field ${field}[${i}]`, e.reason) : e;
    }
    return this.join();
  }

  // ---- nested messages ----

  /** Opens a nested message as field `field`; everything written until join() is its body. */
  fork(field: number): this {
    this.tag(field, Wire.Len);
    return this.forkDelimited();
  }

  /** Opens a length-prefixed message without a tag: one message of a delimited stream. */
  forkDelimited(): this {
    this.ensure(1);
    this.pos += 1; // the length, assumed to fit one byte; join() moves the body when it does not
    if (this.depth === this.open.length) {
      const grown = new Int32Array(this.open.length * 2);
      grown.set(this.open);
      this.open = grown;
    }
    this.open[this.depth++] = this.pos;
    return this;
  }

  /** Closes the innermost open message, writing its length in front of it. */
  join(): this {
    if (this.depth === 0) throw new EncodeError("UNBALANCED", "", "join() without an open fork()");
    const start = this.open[--this.depth]!;
    const n = this.pos - start;
    const size = varintSize(n);
    if (size > 1) {
      this.ensure(size - 1);
      this.buf.copyWithin(start + size - 1, start, this.pos);
      this.pos += size - 1;
    }
    const end = this.pos;
    this.pos = start - 1;
    this.varint32(n);
    this.pos = end;
    return this;
  }

  // ---- wire primitives ----

  private tag(field: number, wire: Wire): this {
    if (!(field >= 1 && field <= 0x1fffffff && Number.isInteger(field))) {
      throw new EncodeError("VALUE_OUT_OF_RANGE", `field ${field}`, "field numbers are integers in 1..2^29-1");
    }
    return this.varint32(((field << 3) | wire) >>> 0);
  }

  private byte(b: number): this {
    this.ensure(1);
    this.buf[this.pos++] = b;
    return this;
  }

  private varint32(v: number): this {
    this.ensure(5);
    const buf = this.buf;
    while (v > 0x7f) {
      buf[this.pos++] = (v & 0x7f) | 0x80;
      v >>>= 7;
    }
    buf[this.pos++] = v;
    return this;
  }

  /** A negative int32 is written as its 64-bit sign extension: ten bytes. */
  private negativeInt32(v: number): this {
    halves[0] = v;
    halves[1] = 0xffffffff;
    return this.varintHalves();
  }

  // The 64-bit value in `halves`, read here rather than passed in: a half of 2^30 or more is no
  // small integer, and passing it to a call V8 does not inline would allocate a HeapNumber.

  /** The varint of the unsigned 64-bit value in halves. */
  private varintHalves(): this {
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
    return this;
  }

  /** The varint of the zigzag encoding of the signed 64-bit value in halves. */
  private zigzagHalves(): this {
    const lo = halves[0]!;
    const hi = halves[1]!;
    const sign = hi >> 31; // all ones for negative values
    halves[0] = (lo << 1) ^ sign;
    halves[1] = ((hi << 1) | (lo >>> 31)) ^ sign;
    return this.varintHalves();
  }

  /** The 8 bytes of halves (little-endian). */
  private halves64(): this {
    this.ensure(8);
    this.dv.setUint32(this.pos, halves[0]!, true);
    this.dv.setUint32(this.pos + 4, halves[1]!, true);
    this.pos += 8;
    return this;
  }

  private ensure(n: number): this {
    if (this.pos + n <= this.buf.length) return this;
    const grown = new Uint8Array(Math.max(this.buf.length * 2, this.pos + n));
    grown.set(this.buf.subarray(0, this.pos));
    this.buf = grown;
    this.dv = new DataView(grown.buffer);
    return this;
  }

  private checkClosed(): void {
    if (this.depth > 0) throw new EncodeError("UNBALANCED", "", `${this.depth} fork() not joined`);
  }
}

function varintSize(n: number): number {
  return n < 0x80 ? 1 : n < 0x4000 ? 2 : n < 0x200000 ? 3 : n < 0x10000000 ? 4 : 5;
}

function range(field: number, v: unknown, want: string): EncodeError {
  const integral = typeof v === "number" && Number.isInteger(v) && want.includes("integer");
  return new EncodeError(integral ? "VALUE_OUT_OF_RANGE" : "INVALID_VALUE", `field ${field}`, `${String(v)} is not ${want}`);
}

/** Checks a 64-bit value against [min, max] and leaves its two's-complement halves in `halves`. */
function split64(field: number, v: unknown, min: bigint, max: bigint): void {
  if (typeof v === "number" && Number.isSafeInteger(v) && (v >= 0 || min < 0n)) {
    halves[0] = v >>> 0; // a safe integer fits either range, but for negatives in an unsigned one
    halves[1] = Math.floor(v / 4294967296) >>> 0;
    return;
  }
  const b = typeof v === "bigint" ? v : typeof v === "number" && Number.isInteger(v) ? BigInt(v) : undefined;
  if (b === undefined) {
    throw new EncodeError("INVALID_VALUE", `field ${field}`, `${String(v)} is not a 64-bit integer`);
  }
  if (b < min || b > max) throw new EncodeError("VALUE_OUT_OF_RANGE", `field ${field}`, `${b} is out of range`);
  scratch64[0] = b;
}

/** UTF-8 of a well-formed string into buf at pos; returns the bytes written (room for 3 per unit is there). */
function encodeShort(s: string, buf: Uint8Array, pos: number): number {
  const start = pos;
  for (let i = 0; i < s.length; i++) {
    let c = s.charCodeAt(i);
    if (c < 0x80) {
      buf[pos++] = c;
    } else if (c < 0x800) {
      buf[pos++] = 0xc0 | (c >> 6);
      buf[pos++] = 0x80 | (c & 0x3f);
    } else if (c >= 0xd800 && c <= 0xdbff) {
      c = 0x10000 + ((c - 0xd800) << 10) + (s.charCodeAt(++i) - 0xdc00); // a pair: the caller checked
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
