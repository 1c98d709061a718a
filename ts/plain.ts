// Helpers generated materializers call to turn records into plain objects that own their data.
import type { Memory } from "./memory.js";
import type { Runtime } from "./runtime.js";

type Reader<T> = (m: Memory, ptr: number, rt: Runtime) => T;
type NumberArray = Int32ArrayConstructor | Uint32ArrayConstructor | Float32ArrayConstructor | Float64ArrayConstructor;
type BigArray = BigInt64ArrayConstructor | BigUint64ArrayConstructor;

function slot(m: Memory, addr: number): [number, number] {
  const w = addr >>> 2;
  return [m.u32[w]!, m.u32[w + 1]!];
}

/** A singular message field: undefined when absent. */
export function sub<T>(m: Memory, addr: number, read: Reader<T>, rt: Runtime): T | undefined {
  const p = m.u32[addr >>> 2]!;
  return p === 0 ? undefined : read(m, p, rt);
}

export function messages<T>(m: Memory, addr: number, read: Reader<T>, rt: Runtime): T[] {
  const [p, n] = slot(m, addr);
  const out = new Array<T>(n);
  for (let i = 0; i < n; i++) out[i] = read(m, m.u32[(p >>> 2) + i]!, rt);
  return out;
}

export function numbers(m: Memory, addr: number, type: NumberArray): number[];
export function numbers(m: Memory, addr: number, type: BigArray): bigint[];
export function numbers(m: Memory, addr: number, type: NumberArray | BigArray): (number | bigint)[] {
  const [p, n] = slot(m, addr);
  return Array.from(new type(m.buffer, p, n) as ArrayLike<number | bigint>);
}

export function bools(m: Memory, addr: number): boolean[] {
  const [p, n] = slot(m, addr);
  const out = new Array<boolean>(n);
  for (let i = 0; i < n; i++) out[i] = m.u8[p + i] !== 0;
  return out;
}

export function strings(m: Memory, addr: number): string[] {
  const [p, n] = slot(m, addr);
  const out = new Array<string>(n);
  for (let i = 0; i < n; i++) out[i] = m.strAt(p + i * 8);
  return out;
}

export function bytesList(m: Memory, addr: number): Uint8Array[] {
  const [p, n] = slot(m, addr);
  const out = new Array<Uint8Array>(n);
  for (let i = 0; i < n; i++) out[i] = m.bytesAt(p + i * 8);
  return out;
}

/** A bytes slot in place, for views: a subarray of linear memory. */
export function bytesView(m: Memory, addr: number): Uint8Array {
  const [p, n] = slot(m, addr);
  return m.u8.subarray(p, p + n);
}

/** Map entries into an object keyed by the stringified key; a repeated key takes its last value. */
export function map<V>(
  m: Memory, addr: number, key: (m: Memory, entry: number) => string, value: (m: Memory, entry: number) => V,
): { [key: string]: V } {
  const [p, n] = slot(m, addr);
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

/** The record's unknown fields as one byte string, or undefined when it has none. */
export function unknown(m: Memory, rec: number): Uint8Array | undefined {
  const [p, n] = slot(m, rec);
  if (n === 0) return undefined;
  let size = 0;
  for (let i = 0; i < n; i++) size += m.u32[(p >>> 2) + i * 2 + 1]!;
  const out = new Uint8Array(size);
  let at = 0;
  for (let i = 0; i < n; i++) {
    const [q, len] = slot(m, p + i * 8);
    out.set(m.u8.subarray(q, q + len), at);
    at += len;
  }
  return out;
}
