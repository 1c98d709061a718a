// What the ProtoJSON reader interpreted from the schema (ts/interpreted/fromjson.ts) calls. It
// builds the plain object decode() would give straight from the parsed JSON; what it does not
// handle itself (a closed enum's unknown number, which
// decode() keeps as an unknown field; a missing required field; deep nesting) throws FALLBACK, and
// the message is read the schema-driven way instead. Errors carry paths relative to the message,
// completed on the way out.
import type { Registry } from "../registry.js";
import { FieldType as T, type SchemaDef } from "../schema.js";
import { JsonError, within, type TypeRef } from "./common.js";
import { DecodeError, EncodeError } from "../errors.js";
import { isJsonObject, type JsonObject, type JsonValue } from "./parse.js";
import { quote } from "../excerpt.js";
import { isWellFormed } from "../utf16.js";
import { MEMORY_BUDGET_REASON } from "../budget.js";
import { SKIP, describe, enumNumber, integer, messageFromJson, scalarFromJson, spend, type JsonReadOptions } from "./read.js";

export { SKIP, spend };
export const scalar = scalarFromJson;

/** Thrown to hand the whole message to the schema-driven reader. */
export const FALLBACK: unique symbol = Symbol("fallback");
export function fallback(): never {
  throw FALLBACK;
}

/** Deeper than this, the schema-driven reader (and the codec's depth limit) takes over. */
export const MAX_DEPTH = 64;

/** v as an object (its keys read with Object.keys: Object.entries' pair per key took a third of a read). */
export function object(v: JsonValue): JsonObject {
  if (!isJsonObject(v)) throw new JsonError("INVALID_VALUE", "", `${describe(v)} is not an object`);
  return v;
}

export function unknownField(typeName: string, key: string, opts: JsonReadOptions): void {
  // an extension the registry knows: the schema-driven reader keeps it in $unknown
  if (key.startsWith("[") && (opts.registry as Registry | undefined)?.extension?.(key.slice(1, -1)) !== undefined) fallback();
  if (!opts.ignoreUnknownFields) throw new JsonError("UNKNOWN_FIELD", "", `${typeName} has no field ${quote(key)}`);
}

export function duplicate(): never {
  throw new JsonError("DUPLICATE_FIELD", "", "the field is given twice (by json_name and by .proto name)");
}

export function secondOneofMember(oneof: string): never {
  throw new JsonError("DUPLICATE_FIELD", "", `a second member of oneof ${oneof}`);
}

/** The error, its path prefixed with the field's key (or an element's index or map key). */
export const at = within;

const enumNumbers = new WeakMap<object, Map<string, number>>();

/** An enum value by name or number; SKIP for an unknown name under ignoreUnknownFields. */
export function enumValue(def: SchemaDef, index: number, v: JsonValue, opts: JsonReadOptions): number | typeof SKIP {
  const info = def.enums[index]!;
  if (typeof v === "string") {
    let numbers = enumNumbers.get(info);
    if (numbers === undefined) enumNumbers.set(info, (numbers = new Map(info.values.map(([n, name]) => [name, n] as const).reverse())));
    const n = numbers.get(v);
    if (n !== undefined) return n;
    if (opts.ignoreUnknownFields) return SKIP;
    throw new JsonError("INVALID_VALUE", "", `${quote(v)} is not a value of ${info.name}`);
  }
  return enumNumber(v, info.name, "");
}

const declaredNumbers = new WeakMap<object, Set<number>>();

/** A closed enum keeps numbers it does not declare as unknown fields: the schema-driven reader's job. */
export function closedEnumValue(def: SchemaDef, index: number, v: JsonValue, opts: JsonReadOptions): number | typeof SKIP {
  const n = enumValue(def, index, v, opts);
  if (n === SKIP) return n;
  const info = def.enums[index]!;
  let declared = declaredNumbers.get(info);
  if (declared === undefined) declaredNumbers.set(info, (declared = new Set(info.values.map(([number]) => number))));
  if (!declared.has(n)) fallback();
  return n;
}

