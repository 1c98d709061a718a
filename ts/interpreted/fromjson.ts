// ProtoJSON values to plain objects, interpreted from the schema: the object decode() would give,
// built straight from the parsed JSON (a field by its key in one map lookup), with the checks and
// error paths of generated fromJson functions (codegen/emit/json.ts), at 1.05-1.2x their time. What it does not handle itself (a closed enum's unknown
// number, which decode() keeps as an unknown field; a missing required field; deep nesting) throws
// FALLBACK, and fromJson() reads the message the schema-driven way instead.
import { hasSpecialJson, type TypeRef } from "../json/common.js";
import * as jsonIn from "../json/in.js";
import { jsonKeySegment, type JsonValue } from "../json/parse.js";
import type { JsonReadOptions } from "../json/read.js";
import { safeNumber } from "../plain.js";
import { elementSize } from "../budget.js";
import { FieldFlag, FieldType, isInt64, Label, typeAt, type FieldInfo, type SchemaDef } from "../schema.js";
import { interpretedType } from "./index.js";
import { fieldPath, isMessage } from "./values.js";
import { plainTemplate } from "./template.js";

type Plain = Record<string, unknown>;
export type FromJson = (json: JsonValue, opts: JsonReadOptions, depth: number) => Plain;
type Value = (x: JsonValue, opts: JsonReadOptions, depth: number) => unknown;

const readers = new WeakMap<SchemaDef, FromJson[]>();

/**
 * The ProtoJSON reader of message `index` of a schema (CODE_SIZE code, runtime schemas), built on
 * first use. Well-known types with a JSON form of their own are read the schema-driven way, through the
 * codec (with their generated type when the program has it, else one interpreted from the schema).
 */
export function interpretedFromJson(def: SchemaDef, index: number): FromJson {
  let all = readers.get(def);
  if (all === undefined) readers.set(def, (all = []));
  if (all[index] !== undefined) return all[index];
  if (hasSpecialJson(def.messages[index]!.name)) {
    return (all[index] = (x, opts) => jsonIn.bySchema((typeAt(def, index) as TypeRef | undefined) ?? interpretedType(def, index), x, opts) as Plain);
  }
  return (all[index] = messageReader(def, index));
}

/** google.protobuf.Value takes null as its null_value; NullValue fields take null as 0. */
function acceptsNull(def: SchemaDef, f: FieldInfo): boolean {
  if (isMessage(f)) return def.messages[f.ref]!.name === "google.protobuf.Value";
  return f.type === FieldType.Enum && def.enums[f.ref]!.name === "google.protobuf.NullValue";
}

/** One JSON value of f's type in the plain object's form (SKIP possible for enums). */
function valueReader(def: SchemaDef, message: number, f: FieldInfo): Value {
  if (isMessage(f)) {
    const ref = f.ref;
    return (x, opts, depth) => interpretedFromJson(def, ref)(x, opts, depth + 1);
  }
  if (f.type === FieldType.Enum) {
    const ref = f.ref;
    const read = f.flags & FieldFlag.ClosedEnum ? jsonIn.closedEnumValue : jsonIn.enumValue;
    if (def.enums[ref]!.name === "google.protobuf.NullValue") return (x, opts) => (x === null ? 0 : read(def, ref, x, opts));
    return (x, opts) => read(def, ref, x, opts);
  }
  const type = f.type;
  if (type === FieldType.Float) return (x) => Math.fround(jsonIn.scalar(type, x, "") as number);
  if (isInt64(type)) {
    if (f.int64 === "string") return (x) => String(jsonIn.scalar(type, x, ""));
    if (f.int64 === "number") {
      const path = fieldPath(def, message, f);
      return (x) => safeNumber(jsonIn.scalar(type, x, "") as bigint, path);
    }
  }
  return (x) => jsonIn.scalar(type, x, "");
}

interface Member {
  field: FieldInfo;
  /** Stores the field's value from JSON value v (not null unless the field takes null). */
  read: (o: Plain, v: JsonValue, opts: JsonReadOptions, depth: number) => void;
  /** For a field that can be named two ways (json_name and .proto name), its bit in `seen`, else 0. */
  bit: number;
}

