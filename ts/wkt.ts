// Helpers for the well-known types, on their plain objects (views read the same): Timestamp and
// Duration to and from JS time, Struct/Value/ListValue to and from JSON values, Any packed and
// unpacked through message types (FieldMask's are in fieldmask.ts). Functions, so
// that a bundle carries only those a program calls; the message types themselves come from the
// program's generated google/protobuf modules.
import { define } from "./json/print.js";
import { JsonError } from "./json/common.js";
import type { AnyMessageType, Init, PlainOf, ViewOf } from "./message.js";
import { Registry } from "./registry.js";

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
