// Protobuf's semantics on plain objects, interpreted from the schema: which fields are set,
// equality, merging and copying. As protobuf-es defines them: a field counts when set (explicit
// presence: given, and a field with a declared default as an own property, not the default its
// prototype holds; implicit: not its default, so -0 is set and 0 is not; repeated and maps: not
// empty; oneofs: the member given), floats compare as IEEE numbers (NaN equals nothing, -0 equals
// 0), unknown fields are left out of equality, and merging is what decoding the target's bytes
// followed by the source's gives.
import { concatBytes } from "./copy.js";
import { setValue, type Oneof } from "./defaults.js";
import { FieldType, isInt64, Label, numberKind, type FieldInfo, type SchemaDef } from "./schema.js";
import { isMessage, isZero } from "./interpreted/values.js";

type Plain = Record<string, unknown>;


function hasEntries(v: unknown): boolean {
  for (const k in v as object) if (Object.hasOwn(v as object, k)) return true;
  return false;
}

/** Whether field f (not a oneof member) is set in o. */
export function fieldIsSet(f: FieldInfo, o: Plain): boolean {
  const v = setValue(f, o);
  if (v === undefined || v === null) return false;
  switch (f.label) {
    case Label.Repeated: return (v as ArrayLike<unknown>).length > 0;
    case Label.Map: return hasEntries(v);
    case Label.Implicit: return isMessage(f) || !isZero(f.type, v);
    default: return true;
  }
}

function scalarEquals(type: FieldType, a: unknown, b: unknown): boolean {
  if (type === FieldType.Bytes) {
    const x = a as Uint8Array, y = b as Uint8Array;
    if (x.length !== y.length) return false;
    for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return false;
    return true;
  }
  if (isInt64(type)) return BigInt(a as bigint) === BigInt(b as bigint); // bigint, decimal string or number alike
  return a === b;
}

function valueEquals(def: SchemaDef, f: FieldInfo, a: unknown, b: unknown): boolean {
  if (isMessage(f)) return messagesEqual(def, f.ref, a as Plain | undefined, b as Plain | undefined);
  return scalarEquals(f.type, a, b);
}

/** Protobuf equality of two plain objects of message `index` (undefined is the empty message). */
export function messagesEqual(def: SchemaDef, index: number, a: Plain | undefined, b: Plain | undefined): boolean {
  if (a === b) return true;
  const info = def.messages[index]!;
  const x = a ?? {}, y = b ?? {};
  for (const f of info.fields) {
    if (f.oneof >= 0) continue;
    const setX = fieldIsSet(f, x);
    if (setX !== fieldIsSet(f, y)) return false;
    if (!setX) continue;
    const u = x[f.prop], v = y[f.prop];
    if (f.label === Label.Repeated) {
      const p = u as ArrayLike<unknown>, q = v as ArrayLike<unknown>;
      if (p.length !== q.length) return false;
      for (let i = 0; i < p.length; i++) if (!valueEquals(def, f, p[i], q[i])) return false;
    } else if (f.label === Label.Map) {
      const value = def.messages[f.ref]!.fields[1]!;
      const p = u as Plain, q = v as Plain;
      const keys = Object.keys(p);
      if (keys.length !== Object.keys(q).length) return false;
      for (const k of keys) if (!Object.hasOwn(q, k) || !valueEquals(def, value, p[k], q[k])) return false;
    } else if (!valueEquals(def, f, u, v)) {
      return false;
    }
  }
  for (const o of info.oneofs) {
    const p = x[o.prop] as Oneof, q = y[o.prop] as Oneof;
    const c = p?.value == null ? undefined : p.case, d = q?.value == null ? undefined : q.case;
    if (c !== d) return false;
    if (c !== undefined && !valueEquals(def, o.fields.find((f) => f.prop === c)!, p!.value, q!.value)) return false;
  }
  return true;
}

/** A copy of a value of f's type that shares nothing mutable with it. */
function copyValue(def: SchemaDef, f: FieldInfo, v: unknown, empty: (index: number) => Plain): unknown {
  if (isMessage(f)) return mergeMessages(def, f.ref, empty(f.ref), v as Plain, empty);
  return f.type === FieldType.Bytes ? (v as Uint8Array).slice() : v;
}

/**
 * Merges `source` into `target` (both plain objects of message `index`), in place, as protobuf
 * merges: set scalars replace, messages merge, repeated fields append, map entries replace by key,
 * a oneof's member replaces another (or merges into the same message member), unknown fields
 * append. `empty(i)` makes an empty plain object of message i. Returns target.
 */
