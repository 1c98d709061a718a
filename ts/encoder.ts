// Plain objects written straight to wire bytes, in one pass: what the encode functions generated
// per message (codegen/emit/encode.ts) call, with each field's tag as a constant. Bytes and errors
// are the codec's for a record filled from the same object (fill.ts, then encoder.hpp): fields by
// ascending number, implicit-presence fields left out at zero (by bits: -0 is written), packed as
// declared, map entries with key and value, unknown fields last; every value checked as fill.ts
// checks it (checks.ts), required fields, depth and size as the codec checks them
// (test/encoder.test.ts compares the two on every test schema).
import { describe, invalid, toInt64, toUint64, within } from "./checks.js";
import { EncodeError } from "./errors.js";
import { quote } from "./excerpt.js";
import { bytesOfView, lengthOf, lostContents } from "./input.js";
import { limits as current } from "./limits.js";
import type { SchemaDef } from "./schema.js";
import { halves, putVarint32, scratch64, WireBuffer } from "./wirebuffer.js";

const I64_MIN = -(1n << 63n), I64_MAX = (1n << 63n) - 1n, U64_MAX = (1n << 64n) - 1n;

/** A generated encoder: writes the fields of plain object o, then its unknown fields. */
export type Encode<T> = (w: PlainEncoder, o: T) => void;

/** A field as errors name it: its index among the fields of the message being written (generated code), or a name ("" for a map key or value). */
type FieldRef = number | string;

/** The limits an encode applies (the runtime's: Limits). */
interface EncodeLimits {
  maxDepth: number;
  maxMessageSize: number;
  /** Required fields of the top-level message may be absent (an extension's bytes written alone). */
  allowPartial: boolean;
}

/**
 * The state of an encode of plain objects, and what its field writers (the free functions below)
 * share. Generated code's, not an API: its members are open to those writers.
 */
export class PlainEncoder extends WireBuffer {
  // An error thrown while a message is written lacks the field it is in: named only when the error
  // reaches the code that knows the message (settle()), so that writing keeps no names nor paths.
  /** The field of the message being written an error is in, undefined for none; and its element or key. */
  private pendingField: FieldRef | undefined = undefined;
  private pendingElement = -1;
  private pendingKey: string | undefined = undefined;
  /** A value that is no int32, for the enum of this index (named with the message's schema). */
  pendingEnum = -1;
  pendingValue: unknown = undefined;
  /** Nesting of the message being written (the top-level one: 0), as the codec counts it. */
  level = 0;
  readonly limits: EncodeLimits = { maxDepth: 100, maxMessageSize: 0x7fffffff, allowPartial: false };
  /** A required field was found absent: the encode fails, unless a value error comes first (as the codec's, whose fill runs first). */
  missed = false;
  /** Set on the second pass that finds which required field it was. */
  diagnosing = false;

  constructor() {
    super(1024);
  }

  /**
   * Message `index` of def, plain object o, written by `encode` (and its unknown fields after it);
   * returns the length. The bytes are in `buffer` until the next run.
   */
  run<T>(def: SchemaDef, index: number, encode: Encode<T>, o: T, allowPartial: boolean): number {
    this.take(allowPartial);
    this.begin(false);
    this.top(def, index, encode, o);
    if (this.missed) {
      // the first pass checked every value: again, to name the first absent required field
      this.begin(true);
      this.top(def, index, encode, o);
      throw requiredNotSet(); // (getters that answered otherwise the second time)
    }
    if (this.pos > this.limits.maxMessageSize) throw tooLarge(this.limits.maxMessageSize);
    return this.pos;
  }

  /** A length-delimited run: each message of the list after its length; errors name the element. */
  runDelimited<T>(def: SchemaDef, index: number, encode: Encode<T>, list: ArrayLike<T>, allowPartial: boolean): number {
    this.take(allowPartial);
    const max = this.limits.maxMessageSize, n = list.length; // (once: a getter may append to the list)
    for (let pass = 0; pass < 2; pass++) {
      this.begin(pass === 1); // (the second pass names the first absent required field)
      for (let i = 0; i < n; i++) {
        const start = this.fork();
        try {
          this.top(def, index, encode, list[i]!);
        } catch (e) {
          throw within(e, `[#${i}]`);
        }
        if (this.join(start) > max) throw within(tooLarge(max), `[#${i}]`);
      }
      if (!this.missed) break;
      if (pass === 1) throw requiredNotSet();
    }
    if (this.pos > max) throw tooLarge(max);
    return this.pos;
  }

