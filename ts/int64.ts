// 64-bit integers in a JS form other than the one code was generated with, for one decode:
// decode(bytes, { int64: "string" }) as protobufjs's toObject({ longs: String }) gives them. The
// fresh plain object is converted in place, walking the schema to its 64-bit fields only.
import { reformDefaults, setValue } from "./defaults.js";
import { FieldType, isInt64, Label, type FieldInfo, type Int64As, type SchemaDef } from "./schema.js";
import { isMessage } from "./interpreted/values.js";

type FormOf<F extends Int64As> = F extends "string" ? string : F extends "number" ? number : bigint;

/**
 * A 64-bit integer field's type in generated plain-object interfaces: its generated form D (--int64
 * or the field's jstype), or X when decode() is asked for form X. Generated interfaces that hold
 * 64-bit integers, themselves or in messages they hold, take X as their type parameter.
 */
export type Int64<D extends Int64As, X extends Int64As | undefined> = FormOf<X extends Int64As ? X : D>;

/** A message's plain-object type with its 64-bit integers in each form (a message type's 4th type parameter). */
export interface Int64Forms<S, N, B> {
  string: S;
  number: N;
  bigint: B;
}

/** The plain objects of message type M with every 64-bit integer in form X: what M.decode(bytes, { int64: X }) gives. */
export type Int64Form<M extends { readonly $types?: { forms: Int64Forms<unknown, unknown, unknown> } }, X extends Int64As> = NonNullable<M["$types"]>["forms"][X];

type Plain = Record<string, unknown>;

const holding = new WeakMap<SchemaDef, boolean[]>();

/** Whether message `index` holds a 64-bit integer field, itself or in a message it holds (map values included). */
function holds64(def: SchemaDef, index: number): boolean {
  let memo = holding.get(def);
  if (memo === undefined) holding.set(def, (memo = holdingInt64(def.messages.map((m) => m.fields))));
  return memo[index]!;
}

/**
 * For each message, whether it holds a 64-bit integer field, itself or in a message it holds:
 * found to a fixed point, since through a cycle a message can reach one that the walk that reached
 * it has not finished with. (The code generator types plain objects by the same rule.)
 */
export function holdingInt64(messages: readonly (readonly { type: FieldType; label: Label; ref: number }[])[]): boolean[] {
  const holds = messages.map((fields) => fields.some((f) => isInt64(f.type)));
  for (let changed = true; changed; ) {
    changed = false;
    messages.forEach((fields, i) => {
      if (!holds[i] && fields.some((f) => f.ref >= 0 && (f.type === FieldType.Message || f.type === FieldType.Group || f.label === Label.Map) && holds[f.ref])) changed = holds[i] = true;
    });
  }
  return holds;
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
  reformDefaults(def, index, o, to);
  const info = def.messages[index]!;
  for (const f of info.fields) {
    const at = `${path}.${f.name}`;
    if (f.oneof >= 0) {
      const c = o[info.oneofs[f.oneof]!.prop] as { case?: string; value?: unknown } | undefined;
      if (c?.case === f.prop && c.value != null) c.value = convertValue(def, f, c.value, to, at);
      continue;
    }
    const v = setValue(f, o); // a default o inherits is converted with its prototype
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
