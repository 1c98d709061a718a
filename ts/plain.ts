// Helpers generated materializers call to turn records into plain objects that own their data.
import { UNKNOWN_FIELDS } from "./abi.js";
import { defaultsPrototype } from "./defaults.js";
import { EMPTY_BYTES } from "./input.js";
import type { Memory } from "./memory.js";
import type { Runtime } from "./runtime.js";
import { DecodeError } from "./errors.js";
import type { SchemaDef } from "./schema.js";

// Array slots are (data pointer, count) at addr; the helpers read both words inline rather than
// through a tuple, and index the whole-memory typed arrays rather than making a view per field.
type Reader<T> = (m: Memory, ptr: number, rt: Runtime) => T;

/**
 * The constructor of message `index`'s plain objects when fields of it have declared defaults:
 * `make` sets the fields on an object whose prototype holds the defaults (see defaults.ts), and
 * leaves out those fields while unset. Each message type passes a function of its own, as other
 * messages' readers each have a literal of their own, so that its stores see that type's objects
 * alone (a constructor's stores are about as fast as a literal; Object.create() and stores, or
 * setting the prototype of a literal, cost several times a decode).
 */
/** The prototype of message `index`'s plain objects (its declared defaults), for generated decoders. */
export function defaults(def: SchemaDef, index: number): object {
  return defaultsPrototype(def, index) ?? Object.prototype;
}

export function withDefaults<T>(def: SchemaDef, index: number, make: (this: T, m: Memory, p: number, rt: Runtime) => void): new (m: Memory, p: number, rt: Runtime) => T {
  (make as { prototype: unknown }).prototype = defaultsPrototype(def, index);
  return make as unknown as new (m: Memory, p: number, rt: Runtime) => T;
}

/** A singular message field: undefined when absent. */
/**
 * A plain object of `weight` bytes (layout.ts plainWeight) charged to the read-out's budget, which
 * decodes from bytes or text set from the input's size as the arena's is (maxAmplification): past
 * it, MEMORY_BUDGET. Views read out by the caller have no such bound.
 */
export function charge(rt: Runtime, weight: number): void {
  if ((rt.plainBudget -= weight) < 0) throw new DecodeError("MEMORY_BUDGET", 0, "plain objects");
}

export function sub<T>(m: Memory, addr: number, read: Reader<T>, rt: Runtime): T | undefined {
  const p = m.u32[addr >>> 2]!;
  return p === 0 ? undefined : read(m, p, rt);
}

export function messages<T>(m: Memory, addr: number, read: Reader<T>, rt: Runtime): T[] {
  const p = m.u32[addr >>> 2]!;
  const n = m.u32[(addr >>> 2) + 1]!;
  const out = new Array<T>(n);
  for (let i = 0; i < n; i++) out[i] = read(m, m.u32[(p >>> 2) + i]!, rt);
  return out;
}

// Repeated numeric fields, one function per element type: an element load that has seen several
// typed-array types is megamorphic (Node 20, 1,000,000 doubles: 50 ms against 5.9 ms). Filled
// from the end, which V8 runs about twice as fast for large arrays (5.9 ms against 11).
export function i32s(m: Memory, addr: number): number[] {
  const w = addr >>> 2, n = m.u32[w + 1]!, base = m.u32[w]! >>> 2, heap = m.i32, out = new Array<number>(n);
  for (let i = n - 1; i >= 0; i--) out[i] = heap[base + i]!;
  return out;
}
export function u32s(m: Memory, addr: number): number[] {
  const w = addr >>> 2, n = m.u32[w + 1]!, base = m.u32[w]! >>> 2, heap = m.u32, out = new Array<number>(n);
  for (let i = n - 1; i >= 0; i--) out[i] = heap[base + i]!;
  return out;
}
export function f32s(m: Memory, addr: number): number[] {
  const w = addr >>> 2, n = m.u32[w + 1]!, base = m.u32[w]! >>> 2, heap = m.f32, out = new Array<number>(n);
  for (let i = n - 1; i >= 0; i--) out[i] = heap[base + i]!;
  return out;
}
export function f64s(m: Memory, addr: number): number[] {
  const w = addr >>> 2, n = m.u32[w + 1]!, base = m.u32[w]! >>> 3, heap = m.f64, out = new Array<number>(n);
  for (let i = n - 1; i >= 0; i--) out[i] = heap[base + i]!;
  return out;
}
export function i64s(m: Memory, addr: number): bigint[] {
  const w = addr >>> 2, n = m.u32[w + 1]!, base = m.u32[w]! >>> 3, heap = m.i64, out = new Array<bigint>(n);
  for (let i = n - 1; i >= 0; i--) out[i] = heap[base + i]!;
  return out;
}
export function u64s(m: Memory, addr: number): bigint[] {
  const w = addr >>> 2, n = m.u32[w + 1]!, base = m.u32[w]! >>> 3, heap = m.u64, out = new Array<bigint>(n);
  for (let i = n - 1; i >= 0; i--) out[i] = heap[base + i]!;
  return out;
}

