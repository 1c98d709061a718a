// Writes JS values into records in an arena: what generated fill functions (plain object -> record)
// and builders call before the C++ encoder serializes the record. Every value is checked against its
// field's type here, so a bad value fails before anything is encoded.
import { ARENA_CUR, BYTES_SLOT_SIZE, UNKNOWN_FIELDS } from "./abi.js";
import { blockBytes, bump } from "./arena.js";
import { EncodeError } from "./errors.js";
import { quote } from "./excerpt.js";
import { describe, invalid, toInt64, toUint64, within } from "./checks.js";
import { byteOffsetOf, lengthOf } from "./input.js";
import { lostContents } from "./input.js";
import type { Memory } from "./memory.js";
import { MAX_BLOCK } from "./limits.js";
import type { Runtime } from "./runtime.js";
import type { SchemaDef } from "./schema.js";
import { isWellFormed, nodeText } from "./utf16.js";

/** Fills the record at p from a plain object. */
export type Fill<T> = (w: RecordWriter, o: T, p: number) => void;

/**
 * A field as errors name it: its index among the fields of the message being filled (generated
 * code, which so carries no names: the schema's is looked up when an error needs it), or its name
 * (interpreted code, which has it at hand; "" for none, as for map keys and list elements).
 */
export type FieldRef = number | string;

const utf8 = new TextEncoder();

/** ASCII strings up to this length are written by a JS loop; longer ones by TextEncoder.encodeInto (see wirebuffer.ts). */
const SHORT_STRING = nodeText ? 32 : 256;

export class RecordWriter {
  readonly m: Memory;
  /** Set by allocFor(). */
  private moved = -1;
  /** The schema, and the message of it being filled: what a numeric FieldRef indexes. */
  private def: SchemaDef | undefined;
  private message = -1;

  constructor(
    readonly rt: Runtime,
    /** Address of the C++ Arena records are allocated in. */
    readonly arena: number,
  ) {
    this.m = rt.mem;
  }

  /** Starts filling message `index` of def: what numeric FieldRefs index, until a sub-message. */
  begin(def: SchemaDef, index: number): void {
    this.def = def;
    this.message = index;
  }

  /** A field's name, for an error path. */
  private name(field: FieldRef): string {
    return typeof field === "string" ? field : this.def!.messages[this.message]!.fields[field]!.name;
  }

  /** size bytes (rounded up to 8) bump-allocated in the arena, in JS when the current block has room. */
  alloc(size: number): number {
    size = blockSize(size);
    return bump(this.m.u32, this.arena, size) || this.newBlock(size);
  }

  /** size bytes (a multiple of 8) from a new block: a call into WASM, which may grow memory. */
  private newBlock(size: number): number {
    const p = this.rt.exports.hp_arena_alloc(this.arena, size) >>> 0;
    this.m.sync();
    if (p === 0) throw new EncodeError("OUT_OF_MEMORY", "");
    return p;
  }

  /**
   * alloc(size) for a copy of the typed array v. A new block may grow memory, which detaches v if it
   * aliases memory (a view's typed array or bytes): then `moved` is v's byteOffset, for the caller to
   * copy it from there; else -1. byteOffset is read only then: it is a ~20 ns builtin call in V8.
   */
  private allocFor(v: ArrayBufferView, size: number): number {
    size = blockSize(size);
    const p = bump(this.m.u32, this.arena, size);
    this.moved = -1;
    if (p !== 0) return p;
    const n = lengthOf(v), at = byteOffsetOf(v);
    const q = this.newBlock(size);
    if (lengthOf(v) !== n) this.moved = at;
    return q;
  }

  allocZeroed(size: number): number {
    const p = this.alloc(size);
    if (size <= 64) {
      // small records: a few stores beat the fill() call (measured); records are 8-byte aligned
      const u32 = this.m.u32;
      for (let w = p >>> 2, end = (p + size + 3) >>> 2; w < end; w++) u32[w] = 0;
    } else {
      this.m.u8.fill(0, p, p + size);
    }
    return p;
  }

  /** Gives back the end of the newest allocation [p, p+reserved), keeping `used` bytes. */
  private trim(p: number, reserved: number, used: number): void {
    const cur = (this.arena + ARENA_CUR) >>> 2;
    if (this.m.u32[cur] === p + blockBytes(reserved)) this.m.u32[cur] = p + blockBytes(used);
  }