  /** The limits as the encode starts (limits.ts), copied: a getter may change them while it runs. */
  private take(allowPartial: boolean): void {
    const own = this.limits;
    own.maxDepth = current.maxDepth;
    own.maxMessageSize = current.maxMessageSize;
    own.allowPartial = allowPartial;
  }

  /** An empty buffer and a fresh pass. */
  private begin(diagnosing: boolean): void {
    this.pos = 0;
    this.missed = false;
    this.diagnosing = diagnosing;
    this.pendingField = undefined;
    this.pendingEnum = -1;
  }

  /** Where the last run() wrote its bytes, from 0: valid until the next run. */
  get buffer(): Uint8Array {
    return this.buf;
  }

  /** The top-level message, an object (its caller checked). */
  private top<T>(def: SchemaDef, index: number, encode: Encode<T>, o: T): void {
    this.level = 0;
    try {
      encode(this, o);
    } catch (e) {
      throw this.settle(e, def, index);
    }
  }

  /** e, an error in field f of the message being written (its element or key), for settle() to name. */
  fail(e: unknown, f: FieldRef, element = -1, key?: string): unknown {
    this.pendingField = f;
    this.pendingElement = element;
    this.pendingKey = key;
    return e;
  }

  /** e with what it lacks filled in, now that the message it was thrown in is known: message `index` of def. */
  settle(e: unknown, def: SchemaDef, index: number): unknown {
    if (!(e instanceof EncodeError)) return e;
    if (this.pendingEnum >= 0) {
      e = invalid(this.pendingValue, `a value of enum ${def.enums[this.pendingEnum]!.name} (a 32-bit signed integer)`, (e as EncodeError).path);
      this.pendingEnum = -1;
    }
    const f = this.pendingField;
    if (f !== undefined) {
      this.pendingField = undefined;
      let segment = typeof f === "string" ? f : def.messages[index]!.fields[f]!.name;
      if (this.pendingElement >= 0) segment += `[${this.pendingElement}]`;
      else if (this.pendingKey !== undefined) segment += `[${quote(this.pendingKey)}]`;
      if (segment !== "") (e as EncodeError).prefix(segment);
    }
    return e;
  }
}

// ---- what the field writers share: free functions, so that a bundle keeps only those its writers call ----

/** A value of enum `index` that is no int32. */
function badEnum(w: PlainEncoder, v: unknown, index: number, f: FieldRef, element = -1): unknown {
  w.pendingEnum = index;
  w.pendingValue = v;
  return w.fail(invalid(v, "an enum value", ""), f, element);
}

/**
 * A message one level down (message `index` of def) after its tag t, its length in front of it,
 * or for a group (`end` its end tag) the end tag after it; errors inside get field f (its element,
 * if one) of the message around it in front of their path.
 */
function nested<T>(w: PlainEncoder, t: number, v: T, encode: Encode<T>, def: SchemaDef, index: number, f: FieldRef, element: number, end: number): void {
  const level = w.level;
  if (level + 1 > w.limits.maxDepth) {
    throw w.fail(new EncodeError("DEPTH_LIMIT", "", `messages nested deeper than the limit (${w.limits.maxDepth})`), f, element);
  }
  let start = 0;
  if (end === 0) start = w.taggedFork(t);
  else w.varint32(t);
  w.level = level + 1;
  try {
    encode(w, v);
  } catch (e) {
    w.level = level;
    throw w.fail(w.settle(e, def, index), f, element);
  }
  w.level = level;
  if (end !== 0) w.varint32(end);
  else if (w.join(start) > w.limits.maxMessageSize) throw w.fail(tooLarge(w.limits.maxMessageSize), f, element);
}

/** The tag, and a length to patch when the run is done (varint runs: their size is known only then): where the run starts, for join(). */
function openRun(w: PlainEncoder, t: number): number {
  w.varint32(t);
  return w.fork();
}

/** A bad element `i` of a repeated field. */
function badElement(w: PlainEncoder, x: unknown, want: string, f: FieldRef, i: number): unknown {
  return w.fail(invalid(x, want, ""), f, i);
}

