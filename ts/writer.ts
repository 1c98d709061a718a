// The streaming writer: protobuf wire format written field by field into one reusable buffer, for
// hand-rolled or very large messages (the protozero model). No intermediate objects: nested
// messages are opened with fork() and closed with join(), which back-patches their length.
import { describe } from "./checks.js";
import { EncodeError } from "./errors.js";
import { bytesOf, bytesOfView, checkOffset, lengthOf, type BinaryInput } from "./input.js";
import { copyBytes } from "./copy.js";
import { halves, scratch64, WireBuffer } from "./wirebuffer.js";

const U64_MAX = (1n << 64n) - 1n;
const I64_MIN = -(1n << 63n);
const I64_MAX = (1n << 63n) - 1n;

const enum Wire { Varint = 0, Fixed64 = 1, Len = 2, Fixed32 = 5 }

export class Writer {
  private readonly out: WireBuffer;
  /** Where each open message's body starts (its one-byte length placeholder just before it), `depth` entries deep. */
  private open = new Int32Array(16);
  private depth = 0;

  constructor(initialSize = 1024) {
    this.out = new WireBuffer(initialSize);
  }

  /** Bytes written so far. */
  get length(): number {
    return this.out.length;
  }

  /**
   * Starts over, keeping the buffer and the fork stack: a writer reused for every message allocates
   * nothing once they have grown to the largest message (finishInto() to take the bytes out).
   */
  reset(): this {
    this.out.pos = 0;
    this.depth = 0;
    return this;
  }

  /**
   * The bytes written, as a view of the writer's buffer (no copy, but one view object): valid until
   * the next write after reset(). slice() it to keep it longer.
   */
  finish(): Uint8Array {
    this.checkClosed();
    return this.out.buf.subarray(0, this.out.pos);
  }

  /**
   * Copies the bytes written into target (a Uint8Array, ArrayBuffer, SharedArrayBuffer or other
   * ArrayBufferView) at byte offset; BUFFER_TOO_SMALL leaves target untouched.
   */
  finishInto(target: BinaryInput, offset = 0): number {
    this.checkClosed();
    const into = bytesOf(target, "Writer", "finishInto");
    checkOffset(offset);
    const room = lengthOf(into);
    if (!(offset <= room && this.out.pos <= room - offset)) {
      throw new EncodeError("BUFFER_TOO_SMALL", "", `${this.out.pos} bytes do not fit at offset ${offset} of a ${room}-byte buffer`);
    }
    copyBytes(this.out.buf, 0, this.out.pos, into, offset);
    return this.out.pos;
  }

  // ---- fields ----

  int32(field: number, v: number): this {
    if ((v | 0) !== v) throw range(field, v, "a 32-bit signed integer");
    this.tag(field, Wire.Varint);
    this.out.int32Varint(v);
    return this;
  }
  uint32(field: number, v: number): this {
    if (v >>> 0 !== v) throw range(field, v, "a 32-bit unsigned integer");
    this.tag(field, Wire.Varint);
    this.out.varint32(v);
    return this;
  }
  sint32(field: number, v: number): this {
    if ((v | 0) !== v) throw range(field, v, "a 32-bit signed integer");
    this.tag(field, Wire.Varint);
    this.out.varint32(((v << 1) ^ (v >> 31)) >>> 0);
    return this;
  }
  /** Enum values are written as int32. */
  enum(field: number, v: number): this {
    return this.int32(field, v);
  }
  bool(field: number, v: boolean): this {
    if (typeof v !== "boolean") throw range(field, v, "a boolean");
    this.tag(field, Wire.Varint);
    this.out.byte(v ? 1 : 0);
    return this;
  }
  int64(field: number, v: bigint | number): this {
    split64(field, v, I64_MIN, I64_MAX);
    this.tag(field, Wire.Varint);
    this.out.varintHalves();
    return this;
  }
  uint64(field: number, v: bigint | number): this {
    split64(field, v, 0n, U64_MAX);
    this.tag(field, Wire.Varint);
    this.out.varintHalves();
    return this;
  }
  sint64(field: number, v: bigint | number): this {
    split64(field, v, I64_MIN, I64_MAX);
    this.tag(field, Wire.Varint);
    this.out.zigzagHalves();
    return this;
  }
  fixed32(field: number, v: number): this {
    if (v >>> 0 !== v) throw range(field, v, "a 32-bit unsigned integer");
    this.tag(field, Wire.Fixed32);
    this.out.fixed32Bytes(v);
    return this;
  }
  sfixed32(field: number, v: number): this {
    if ((v | 0) !== v) throw range(field, v, "a 32-bit signed integer");
    return this.fixed32(field, v >>> 0);
  }
  fixed64(field: number, v: bigint | number): this {
    split64(field, v, 0n, U64_MAX);
    this.tag(field, Wire.Fixed64);
    this.out.halves64();
    return this;
  }
  sfixed64(field: number, v: bigint | number): this {
    split64(field, v, I64_MIN, I64_MAX);
    this.tag(field, Wire.Fixed64);
    this.out.halves64();
    return this;
  }
  float(field: number, v: number): this {
    if (typeof v !== "number") throw range(field, v, "a number");
    this.tag(field, Wire.Fixed32);
    this.out.floatBytes(v);
    return this;
  }
  double(field: number, v: number): this {
    if (typeof v !== "number") throw range(field, v, "a number");
    this.tag(field, Wire.Fixed64);
    this.out.doubleBytes(v);
    return this;
  }

