// Reflection: a message type's fields, oneofs and enums as its .proto declares them, read from the
// schema the runtime lays records out from, so what reflection says is what the codec does.
import { defaultOf } from "./defaults.js";
import { bytesOfChars, FieldFlag, FieldType, Label, type EnumInfo, type FieldInfo, type SchemaDef, type WithOptions } from "./schema.js";
import type { AnyMessageType } from "./message.js";

/** A scalar field type, as the .proto names it. */
export type ScalarType =
  | "double" | "float" | "int64" | "uint64" | "int32" | "fixed64" | "fixed32" | "bool" | "string"
  | "bytes" | "uint32" | "sfixed32" | "sfixed64" | "sint32" | "sint64";

const scalarTypes: Partial<Record<FieldType, ScalarType>> = {
  [FieldType.Double]: "double", [FieldType.Float]: "float", [FieldType.Int64]: "int64", [FieldType.Uint64]: "uint64",
  [FieldType.Int32]: "int32", [FieldType.Fixed64]: "fixed64", [FieldType.Fixed32]: "fixed32", [FieldType.Bool]: "bool",
  [FieldType.String]: "string", [FieldType.Bytes]: "bytes", [FieldType.Uint32]: "uint32", [FieldType.Sfixed32]: "sfixed32",
  [FieldType.Sfixed64]: "sfixed64", [FieldType.Sint32]: "sint32", [FieldType.Sint64]: "sint64",
};

/** Custom options: the extension fields of the declaration's XxxOptions as wire bytes; read them with getOption(). */
interface Options {
  readonly customOptions?: Uint8Array;
}

/** A .proto file: generated modules of files with custom options export it as `file_<path>`. */
export interface FileReflection extends Options {
  /** As imported, e.g. "acme/orders.proto". */
  readonly name: string;
  /** Its package, or "". */
  readonly package: string;
}

/** A file's reflection (runtime schemas make one per file). */
export function fileReflection(name: string, pkg: string, customOptions: Uint8Array | undefined): FileReflection {
  return Object.freeze({ name, package: pkg, ...withOptions({ options: customOptions }) });
}

/** Called by generated code: a file's reflection, its custom options' bytes one char per byte. */
export const file = (name: string, pkg: string, options: string): FileReflection => fileReflection(name, pkg, bytesOfChars(options));

export interface EnumValueReflection extends Options {
  readonly name: string;
  readonly number: number;
}

export interface EnumReflection extends Options {
  /** Fully qualified name, e.g. "pkg.Color". */
  readonly typeName: string;
  /** Closed (proto2, editions' CLOSED): an undeclared number read from the wire is an unknown field. */
  readonly closed: boolean;
  /** In declaration order, aliases included. */
  readonly values: readonly EnumValueReflection[];
  /** A value by name or by number (the first one declared, for aliases). */
  value(key: string | number): EnumValueReflection | undefined;
}

export interface FieldReflection extends Options {
  /** As in the .proto. */
  readonly name: string;
  readonly number: number;
  readonly jsonName: string;
  /** The property plain objects, views and builders have for it (a oneof member's: its case). */
  readonly property: string;
  readonly kind: "scalar" | "enum" | "message" | "list" | "map";
  /** Scalar fields, and lists and maps of scalars: the scalar type (of a map's values). */
  readonly scalar?: ScalarType;
  /** Message fields, and lists and maps of messages: the message's full name. */
  readonly message?: string;
  /** Enum fields, and lists and maps of enums. */
  readonly enum?: EnumReflection;
  /** Maps: the keys' type. */
  readonly mapKey?: ScalarType;
  /** The oneof it belongs to, by name. */
  readonly oneof?: string;
  /** Whether "not set" is a state of its own (explicit), or the default value means it (implicit); lists and maps are implicit. */
  readonly presence: "explicit" | "implicit" | "required";
  /** Lists of scalars and enums: written packed. */
  readonly packed: boolean;
  /** Messages written as groups (proto2 groups, editions' DELIMITED encoding). */
  readonly delimited: boolean;
  /**
   * What the field reads as when unset where that is not the type's zero: a declared default
   * (proto2, editions) or a closed enum's first value, in the form plain objects hold its values;
   * else undefined. Not for oneof members, which read as absent when unset.
   */
  readonly defaultValue?: string | number | boolean | bigint | Uint8Array;
}

export interface OneofReflection extends Options {
  readonly name: string;
  /** The plain object's and view's property holding the case. */
  readonly property: string;
  readonly fields: readonly FieldReflection[];
}