/** v as elements to read one by one: an array, or a typed array (not a detached one). */
function listOf(w: PlainEncoder, v: unknown, f: FieldRef): ArrayLike<unknown> {
  if (Array.isArray(v)) {
    // (a Proxy of an array may claim any length: a fraction would write a packed run's length short of its values)
    if ((v.length >>> 0) !== v.length) throw w.fail(new EncodeError("INVALID_VALUE", "", `an array whose length is ${describe(v.length)}`), f);
    return v;
  }
  if (ArrayBuffer.isView(v) && !(v instanceof DataView)) {
    const typed = v as ArrayBufferView & ArrayLike<unknown>;
    checkAttached(w, typed, f);
    return typed;
  }
  throw w.fail(invalid(v, "an array", ""), f);
}

/**
 * An empty typed array may be an alias of memory that growth detached (memory grew since it was
 * read from its view), or one transferred away: its contents are lost, an error rather than an
 * empty field (as fill.ts).
 */
function checkAttached(w: PlainEncoder, v: ArrayBufferView, f: FieldRef): void {
  const lost = lostContents(v);
  if (lost !== undefined) throw w.fail(new EncodeError("INVALID_VALUE", "", lost), f);
}

/**
 * A 64-bit value (bigint, integral number or decimal string) checked as fill.ts checks it, its
 * two's complement left in `halves`; whether it is nonzero.
 */
function split64(w: PlainEncoder, v: unknown, f: FieldRef, signed: boolean): boolean {
  if (typeof v === "number" && Number.isSafeInteger(v) && (signed || v >= 0)) {
    const lo = v >>> 0, hi = Math.floor(v / 4294967296) >>> 0;
    halves[0] = lo;
    halves[1] = hi;
    return (lo | hi) !== 0;
  }
  if (typeof v === "bigint" && (signed ? v >= I64_MIN && v <= I64_MAX : v >= 0n && v <= U64_MAX)) {
    scratch64[0] = v; // (stored modulo 2^64: unsigned values past 2^63 wrap to their two's complement)
    return v !== 0n;
  }
  let b: bigint;
  try {
    b = signed ? toInt64(v) : toUint64(v);
  } catch (e) {
    throw w.fail(e, f);
  }
  scratch64[0] = b;
  return b !== 0n;
}

// ---- what generated encode functions call: free functions, so that a bundle keeps only those its
// generated code calls ----

/** A message's unknown fields (its `$unknown`, not null), as they are. */
export function writeUnknown(w: PlainEncoder, v: unknown): void {
  if (!(v instanceof Uint8Array)) throw invalid(v, "a Uint8Array", "$unknown");
  w.raw(v);
}

/** A oneof object whose case names no member. */
export function badOneofCase(w: PlainEncoder, oneof: string, c: unknown): never {
  throw w.fail(new EncodeError("INVALID_VALUE", "", `${describe(c)} is not a case of this oneof`), oneof);
}

/** A required field `f` is absent. */
export function missingRequired(w: PlainEncoder, f: FieldRef): void {
  if (w.level === 0 && w.limits.allowPartial) return;
  if (w.diagnosing) throw w.fail(requiredNotSet(), f);
  w.missed = true;
}

// ---- scalars: the tag t, then the value (f names the field in errors) ----

export function writeInt32(w: PlainEncoder, t: number, v: unknown, f: FieldRef): void {
  if (typeof v !== "number" || (v | 0) !== v) throw w.fail(invalid(v, "a 32-bit signed integer", ""), f);
  w.varint32(t);
  w.int32Varint(v);
}

/** A value of enum `index` of the schema (any int32: open enums keep undeclared numbers); errors name the enum. */
export function writeEnumValue(w: PlainEncoder, t: number, v: unknown, f: FieldRef, index: number): void {
  if (typeof v !== "number" || (v | 0) !== v) throw badEnum(w, v, index, f);
  w.varint32(t);
  w.int32Varint(v);
}

export function writeUint32(w: PlainEncoder, t: number, v: unknown, f: FieldRef): void {
  if (typeof v !== "number" || v >>> 0 !== v) throw w.fail(invalid(v, "a 32-bit unsigned integer", ""), f);
  w.varint32(t);
  w.varint32(v);
}

