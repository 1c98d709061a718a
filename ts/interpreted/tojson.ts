// Plain objects to ProtoJSON values, interpreted from the schema: the value whose text generated
// toJsonString functions write (codegen/emit/json.ts), as one closure per field built on first use,
// with the same defaults, names and error paths. CODE_SIZE code and runtime schemas write with it.
import { hasDefault } from "../defaults.js";
import { hasSpecialJson, mayOpen } from "../json/common.js";
import * as jsonOut from "../json/out.js";
import type { JsonWriteOptions } from "../json/print.js";
import { FieldType, isExtension, isInt64, Label, type FieldInfo, type SchemaDef } from "../schema.js";
import { isMessage, isZero, zeroOf } from "./values.js";

type Plain = Record<string, unknown>;
export type ToJson = (o: Plain, opts: JsonWriteOptions) => unknown;
type Field = (o: Plain, j: Record<string, unknown>, opts: JsonWriteOptions) => void;

const writers = new WeakMap<SchemaDef, ToJson[]>();

/** The ProtoJSON writer of message `index` of a schema (CODE_SIZE code, runtime schemas), built on first use. */
export function interpretedToJson(def: SchemaDef, index: number): ToJson {
  let all = writers.get(def);
  if (all === undefined) writers.set(def, (all = []));
  if (all[index] !== undefined) return all[index];
  // well-known types with a JSON form of their own: the schema-driven writer
  if (hasSpecialJson(def.messages[index]!.name)) return (all[index] = jsonOut.bySchema(def, index) as ToJson);
  return (all[index] = messageWriter(def, index));
}

/** One value of f's type as JSON; `key` names the field in error paths. */
function valueWriter(def: SchemaDef, f: FieldInfo, key: (opts: JsonWriteOptions) => string): (x: unknown, opts: JsonWriteOptions) => unknown {
  if (isMessage(f)) {
    const ref = f.ref;
    return (x, opts) => jsonOut.sub(interpretedToJson(def, ref), x as Plain, opts, key(opts));
  }
  switch (f.type) {
    case FieldType.Enum: {
      if (def.enums[f.ref]!.name === "google.protobuf.NullValue") return () => null;
      const ref = f.ref;
      return (x, opts) => (opts.enumsAsInts ? x : jsonOut.enumName(def, ref, x as number));
    }
    case FieldType.Double: return (x) => jsonOut.double(x as number);
    case FieldType.Float: return (x) => jsonOut.float(x as number);
    case FieldType.Bytes: return (x) => jsonOut.bytes(x as Uint8Array);
  }
  // an integer's -0 is 0 (JSON text has no -0 for integers; only doubles and floats keep it)
  return isInt64(f.type) ? (x) => String(x) : (x) => (x === 0 ? 0 : x);
}

/** An implicit-presence value that differs from its type's zero is written (unless emitDefaults). */
function nonDefault(f: FieldInfo): (v: unknown) => boolean {
  const { type } = f;
  return (v) => v != null && !isZero(type, v);
}

function fieldWriter(def: SchemaDef, f: FieldInfo, oneofProp: string | undefined): Field {
  const { name, jsonName, prop } = f;
  const key = name === jsonName ? () => name : (opts: JsonWriteOptions) => (opts.useProtoNames === true ? name : jsonName);
  // own data properties: a "__proto__" key must not become the object's prototype
  const set = (j: Record<string, unknown>, opts: JsonWriteOptions, value: unknown) => jsonOut.define(j, key(opts), value);
  if (oneofProp !== undefined) {
    const write = valueWriter(def, f, key);
    return (o, j, opts) => {
      const c = o[oneofProp] as { case?: unknown; value?: unknown } | undefined;
      if (c?.case === prop && c.value != null) set(j, opts, write(c.value, opts));
    };
  }
  switch (f.label) {
    case Label.Repeated: {
      const emptyWritten = !isExtension(f); // by emitDefaults: an empty repeated extension is unset
      if (isMessage(f)) {
        const ref = f.ref;
        return (o, j, opts) => {
          const v = o[prop] as Plain[] | undefined;
          if ((v != null && v.length !== 0) || (emptyWritten && opts.emitDefaults)) set(j, opts, jsonOut.messages(v ?? [], interpretedToJson(def, ref), opts, key(opts)));
        };
      }
      const each = valueWriter(def, f, key);
      return (o, j, opts) => {
        const v = o[prop] as unknown[] | undefined;
        if ((v != null && v.length !== 0) || (emptyWritten && opts.emitDefaults)) set(j, opts, jsonOut.list(v ?? [], (x) => each(x, opts)));
      };
    }
    case Label.Map: {
      const value = def.messages[f.ref]!.fields[1]!;
      let each: (x: unknown, k: string, opts: JsonWriteOptions) => unknown;
      if (isMessage(value)) {
        const ref = value.ref;
        each = (x, k, opts) => jsonOut.entry(interpretedToJson(def, ref), x as Plain, opts, key(opts), k);
      } else {
        const write = valueWriter(def, value, key);
        each = (x, _, opts) => write(x, opts);
      }
      return (o, j, opts) => {
        const v = o[prop] as Record<string, unknown> | undefined;
        if ((v != null && jsonOut.nonEmpty(v)) || opts.emitDefaults) set(j, opts, jsonOut.map(v ?? {}, (x, k) => each(x, k, opts)));
      };
    }
    case Label.Implicit: {
      const write = valueWriter(def, f, key), written = nonDefault(f), empty = zeroOf(f);
      return (o, j, opts) => {
        const v = o[prop];
        if (opts.emitDefaults || written(v)) set(j, opts, write(v ?? empty, opts));
      };
    }
    default: {
      const write = valueWriter(def, f, key);
      if (hasDefault(f)) {
        // a default the object inherits is not set, and not written
        return (o, j, opts) => {
          const v = o[prop];
          if (v != null && Object.hasOwn(o, prop)) set(j, opts, write(v, opts));
        };
      }
      return (o, j, opts) => {
        const v = o[prop];
        if (v != null) set(j, opts, write(v, opts));
      };
    }
  }
}

function messageWriter(def: SchemaDef, index: number): ToJson {
  const info = def.messages[index]!;
  const fields = info.fields.map((f) => fieldWriter(def, f, f.oneof >= 0 ? info.oneofs[f.oneof]!.prop : undefined));
  return (o, opts) => {
    mayOpen(1); // its object
    const j: Record<string, unknown> = {};
    for (let i = 0; i < fields.length; i++) fields[i]!(o, j, opts);
    const unknown = o["$unknown"];
    if (unknown instanceof Uint8Array && opts.registry !== undefined) jsonOut.extensions(info.name, unknown, j, opts);
    return j;
  };
}
