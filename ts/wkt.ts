// Helpers for the well-known types, on their plain objects (views read the same): Timestamp and
// Duration to and from JS time, Struct/Value/ListValue to and from JSON values, FieldMask paths to
// and from their ProtoJSON string and applied to messages, Any packed and unpacked through message types. Functions, so
// that a bundle carries only those a program calls; the message types themselves come from the
// program's generated google/protobuf modules.
import { define } from "./json/print.js";
import { fieldMaskFromJson, fieldMaskToJson, JsonError } from "./json/common.js";
import type { AnyMessageType, Init, PlainOf, ViewOf } from "./message.js";
import { Registry } from "./registry.js";
import { FieldType, Label } from "./schema.js";

/** A google.protobuf.Timestamp or Duration as generated code reads it (64-bit seconds as --int64 gives them). */
export interface SecondsAndNanos {
  readonly seconds: bigint | number | string;
  readonly nanos: number;
}

/** What the helpers make: seconds as bigint, generated code's default --int64. */
export interface Timestamp {
  seconds: bigint;
  nanos: number;
}
export type Duration = Timestamp;

function finiteMs(ms: number, what: string): number {
  if (typeof ms !== "number" || !Number.isFinite(ms)) throw new RangeError(`${what}: expected a finite number of milliseconds, got ${String(ms)}`);
  return ms;
}

/** Whole seconds (floored) and the nanoseconds past them, to the nearest nanosecond. */
function split(ms: number): [number, number] {
  let seconds = Math.floor(ms / 1000);
  let nanos = Math.round((ms - seconds * 1000) * 1e6);
  if (nanos >= 1e9) {
    seconds += 1;
    nanos -= 1e9;
  }
  return [seconds, nanos];
}

/** A Timestamp from milliseconds since the Unix epoch (fractions of a millisecond to the nearest nanosecond). */
export function timestampFromMs(ms: number): Timestamp {
  const [seconds, nanos] = split(finiteMs(ms, "timestampFromMs"));
  return { seconds: BigInt(seconds), nanos };
}

/** Milliseconds since the Unix epoch (nanoseconds rounded to the nearest millisecond). */
export function timestampMs(ts: SecondsAndNanos): number {
  return Number(ts.seconds) * 1000 + Math.round(ts.nanos / 1e6);
}

export function timestampFromDate(date: Date): Timestamp {
  return timestampFromMs(finiteMs(date.getTime(), "timestampFromDate (an invalid Date)"));
}

export function timestampDate(ts: SecondsAndNanos): Date {
  return new Date(timestampMs(ts));
}

export function timestampNow(): Timestamp {
  return timestampFromMs(Date.now());
}

/** A Duration of milliseconds: seconds and nanos share the sign, as the Duration spec requires. */
export function durationFromMs(ms: number): Duration {
  const sign = finiteMs(ms, "durationFromMs") < 0 ? -1 : 1;
  const [seconds, nanos] = split(Math.abs(ms));
  return { seconds: BigInt(seconds * sign), nanos: nanos === 0 ? 0 : nanos * sign };
}

/** Milliseconds of a Duration (nanoseconds rounded to the nearest millisecond). */
export const durationMs: (d: SecondsAndNanos) => number = timestampMs;

// ---- Struct, Value, ListValue ----

/** A JSON value as JSON.parse gives it. */
export type JsonData = null | boolean | number | string | JsonData[] | { [key: string]: JsonData };

/** google.protobuf.Value's plain object (with google.protobuf.NullValue's 0 for null). */
export interface Value {
  kind?: { case: "nullValue"; value: 0 } | { case: "numberValue"; value: number } | { case: "stringValue"; value: string }
    | { case: "boolValue"; value: boolean } | { case: "structValue"; value: Struct } | { case: "listValue"; value: ListValue };
}
export interface Struct {
  fields: { [key: string]: Value };
}
export interface ListValue {
  values: Value[];
}

/** A Value holding a JSON value. Numbers must be finite (JSON has no others). */
export function valueFromJson(json: JsonData, path = "Value"): Value {
  if (json === null) return { kind: { case: "nullValue", value: 0 } };
  switch (typeof json) {
    case "number":
      if (!Number.isFinite(json)) throw new JsonError("INVALID_VALUE", path, `${json} is not a JSON number`);
      return { kind: { case: "numberValue", value: json } };
    case "string": return { kind: { case: "stringValue", value: json } };
    case "boolean": return { kind: { case: "boolValue", value: json } };
    case "object":
      if (Array.isArray(json)) return { kind: { case: "listValue", value: { values: json.map((v, i) => valueFromJson(v, `${path}[${i}]`)) } } };
      return { kind: { case: "structValue", value: structFromJson(json, path) } };
  }
  throw new JsonError("INVALID_VALUE", path, `a ${typeof json} is not a JSON value`);
}

/** A Struct holding a JSON object. */
export function structFromJson(json: { [key: string]: JsonData }, path = "Struct"): Struct {
  if (json === null || typeof json !== "object" || Array.isArray(json)) throw new JsonError("INVALID_VALUE", path, "a Struct holds a JSON object");
  const fields: { [key: string]: Value } = {};
  for (const k of Object.keys(json)) define(fields, k, valueFromJson(json[k]!, `${path}[${JSON.stringify(k)}]`));
  return { fields };
}