export interface MessageReflection {
  readonly fields: readonly FieldReflection[];
  readonly oneofs: readonly OneofReflection[];
  readonly byKey: ReadonlyMap<string | number, FieldReflection>;
}

const messages = new WeakMap<object, MessageReflection>();
const enums = new WeakMap<EnumInfo, EnumReflection>();

/** Message `index` of a schema, reflected (made once per schema message). */
export function reflectMessage(def: SchemaDef, index: number): MessageReflection {
  const info = def.messages[index]!;
  let r = messages.get(info);
  if (r !== undefined) return r;
  const fields = info.fields.map((f) => reflectField(def, f, info.oneofs[f.oneof]?.name));
  const oneofs = info.oneofs.map((o) => ({ name: o.name, property: o.prop, fields: fields.filter((f) => f.oneof === o.name), ...withOptions(o) }));
  // a field by number, .proto name, json name or property; numbers and .proto names first
  const byKey = new Map<string | number, FieldReflection>();
  for (const pick of [(f: FieldReflection) => f.number, (f: FieldReflection) => f.name, (f: FieldReflection) => f.jsonName, (f: FieldReflection) => f.property]) {
    for (const f of fields) if (!byKey.has(pick(f))) byKey.set(pick(f), f);
  }
  messages.set(info, (r = { fields, oneofs, byKey }));
  return r;
}

/** Enum `index` of a schema, reflected. */
export function reflectEnum(def: SchemaDef, index: number): EnumReflection {
  const info = def.enums[index]!;
  let r = enums.get(info);
  if (r !== undefined) return r;
  const values = info.values.map(([number, name], i) => ({ name, number, ...withOptions({ options: info.valueOptions?.[i] }) }));
  const byName = new Map(values.map((v) => [v.name, v]));
  const byNumber = new Map([...values].reverse().map((v) => [v.number, v])); // the first of aliases wins
  r = { typeName: info.name, closed: info.closed, values, value: (key) => (typeof key === "number" ? byNumber.get(key) : byName.get(key)), ...withOptions(info) };
  enums.set(info, r);
  return r;
}

function reflectField(def: SchemaDef, f: FieldInfo, oneof: string | undefined): FieldReflection {
  const isMap = f.label === Label.Map;
  const value = isMap ? def.messages[f.ref]!.fields[1]! : f; // what one value is
  const type = value.type;
  const isMessage = type === FieldType.Message || type === FieldType.Group;
  const kind = isMap ? "map" : f.label === Label.Repeated ? "list" : isMessage ? "message" : type === FieldType.Enum ? "enum" : "scalar";
  const presence = f.label === Label.Explicit || f.label === Label.Oneof ? (f.flags & FieldFlag.Required ? "required" : "explicit") : "implicit";
  return {
    name: f.name, number: f.number, jsonName: f.jsonName, property: f.prop, kind,
    ...(scalarTypes[type] !== undefined && { scalar: scalarTypes[type] }),
    ...(isMessage && { message: def.messages[value.ref]!.name }),
    ...(type === FieldType.Enum && { enum: reflectEnum(def, value.ref) }),
    ...(isMap && { mapKey: scalarTypes[def.messages[f.ref]!.fields[0]!.type]! }),
    ...(oneof !== undefined && { oneof }),
    presence,
    packed: f.label === Label.Repeated && (f.flags & FieldFlag.Packed) !== 0,
    delimited: type === FieldType.Group,
    ...(f.defaultValue !== undefined && { defaultValue: defaultOf(f) as FieldReflection["defaultValue"] }),
    ...withOptions(f),
  };
}

const withOptions = (o: WithOptions): Options => (o.options !== undefined ? { customOptions: o.options } : {});

/** The type's fields, by ascending number: names, numbers, kinds, element types, oneofs, presence, defaults. */
export function fieldsOf(type: AnyMessageType): readonly FieldReflection[] {
  return reflectMessage(type.schemaDef, type.index).fields;
}

/** The type's oneofs, each with its fields. */
export function oneofsOf(type: AnyMessageType): readonly OneofReflection[] {
  return reflectMessage(type.schemaDef, type.index).oneofs;
}

/** A field of the type by number, .proto name, json name or property; undefined if there is none. */
export function findField(type: AnyMessageType, key: string | number): FieldReflection | undefined {
  return reflectMessage(type.schemaDef, type.index).byKey.get(key);
}