  // ---- scalars: one slot at addr ----

  i32(addr: number, v: unknown, field: FieldRef): void {
    if (typeof v !== "number" || (v | 0) !== v) throw invalid(v, "a 32-bit signed integer", this.name(field));
    this.m.i32[addr >>> 2] = v;
  }
  /** A value of enum `index` of the schema: any int32 (open enums keep undeclared numbers); errors name the enum. */
  enumValue(addr: number, v: unknown, field: FieldRef, index: number): void {
    if (typeof v !== "number" || (v | 0) !== v) throw invalid(v, `a value of enum ${this.def!.enums[index]!.name} (a 32-bit signed integer)`, this.name(field));
    this.m.i32[addr >>> 2] = v;
  }
  u32(addr: number, v: unknown, field: FieldRef): void {
    if (typeof v !== "number" || v >>> 0 !== v) throw invalid(v, "a 32-bit unsigned integer", this.name(field));
    this.m.u32[addr >>> 2] = v;
  }
  f32(addr: number, v: unknown, field: FieldRef): void {
    if (typeof v !== "number") throw invalid(v, "a number", this.name(field));
    this.m.f32[addr >>> 2] = v;
  }
  f64(addr: number, v: unknown, field: FieldRef): void {
    if (typeof v !== "number") throw invalid(v, "a number", this.name(field));
    this.m.f64[addr >>> 3] = v;
  }
  i64(addr: number, v: unknown, field: FieldRef): void {
    try {
      this.m.i64[addr >>> 3] = toInt64(v);
    } catch (e) {
      throw within(e, this.name(field));
    }
  }
  u64(addr: number, v: unknown, field: FieldRef): void {
    try {
      this.m.u64[addr >>> 3] = toUint64(v);
    } catch (e) {
      throw within(e, this.name(field));
    }
  }
  bool(addr: number, v: unknown, field: FieldRef): void {
    if (typeof v !== "boolean") throw invalid(v, "a boolean", this.name(field));
    this.m.u8[addr] = v ? 1 : 0;
  }

  /** Clears the presence bit `mask` in the byte at addr. */
  unbit(addr: number, mask: number): void {
    const u8 = this.m.u8;
    u8[addr] = u8[addr]! & ~mask;
  }

  /** Zeroes n bytes at addr: a field back to its default. */
  zero(addr: number, n: number): void {
    this.m.u8.fill(0, addr, addr + n);
  }

  /** Sets the presence bit `mask` in the byte at addr. */
  bit(addr: number, mask: number): void {
    const u8 = this.m.u8;
    u8[addr] = u8[addr]! | mask;
  }

  /** A string slot: the UTF-8 bytes copied into the arena. Lone surrogates are an error. */
  str(addr: number, v: unknown, field: FieldRef): void {
    if (typeof v !== "string") throw invalid(v, "a string", this.name(field));
    const n = v.length;
    if (n === 0) {
      this.slot(addr, 0, 0);
      return;
    }
    const reserved = n * 3; // the most UTF-8 bytes n UTF-16 units can need
    const p = this.alloc(reserved);
    let i = 0;
    if (n <= SHORT_STRING) {
      const u8 = this.m.u8;
      for (; i < n; i++) {
        const c = v.charCodeAt(i);
        if (c >= 0x80) break;
        u8[p + i] = c;
      }
    }
    let len = i;
    if (i < n) {
      if (!isWellFormed(v)) throw new EncodeError("INVALID_UTF16", this.name(field), "string holds a lone surrogate");
      const tail = i === 0 ? v : v.slice(i);
      len += utf8.encodeInto(tail, this.m.u8.subarray(p + i, p + reserved)).written;
    }
    this.trim(p, reserved, len);
    this.slot(addr, p, len);
  }

  bytes(addr: number, v: unknown, field: FieldRef): void {
    if (!(v instanceof Uint8Array)) throw invalid(v, "a Uint8Array", this.name(field));
    const n = lengthOf(v);
    if (n === 0) {
      this.attached(v, field);
      this.slot(addr, 0, 0);
      return;
    }
    const p = this.allocFor(v, n);
    this.m.copyIn(v, this.moved, n, p);
    this.slot(addr, p, n);
  }

