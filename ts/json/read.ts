// ProtoJSON values to plain objects (what encode() takes): every value checked against its field's
// type, with the JSON path in errors. Keys are matched by json_name or .proto name; a field given
// twice, or two members of one oneof, are errors.
import { FieldType as T, Label as L, type FieldInfo, type MessageInfo, type SchemaDef } from "../schema.js";
import { JsonError, base64Decode, hasSpecialJson, fieldMaskFromJson, parseDuration, parseTimestamp, resolveAny, wrapperTypes, type TypeRef, type Types } from "./common.js";
import { isJsonObject, JsonNumber, jsonKeySegment, members, type JsonObject, type JsonValue } from "./parse.js";
import { excerpt, quote } from "../excerpt.js";
import { isWellFormed } from "../utf16.js";
import { EncodeError } from "../errors.js";
import { elementSize, MEMORY_BUDGET_REASON, type ReadBudget } from "../budget.js";
import type { Extension } from "../extension.js";
import type { Registry } from "../registry.js";

export interface JsonReadOptions {
  /** Skip fields the message does not have (and enum names it does not know) instead of failing. */
  ignoreUnknownFields?: boolean;
  /** Message types an `Any` may hold, besides those of the same generated code. */
  registry?: Types;
  /** @internal what the read may build: fromJson() gives each read its own */
  budget?: ReadBudget;
}

/** Takes bytes from the read's budget; past it, the read is MEMORY_BUDGET. */
export function spend(opts: JsonReadOptions, bytes: number, path: string): void {
  if (opts.budget !== undefined && !opts.budget.take(bytes)) throw new JsonError("MEMORY_BUDGET", path, MEMORY_BUDGET_REASON);
}

type Plain = Record<string, unknown>;

const keyIndex = new WeakMap<MessageInfo, Map<string, FieldInfo>>();

function fieldByKey(info: MessageInfo): Map<string, FieldInfo> {
  let m = keyIndex.get(info);
  if (m === undefined) {
    m = new Map();
    for (const f of info.fields) {
      m.set(f.jsonName, f);
      m.set(f.name, f);
    }
    keyIndex.set(info, m);
  }
  return m;
}

/** A JSON value as error messages name it (excerpted: it may be a megabyte of digits). */
export const describe = (v: JsonValue): string =>
  v === null ? "null" : v instanceof JsonNumber ? excerpt(v.text) : typeof v === "number" ? jsNumberText(v) : Array.isArray(v) ? "an array" : isJsonObject(v) ? "an object" : typeof v === "string" ? quote(v) : String(v);

/** A JS number as JSON writes it, -0 with its sign. */
const jsNumberText = (n: number): string => (Object.is(n, -0) ? "-0" : String(n));

export function messageFromJson(def: SchemaDef, mi: number, json: JsonValue, opts: JsonReadOptions, path: string): Plain {
  const info = def.messages[mi]!;
  const special = wellKnownFromJson(def, info.name, json, opts, path);
  if (special !== undefined) return special;
  if (!isJsonObject(json)) throw new JsonError("INVALID_VALUE", path, `${describe(json)} is not an object`);
  spend(opts, info.recordSize, path);
  const out: Plain = {};
  const fields = fieldByKey(info);
  const seen = new Set<number>();
  const oneofs = new Set<string>();
  for (const [key, v] of members(json)) {
    const at = `${path}.${key}`;
    const f = fields.get(key);
    if (f === undefined) {
      const ext = key.startsWith("[") ? (opts.registry as Registry | undefined)?.extension?.(key.slice(1, -1)) : undefined;
      if (ext !== undefined && ext.extendee.typeName === info.name) {
        if (seen.has(ext.number)) throw new JsonError("DUPLICATE_FIELD", at, "the extension is given twice");
        seen.add(ext.number);
        if (v !== null || acceptsNull(ext.carrier.schemaDef, ext.field)) extensionFromJson(ext, key, v, out, opts, path);
        continue;
      }
      if (opts.ignoreUnknownFields) continue;
      throw new JsonError("UNKNOWN_FIELD", path + jsonKeySegment(key), `${info.name} has no field ${quote(key)}`);
    }
    const { number, prop, label, ref } = f;
    const oneof = f.oneof >= 0 ? info.oneofs[f.oneof]!.prop : undefined;
    if (seen.has(number)) throw new JsonError("DUPLICATE_FIELD", at, "the field is given twice (by json_name and by .proto name)");
    seen.add(number);
    if (v === null && !acceptsNull(def, f)) continue; // null: the field is absent
    if (label === L.Repeated) {
      if (!Array.isArray(v)) throw new JsonError("INVALID_VALUE", at, `${describe(v)} is not an array`);
      spend(opts, v.length * elementSize(def, f), at);
      const list: unknown[] = [];
      v.forEach((e, i) => {
        if (e === null && !acceptsNull(def, f)) throw new JsonError("INVALID_VALUE", `${at}[${i}]`, "null is not a valid element");
        const x = valueFromJson(def, f, e, opts, `${at}[${i}]`);
        if (x !== SKIP) list.push(x);
      });
      out[prop] = list;
    } else if (label === L.Map) {
      if (!isJsonObject(v)) throw new JsonError("INVALID_VALUE", at, `${describe(v)} is not an object`);
      const [keyField, valueField] = def.messages[ref]!.fields as [FieldInfo, FieldInfo];
      const m: Plain = {};
      const seenKeys = new Set<string>();
      const entries = members(v);
      spend(opts, entries.length * elementSize(def, f), at);
      for (const [k, x] of entries) {
        const kat = `${at}[${quote(k)}]`;
        checkMapKey(keyField.type, k, kat);
        const key = keyField.type === T.String || keyField.type === T.Bool ? k : String(BigInt(k));
        if (seenKeys.has(key)) throw new JsonError("DUPLICATE_FIELD", kat, `map key ${key} is given twice`);
        seenKeys.add(key);
        if (x === null && !acceptsNull(def, valueField)) throw new JsonError("INVALID_VALUE", kat, "null is not a valid map value");
        const val = valueFromJson(def, valueField, x, opts, kat);
        if (val === SKIP) continue;
        Object.defineProperty(m, k, { value: val, enumerable: true, writable: true, configurable: true });
      }
      out[prop] = m;
    } else {
      const x = valueFromJson(def, f, v, opts, at);
      if (x === SKIP) continue;
      if (oneof !== undefined) {
        if (oneofs.has(oneof)) throw new JsonError("DUPLICATE_FIELD", at, `a second member of oneof ${oneof}`);
        oneofs.add(oneof);
        out[oneof] = { case: prop, value: x };
      } else {
        out[prop] = x;
      }
    }
  }
  return out;
}