  /** A string field, UTF-8. A lone surrogate is an error (it has no UTF-8 form). */
  string(field: number, s: string): this {
    if (typeof s !== "string") throw range(field, s, "a string");
    const at = this.out.pos;
    this.tag(field, Wire.Len);
    if (!this.out.utf8(s)) {
      this.out.pos = at; // nothing of the field stays written
      throw new EncodeError("INVALID_UTF16", `field ${field}`, "string holds a lone surrogate");
    }
    return this;
  }

  /** A bytes field, or a message encoded elsewhere (e.g. by MessageType.encode). */
  bytes(field: number, v: Uint8Array): this {
    if (!(v instanceof Uint8Array)) throw range(field, v, "a Uint8Array");
    return this.lengthPrefixed(field, v);
  }

  // ---- packed repeated fields: one length-delimited run ----

  packedDouble(field: number, values: ArrayLike<number>): this {
    if (values instanceof Float64Array) return this.lengthPrefixed(field, values); // little-endian hosts
    return this.packedRun(field, values, Writer.doubleElement);
  }
  packedFloat(field: number, values: ArrayLike<number>): this {
    if (values instanceof Float32Array) return this.lengthPrefixed(field, values); // little-endian hosts
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
    w.out.fixed32Bytes(v);
  }
  private static int32Element(w: Writer, v: number, field: number): void {
    if ((v | 0) !== v) throw range(field, v, "a 32-bit signed integer");
    w.out.int32Varint(v);
  }
  private static uint32Element(w: Writer, v: number, field: number): void {
    if (v >>> 0 !== v) throw range(field, v, "a 32-bit unsigned integer");
    w.out.varint32(v);
  }
  private static sint32Element(w: Writer, v: number, field: number): void {
    if ((v | 0) !== v) throw range(field, v, "a 32-bit signed integer");
    w.out.varint32(((v << 1) ^ (v >> 31)) >>> 0);
  }
  private static boolElement(w: Writer, v: boolean, field: number): void {
    if (typeof v !== "boolean") throw range(field, v, "a boolean");
    w.out.byte(v ? 1 : 0);
  }
  private static doubleElement(w: Writer, v: number, field: number): void {
    if (typeof v !== "number") throw range(field, v, "a number");
    w.out.doubleBytes(v);
  }
  private static floatElement(w: Writer, v: number, field: number): void {
    if (typeof v !== "number") throw range(field, v, "a number");
    w.out.floatBytes(v);
  }
  private static int64Element(w: Writer, v: bigint | number, field: number): void {
    split64(field, v, I64_MIN, I64_MAX);
    w.out.varintHalves();
  }
  private static uint64Element(w: Writer, v: bigint | number, field: number): void {
    split64(field, v, 0n, U64_MAX);
    w.out.varintHalves();
  }
  private static sint64Element(w: Writer, v: bigint | number, field: number): void {
    split64(field, v, I64_MIN, I64_MAX);
    w.out.zigzagHalves();
  }

  /**
   * The bytes of a typed array as field `field`, length first; nothing written if they cannot be
   * read (its buffer was transferred: the engine's TypeError, no tag left behind).
   */
  private lengthPrefixed(field: number, v: ArrayBufferView): this {
    const before = this.out.pos;
    this.tag(field, Wire.Len);
    try {
      this.out.lengthPrefixed(bytesOfView(v));
    } catch (e) {
      this.out.pos = before;
      throw e;
    }
    return this;
  }

  /** A run whose byte length is only known once written: written after a placeholder, then patched. */
  private packedRun<T>(field: number, values: ArrayLike<T>, write: (w: Writer, v: T, field: number) => void): this {
    const before = this.out.pos;
    this.fork(field);
    const n = values.length;
    let i = 0;
    try {
      for (; i < n; i++) write(this, values[i]!, field);
    } catch (e) {
      // a bad element: the field is taken back whole
      this.depth--;
      this.out.pos = before;
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
    const start = this.out.fork();
    if (this.depth === this.open.length) {
      const grown = new Int32Array(this.open.length * 2);
      grown.set(this.open);
      this.open = grown;
    }
    this.open[this.depth++] = start;
    return this;
  }

  /** Closes the innermost open message, writing its length in front of it. */
  join(): this {
    if (this.depth === 0) throw new EncodeError("UNBALANCED", "", "join() without an open fork()");
    this.out.join(this.open[--this.depth]!);
    return this;
  }

  // ---- wire primitives ----

  private tag(field: number, wire: Wire): void {
    if (!(field >= 1 && field <= 0x1fffffff && Number.isInteger(field))) {
      throw new EncodeError("VALUE_OUT_OF_RANGE", `field ${field}`, "field numbers are integers in 1..2^29-1");
    }
    this.out.varint32(((field << 3) | wire) >>> 0);
  }

  private checkClosed(): void {
    if (this.depth > 0) throw new EncodeError("UNBALANCED", "", `${this.depth} fork() not joined`);
  }
}

function range(field: number, v: unknown, want: string): EncodeError {
  const integral = typeof v === "number" && Number.isInteger(v) && want.includes("integer");
  return new EncodeError(integral ? "VALUE_OUT_OF_RANGE" : "INVALID_VALUE", `field ${field}`, `${describe(v)} is not ${want}`);
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
