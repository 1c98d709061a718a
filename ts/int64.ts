// 64-bit integers in a JS form other than the one code was generated with, for one decode:
// decode(bytes, { int64: "string" }) as protobufjs's toObject({ longs: String }) gives them. The
// fresh plain object is converted in place, walking the schema to its 64-bit fields only.
import { isInt64, Label, type FieldInfo, type Int64As, type SchemaDef } from "./schema.js";
import { isMessage } from "./interpreted/values.js";

/** T with its bigint values (generated code's default 64-bit form) as the form X says. */
export type Int64Form<T, X extends Int64As> =
  T extends bigint ? (X extends "string" ? string : X extends "number" ? number : bigint)
  : T extends Uint8Array ? T
  : T extends readonly (infer E)[] ? Int64Form<E, X>[]
  : T extends object ? { [K in keyof T]: Int64Form<T[K], X> }
  : T;

type Plain = Record<string, unknown>;

const holding = new WeakMap<SchemaDef, boolean[]>();

/** Whether message `index` holds a 64-bit integer field, itself or in a message it holds (map values included). */
function holds64(def: SchemaDef, index: number): boolean {
  let memo = holding.get(def);
  if (memo === undefined) holding.set(def, (memo = []));
  const known = memo[index];
  if (known !== undefined) return known;
  memo[index] = false; // a cycle adds nothing
  const found = def.messages[index]!.fields.some((f) => isInt64(f.type) || (f.ref >= 0 && (isMessage(f) || f.label === Label.Map) && holds64(def, f.ref)));
  return (memo[index] = found);
}

/** A 64-bit value (bigint, decimal string or safe number) in form `to`; a number past 2^53 - 1 is a RangeError. */
function as64(v: unknown, to: Int64As, path: string): unknown {
  if (to === "bigint") return typeof v === "bigint" ? v : BigInt(v as string | number);
  if (to === "string") return String(v);
  const b = BigInt(v as bigint | string | number);
  if (b > BigInt(Number.MAX_SAFE_INTEGER) || b < BigInt(Number.MIN_SAFE_INTEGER)) throw new RangeError(`${path}: ${b} does not fit a JS number exactly`);
  return Number(b);
}

function convertValue(def: SchemaDef, f: FieldInfo, v: unknown, to: Int64As, path: string): unknown {
  if (isMessage(f)) {
    convert64(def, f.ref, v as Plain, to, path);
    return v;
  }
  return isInt64(f.type) ? as64(v, to, path) : v;
}

/** Converts the 64-bit integers of plain object o (message `index`) to form `to`, in place. */
export function convert64(def: SchemaDef, index: number, o: Plain, to: Int64As, path: string): void {
  if (!holds64(def, index)) return;
  const info = def.messages[index]!;
  for (const f of info.fields) {
    const at = `${path}.${f.name}`;
    if (f.oneof >= 0) {
      const c = o[info.oneofs[f.oneof]!.prop] as { case?: string; value?: unknown } | undefined;
      if (c?.case === f.prop && c.value != null) c.value = convertValue(def, f, c.value, to, at);
      continue;
    }
    const v = o[f.prop];
    if (v == null) continue;
    if (f.label === Label.Repeated) {
      const list = v as unknown[];
      for (let i = 0; i < list.length; i++) list[i] = convertValue(def, f, list[i], to, `${at}[${i}]`);
    } else if (f.label === Label.Map) {
      const value = def.messages[f.ref]!.fields[1]!;
      const map = v as Plain;
      for (const k of Object.keys(map)) map[k] = convertValue(def, value, map[k], to, `${at}[${JSON.stringify(k)}]`);
    } else {
      o[f.prop] = convertValue(def, f, v, to, at);
    }
  }
}