/**
 * An extension the message's schema does not hold as a field (a registry's): read by the
 * extension's carrier, kept as its wire bytes in $unknown, where decode() would keep them.
 */
function extensionFromJson(ext: Extension<unknown, unknown>, key: string, v: JsonValue, out: Plain, opts: JsonReadOptions, path: string): void {
  const { carrier } = ext;
  const value = messageFromJson(carrier.schemaDef, carrier.index, { [key]: v }, opts, path)[ext.field.prop];
  if (value === undefined) return; // an enum name unknown under ignoreUnknownFields
  try {
    ext.appendTo(out, value);
  } catch (e) {
    if (e instanceof EncodeError) throw new JsonError("INVALID_VALUE", `${path}.${key}`, e.message);
    throw e;
  }
}

/** google.protobuf.Value takes null as its null_value; NullValue fields take null as 0. */
function acceptsNull(def: SchemaDef, f: FieldInfo): boolean {
  const type = f.type;
  if (type === T.Message) return def.messages[f.ref]!.name === "google.protobuf.Value";
  if (type === T.Enum) return def.enums[f.ref]!.name === "google.protobuf.NullValue";
  return false;
}

/** An enum name the message does not know, under ignoreUnknownFields: the field is left out. */
export const SKIP = Symbol("skip");

function valueFromJson(def: SchemaDef, f: FieldInfo, v: JsonValue, opts: JsonReadOptions, path: string): unknown {
  const type = f.type;
  switch (type) {
    case T.Message: case T.Group: return messageFromJson(def, f.ref, v, opts, path);
    case T.Enum: {
      const e = def.enums[f.ref]!;
      if (e.name === "google.protobuf.NullValue" && v === null) return 0;
      if (typeof v === "string") {
        const hit = e.values.find(([, name]) => name === v);
        if (hit) return hit[0];
        if (opts.ignoreUnknownFields) return SKIP;
        throw new JsonError("INVALID_VALUE", path, `${quote(v)} is not a value of ${e.name}`);
      }
      return enumNumber(v, e.name, path);
    }
    default:
      return scalarFromJson(type, v, path);
  }
}

/** An enum given by number: an int32, or an error that names the enum. */
export function enumNumber(v: JsonValue, enumName: string, path: string): number {
  try {
    return integer(T.Int32, v, path) as number;
  } catch (e) {
    if (!(e instanceof JsonError)) throw e;
    throw new JsonError(e.code, e.path, `${describe(v)} is not a value of enum ${enumName} (a name, or a 32-bit signed integer)`);
  }
}

