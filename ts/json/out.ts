// What the writer interpreted from the schema (ts/interpreted/tojson.ts) calls to build ProtoJSON
// values: conversions beyond JSON's own, and the error path, built on the way out of nested
// messages (the happy path carries none). Generated code writes text instead (write.ts).
import type { Registry } from "../registry.js";
import type { SchemaDef } from "../schema.js";
import { isZero64 } from "../interpreted/values.js";
import { base64Encode, inside, mayOpen, within, writing } from "./common.js";
import { define, floatToJson, messageToJson, shortestFloat32, type JsonWriteOptions } from "./print.js";

type Json = unknown;
type ToJson<T> = (o: T, opts: JsonWriteOptions) => Json;

export const double = floatToJson;
export const float = (v: number): Json => floatToJson(shortestFloat32(v));
export const bytes = base64Encode;

/** 64-bit integers are bigint, or strings or numbers from code generated with --int64. */
export const nonZero64 = (v: bigint | string | number): boolean => !isZero64(v);

const enumNames = new WeakMap<object, Map<number, string>>();

/** An enum value's name; a number the enum does not declare stays a number. */
export function enumName(def: SchemaDef, index: number, v: number): Json {
  const info = def.enums[index]!;
  let names = enumNames.get(info);
  if (names === undefined) enumNames.set(info, (names = new Map(info.values.map(([n, name]) => [n, name] as const).reverse())));
  return names.get(v) ?? v;
}

/** A message field written by its writer; errors get the field's key in front of their path. */
export function sub<T>(toJson: ToJson<T>, v: T, opts: JsonWriteOptions, key: string): Json {
  writing.enclosing++; // the object of the message it is a field of
  try {
    return toJson(v, opts);
  } catch (e) {
    throw within(e, `.${key}`);
  } finally {
    writing.enclosing--;
  }
}

/** The schema-driven writer of a message: for well-known types with a JSON form of their own, and CODE_SIZE messages. */
export function bySchema(def: SchemaDef, index: number): ToJson<unknown> {
  return (v, opts) => messageToJson(def, index, (v ?? {}) as Record<string, unknown>, opts, "");
}

/**
 * The extensions of message type `extendee` that the registry of opts knows among its unknown
 * fields, as `"[full.name]"` keys, each written by the extension's carrier.
 */
export function extensions(extendee: string, unknown: Uint8Array, j: Record<string, Json>, opts: JsonWriteOptions): void {
  const registered = (opts.registry as Registry).unknownExtensions?.(extendee, unknown);
  for (const [ext, value] of registered?.found ?? []) {
    const { carrier: type, field } = ext;
    try {
      const json = messageToJson(type.schemaDef, type.index, { [field.prop]: value }, opts, "") as Record<string, Json>;
      if (Object.hasOwn(json, field.name)) define(j, field.name, json[field.name]);
    } catch (e) {
      throw within(e, `.${field.name}`);
    }
  }
}

/** A repeated field, each element through `each` (or copied as is). */
export function list<T>(v: readonly T[], each?: (x: T) => Json): Json[] {
  mayOpen(2); // the message's object, and the array
  return each === undefined ? v.slice() : v.map((x) => each(x));
}

/** A repeated message field. */
export function messages<T>(v: readonly T[], toJson: ToJson<T>, opts: JsonWriteOptions, key: string): Json[] {
  const out = new Array<Json>(v.length);
  return inside(2, () => { // the message's object, and the array
    for (let i = 0; i < v.length; i++) {
      try {
        out[i] = toJson(v[i]!, opts);
      } catch (e) {
        throw within(e, `.${key}[${i}]`);
      }
    }
    return out;
  }, `.${key}`);
}

export { define };

/** Whether a map (a plain object) has an entry. */
export function nonEmpty(v: object): boolean {
  for (const k in v) if (Object.hasOwn(v, k)) return true;
  return false;
}

/** A map field: keys as they are (plain objects key maps by strings), values through `each`. */
export function map<T>(v: { readonly [key: string]: T }, each?: (x: T, key: string) => Json): Record<string, Json> {
  const out: Record<string, Json> = {};
  return inside(2, () => { // the message's object, and the map's
    for (const k of Object.keys(v)) define(out, k, each === undefined ? v[k] : each(v[k]!, k));
    return out;
  });
}

/** A map entry's message value, with the entry's key in the error path. */
export function entry<T>(toJson: ToJson<T>, v: T, opts: JsonWriteOptions, key: string, mapKey: string): Json {
  try {
    return toJson(v, opts);
  } catch (e) {
    throw within(e, `.${key}[${JSON.stringify(mapKey)}]`);
  }
}