export function writeSint32(w: PlainEncoder, t: number, v: unknown, f: FieldRef): void {
  if (typeof v !== "number" || (v | 0) !== v) throw w.fail(invalid(v, "a 32-bit signed integer", ""), f);
  w.varint32(t);
  w.varint32(((v << 1) ^ (v >> 31)) >>> 0);
}

export function writeFixed32(w: PlainEncoder, t: number, v: unknown, f: FieldRef): void {
  if (typeof v !== "number" || v >>> 0 !== v) throw w.fail(invalid(v, "a 32-bit unsigned integer", ""), f);
  w.varint32(t);
  w.fixed32Bytes(v);
}

export function writeSfixed32(w: PlainEncoder, t: number, v: unknown, f: FieldRef): void {
  if (typeof v !== "number" || (v | 0) !== v) throw w.fail(invalid(v, "a 32-bit signed integer", ""), f);
  w.varint32(t);
  w.fixed32Bytes(v >>> 0);
}

export function writeBool(w: PlainEncoder, t: number, v: unknown, f: FieldRef): void {
  if (typeof v !== "boolean") throw w.fail(invalid(v, "a boolean", ""), f);
  w.varint32(t);
  w.byte(v ? 1 : 0);
}

export function writeDouble(w: PlainEncoder, t: number, v: unknown, f: FieldRef): void {
  if (typeof v !== "number") throw w.fail(invalid(v, "a number", ""), f);
  w.varint32(t);
  w.doubleBytes(v);
}

/** A float; with `implicit`, left out when its 32-bit form is all zero bits (a record's slot would be). */
export function writeFloat(w: PlainEncoder, t: number, v: unknown, f: FieldRef, implicit: number): void {
  if (typeof v !== "number") throw w.fail(invalid(v, "a number", ""), f);
  const x = Math.fround(v);
  if (implicit && x === 0 && 1 / x > 0) return;
  w.varint32(t);
  w.floatBytes(x);
}

// 64-bit values: with `implicit`, left out when zero
export function writeInt64(w: PlainEncoder, t: number, v: unknown, f: FieldRef, implicit: number): void {
  if (split64(w, v, f, true) || !implicit) {
    w.varint32(t);
    w.varintHalves();
  }
}

export function writeUint64(w: PlainEncoder, t: number, v: unknown, f: FieldRef, implicit: number): void {
  if (split64(w, v, f, false) || !implicit) {
    w.varint32(t);
    w.varintHalves();
  }
}

export function writeSint64(w: PlainEncoder, t: number, v: unknown, f: FieldRef, implicit: number): void {
  if (split64(w, v, f, true) || !implicit) {
    w.varint32(t);
    w.zigzagHalves();
  }
}

export function writeFixed64(w: PlainEncoder, t: number, v: unknown, f: FieldRef, implicit: number): void {
  if (split64(w, v, f, false) || !implicit) {
    w.varint32(t);
    w.halves64();
  }
}

export function writeSfixed64(w: PlainEncoder, t: number, v: unknown, f: FieldRef, implicit: number): void {
  if (split64(w, v, f, true) || !implicit) {
    w.varint32(t);
    w.halves64();
  }
}

/** A string, UTF-8; a lone surrogate is an error. */
export function writeString(w: PlainEncoder, t: number, v: unknown, f: FieldRef): void {
  if (typeof v !== "string") throw w.fail(invalid(v, "a string", ""), f);
  if (!w.stringField(t, v)) throw w.fail(new EncodeError("INVALID_UTF16", "", "string holds a lone surrogate"), f);
}

/** Bytes; with `implicit`, left out when empty. */
export function writeBytes(w: PlainEncoder, t: number, v: unknown, f: FieldRef, implicit: number): void {
  if (!(v instanceof Uint8Array)) throw w.fail(invalid(v, "a Uint8Array", ""), f);
  if (lengthOf(v) === 0) {
    checkAttached(w, v, f);
    if (implicit) return;
  }
  w.varint32(t);
  w.lengthPrefixed(v);
}

/** A map entry's value that is absent: the zero value of its wire type (`width` bytes, a varint or length 0 as 1). */
export function writeAbsent(w: PlainEncoder, t: number, width: number): void {
  w.varint32(t);
  w.ensure(width);
  for (let i = 0; i < width; i++) w.buf[w.pos++] = 0;
}

