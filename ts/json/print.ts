// Plain objects to ProtoJSON values (the canonical JSON mapping): field names, 64-bit integers as
// strings, bytes as base64, enum names, non-finite floats as strings, and the well-known types.
import { FieldType as T, type SchemaDef } from "../schema.js";
import { interpretedToJson } from "../interpreted/tojson.js";
import { JsonError, base64Encode, within, hasSpecialJson, fieldMaskToJson, formatDuration, formatTimestamp, inside, mayOpen, resolveAny, wrapperTypes, type TypeRef, type Types } from "./common.js";

export interface JsonWriteOptions {
  /** Also write fields without presence that hold their default (0, "", false, [], {}); extensions only when set. */
  emitDefaults?: boolean;
  /** Enum values as numbers rather than names. */
  enumsAsInts?: boolean;
  /** The .proto field names rather than lowerCamelCase json_name. */
  useProtoNames?: boolean;
  /** Message types an `Any` may hold, besides those of the same generated code. */
  registry?: Types;
}

type Plain = Record<string, unknown>;
type Json = unknown;

/**
 * A message as ProtoJSON, path naming it in errors: the well-known types' own forms here, other
 * messages by the writer interpreted from the schema (what generated toJson functions do).
 */
export function messageToJson(def: SchemaDef, mi: number, obj: Plain, opts: JsonWriteOptions, path: string): Json {
  const special = wellKnownToJson(def, def.messages[mi]!.name, obj, opts, path);
  if (special !== undefined) return special;
  try {
    return interpretedToJson(def, mi)(obj, opts);
  } catch (e) {
    throw within(e, path);
  }
}

/** Own data properties only: a "__proto__" key must not become the object's prototype. */
export function define(o: Record<string, Json>, k: string, v: Json): void {
  if (k === "__proto__") Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
  else o[k] = v;
}

function defaultOf(type: T): unknown {
  switch (type) {
    case T.String: return "";
    case T.Bytes: return new Uint8Array(0);
    case T.Bool: return false;
    case T.Int64: case T.Uint64: case T.Sint64: case T.Fixed64: case T.Sfixed64: return 0n;
    default: return 0;
  }
}

export function scalarToJson(type: T, v: unknown): Json {
  switch (type) {
    case T.Int64: case T.Uint64: case T.Sint64: case T.Fixed64: case T.Sfixed64:
      return String(v);
    case T.Double: return floatToJson(v as number);
    case T.Float: return floatToJson(shortestFloat32(v as number));
    case T.Bytes: return base64Encode(v as Uint8Array);
    default: return v;
  }
}

/**
 * Negative zeros handed out as JSON numbers so far: JSON.stringify prints -0 as 0, so text output
 * (stringify() below) takes the slow way only when this moved.
 */
let negativeZeros = 0;

export function floatToJson(v: number): Json {
  if (Object.is(v, -0)) negativeZeros++;
  if (Number.isFinite(v)) return v;
  return Number.isNaN(v) ? "NaN" : v > 0 ? "Infinity" : "-Infinity";
}

// A stand-in for -0 in JSON.stringify's output; lone surrogates are printed escaped, and no
// valid string holds them.
const NEGATIVE_ZERO = "\udbff-0\udbff";
const NEGATIVE_ZERO_TEXT = JSON.stringify(NEGATIVE_ZERO);

/** A JSON value made by `make` as text, its negative zeros printed as -0 (which protobuf prints). */
export function stringify(make: () => unknown, indent?: number | string): string {
  const before = negativeZeros;
  const value = make();
  if (negativeZeros === before) return JSON.stringify(value, null, indent);
  const text = JSON.stringify(value, (_k, v: unknown) => (Object.is(v, -0) ? NEGATIVE_ZERO : v), indent);
  return text.replaceAll(NEGATIVE_ZERO_TEXT, "-0");
}

/** JSON text indented as JSON.stringify indents, its negative zeros kept. */
export function indentJson(text: string, indent: number | string): string {
  const value: unknown = JSON.parse(text);
  if (!text.includes("-0")) return JSON.stringify(value, null, indent);
  return JSON.stringify(value, (_k, v: unknown) => (Object.is(v, -0) ? NEGATIVE_ZERO : v), indent).replaceAll(NEGATIVE_ZERO_TEXT, "-0");
}