/** A repeated 64-bit field as decimal strings (hppproto-gen --int64 string, or jstype = JS_STRING). */
export function int64Strings(m: Memory, addr: number, heap: BigInt64Array | BigUint64Array): string[] {
  const n = m.u32[(addr >>> 2) + 1]!;
  const base = m.u32[addr >>> 2]! >>> 3;
  const out = new Array<string>(n);
  for (let i = 0; i < n; i++) out[i] = String(heap[base + i]!);
  return out;
}

/** A repeated 64-bit field as numbers (hppproto-gen --int64 number, or jstype = JS_NUMBER). */
export function int64Numbers(m: Memory, addr: number, heap: BigInt64Array | BigUint64Array, field: string): number[] {
  const n = m.u32[(addr >>> 2) + 1]!;
  const base = m.u32[addr >>> 2]! >>> 3;
  const out = new Array<number>(n);
  for (let i = 0; i < n; i++) out[i] = safeNumber(heap[base + i]!, field);
  return out;
}

/** A 64-bit value as a number; a value a number cannot hold exactly is an error, never a silent rounding. */
export function safeNumber(v: bigint, field: string): number {
  const n = Number(v);
  if (!Number.isSafeInteger(n)) {
    throw new RangeError(`${field}: ${v} is beyond Number.MAX_SAFE_INTEGER; generate with --int64 bigint or string to read it`);
  }
  return n;
}

export function bools(m: Memory, addr: number): boolean[] {
  const p = m.u32[addr >>> 2]!;
  const n = m.u32[(addr >>> 2) + 1]!;
  const out = new Array<boolean>(n);
  for (let i = 0; i < n; i++) out[i] = m.u8[p + i] !== 0;
  return out;
}

export function strings(m: Memory, addr: number): string[] {
  const p = m.u32[addr >>> 2]!;
  const n = m.u32[(addr >>> 2) + 1]!;
  const out = new Array<string>(n);
  for (let i = 0; i < n; i++) out[i] = m.strAt(p + i * 8);
  return out;
}

export function bytesList(m: Memory, addr: number): Uint8Array[] {
  const p = m.u32[addr >>> 2]!;
  const n = m.u32[(addr >>> 2) + 1]!;
  const out = new Array<Uint8Array>(n);
  for (let i = 0; i < n; i++) out[i] = m.bytesAt(p + i * 8);
  return out;
}

/** A bytes slot in place, for views: a subarray of linear memory (an empty one is not: see input.ts lostContents). */
export function bytesView(m: Memory, addr: number): Uint8Array {
  const p = m.u32[addr >>> 2]!;
  const n = m.u32[(addr >>> 2) + 1]!;
  return n === 0 ? EMPTY_BYTES : m.u8.subarray(p, p + n);
}

/** Map entries into an object keyed by the stringified key; a repeated key takes its last value. */
export function map<V>(
  m: Memory, addr: number, key: (m: Memory, entry: number) => string, value: (m: Memory, entry: number) => V,
): { [key: string]: V } {
  const p = m.u32[addr >>> 2]!;
  const n = m.u32[(addr >>> 2) + 1]!;
  const out: { [key: string]: V } = {};
  for (let i = 0; i < n; i++) {
    const entry = m.u32[(p >>> 2) + i]!;
    const k = key(m, entry);
    // a "__proto__" key must become an own property, not the object's prototype
    if (k === "__proto__") Object.defineProperty(out, k, { value: value(m, entry), enumerable: true, writable: true, configurable: true });
    else out[k] = value(m, entry);
  }
  return out;
}

/** Whether the record holds unknown fields (small enough to inline where unknown() is not). */
export function hasUnknown(m: Memory, rec: number): boolean {
  return m.u32[((rec + UNKNOWN_FIELDS) >>> 2) + 1] !== 0;
}

/** The record's unknown fields as one byte string, or undefined when it has none. */
export function unknown(m: Memory, rec: number): Uint8Array | undefined {
  const n = m.u32[((rec + UNKNOWN_FIELDS) >>> 2) + 1]!;
  if (n === 0) return undefined;
  const p = m.u32[(rec + UNKNOWN_FIELDS) >>> 2]!;
  let size = 0;
  for (let i = 0; i < n; i++) size += m.u32[(p >>> 2) + i * 2 + 1]!;
  const out = new Uint8Array(size);
  let at = 0;
  for (let i = 0; i < n; i++) {
    const q = m.u32[(p >>> 2) + i * 2]!;
    const len = m.u32[(p >>> 2) + i * 2 + 1]!;
    out.set(m.u8.subarray(q, q + len), at);
    at += len;
  }
  return out;
}

/** The value of an empty bytes field in plain objects (generated decoders, as bytesAt gives it). */
export const emptyBytes: Uint8Array = EMPTY_BYTES;