// ---- messages ----

/**
 * A message field: the object written by `encode`, the code of message `index` of def (its
 * module's schema); a group's when `end` is its end tag.
 */
export function writeMessage<T>(w: PlainEncoder, t: number, v: unknown, encode: Encode<T>, def: SchemaDef, index: number, f: FieldRef, end = 0): void {
  if (typeof v !== "object" || v === null) throw w.fail(invalid(v, "an object", ""), f);
  nested(w, t, v as T, encode, def, index, f, -1, end);
}

/** A field of a message set: an item group holding the field's number and its message. */
export function writeSetItem<T>(w: PlainEncoder, number: number, v: unknown, encode: Encode<T>, def: SchemaDef, index: number, f: FieldRef): void {
  if (typeof v !== "object" || v === null) throw w.fail(invalid(v, "an object", ""), f);
  w.byte(0x0b); // group 1
  w.byte(0x10); // type_id, field 2
  w.varint32(number);
  nested(w, 0x1a, v as T, encode, def, index, f, -1, 0); // message, field 3
  w.byte(0x0c);
}

// ---- repeated fields ----

/** Repeated messages (groups when `end` is their end tag): each element after the tag t. */
export function writeMessages<T>(w: PlainEncoder, t: number, v: unknown, encode: Encode<T>, def: SchemaDef, index: number, f: FieldRef, end = 0): void {
  const list = listOf(w, v, f), n = list.length; // (once: a getter may append to the list)
  for (let i = 0; i < n; i++) {
    const e = list[i];
    if (typeof e !== "object" || e === null) throw badElement(w, e, "an object", f, i);
    nested(w, t, e as T, encode, def, index, f, i, end);
  }
}

/** Repeated strings. */
export function writeStrings(w: PlainEncoder, t: number, v: unknown, f: FieldRef): void {
  const list = listOf(w, v, f), n = list.length; // (once: a getter may append to the list)
  for (let i = 0; i < n; i++) {
    const e = list[i];
    if (typeof e !== "string") throw badElement(w, e, "a string", f, i);
    if (!w.stringField(t, e)) throw w.fail(new EncodeError("INVALID_UTF16", "", "string holds a lone surrogate"), f, i);
  }
}

/** Repeated strings, bytes or scalars not packed: `write` (one of the scalar writers) per element, with its tag. */
export function writeEach(w: PlainEncoder, t: number, v: unknown, f: FieldRef, write: (w: PlainEncoder, t: number, e: unknown, f: FieldRef, x: number) => void, x = 0): void {
  const list = listOf(w, v, f), n = list.length; // (once: a getter may append to the list)
  for (let i = 0; i < n; i++) {
    try {
      write(w, t, list[i], "", x);
    } catch (e) {
      throw w.fail(e, f, i);
    }
  }
}

/** A map from a plain object: per own key an entry, written by `entry` (key and value, the value's zero when absent). */
export function writeMap(w: PlainEncoder, t: number, v: unknown, f: FieldRef, entry: (w: PlainEncoder, k: string, x: unknown) => void): void {
  if (typeof v !== "object" || v === null) throw w.fail(invalid(v, "an object", ""), f);
  const keys = Object.keys(v);
  const level = w.level;
  w.level = level + 1; // the entry is a message, as the codec counts nesting
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i]!;
    w.varint32(t);
    const start = w.fork();
    try {
      entry(w, k, (v as Record<string, unknown>)[k]);
    } catch (e) {
      w.level = level;
      throw w.fail(e, f, -1, k);
    }
    w.join(start);
  }
  w.level = level;
}

// ---- packed runs: tag t, length, the values ----

// varint runs: room for the longest varints reserved once, each written inline (a call and a
// bounds check per element were most of a map tile's encode: npm run bench -- map-tile)
export function writePackedInt32(w: PlainEncoder, t: number, v: unknown, f: FieldRef): void {
  int32Run(w, t, v, f, -1);
}