export function mergeMessages(def: SchemaDef, index: number, target: Plain, source: Plain, empty: (index: number) => Plain): Plain {
  const info = def.messages[index]!;
  for (const f of info.fields) {
    if (f.oneof >= 0 || !fieldIsSet(f, source)) continue;
    const v = source[f.prop];
    switch (f.label) {
      case Label.Repeated: {
        const old = (target[f.prop] ?? []) as ArrayLike<unknown>;
        const add = Array.from(v as ArrayLike<unknown>, (x) => copyValue(def, f, x, empty));
        target[f.prop] = Array.from(old).concat(add);
        break;
      }
      case Label.Map: {
        const value = def.messages[f.ref]!.fields[1]!;
        const map = { ...(target[f.prop] as Plain | undefined) };
        for (const k of Object.keys(v as Plain)) {
          const x = copyValue(def, value, (v as Plain)[k], empty);
          if (k === "__proto__") Object.defineProperty(map, k, { value: x, enumerable: true, writable: true, configurable: true });
          else map[k] = x;
        }
        target[f.prop] = map;
        break;
      }
      default:
        if (isMessage(f) && target[f.prop] != null) mergeMessages(def, f.ref, target[f.prop] as Plain, v as Plain, empty);
        else target[f.prop] = copyValue(def, f, v, empty);
    }
  }
  for (const o of info.oneofs) {
    const s = source[o.prop] as Oneof;
    if (s?.case === undefined || s.value == null) continue;
    const f = o.fields.find((x) => x.prop === s.case)!;
    const t = target[o.prop] as Oneof;
    if (isMessage(f) && t?.case === s.case && t.value != null) mergeMessages(def, f.ref, t.value as Plain, s.value as Plain, empty);
    else target[o.prop] = { case: s.case, value: copyValue(def, f, s.value, empty) };
  }
  const unknown = source.$unknown as Uint8Array | undefined;
  if (unknown !== undefined && unknown.length > 0) {
    const old = target.$unknown as Uint8Array | undefined;
    target.$unknown = concatBytes(old ? [old, unknown] : [unknown]);
  }
  return target;
}

/** Nesting past this is not a message (a cycle, most likely): encoding stops at the same depth. */
const MAX_DEPTH = 100;

const I64 = [-(1n << 63n), (1n << 63n) - 1n] as const, U64 = [0n, (1n << 64n) - 1n] as const;

/** Whether v is a value of f's type as plain objects hold it (the generated interface's type). */
function isValue(def: SchemaDef, f: FieldInfo, v: unknown, depth: number): boolean {
  if (isMessage(f)) return isPlainMessage(def, f.ref, v, depth + 1);
  switch (f.type) {
    case FieldType.String: return typeof v === "string";
    case FieldType.Bytes: return v instanceof Uint8Array;
    case FieldType.Bool: return typeof v === "boolean";
  }
  const kind = numberKind(f.type);
  switch (kind) {
    case "i32": return typeof v === "number" && (v | 0) === v;
    case "u32": return typeof v === "number" && v >>> 0 === v;
    case "f32": case "f64": return typeof v === "number";
  }
  // 64-bit: in the form the field's int64 option gives plain objects, within the type's range
  const [min, max] = kind === "i64" ? I64 : U64;
  let b: bigint;
  switch (f.int64) {
    case "bigint":
      if (typeof v !== "bigint") return false;
      b = v;
      break;
    case "string":
      if (typeof v !== "string" || !/^-?\d+$/.test(v)) return false;
      b = BigInt(v);
      break;
    default:
      if (typeof v !== "number" || !Number.isSafeInteger(v)) return false;
      b = BigInt(v);
  }
  return b >= min && b <= max;
}

/** Whether a map key (a plain object's string key) is one of the key type's values. */
function isMapKey(key: FieldInfo, k: string): boolean {
  if (key.type === FieldType.String) return true;
  if (key.type === FieldType.Bool) return k === "true" || k === "false";
  if (!/^-?\d+$/.test(k)) return false;
  const n = BigInt(k);
  const kind = numberKind(key.type);
  const [min, max] = kind === "i32" ? [-(1n << 31n), (1n << 31n) - 1n] : kind === "u32" ? [0n, (1n << 32n) - 1n] : kind === "i64" ? I64 : U64;
  return n >= min && n <= max;
}

/**
 * Whether x is a plain object of message `index` as the generated interface types it: every field
 * without presence there with its type (repeated fields as arrays, maps as objects), fields with
 * presence and oneofs absent (undefined) or of their type, $unknown absent or bytes. Other
 * properties are allowed, as TypeScript allows them.
 */
export function isPlainMessage(def: SchemaDef, index: number, x: unknown, depth = 0): boolean {
  if (typeof x !== "object" || x === null || Array.isArray(x) || depth > MAX_DEPTH) return false;
  const o = x as Plain;
  const info = def.messages[index]!;
  for (const f of info.fields) {
    if (f.oneof >= 0) continue;
    const v = o[f.prop];
    switch (f.label) {
      case Label.Repeated:
        if (!Array.isArray(v) || !v.every((e) => isValue(def, f, e, depth))) return false;
        break;
      case Label.Map: {
        if (typeof v !== "object" || v === null || Array.isArray(v)) return false;
        const [key, value] = def.messages[f.ref]!.fields as [FieldInfo, FieldInfo];
        for (const k of Object.keys(v)) if (!isMapKey(key, k) || !isValue(def, value, (v as Plain)[k], depth)) return false;
        break;
      }
      case Label.Implicit:
        if (!isValue(def, f, v, depth)) return false;
        break;
      default:
        if (v !== undefined && !isValue(def, f, v, depth)) return false;
    }
  }
  for (const one of info.oneofs) {
    const c = o[one.prop];
    if (c === undefined) continue;
    if (typeof c !== "object" || c === null) return false;
    const { case: which, value } = c as { case?: unknown; value?: unknown };
    const f = one.fields.find((m) => m.prop === which);
    if (f === undefined || !isValue(def, f, value, depth)) return false;
  }
  return o.$unknown === undefined || o.$unknown instanceof Uint8Array;
}