const ranges: Partial<Record<T, [bigint, bigint]>> = {
  [T.Int32]: [-(2n ** 31n), 2n ** 31n - 1n], [T.Sint32]: [-(2n ** 31n), 2n ** 31n - 1n], [T.Sfixed32]: [-(2n ** 31n), 2n ** 31n - 1n],
  [T.Uint32]: [0n, 2n ** 32n - 1n], [T.Fixed32]: [0n, 2n ** 32n - 1n],
  [T.Int64]: [-(2n ** 63n), 2n ** 63n - 1n], [T.Sint64]: [-(2n ** 63n), 2n ** 63n - 1n], [T.Sfixed64]: [-(2n ** 63n), 2n ** 63n - 1n],
  [T.Uint64]: [0n, 2n ** 64n - 1n], [T.Fixed64]: [0n, 2n ** 64n - 1n],
};

/** An integer from a JSON number or string, exactly (1e2 and 100.0 are 100; 1.5 is not an integer). */
/** The same ranges as numbers (64-bit bounds are beyond 15 digits either way), and whether the type is 64-bit. */
const numberRanges: ([number, number, boolean] | undefined)[] = [];
for (const [t, [min, max]] of Object.entries(ranges)) numberRanges[Number(t)] = [Number(min), Number(max), max > 2n ** 32n];

/** Up to 15 digits, no fraction or exponent: exact as a double, the common case. */
const plainInteger = /^-?\d{1,15}$/;