  /** A (pointer, length) pair at addr. */
  slot(addr: number, p: number, n: number): void {
    const u32 = this.m.u32;
    u32[addr >>> 2] = p;
    u32[(addr >>> 2) + 1] = n;
  }

  /**
   * A message slot: a fresh record for message `index` of def, filled from v. def is the schema of
   * the module whose code `fill` is (its numeric FieldRefs and enum indexes are that schema's, and
   * its record size the one `fill` writes), which for a message of another .proto file is that file's.
   */
  msg(addr: number, v: unknown, fill: Fill<never>, def: SchemaDef, index: number, field: FieldRef): void {
    if (typeof v !== "object" || v === null) throw invalid(v, "an object", this.name(field));
    const rec = this.allocZeroed(def.messages[index]!.recordSize);
    this.m.u32[addr >>> 2] = rec;
    const outerDef = this.def, outer = this.message;
    this.def = def;
    this.message = index;
    try {
      this.fill(fill, v, rec);
    } catch (e) {
      this.def = outerDef;
      this.message = outer;
      throw within(e, this.name(field));
    }
    this.def = outerDef;
    this.message = outer;
  }

  /** Runs fill, the code of message `index` of def, on record rec: what its numeric FieldRefs and enum indexes mean meanwhile. */
  fillAs(def: SchemaDef, index: number, fill: Fill<never>, o: never, rec: number): void {
    const outerDef = this.def, outer = this.message;
    this.def = def;
    this.message = index;
    try {
      fill(this, o, rec);
    } finally {
      this.def = outerDef;
      this.message = outer;
    }
  }

  // ---- repeated fields: an array slot (data, size, capacity) at addr ----

  /**
   * One more element of `width` bytes at the end of the array slot at addr; returns its address.
   * Growth doubles the capacity; a borrowed run (capacity 0) is copied first.
   */
  push(addr: number, width: number): number {
    const w = addr >>> 2;
    let u32 = this.m.u32;
    let data = u32[w]!;
    const size = u32[w + 1]!;
    if (size >= u32[w + 2]!) {
      const capacity = Math.max(4, size * 2);
      const fresh = this.alloc(capacity * width);
      this.m.u8.copyWithin(fresh, data, data + size * width);
      u32 = this.m.u32;
      u32[w] = data = fresh;
      u32[w + 2] = capacity;
    }
    u32[w + 1] = size + 1;
    return data + size * width;
  }

  /** Room for n elements of `width` bytes; returns the address of the first. */
  array(addr: number, n: number, width: number): number {
    const p = n === 0 ? 0 : this.alloc(n * width);
    this.arraySlot(addr, p, n);
    return p;
  }

  /**
   * The array slot for a copy of typed array v of `width`-byte elements: returns where the caller
   * copies v to with its own element type (one call site per type stays monomorphic), or 0 when
   * there is nothing left to copy (v empty, or moved here already from where it aliased memory).
   */
  private typedSlot(addr: number, v: ArrayBufferView, width: number, field: FieldRef): number {
    const n = lengthOf(v);
    if (n === 0) {
      this.attached(v, field);
      this.arraySlot(addr, 0, 0);
      return 0;
    }
    const p = this.allocFor(v, width * n);
    this.arraySlot(addr, p, n);
    if (this.moved < 0) return p;
    this.m.u8.copyWithin(p, this.moved, this.moved + width * n);
    return 0;
  }

  /** An array slot (data, size, capacity) holding n elements at p. */
  private arraySlot(addr: number, p: number, n: number): void {
    const u32 = this.m.u32;
    u32[addr >>> 2] = p;
    u32[(addr >>> 2) + 1] = n;
    u32[(addr >>> 2) + 2] = n;
  }

  // ---- repeated numbers: a typed array of the field's element type is copied in one call; other
  // arrays are checked and stored element by element. One method per element type keeps each
  // monomorphic (one shared method with the type as an argument was a third of a map tile's encode).