/** The shortest decimal that reads back as the same float32 (1.1f prints as 1.1, not 1.100000023841858). */
export function shortestFloat32(v: number): number {
  if (!Number.isFinite(v) || v === 0) return v;
  for (let p = 1; p < 10; p++) {
    const d = Number(v.toPrecision(p));
    if (Math.fround(d) === v) return d;
  }
  return v;
}

function wellKnownToJson(def: SchemaDef, name: string, obj: Plain, opts: JsonWriteOptions, path: string): Json | undefined {
  if (!name.startsWith("google.protobuf.")) return undefined;
  const short = name.slice(16);
  if (Object.hasOwn(wrapperTypes, short)) return scalarToJson(wrapperTypes[short]!, obj["value"] ?? defaultOf(wrapperTypes[short]!));
  switch (short) {
    case "Timestamp": return formatTimestamp(BigInt((obj["seconds"] as bigint | undefined) ?? 0n), (obj["nanos"] as number | undefined) ?? 0, path);
    case "Duration": return formatDuration(BigInt((obj["seconds"] as bigint | undefined) ?? 0n), (obj["nanos"] as number | undefined) ?? 0, path);
    case "FieldMask": return fieldMaskToJson((obj["paths"] as string[] | undefined) ?? [], path);
    case "Struct": return structToJson(obj, path);
    case "Value": return valueMessageToJson(obj, path);
    case "ListValue": return listToJson(obj, path);
    case "Any": return anyToJson(def, obj, opts, path);
    default: return undefined;
  }
}

function valueMessageToJson(v: Plain, path: string): Json {
  const kind = v["kind"] as { case?: string; value?: unknown } | undefined;
  switch (kind?.case) {
    case "nullValue": return null;
    case "numberValue": {
      const n = kind.value as number;
      if (!Number.isFinite(n)) throw new JsonError("VALUE_OUT_OF_RANGE", path, `google.protobuf.Value cannot hold ${n} in JSON`);
      return n;
    }
    case "stringValue": case "boolValue": return kind.value;
    case "structValue": return structToJson(kind.value as Plain, path);
    case "listValue": return listToJson(kind.value as Plain, path);
    default: throw new JsonError("INVALID_VALUE", path, "google.protobuf.Value has no kind set");
  }
}

/** A Struct's object, its values inside it. */
function structToJson(struct: Plain, path: string): Json {
  const out: Record<string, Json> = {};
  const fields = (struct["fields"] ?? {}) as Record<string, Plain>;
  return inside(1, () => {
    for (const k of Object.keys(fields)) define(out, k, valueMessageToJson(fields[k]!, `${path}.${k}`));
    return out;
  }, path);
}

/** A ListValue's array, its values inside it. */
function listToJson(list: Plain, path: string): Json {
  return inside(1, () => ((list["values"] ?? []) as Plain[]).map((x, i) => valueMessageToJson(x, `${path}[${i}]`)), path);
}

/**
 * An Any's object: its message's fields beside "@type", or its message's own JSON form as "value".
 * The bytes of an Any in an Any are decoded afresh, which no decode depth limit bounds: the writers'
 * depth (mayOpen) does, one level before each decode.
 */
function anyToJson(def: SchemaDef, obj: Plain, opts: JsonWriteOptions, path: string): Json {
  const url = (obj["typeUrl"] as string | undefined) ?? "";
  const value = (obj["value"] as Uint8Array | undefined) ?? new Uint8Array(0);
  mayOpen(1, path);
  if (url === "" && value.length === 0) return {};
  const target = resolveAny(def, url, opts.registry, path);
  const innerName = target.def.messages[target.index]!.name;
  const special = hasSpecialJson(innerName);
  const inner = target.type.decode(value) as Plain;
  if (special) return { "@type": url, value: inside(1, () => messageToJson(target.def, target.index, inner, opts, path)) };
  return { "@type": url, ...(messageToJson(target.def, target.index, inner, opts, path) as object) };
}