export function writePackedUint32(w: PlainEncoder, t: number, v: unknown, f: FieldRef): void {
  const list = listOf(w, v, f), n = list.length;
  if (n === 0) return;
  const start = openRun(w, t);
  w.ensure(n * 5);
  const buf = w.buf;
  let pos = w.pos;
  for (let i = 0; i < n; i++) {
    const x = list[i];
    if (typeof x !== "number" || x >>> 0 !== x) {
      w.pos = pos;
      throw badElement(w, x, "a 32-bit unsigned integer", f, i);
    }
    pos = putVarint32(buf, pos, x);
  }
  w.pos = pos;
  w.join(start);
}

export function writePackedSint32(w: PlainEncoder, t: number, v: unknown, f: FieldRef): void {
  const list = listOf(w, v, f), n = list.length;
  if (n === 0) return;
  const start = openRun(w, t);
  w.ensure(n * 5);
  const buf = w.buf;
  let pos = w.pos;
  for (let i = 0; i < n; i++) {
    const x = list[i];
    if (typeof x !== "number" || (x | 0) !== x) {
      w.pos = pos;
      throw badElement(w, x, "a 32-bit signed integer", f, i);
    }
    pos = putVarint32(buf, pos, ((x << 1) ^ (x >> 31)) >>> 0);
  }
  w.pos = pos;
  w.join(start);
}

export function writePackedBool(w: PlainEncoder, t: number, v: unknown, f: FieldRef): void {
  const list = listOf(w, v, f), n = list.length;
  if (n === 0) return;
  w.varint32(t);
  w.varint32(n);
  w.ensure(n);
  for (let i = 0; i < n; i++) {
    const x = list[i];
    if (typeof x !== "boolean") throw badElement(w, x, "a boolean", f, i);
    w.buf[w.pos++] = x ? 1 : 0;
  }
}

export function writePackedEnum(w: PlainEncoder, t: number, v: unknown, f: FieldRef, index: number): void {
  int32Run(w, t, v, f, index);
}

/** A packed run of int32 varints, an enum's when `enumIndex` is one: negatives take ten bytes, as protobuf writes them. */
function int32Run(w: PlainEncoder, t: number, v: unknown, f: FieldRef, enumIndex: number): void {
  const list = listOf(w, v, f), n = list.length;
  if (n === 0) return;
  const start = openRun(w, t);
  w.ensure(n * 10);
  const buf = w.buf;
  let pos = w.pos;
  for (let i = 0; i < n; i++) {
    const x = list[i];
    if (typeof x !== "number" || (x | 0) !== x) {
      w.pos = pos;
      throw enumIndex >= 0 ? badEnum(w, x, enumIndex, f, i) : badElement(w, x, "a 32-bit signed integer", f, i);
    }
    if (x < 0) {
      // the 64-bit sign extension: 28 bits of x, then its top 4 under 3 of the ones, then ones
      buf[pos] = (x & 0x7f) | 0x80;
      buf[pos + 1] = ((x >>> 7) & 0x7f) | 0x80;
      buf[pos + 2] = ((x >>> 14) & 0x7f) | 0x80;
      buf[pos + 3] = ((x >>> 21) & 0x7f) | 0x80;
      buf[pos + 4] = ((x >>> 28) & 0x0f) | 0xf0;
      buf[pos + 5] = buf[pos + 6] = buf[pos + 7] = buf[pos + 8] = 0xff;
      buf[pos + 9] = 0x01;
      pos += 10;
    } else {
      pos = putVarint32(buf, pos, x);
    }
  }
  w.pos = pos;
  w.join(start);
}

export function writePackedDouble(w: PlainEncoder, t: number, v: unknown, f: FieldRef): void {
  floatRun(w, t, v, f, 8);
}

export function writePackedFloat(w: PlainEncoder, t: number, v: unknown, f: FieldRef): void {
  floatRun(w, t, v, f, 4);
}