function member(def: SchemaDef, message: number, f: FieldInfo, oneofProp: string | undefined, oneofName: string | undefined): Member["read"] {
  const prop = f.prop;
  const nullable = acceptsNull(def, f);
  if (f.label === Label.Map) {
    const [key, value] = def.messages[f.ref]!.fields as [FieldInfo, FieldInfo];
    const each = valueReader(def, message, value), keyType = key.type, valueNull = acceptsNull(def, value), size = elementSize(def, f);
    return (o, v, opts, depth) => {
      o[prop] = jsonIn.map(v, keyType, (x) => each(x, opts, depth), valueNull, opts, size);
    };
  }
  const read = valueReader(def, message, f);
  if (f.label === Label.Repeated) {
    const size = elementSize(def, f);
    return (o, v, opts, depth) => {
      o[prop] = jsonIn.list(v, (x) => read(x, opts, depth) as never, nullable, opts, size);
    };
  }
  if (oneofProp !== undefined) {
    return (o, v, opts, depth) => {
      const x = read(v, opts, depth);
      if (x === jsonIn.SKIP) return;
      if (o[oneofProp] !== undefined) jsonIn.secondOneofMember(oneofName!);
      o[oneofProp] = { case: prop, value: x };
    };
  }
  return (o, v, opts, depth) => {
    const x = read(v, opts, depth);
    if (x !== jsonIn.SKIP) o[prop] = x;
  };
}

function messageReader(def: SchemaDef, index: number): FromJson {
  const info = def.messages[index]!;
  // keys as the schema-driven reader matches them: json_name, then .proto name, a later field's winning
  const byKey = new Map<string, Member>();
  const members = new Map<FieldInfo, Member>();
  for (const f of info.fields) {
    const oneof = f.oneof >= 0 ? info.oneofs[f.oneof]! : undefined;
    const m: Member = { field: f, read: member(def, index, f, oneof?.prop, oneof?.name), bit: 0 };
    members.set(f, m);
    byKey.set(f.jsonName, m).set(f.name, m);
  }
  // a field given by both its names is an error: one bit each (up to 52, then a Set)
  let bits = 0;
  for (const m of members.values()) {
    if (byKey.get(m.field.jsonName) === m && byKey.get(m.field.name) === m && m.field.jsonName !== m.field.name) m.bit = bits < 52 ? 2 ** bits++ : -1;
  }
  const nullable = new Set(info.fields.filter((f) => acceptsNull(def, f)));
  // every object starts as a copy of one with all the properties, as the plain readers' do
  const { template, proto, fresh, required } = plainTemplate(def, index);
  const typeName = info.name, recordSize = info.recordSize;
  return (json, opts, depth) => {
    if (depth > jsonIn.MAX_DEPTH) jsonIn.fallback();
    jsonIn.spend(opts, recordSize, "");
    const o: Plain = proto === undefined ? { ...template } : Object.assign(Object.create(proto) as Plain, template);
    for (let i = 0; i < fresh.length; i++) o[fresh[i]![0]] = fresh[i]![1]();
    let seen = 0, more: Set<FieldInfo> | undefined; // fields that can be given by two names, given
    let key: string | undefined; // for the error path
    try {
      const obj = jsonIn.object(json);
      const keys = Object.keys(obj);
      for (let i = 0; i < keys.length; i++) {
        const k = keys[i]!, v = obj[k]!;
        key = k;
        const m = byKey.get(k);
        if (m === undefined) {
          jsonIn.unknownField(typeName, k, opts);
          continue;
        }
        if (m.bit > 0) {
          if (Math.floor(seen / m.bit) % 2 === 1) jsonIn.duplicate();
          seen += m.bit;
        } else if (m.bit < 0) {
          if ((more ??= new Set()).has(m.field)) jsonIn.duplicate();
          more.add(m.field);
        }
        // null means absent (but for the types that take it)
        if (v !== null || nullable.has(m.field)) m.read(o, v, opts, depth);
      }
    } catch (e) {
      throw key === undefined ? e : jsonIn.at(e, jsonKeySegment(key));
    }
    // the codec reports a missing required field, with its path: the schema-driven reader's way
    for (const prop of required) if (o[prop] === undefined || !Object.hasOwn(o, prop)) jsonIn.fallback(); // not a default it inherits
    return o;
  };
}