export function integer(type: T, v: JsonValue, path: string): number | bigint {
  if (typeof v === "number" && Number.isSafeInteger(v)) {
    const [min, max, wide] = numberRanges[type]!;
    if (v < min || v > max) throw new JsonError("VALUE_OUT_OF_RANGE", path, `${v} is out of range for ${T[type]!.toLowerCase()}`);
    return wide ? BigInt(v) : v + 0; // + 0: -0 is 0
  }
  const text = v instanceof JsonNumber ? v.text : typeof v === "number" ? jsNumberText(v) : typeof v === "string" ? v : undefined;
  if (text !== undefined && plainInteger.test(text)) {
    const [min, max, wide] = numberRanges[type]!;
    const n = Number(text) + 0; // + 0: "-0" is 0
    if (n < min || n > max) throw new JsonError("VALUE_OUT_OF_RANGE", path, `${text} is out of range for ${T[type]!.toLowerCase()}`);
    return wide ? BigInt(n) : n;
  }
  const m = text === undefined ? null : /^(-)?(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(text);
  if (!m) throw new JsonError("INVALID_VALUE", path, `${describe(v)} is not an integer`);
  let digits = m[2]! + (m[3] ?? "");
  let exp = Number(m[4] ?? 0) - (m[3]?.length ?? 0);
  if (exp < -400 || exp > 400) throw new JsonError("VALUE_OUT_OF_RANGE", path, `${describe(v)} is out of range`);
  while (exp < 0 && digits.endsWith("0")) {
    digits = digits.slice(0, -1);
    exp++;
  }
  if (exp < 0 && /[1-9]/.test(digits)) throw new JsonError("INVALID_VALUE", path, `${describe(v)} is not an integer`);
  let n = exp < 0 ? 0n : BigInt(digits) * 10n ** BigInt(exp);
  if (m[1]) n = -n;
  const [min, max] = ranges[type]!;
  if (n < min || n > max) throw new JsonError("VALUE_OUT_OF_RANGE", path, `${describe(v)} is out of range for ${T[type]!.toLowerCase()}`);
  return max > 2n ** 32n ? n : Number(n);
}

export function scalarFromJson(type: T, v: JsonValue, path: string): unknown {
  switch (type) {
    case T.Double: case T.Float: {
      let n: number;
      if (typeof v === "number") {
        if (!Number.isFinite(v)) return v; // NaN or Infinity: a JS value's (fromJs), never text's
        n = v;
      }
      else if (v instanceof JsonNumber) n = v.value;
      else if (v === "NaN") return NaN;
      else if (v === "Infinity") return Infinity;
      else if (v === "-Infinity") return -Infinity;
      else if (typeof v === "string" && /^-?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/.test(v)) n = Number(v);
      else throw new JsonError("INVALID_VALUE", path, `${describe(v)} is not a number`);
      // a float takes what rounds to a finite float: its own printed maximum, 3.4028235e+38, parses
      if (!Number.isFinite(n) || (type === T.Float && !Number.isFinite(Math.fround(n)))) {
        throw new JsonError("VALUE_OUT_OF_RANGE", path, `${describe(v)} is out of range for ${type === T.Float ? "float" : "double"}`);
      }
      return n;
    }
    case T.Bool:
      if (typeof v !== "boolean") throw new JsonError("INVALID_VALUE", path, `${describe(v)} is not true or false`);
      return v;
    case T.String:
      if (typeof v !== "string") throw new JsonError("INVALID_VALUE", path, `${describe(v)} is not a string`);
      if (!isWellFormed(v)) throw new JsonError("INVALID_VALUE", path, "string holds a lone surrogate (\\uD800-\\uDFFF escape without its pair)");
      return v;
    case T.Bytes: {
      const b = typeof v === "string" ? base64Decode(v) : undefined;
      if (b === undefined) throw new JsonError("INVALID_VALUE", path, `${describe(v)} is not base64`);
      return b;
    }
    default:
      return integer(type, v, path);
  }
}

function checkMapKey(type: T, k: string, path: string): void {
  if (type === T.String) {
    if (!isWellFormed(k)) throw new JsonError("INVALID_VALUE", path, "map key holds a lone surrogate");
    return;
  }
  if (type === T.Bool) {
    if (k !== "true" && k !== "false") throw new JsonError("INVALID_VALUE", path, `map key ${quote(k)} is not true or false`);
    return;
  }
  if (!/^-?\d+$/.test(k)) throw new JsonError("INVALID_VALUE", path, `map key ${quote(k)} is not an integer`);
  integer(type, k, path);
}

function wellKnownFromJson(def: SchemaDef, name: string, v: JsonValue, opts: JsonReadOptions, path: string): Plain | undefined {
  if (!name.startsWith("google.protobuf.")) return undefined;
  const short = name.slice(16);
  if (Object.hasOwn(wrapperTypes, short)) return { value: scalarFromJson(wrapperTypes[short]!, v, path) };
  const str = (what: string): string => {
    if (typeof v !== "string") throw new JsonError("INVALID_VALUE", path, `${describe(v)} is not a ${what} string`);
    return v;
  };
  switch (short) {
    case "Timestamp": return parseTimestamp(str("Timestamp"), path);
    case "Duration": return parseDuration(str("Duration"), path);
    case "FieldMask": return { paths: fieldMaskFromJson(str("FieldMask"), path) };
    case "Struct":
      if (!isJsonObject(v)) throw new JsonError("INVALID_VALUE", path, `${describe(v)} is not an object`);
      return structFromJson(v, path);
    case "Value": return valueMessageFromJson(v, path);
    case "ListValue":
      if (!Array.isArray(v)) throw new JsonError("INVALID_VALUE", path, `${describe(v)} is not an array`);
      return { values: v.map((x, i) => valueMessageFromJson(x, `${path}[${i}]`)) };
    case "Any": return anyFromJson(def, v, opts, path);
    default: return undefined;
  }
}

function structFromJson(v: JsonObject, path: string): Plain {
  const fields: Plain = {};
  for (const [k, x] of members(v)) Object.defineProperty(fields, k, { value: valueMessageFromJson(x, path + jsonKeySegment(k)), enumerable: true, writable: true, configurable: true });
  return { fields };
}

function valueMessageFromJson(v: JsonValue, path: string): Plain {
  if (v === null) return { kind: { case: "nullValue", value: 0 } };
  if (typeof v === "boolean") return { kind: { case: "boolValue", value: v } };
  if (typeof v === "string") return { kind: { case: "stringValue", value: v } };
  if (typeof v === "number" || v instanceof JsonNumber) {
    const n = typeof v === "number" ? v : v.value;
    // 1e400 (or a JS value's Infinity): JSON has no number for it, and protobuf refuses it
    if (!Number.isFinite(n)) throw new JsonError("VALUE_OUT_OF_RANGE", path, `${describe(v)} is out of range for google.protobuf.Value's number (a double)`);
    return { kind: { case: "numberValue", value: n } };
  }
  if (Array.isArray(v)) return { kind: { case: "listValue", value: { values: v.map((x, i) => valueMessageFromJson(x, `${path}[${i}]`)) } } };
  return { kind: { case: "structValue", value: structFromJson(v, path) } };
}

function anyFromJson(def: SchemaDef, v: JsonValue, opts: JsonReadOptions, path: string): Plain {
  if (!isJsonObject(v)) throw new JsonError("INVALID_VALUE", path, `${describe(v)} is not an object`);
  const all = members(v);
  if (all.length === 0) return {};
  const url = Object.hasOwn(v, "@type") ? v["@type"] : undefined;
  if (typeof url !== "string") throw new JsonError("INVALID_VALUE", path, "an Any needs its \"@type\"");
  const target = resolveAny(def, url, opts.registry, path);
  const innerName = target.def.messages[target.index]!.name;
  const rest = Object.create(null) as Record<string, JsonValue>;
  for (const [k, x] of all) if (k !== "@type") rest[k] = x;
  let inner: Plain;
  if (hasSpecialJson(innerName)) {
    if (all.length !== 2 || !Object.hasOwn(rest, "value")) throw new JsonError("INVALID_VALUE", path, `an Any holding ${innerName} has exactly "@type" and "value"`);
    inner = messageFromJson(target.def, target.index, rest["value"]!, opts, `${path}.value`);
  } else {
    inner = messageFromJson(target.def, target.index, rest, opts, path);
  }
  return { typeUrl: url, value: target.type.encode(inner as never) };
}