/** A packed run of doubles (`width` 8) or floats (4); a typed array of that type is copied whole. */
function floatRun(w: PlainEncoder, t: number, v: unknown, f: FieldRef, width: number): void {
  if ((width === 8 ? v instanceof Float64Array : v instanceof Float32Array) && (v as ArrayLike<number>).length !== 0) {
    const typed = bytesOfView(v as Float64Array | Float32Array);
    w.varint32(t);
    w.varint32(typed.length);
    w.raw(typed); // little-endian hosts
    return;
  }
  const list = listOf(w, v, f), n = list.length;
  if (n === 0) return;
  w.varint32(t);
  w.varint32(n * width);
  w.ensure(n * width);
  const buf = w.buf, dv = w.dv;
  let pos = w.pos, i = 0;
  // whole chunks staged (no view made per call: encodes of plain objects allocate nothing), the rest written one by one
  for (const staged = n - (n % STAGE_LENGTH); i < staged; pos += STAGE_LENGTH * width) {
    for (let j = 0; j < STAGE_LENGTH; i++, j++) {
      const x = list[i];
      if (typeof x !== "number") throw badElement(w, x, "a number", f, i);
      if (width === 8) stage64[j] = x;
      else stage32[j] = x;
    }
    buf.set(width === 8 ? staged64 : staged32, pos);
  }
  for (; i < n; i++) {
    const x = list[i];
    if (typeof x !== "number") throw badElement(w, x, "a number", f, i);
    if (width === 8) dv.setFloat64(pos, x, true);
    else dv.setFloat32(pos, x, true);
    pos += width;
  }
  w.pos = pos;
}

/**
 * Long runs of doubles and floats are staged in an aligned typed array and copied into the buffer
 * a chunk at a time: a typed-array store per value costs less than a DataView write at an
 * unaligned offset (npm run bench -- packed-double).
 */
const STAGE_LENGTH = 512;
const stage64 = new Float64Array(STAGE_LENGTH), stage32 = new Float32Array(stage64.buffer, 0, STAGE_LENGTH);
const staged64 = new Uint8Array(stage64.buffer), staged32 = new Uint8Array(stage64.buffer, 0, STAGE_LENGTH * 4);

export function writePackedFixed32(w: PlainEncoder, t: number, v: unknown, f: FieldRef, signed: number): void {
  const list = listOf(w, v, f), n = list.length;
  if (n === 0) return;
  w.varint32(t);
  w.varint32(n * 4);
  w.ensure(n * 4);
  const dv = w.dv;
  let pos = w.pos;
  for (let i = 0; i < n; i++) {
    const x = list[i];
    if (typeof x !== "number" || (signed ? (x | 0) !== x : x >>> 0 !== x)) throw badElement(w, x, signed ? "a 32-bit signed integer" : "a 32-bit unsigned integer", f, i);
    dv.setUint32(pos, x >>> 0, true);
    pos += 4;
  }
  w.pos = pos;
}

/** A packed run of 64-bit values: `form` 0 varint, 1 zigzag varint, 2 fixed. */
export function writePacked64(w: PlainEncoder, t: number, v: unknown, f: FieldRef, signed: number, form: number): void {
  const list = listOf(w, v, f), n = list.length;
  if (n === 0) return;
  let start = 0;
  if (form === 2) {
    w.varint32(t);
    w.varint32(n * 8);
    w.ensure(n * 8);
  } else {
    start = openRun(w, t);
    w.ensure(n * 10);
  }
  const buf = w.buf, dv = w.dv;
  let pos = w.pos;
  for (let i = 0; i < n; i++) {
    try {
      split64(w, list[i], "", signed === 1);
    } catch (e) {
      w.pos = pos;
      throw w.fail(e, f, i);
    }
    let lo = halves[0]!, hi = halves[1]!;
    if (form === 2) {
      dv.setUint32(pos, lo, true);
      dv.setUint32(pos + 4, hi, true);
      pos += 8;
      continue;
    }
    if (form === 1) {
      const sign = hi >> 31; // all ones for negative values
      const zl = ((lo << 1) ^ sign) >>> 0;
      hi = (((hi << 1) | (lo >>> 31)) ^ sign) >>> 0;
      lo = zl;
    }
    while (hi !== 0 || lo > 0x7f) {
      buf[pos++] = (lo & 0x7f) | 0x80;
      lo = ((lo >>> 7) | (hi << 25)) >>> 0;
      hi >>>= 7;
    }
    buf[pos++] = lo;
  }
  w.pos = pos;
  if (form !== 2) w.join(start);
}

/** A required field absent (also when the first pass found one the second did not find again). */
function requiredNotSet(): EncodeError {
  return new EncodeError("MISSING_REQUIRED", "", "required field is not set");
}

function tooLarge(max: number): EncodeError {
  return new EncodeError("MESSAGE_TOO_LARGE", "", `encoded message is larger than the limit (${max} bytes)`);
}