/** The JSON value a Value holds. A Value without a kind, or a number JSON cannot hold, is an error (as ProtoJSON has it). */
export function valueToJson(value: Value, path = "Value"): JsonData {
  const kind = value.kind;
  switch (kind?.case) {
    case "nullValue": return null;
    case "numberValue":
      if (!Number.isFinite(kind.value)) throw new JsonError("INVALID_VALUE", path, `${kind.value} is not a JSON number`);
      return kind.value;
    case "stringValue": case "boolValue": return kind.value;
    case "listValue": return (kind.value.values ?? []).map((v, i) => valueToJson(v, `${path}[${i}]`));
    case "structValue": return structToJson(kind.value, path);
  }
  throw new JsonError("INVALID_VALUE", path, "a Value without a kind has no JSON form");
}

/** The JSON object a Struct holds. */
export function structToJson(struct: Struct, path = "Struct"): { [key: string]: JsonData } {
  const out: { [key: string]: JsonData } = {};
  const fields = struct.fields ?? {};
  for (const k of Object.keys(fields)) define(out as Record<string, unknown>, k, valueToJson(fields[k]!, `${path}[${JSON.stringify(k)}]`));
  return out;
}

// ---- FieldMask ----

/** A FieldMask's paths as its ProtoJSON string: lowerCamelCase, joined by commas ("a.fooBar,b"). */
export function fieldMaskToString(mask: { readonly paths: readonly string[] }): string {
  return fieldMaskToJson(mask.paths, "FieldMask");
}

/** A FieldMask from its ProtoJSON string. */
export function fieldMaskFromString(s: string): { paths: string[] } {
  return { paths: fieldMaskFromJson(s, "FieldMask") };
}

/**
 * The message with only the fields a FieldMask names (`.proto` names, "a.b" into singular message
 * fields), every other field as decode() leaves an absent one: a new plain object sharing nothing
 * with the message. A path that names no field, or goes on past a field that is not a singular
 * message, is a TypeError.
 */
export function fieldMaskApply<M extends AnyMessageType>(type: M, message: PlainOf<M>, mask: { readonly paths: readonly string[] }): PlainOf<M> {
  const def = type.schemaDef;
  const pick = (mi: number, src: Record<string, unknown>, paths: readonly string[][], at: string): Record<string, unknown> => {
    const info = def.messages[mi]!;
    const out: Record<string, unknown> = {};
    const byName = new Map<string, string[][]>();
    for (const p of paths) byName.set(p[0]!, [...(byName.get(p[0]!) ?? []), p.slice(1)]);
    for (const [name, rest] of byName) {
      const f = info.fields.find((x) => x.name === name);
      if (f === undefined) throw new TypeError(`FieldMask path ${at}${name}: ${info.name} has no field ${name}`);
      const whole = rest.some((p) => p.length === 0);
      const singularMessage = (f.type === FieldType.Message || f.type === FieldType.Group) && f.label !== Label.Repeated && f.label !== Label.Map;
      if (!whole && !singularMessage) throw new TypeError(`FieldMask path ${at}${name}.${rest[0]!.join(".")}: ${name} is not a singular message field`);
      const oneof = f.oneof >= 0 ? info.oneofs[f.oneof]!.prop : undefined;
      const value = oneof === undefined ? src[f.prop] : (src[oneof] as { case?: string; value?: unknown } | undefined)?.case === f.prop ? (src[oneof] as { value: unknown }).value : undefined;
      if (value === undefined || value === null) continue;
      const kept = whole ? value : pick(f.ref, value as Record<string, unknown>, rest, `${at}${name}.`);
      define(out, oneof ?? f.prop, oneof === undefined ? kept : { case: f.prop, value: kept });
    }
    return out;
  };
  const picked = pick(type.index, message as Record<string, unknown>, mask.paths.map((p) => p.split(".")), "");
  return type.create(picked) as PlainOf<M>;
}

// ---- Any ----

/** google.protobuf.Any's plain object. */
export interface Any {
  typeUrl: string;
  value: Uint8Array;
}

const typeNameOf = (typeUrl: string) => typeUrl.slice(typeUrl.lastIndexOf("/") + 1);

/** An Any holding `message`, encoded by its type, under the type URL protobuf uses (type.googleapis.com/...). */
export function anyPack<M extends AnyMessageType>(type: M, message: Init<PlainOf<M>> | ViewOf<M>): Any {
  return { typeUrl: `type.googleapis.com/${type.typeName}`, value: type.encode(message) };
}

/** Whether an Any holds a message of the type (a message type, or a full name). */
export function anyIs(any: { readonly typeUrl: string }, type: AnyMessageType | string): boolean {
  return typeNameOf(any.typeUrl) === (typeof type === "string" ? type : type.typeName);
}

/**
 * The message an Any holds, decoded by `type` (or by the type of the registry's message types
 * that it names); undefined when it holds another type. Errors in its bytes are DecodeErrors.
 */
export function anyUnpack<M extends AnyMessageType>(any: { readonly typeUrl: string; readonly value: Uint8Array }, type: M): PlainOf<M> | undefined;
export function anyUnpack(any: { readonly typeUrl: string; readonly value: Uint8Array }, registry: Registry | readonly AnyMessageType[]): unknown;
export function anyUnpack(any: { readonly typeUrl: string; readonly value: Uint8Array }, types: AnyMessageType | Registry | readonly AnyMessageType[]): unknown {
  const name = typeNameOf(any.typeUrl);
  const type = types instanceof Registry ? types.get(name) : Array.isArray(types) ? types.find((t) => t.typeName === name) : (types as AnyMessageType).typeName === name ? types : undefined;
  return type === undefined ? undefined : (type as AnyMessageType).decode(any.value);
}
