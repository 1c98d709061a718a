// Shared test machinery: protobufjs as the independent reference, hppproto's generated message
// types by name, a converter from protobufjs messages to hppproto's plain-object shape, a seeded
// random message filler, and a walker that reads every field through a view.
import protobuf from "protobufjs";
import { expect } from "vitest";
import { loadProtos, parsedName } from "../../dist/codegen/load.js";
import { describeFiles } from "../../dist/codegen/describe.js";
import { buildModel, type FieldModel, type MessageModel } from "../../dist/codegen/model.js";
import { FieldType, Label } from "../../dist/ts/schema.js";
import { DecodeError, ListView, MapView, MessageType, MessageView } from "hppproto";
import { schemaSets, type SchemaSet } from "./paths.js";

export interface Loaded {
  root: protobuf.Root;
  /** The protobufjs type of a message, by its full name in the .proto files. */
  pbType: (fullName: string) => protobuf.Type;
  models: Map<string, MessageModel>;
  types: Map<string, MessageType<any, any>>;
}

const generated = import.meta.glob<Record<string, unknown>>("../gen/**/*_pb.ts", { eager: true });

export function loadSet(set: SchemaSet): Loaded {
  const s = schemaSets[set];
  const loaded = loadProtos(s.files.map((f) => `${s.protoPath}/${f}`), [s.protoPath]);
  const root = loaded.root;
  const model = buildModel(describeFiles(loaded));
  const models = new Map(model.messages.map((m) => [m.fullName, m]));
  const types = new Map<string, MessageType<any, any>>();
  for (const [file, mod] of Object.entries(generated)) {
    if (!file.startsWith(`../gen/${set}/`)) continue;
    for (const v of Object.values(mod)) if (v instanceof MessageType) types.set(v.typeName, v);
  }
  return { root, pbType: (name) => root.lookupType(parsedName(name)), models, types };
}

const isMessage = (f: FieldModel) => f.type === FieldType.Message || f.type === FieldType.Group;
const is64 = (t: FieldType) =>
  t === FieldType.Int64 || t === FieldType.Sint64 || t === FieldType.Sfixed64 || t === FieldType.Uint64 || t === FieldType.Fixed64;
const unsigned64 = (t: FieldType) => t === FieldType.Uint64 || t === FieldType.Fixed64;

function toBigInt(v: unknown, t: FieldType): bigint {
  const b = typeof v === "object" && v !== null ? BigInt(String(v)) : BigInt(v as number | string);
  return unsigned64(t) ? BigInt.asUintN(64, b) : BigInt.asIntN(64, b);
}

/** A 64-bit value as the field's jstype option has it read (generated with the default --int64 bigint). */
export function as64(f: FieldModel, v: bigint): bigint | string | number {
  return f.jsType === "string" ? String(v) : f.jsType === "number" ? Number(v) : v;
}

/** One protobufjs value of a field's type in hppproto's plain form. */
function normalizeValue(loaded: Loaded, f: FieldModel, v: unknown): unknown {
  if (isMessage(f)) return normalize(loaded, f.message!, v as protobuf.Message);
  if (is64(f.type)) return as64(f, toBigInt(v, f.type));
  if (f.type === FieldType.Bytes) return new Uint8Array(v as Uint8Array);
  return v;
}

/** A message protobufjs decoded, in the shape hppproto's decode() returns. */
export function normalize(loaded: Loaded, m: MessageModel, msg: protobuf.Message | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const source = (msg ?? {}) as Record<string, unknown>;
  const own = (name: string) => msg !== undefined && Object.prototype.hasOwnProperty.call(msg, name);
  const type = loaded.pbType(m.fullName);
  // protobufjs's own field names can differ from protoc's (groups): go by number
  const pbName = (f: FieldModel) => type.fieldsById[f.number]!.name;
  for (const f of m.fields) {
    if (f.oneof) continue;
    const name = pbName(f);
    const v = source[name] ?? (type.fieldsById[f.number] as unknown as { typeDefault?: unknown }).typeDefault;
    if (f.label === Label.Map) {
      const [key, value] = f.mapEntry!.fields as [FieldModel, FieldModel];
      const obj: Record<string, unknown> = {};
      for (const [k, val] of Object.entries((source[name] ?? {}) as Record<string, unknown>)) {
        const key64 = is64(key.type)
          ? String(protobuf.util.LongBits.fromHash(k).toLong(unsigned64(key.type)))
          : k;
        obj[key64] = normalizeValue(loaded, value, val);
      }
      out[f.prop] = obj;
    } else if (f.label === Label.Repeated) {
      out[f.prop] = ((source[name] ?? []) as unknown[]).map((x) => normalizeValue(loaded, f, x));
    } else if (f.label === Label.Explicit) {
      out[f.prop] = own(name) ? normalizeValue(loaded, f, source[name]) : undefined;
    } else {
      out[f.prop] = normalizeValue(loaded, f, v);
    }
  }
  for (const o of m.oneofs) {
    const set = o.fields.filter((f) => own(pbName(f)));
    const f = set[set.length - 1];
    out[o.prop] = f ? { case: f.prop, value: normalizeValue(loaded, f, source[pbName(f)]) } : undefined;
  }
  return out;
}