  i32s(addr: number, v: unknown, field: FieldRef): void {
    if (v instanceof Int32Array) {
      const p = this.typedSlot(addr, v, 4, field);
      if (p !== 0) this.m.i32.set(v, p >>> 2);
      return;
    }
    const list = this.list(v, field), n = this.size(list, field), base = this.array(addr, n, 4) >>> 2;
    for (let i = 0; i < n; i++) {
      const x = list[i];
      if (typeof x !== "number" || (x | 0) !== x) throw within(invalid(x, "a 32-bit signed integer", ""), `${this.name(field)}[${i}]`);
      this.m.i32[base + i] = x; // (memory's arrays read again: a getter of the list may have grown it)
    }
  }
  u32s(addr: number, v: unknown, field: FieldRef): void {
    if (v instanceof Uint32Array) {
      const p = this.typedSlot(addr, v, 4, field);
      if (p !== 0) this.m.u32.set(v, p >>> 2);
      return;
    }
    const list = this.list(v, field), n = this.size(list, field), base = this.array(addr, n, 4) >>> 2;
    for (let i = 0; i < n; i++) {
      const x = list[i];
      if (typeof x !== "number" || x >>> 0 !== x) throw within(invalid(x, "a 32-bit unsigned integer", ""), `${this.name(field)}[${i}]`);
      this.m.u32[base + i] = x;
    }
  }
  f32s(addr: number, v: unknown, field: FieldRef): void {
    if (v instanceof Float32Array) {
      const p = this.typedSlot(addr, v, 4, field);
      if (p !== 0) this.m.f32.set(v, p >>> 2);
      return;
    }
    const list = this.list(v, field), n = this.size(list, field), base = this.array(addr, n, 4) >>> 2;
    for (let i = 0; i < n; i++) {
      const x = list[i];
      if (typeof x !== "number") throw within(invalid(x, "a number", ""), `${this.name(field)}[${i}]`);
      this.m.f32[base + i] = x;
    }
  }
  f64s(addr: number, v: unknown, field: FieldRef): void {
    if (v instanceof Float64Array) {
      const p = this.typedSlot(addr, v, 8, field);
      if (p !== 0) this.m.f64.set(v, p >>> 3);
      return;
    }
    const list = this.list(v, field), n = this.size(list, field), base = this.array(addr, n, 8) >>> 3;
    for (let i = 0; i < n; i++) {
      const x = list[i];
      if (typeof x !== "number") throw within(invalid(x, "a number", ""), `${this.name(field)}[${i}]`);
      this.m.f64[base + i] = x;
    }
  }
  i64s(addr: number, v: unknown, field: FieldRef): void {
    if (v instanceof BigInt64Array) {
      const p = this.typedSlot(addr, v, 8, field);
      if (p !== 0) this.m.i64.set(v, p >>> 3);
      return;
    }
    const list = this.list(v, field), n = this.size(list, field), base = this.array(addr, n, 8) >>> 3;
    let i = 0;
    try {
      for (; i < n; i++) {
        const x = toInt64(list[i]);
        this.m.i64[base + i] = x;
      }
    } catch (e) {
      throw within(e, `${this.name(field)}[${i}]`);
    }
  }
  u64s(addr: number, v: unknown, field: FieldRef): void {
    if (v instanceof BigUint64Array) {
      const p = this.typedSlot(addr, v, 8, field);
      if (p !== 0) this.m.u64.set(v, p >>> 3);
      return;
    }
    const list = this.list(v, field), n = this.size(list, field), base = this.array(addr, n, 8) >>> 3;
    let i = 0;
    try {
      for (; i < n; i++) {
        const x = toUint64(list[i]);
        this.m.u64[base + i] = x;
      }
    } catch (e) {
      throw within(e, `${this.name(field)}[${i}]`);
    }
  }

  /**
   * A list's length, read once: an array-like (a Proxy of an array) may claim any, and a fraction
   * would size its storage short of the elements written.
   */
  private size(list: ArrayLike<unknown>, field: FieldRef): number {
    const n = list.length;
    if ((n >>> 0) !== n) throw new EncodeError("INVALID_VALUE", this.name(field), `an array whose length is ${describe(n)}`);
    return n;
  }

  /** v as elements to read one by one: an array, or a copy of a typed array (which may alias memory). */
  private list(v: unknown, field: FieldRef): ArrayLike<unknown> {
    if (Array.isArray(v)) return v;
    if (ArrayBuffer.isView(v) && !(v instanceof DataView)) {
      const typed = v as ArrayBufferView & { slice(): ArrayLike<unknown> };
      this.attached(typed, field);
      return typed.slice();
    }
    throw invalid(v, "an array", this.name(field));
  }