interface Codec {
  decode(bytes: Uint8Array): unknown;
  encode(message: unknown): Uint8Array;
}

/** The schema-driven reader of a message (well-known types with a JSON form of their own, CODE_SIZE messages), through its message type so the result is decode()'s. */
export function bySchema(type: TypeRef, v: JsonValue, opts: JsonReadOptions): unknown {
  return throughCodec(type, messageFromJson(type.schemaDef, type.index, v, opts, ""));
}

/**
 * What the schema-driven reader built, through the codec once: the plain object decode() gives.
 * What only the codec finds (nesting past maxDepth, a lone surrogate) is a JsonError too.
 */
export function throughCodec(type: Codec, init: unknown): unknown {
  try {
    return type.decode(type.encode(init));
  } catch (e) {
    if (!(e instanceof EncodeError || e instanceof DecodeError)) throw e;
    const where = e.path ? ` at ${e.path}` : "";
    if (e.code === "DEPTH_LIMIT") throw new JsonError("INVALID_JSON", "", `nested deeper than the runtime's maxDepth as messages${where}`);
    if (e.code === "MISSING_REQUIRED") throw new JsonError("MISSING_REQUIRED", "", `required field is not set${where}`);
    if (e.code === "MEMORY_BUDGET") throw new JsonError("MEMORY_BUDGET", "", `${MEMORY_BUDGET_REASON}${where}`);
    throw new JsonError("INVALID_VALUE", "", `${e instanceof EncodeError ? e.reason : e.message}${where}`);
  }
}

/** A repeated field: an array, elements through `each`, SKIP dropped; `size` bytes of the budget each. */
export function list<X>(v: JsonValue, each: (x: JsonValue) => X | typeof SKIP, acceptsNull: boolean, opts: JsonReadOptions, size: number): X[] {
  if (!Array.isArray(v)) throw new JsonError("INVALID_VALUE", "", `${describe(v)} is not an array`);
  spend(opts, v.length * size, "");
  const out: X[] = [];
  for (let i = 0; i < v.length; i++) {
    try {
      const e = v[i]!;
      if (e === null && !acceptsNull) throw new JsonError("INVALID_VALUE", "", "null is not a valid element");
      const x = each(e);
      if (x !== SKIP) out.push(x);
    } catch (e) {
      throw at(e, `[${i}]`);
    }
  }
  return out;
}

/**
 * A map field: keys checked against the key type and written as decode() writes them; one key
 * written two ways is an error. `size` bytes of the budget per entry.
 */
export function map<X>(v: JsonValue, keyType: T, each: (x: JsonValue) => X | typeof SKIP, acceptsNull: boolean, opts: JsonReadOptions, size: number): { [key: string]: X } {
  const out: { [key: string]: X } = {};
  const obj = object(v);
  const keys = Object.keys(obj);
  spend(opts, keys.length * size, "");
  for (const k of keys) {
    const x = obj[k]!;
    try {
      const key = mapKey(keyType, k);
      // "7" and "007" name one key: which came last is not kept (JSON objects order integer keys first)
      if (Object.hasOwn(out, key)) throw new JsonError("DUPLICATE_FIELD", "", `map key ${key} is given twice`);
      if (x === null && !acceptsNull) throw new JsonError("INVALID_VALUE", "", "null is not a valid map value");
      const value = each(x);
      if (value === SKIP) continue;
      Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
    } catch (e) {
      throw at(e, `[${quote(k)}]`);
    }
  }
  return out;
}

function mapKey(type: T, k: string): string {
  if (type === T.String) {
    if (!isWellFormed(k)) throw new JsonError("INVALID_VALUE", "", "map key holds a lone surrogate");
    return k;
  }
  if (type === T.Bool) {
    if (k !== "true" && k !== "false") throw new JsonError("INVALID_VALUE", "", `map key ${quote(k)} is not true or false`);
    return k;
  }
  if (!/^-?\d+$/.test(k)) throw new JsonError("INVALID_VALUE", "", `map key ${quote(k)} is not an integer`);
  return String(integer(type, k, ""));
}