/** hppproto's plain object without the unknown-field bytes, for comparison with protobufjs. */
export function withoutUnknown(obj: unknown): unknown {
  if (Array.isArray(obj)) return obj.map(withoutUnknown);
  if (obj instanceof Uint8Array || obj === null || typeof obj !== "object") return obj;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(obj)) if (k !== "$unknown") out[k] = withoutUnknown(v);
  return out;
}

// ---- random messages ----

export function rng(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 2 ** 32;
  };
}

const pick = <T>(r: () => number, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
const strings = ["", "a", "hello world", "caf\u00e9", "\u20ac\u00a3\u00a5", "\u{1F600} emoji", "x".repeat(100), "\u0000nul", "mixed \u4e2d\u6587 text"];

function randomScalar(r: () => number, f: FieldModel): unknown {
  // a field read as a JS number holds what a number holds exactly
  if (f.jsType === "number") return pick(r, ["0", "1", String(2 ** 53 - 1), String(Math.floor(r() * 2 ** 53))]);
  switch (f.type) {
    case FieldType.Double: return pick(r, [0, -0, 1.5, -2.25, 1e300, -1e-300, Number.MAX_VALUE, Infinity, -Infinity, NaN, r() * 1e6]);
    case FieldType.Float: return pick(r, [0, -0, 1.5, -2.25, 3.4028234663852886e38, Infinity, NaN, Math.fround(r() * 1000)]);
    case FieldType.Int32: case FieldType.Sint32: case FieldType.Sfixed32:
      return pick(r, [0, 1, -1, 127, 128, -129, 2147483647, -2147483648, Math.floor(r() * 2 ** 32) - 2 ** 31]);
    case FieldType.Uint32: case FieldType.Fixed32:
      return pick(r, [0, 1, 127, 128, 16384, 4294967295, Math.floor(r() * 2 ** 32)]);
    case FieldType.Int64: case FieldType.Sint64: case FieldType.Sfixed64:
      return pick(r, ["0", "1", "-1", "9223372036854775807", "-9223372036854775808", "2813090458170031956", String(BigInt(Math.floor(r() * 2 ** 53)) * 997n - 2n ** 55n)]);
    case FieldType.Uint64: case FieldType.Fixed64:
      return pick(r, ["0", "1", "18446744073709551615", "9223372036854775808", String(BigInt(Math.floor(r() * 2 ** 53)) * 1999n)]);
    case FieldType.Bool: return r() < 0.5;
    case FieldType.String: return pick(r, strings);
    case FieldType.Bytes: return Uint8Array.from({ length: Math.floor(r() * 20) }, () => Math.floor(r() * 256));
    case FieldType.Enum: {
      const values = f.enum!.values.map((v) => v.number);
      return !f.enum!.closed && r() < 0.1 ? 12345 : pick(r, values);
    }
    default: throw new Error(`no scalar for ${f.type}`);
  }
}

/** Objects without a prototype: fields named "hasOwnProperty" or keys named "__proto__" stay data. */
const dict = (): Record<string, unknown> => Object.create(null) as Record<string, unknown>;

/** A random object for protobufjs's fromObject(), every required field set. */
export function randomObject(loaded: Loaded, m: MessageModel, r: () => number, depth = 0): Record<string, unknown> {
  const obj = dict();
  // protobufjs writes message set extensions as plain fields, not as items: they are left empty
  // here and tested against protobuf's own parser (C++ tests, the conformance suite)
  if (m.messageSet) return obj;
  const type = loaded.pbType(m.fullName);
  const pbName = (f: FieldModel) => type.fieldsById[f.number]!.name;
  const value = (f: FieldModel): unknown =>
    isMessage(f) ? (depth < 3 ? randomObject(loaded, f.message!, r, depth + 1) : requiredOnly(loaded, f.message!)) : randomScalar(r, f);
  for (const f of m.fields) {
    if (f.oneof) continue;
    const required = f.flags & 4;
    if (!required && r() < 0.35) continue;
    if (f.label === Label.Map) {
      const [key, val] = f.mapEntry!.fields as [FieldModel, FieldModel];
      const entries = dict();
      for (let i = Math.floor(r() * 4); i > 0; i--) entries[String(randomScalar(r, key))] = value(val);
      obj[pbName(f)] = entries;
    } else if (f.label === Label.Repeated) {
      obj[pbName(f)] = Array.from({ length: Math.floor(r() * 5) }, () => value(f));
    } else {
      obj[pbName(f)] = value(f);
    }
  }
  for (const o of m.oneofs) {
    if (r() < 0.3) continue;
    const f = pick(r, o.fields);
    obj[pbName(f)] = value(f);
  }
  return obj;
}

/** Whether the message requires itself through required message fields: no valid instance exists. */
export function requiresItself(m: MessageModel, seen = new Set<MessageModel>()): boolean {
  if (seen.has(m)) return true;
  seen.add(m);
  const result = m.fields.some((f) => f.flags & 4 && isMessage(f) && requiresItself(f.message!, seen));
  seen.delete(m);
  return result;
}

/** Required fields only; stops at depth 6, since some test schemas require themselves recursively. */
function requiredOnly(loaded: Loaded, m: MessageModel, depth = 0): Record<string, unknown> {
  const r = rng(1);
  const obj = dict();
  const type = loaded.pbType(m.fullName);
  for (const f of m.fields) {
    if (!(f.flags & 4)) continue;
    const name = type.fieldsById[f.number]!.name;
    if (!isMessage(f)) obj[name] = randomScalar(r, f);
    else if (depth < 6) obj[name] = requiredOnly(loaded, f.message!, depth + 1);
  }
  return obj;
}

export function encodeWithProtobufjs(loaded: Loaded, typeName: string, obj: Record<string, unknown>): Uint8Array {
  const t = loaded.pbType(typeName);
  return t.encode(t.fromObject(obj)).finish();
}

/** Checks hppproto's decode() and view against protobufjs's decode of the same bytes. */
export function crossCheck(loaded: Loaded, typeName: string, bytes: Uint8Array): void {
  const model = loaded.models.get(typeName)!;
  const type = loaded.types.get(typeName)!;
  let reference: protobuf.Message;
  try {
    reference = loaded.pbType(typeName).decode(bytes);
  } catch (e) {
    // protobufjs rejects it (a missing required field): hppproto must reject it too
    expect(String(e)).toMatch(/missing required/);
    expect(() => type.decode(bytes)).toThrow(DecodeError);
    expect(() => type.view(bytes)).toThrow(/MISSING_REQUIRED/);
    return;
  }
  const expected = normalize(loaded, model, reference);
  const plain = type.decode(bytes);
  expect(withoutUnknown(plain)).toEqual(expected);
  const view = type.view(bytes);
  expect(withoutUnknown(view.$toObject())).toEqual(expected);
  checkView(model, view, plain as Record<string, unknown>);
}

/** Reads every field through the view's getters and compares with the plain object. */
export function checkView(m: MessageModel, view: any, plain: Record<string, unknown>): void {
  expect(view).toBeInstanceOf(MessageView);
  for (const f of m.fields) {
    if (f.oneof) continue;
    const got = view[f.prop];
    const want = plain[f.prop];
    if (f.label === Label.Map) {
      expect(got).toBeInstanceOf(MapView);
      const [key, value] = f.mapEntry!.fields as [FieldModel, FieldModel];
      const obj: Record<string, unknown> = {};
      for (const [k, v] of got as MapView<unknown, unknown>) obj[String(k)] = isMessage(value) ? (v as any).$toObject() : copy(v);
      expect(withoutUnknown(obj)).toEqual(withoutUnknown(want));
      void key;
    } else if (f.label === Label.Repeated) {
      const items = got instanceof ListView ? got.toArray() : Array.from(got as ArrayLike<unknown>);
      if (got instanceof ListView) {
        // get(), iteration and toArray() read the same elements (views compare by their record)
        const at = (v: unknown) => (v instanceof MessageView ? v.$ptr : copy(v));
        expect(Array.from({ length: got.length }, (_, i) => at(got.get(i)))).toEqual(items.map(at));
        expect([...got].map(at)).toEqual(items.map(at));
        expect(() => got.get(got.length)).toThrow(RangeError);
      }
      if (isMessage(f)) items.forEach((v, i) => checkView(f.message!, v, (want as Record<string, unknown>[])[i]!));
      // views keep packed 64-bit lists as BigInt64Array / BigUint64Array whatever the field's jstype
      else expect(items.map((v) => (typeof v === "bigint" ? as64(f, v) : copy(v)))).toEqual(want);
    } else if (isMessage(f)) {
      if (want === undefined) expect(got).toBeUndefined();
      else checkView(f.message!, got, want as Record<string, unknown>);
    } else if (f.label === Label.Explicit && want === undefined) {
      expect(view.$has(f.prop)).toBe(false);
    } else {
      expect(copy(got)).toEqual(want);
    }
  }
  for (const o of m.oneofs) {
    const got = view[o.prop];
    const want = plain[o.prop] as { case: string; value: unknown } | undefined;
    if (want === undefined) expect(got).toBeUndefined();
    else {
      expect(got.case).toBe(want.case);
      const f = o.fields.find((x) => x.prop === want.case)!;
      if (isMessage(f)) checkView(f.message!, got.value, want.value as Record<string, unknown>);
      else expect(copy(got.value)).toEqual(want.value);
    }
  }
}

const copy = (v: unknown) => (v instanceof Uint8Array ? new Uint8Array(v) : v);