  /**
   * An empty typed array may be an alias of memory that growth detached (memory grew since it was
   * read from its view, perhaps earlier in this encode), or have lost its contents otherwise
   * (input.ts lostContents): an error rather than an empty field, as the generated encoders say it.
   */
  private attached(v: ArrayBufferView, field: FieldRef): void {
    const lost = lostContents(v);
    if (lost !== undefined) throw new EncodeError("INVALID_VALUE", this.name(field), lost);
  }

  /** Repeated strings, bytes or messages: one slot per element, each written by `write`. */
  each<T>(addr: number, v: unknown, width: number, write: (addr: number, e: T) => void, field: FieldRef): void {
    const list = this.list(v, field) as ArrayLike<T>;
    const n = this.size(list, field);
    const p = this.array(addr, n, width);
    for (let i = 0; i < n; i++) {
      try {
        write(p + i * width, list[i]!);
      } catch (e) {
        throw within(e, `${this.name(field)}[${i}]`);
      }
    }
  }

  /** Repeated messages, message `index` of def (as for msg()): a record per element, its pointer in the array. */
  msgs(addr: number, v: unknown, fill: Fill<never>, def: SchemaDef, index: number, field: FieldRef): void {
    const size = def.messages[index]!.recordSize;
    const list = this.list(v, field);
    const n = this.size(list, field);
    const p = this.array(addr, n, 4);
    const outerDef = this.def, outer = this.message;
    this.def = def;
    this.message = index;
    let i = 0;
    try {
      for (; i < n; i++) {
        const e = list[i];
        if (typeof e !== "object" || e === null) throw invalid(e, "an object", "");
        const rec = this.allocZeroed(size);
        this.m.u32[(p >>> 2) + i] = rec;
        this.fill(fill, e, rec);
      }
    } catch (e) {
      this.def = outerDef;
      this.message = outer;
      throw within(e, `${this.name(field)}[${i}]`);
    }
    this.def = outerDef;
    this.message = outer;
  }

  /** A map from a plain object: one entry record per own key. */
  map(addr: number, v: unknown, entrySize: number, entry: (p: number, key: string, value: unknown) => void, field: FieldRef): void {
    if (typeof v !== "object" || v === null) throw invalid(v, "an object", this.name(field));
    const keys = Object.keys(v);
    const p = this.array(addr, keys.length, 4);
    for (let i = 0; i < keys.length; i++) {
      const e = this.allocZeroed(entrySize);
      this.m.u32[(p >>> 2) + i] = e;
      const k = keys[i]!;
      try {
        entry(e, k, (v as Record<string, unknown>)[k]);
      } catch (err) {
        throw within(err, `${this.name(field)}[${quote(k)}]`);
      }
    }
  }

  /** A oneof object whose case names no member. */
  badCase(oneof: string, c: unknown): never {
    throw new EncodeError("INVALID_VALUE", oneof, `${describe(c)} is not a case of this oneof`);
  }

  /** Fills record rec from plain object o: its fields by `fill`, then its unknown fields. */
  fill(fill: Fill<never>, o: object, rec: number): void {
    fill(this, o as never, rec);
    const v = (o as { $unknown?: unknown }).$unknown;
    if (v !== undefined && v !== null) this.unknown(rec, v);
  }

  /** Sets the unknown fields of record rec (a new or empty record, or a builder's, replacing them) to wire bytes v. */
  unknown(rec: number, v: unknown): void {
    if (!(v instanceof Uint8Array)) throw invalid(v, "a Uint8Array", "$unknown");
    if (lengthOf(v) === 0) {
      this.arraySlot(rec + UNKNOWN_FIELDS, 0, 0);
      return;
    }
    const ranges = this.array(rec + UNKNOWN_FIELDS, 1, BYTES_SLOT_SIZE);
    this.bytes(ranges, v, "$unknown");
  }
}

/** blockBytes(size), or MESSAGE_TOO_LARGE. */
function blockSize(size: number): number {
  // checked before rounding: at 2^31 the 32-bit rounding turns negative and would "fit"
  if (!(size >= 0 && size <= MAX_BLOCK)) throw new EncodeError("MESSAGE_TOO_LARGE", "", `${size} bytes is more than one allocation can hold (${MAX_BLOCK})`);
  return blockBytes(size);
}
