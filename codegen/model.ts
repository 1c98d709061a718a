// The schema model the emitters work from: every message (map entries included) and enum of the
// loaded files, with field types, presence, packedness, and the record layout for wasm32.
import { ARRAY_SLOT_SIZE, BYTES_SLOT_SIZE, UNKNOWN_FIELDS } from "../ts/abi.js";
import protobuf from "protobufjs";
import { FieldFlag, FieldType, Label, type EnumInfo, type JsonField, type MessageInfo } from "../ts/schema.js";
import { camelCase, propertyName } from "./names.js";
import { declaringFile, defaultBytes, exactIntegerDefault, realName } from "./load.js";

export interface EnumModel {
  fullName: string;
  file: string;
  /** Name within its file: nested names joined with "_". */
  localName: string;
  values: { name: string; number: number; deprecated: boolean }[];
  closed: boolean;
  /** The deprecated option: generated as @deprecated. */
  deprecated: boolean;
  /** Index among the table's enums, for closed enums. */
  tableIndex: number;
}

export interface OneofModel {
  name: string;
  prop: string;
  fields: FieldModel[];
  caseOffset: number;
  valueOffset: number;
}

export interface FieldModel {
  name: string;
  /** ProtoJSON key: the json_name option, else protoc's lowerCamelCase of the name. */
  jsonName: string;
  /** Property name in plain objects and views. */
  prop: string;
  number: number;
  type: FieldType;
  label: Label;
  flags: number;
  message?: MessageModel;
  enum?: EnumModel;
  oneof?: OneofModel;
  /** For map fields: the synthesized entry message (key field 1, value field 2). */
  mapEntry?: MessageModel;
  /** The jstype option of a 64-bit integer field, when JS_STRING or JS_NUMBER. */
  jsType?: "string" | "number";
  /** proto2 / editions explicit default, as protobufjs parsed it. */
  defaultValue?: unknown;
  offset: number;
  /** Hasbit position for explicit presence; the case slot offset for oneof members. */
  presence: number;
  /** The deprecated option: generated as @deprecated. */
  deprecated: boolean;
}

export interface MessageModel {
  fullName: string;
  file: string;
  localName: string;
  fields: FieldModel[];
  oneofs: OneofModel[];
  index: number;
  recordSize: number;
  isMapEntry: boolean;
  /** proto2 message_set_wire_format: its extensions are written as message set items. */
  messageSet: boolean;
  /** The deprecated option: generated as @deprecated. */
  deprecated: boolean;
}

export interface SchemaModel {
  messages: MessageModel[];
  enums: EnumModel[];
  /** Files in load order, by import name. */
  files: string[];
}

const scalarTypes: Record<string, FieldType> = {
  double: FieldType.Double, float: FieldType.Float, int64: FieldType.Int64, uint64: FieldType.Uint64,
  int32: FieldType.Int32, fixed64: FieldType.Fixed64, fixed32: FieldType.Fixed32, bool: FieldType.Bool,
  string: FieldType.String, bytes: FieldType.Bytes, uint32: FieldType.Uint32, sfixed32: FieldType.Sfixed32,
  sfixed64: FieldType.Sfixed64, sint32: FieldType.Sint32, sint64: FieldType.Sint64,
};

// protobufjs builds these well-known types from JSON, without a file name.
const builtinFiles: Record<string, string> = {
  Any: "any", Duration: "duration", Empty: "empty", FieldMask: "field_mask", Struct: "struct", Value: "struct",
  ListValue: "struct", NullValue: "struct", Timestamp: "timestamp", DoubleValue: "wrappers", FloatValue: "wrappers",
  Int64Value: "wrappers", UInt64Value: "wrappers", Int32Value: "wrappers", UInt32Value: "wrappers",
  BoolValue: "wrappers", StringValue: "wrappers", BytesValue: "wrappers",
};
function builtinFile(o: protobuf.ReflectionObject): string {
  let top = o;
  while (top.parent && (top.parent instanceof protobuf.Type)) top = top.parent;
  const file = top.fullName.startsWith(".google.protobuf.") ? builtinFiles[top.name] : undefined;
  if (!file) throw new Error(`cannot tell which file declares ${o.fullName}`);
  return `google/protobuf/${file}.proto`;
}

const declaringField = (f: protobuf.Field): protobuf.Field | undefined =>
  (f as unknown as { declaringField?: protobuf.Field | null }).declaringField ?? undefined;

type Features = Record<string, string | undefined>;
const features = (o: protobuf.ReflectionObject): Features => ((o as unknown as { _features?: Features })._features ?? {});

export function buildModel(root: protobuf.Root, importNames: Map<string, string>): SchemaModel {
  const messages: MessageModel[] = [];
  const enums: EnumModel[] = [];
  const byType = new Map<protobuf.Type, MessageModel>();
  const byEnum = new Map<protobuf.Enum, EnumModel>();
  const files: string[] = [];
  const fileOf = (o: protobuf.ReflectionObject): string => {
    const f = declaringFile(o) ?? builtinFile(o);
    const name = importNames.get(f) ?? f;
    if (!files.includes(name)) files.push(name);
    return name;
  };
  const fullNameOf = (o: protobuf.ReflectionObject) => realName(o.fullName.replace(/^\./, ""));
  const localName = (o: protobuf.ReflectionObject): string => {
    // names below the file's package, nested levels joined with "_"
    const parts: string[] = [];
    let p: protobuf.ReflectionObject | null = o;
    while (p && (p instanceof protobuf.Type || p instanceof protobuf.Enum)) {
      parts.unshift(realName(p.name));
      p = p.parent;
    }
    return parts.join("_");
  };

  // messages before enums at each level, in declaration order within each: the order a descriptor
  // lists them in, so that the .proto parser and the protoc plugin number them alike
  const kind = (o: protobuf.ReflectionObject) => (o instanceof protobuf.Type ? 0 : o instanceof protobuf.Enum ? 1 : 2);
  const visit = (ns: protobuf.NamespaceBase) => {
    for (const nested of [...ns.nestedArray].sort((a, b) => kind(a) - kind(b))) {
      if (nested instanceof protobuf.Type) {
        const file = fileOf(nested);
        const m: MessageModel = {
          fullName: fullNameOf(nested), file, localName: localName(nested),
          fields: [], oneofs: [], index: messages.length, recordSize: 0, isMapEntry: false,
          messageSet: nested.options?.["message_set_wire_format"] === true, deprecated: nested.options?.["deprecated"] === true,
        };
        messages.push(m);
        byType.set(nested, m);
      } else if (nested instanceof protobuf.Enum) {
        const file = fileOf(nested);
        const values = Object.entries(nested.values).map(([name, number]) =>
          ({ name: realName(name), number, deprecated: nested.valuesOptions?.[name]?.["deprecated"] === true }));
        byEnum.set(nested, {
          fullName: fullNameOf(nested), file, localName: localName(nested), values,
          closed: features(nested).enum_type === "CLOSED", tableIndex: -1, deprecated: nested.options?.["deprecated"] === true,
        });
        enums.push(byEnum.get(nested)!);
      }
      if (nested instanceof protobuf.Namespace || nested instanceof protobuf.Type) visit(nested as protobuf.NamespaceBase);
    }
  };
  visit(root);

  // protobufjs names a proto2 group's field after the type with a lower-case first letter
  // ("optionalGroup"); protoc lower-cases the whole name ("optionalgroup"), which JSON and
  // TextFormat use.
  // The well-known types protobufjs builds from JSON name google.protobuf.Value's fields in
  // lowerCamelCase ("nullValue"); their .proto names are snake_case.
  const protoName = (f: protobuf.Field): string => {
    if (declaringFile(f) === undefined) return f.name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
    const t = f.resolvedType;
    const delimited = (f as unknown as { delimited?: boolean }).delimited === true;
    if (delimited && t instanceof protobuf.Type && f.name === t.name.charAt(0).toLowerCase() + t.name.slice(1) && t.parent === f.parent)
      return realName(t.name.toLowerCase());
    return realName(f.name);
  };

  for (const [type, m] of byType) {
    const usedProps = new Set<string>();
    const uniqueProp = (name: string) => {
      let p = propertyName(name);
      while (usedProps.has(p)) p += "$";
      usedProps.add(p);
      return p;
    };
    const oneofs = new Map<protobuf.OneOf, OneofModel>();
    // protobufjs adds a copy of every extension field to the type it extends
    const own = type.fieldsArray.filter((f) => !declaringField(f));
    for (const f of own.sort((a, b) => a.id - b.id)) {
      const name = protoName(f);
      const field = buildField(f, m, uniqueProp(name));
      field.name = name;
      field.jsonName = (f.options?.["json_name"] as string | undefined) ?? camelCase(name);
      if (field.mapEntry) {
        field.mapEntry.index = messages.length;
        messages.push(field.mapEntry);
      }
      const o = f.partOf;
      const synthetic = o && (o.fieldsArray.length === 1 && (f.options?.["proto3_optional"] || o.name.startsWith("_")));
      if (o && !synthetic) {
        let om = oneofs.get(o);
        if (!om) {
          om = { name: realName(o.name), prop: uniqueProp(realName(o.name)), fields: [], caseOffset: 0, valueOffset: 0 };
          oneofs.set(o, om);
          m.oneofs.push(om);
        }
        field.label = Label.Oneof;
        field.oneof = om;
        om.fields.push(field);
      }
      m.fields.push(field);
    }
    // Extensions declared in the loaded files are fields of the message they extend: the codec
    // knows their types (UTF-8 checks, message sets, JSON), and plain objects and views name them
    // after the extension, prefixed with the message that declares it when nested. JSON keys are
    // "[full.name]". Own fields are named first, so an extension never renames one.
    const extensions = type.fieldsArray.map(declaringField).filter((d): d is protobuf.Field => d !== undefined);
    for (const decl of extensions.sort((a, b) => a.id - b.id)) {
      const name = protoName(decl);
      const scope = decl.parent instanceof protobuf.Type ? `${localName(decl.parent)}_` : "";
      const field = buildField(decl, m, uniqueProp(scope + name));
      const fullName = `${fullNameOf(decl.parent!)}.${name}`.replace(/^\./, "");
      field.name = field.jsonName = `[${fullName}]`;
      m.fields.push(field);
    }
    m.fields.sort((a, b) => a.number - b.number);
  }

  function buildField(f: protobuf.Field, owner: MessageModel, prop: string): FieldModel {
    const feats = features(f);
    let flags = 0;
    const field: FieldModel = {
      name: realName(f.name), jsonName: camelCase(realName(f.name)), prop, number: f.id, type: FieldType.Int32, label: Label.Implicit, flags: 0, offset: 0, presence: 0,
      deprecated: f.options?.["deprecated"] === true,
    };
    const resolve = (typeName: string, resolved: protobuf.ReflectionObject | null) => {
      if (Object.hasOwn(scalarTypes, typeName)) return { type: scalarTypes[typeName]! };
      if (resolved instanceof protobuf.Enum) return { type: FieldType.Enum, enum: byEnum.get(resolved)! };
      if (resolved instanceof protobuf.Type) {
        const delimited = (f as unknown as { delimited?: boolean }).delimited === true;
        return { type: delimited ? FieldType.Group : FieldType.Message, message: byType.get(resolved)! };
      }
      throw new Error(`${owner.fullName}.${f.name}: cannot resolve type ${typeName}`);
    };
    const verifyUtf8 = feats.utf8_validation === "VERIFY";
    if (f instanceof protobuf.MapField) {
      field.label = Label.Map;
      field.type = FieldType.Message;
      const key = resolve(f.keyType, null);
      const value = resolve(f.type, f.resolvedType);
      const entryName = `${owner.fullName}.${field.name}Entry`;
      const slot = (number: number, name: string, r: ReturnType<typeof resolve>): FieldModel => ({
        name, jsonName: name, prop: name, number, type: r.type === FieldType.Group ? FieldType.Message : r.type, label: Label.Implicit,
        flags: (r.type === FieldType.String && verifyUtf8 ? FieldFlag.ValidateUtf8 : 0) |
          (r.enum?.closed ? FieldFlag.ClosedEnum : 0),
        message: r.message, enum: r.enum, offset: 0, presence: 0, deprecated: false,
      });
      field.mapEntry = {
        fullName: entryName, file: owner.file, localName: `${owner.localName}_${field.name}Entry`,
        fields: [slot(1, "key", key), slot(2, "value", value)], oneofs: [], index: -1, recordSize: 0, isMapEntry: true,
        messageSet: false, deprecated: false,
      };
      field.message = field.mapEntry;
      field.flags = 0;
      return field;
    }
    const r = resolve(f.type, f.resolvedType);
    field.type = r.type;
    field.message = r.message;
    field.enum = r.enum;
    if (f.repeated) {
      field.label = Label.Repeated;
      if (f.packed && r.type !== FieldType.String && r.type !== FieldType.Bytes && !r.message) flags |= FieldFlag.Packed;
    } else if (f.hasPresence || r.message) {
      field.label = Label.Explicit;
      if (f.required) flags |= FieldFlag.Required;
      const d = f.options?.["default"];
      const bytes = typeof d === "string" && (r.type === FieldType.String || r.type === FieldType.Bytes) ? defaultBytes(f) : undefined;
      if (typeof d === "number" && numberKinds[r.type]?.ts === "bigint" && !Number.isSafeInteger(d)) field.defaultValue = exactIntegerDefault(f) ?? d;
      else if (bytes !== undefined) field.defaultValue = r.type === FieldType.String ? new TextDecoder().decode(bytes) : String.fromCharCode(...bytes);
      else if (d !== undefined) field.defaultValue = typeof d === "string" && f.resolvedType instanceof protobuf.Enum ? realName(d) : d;
    }
    const jstype = f.options?.["jstype"];
    if (numberKinds[r.type]?.ts === "bigint" && (jstype === "JS_STRING" || jstype === "JS_NUMBER")) field.jsType = jstype === "JS_STRING" ? "string" : "number";
    if (r.type === FieldType.String && verifyUtf8) flags |= FieldFlag.ValidateUtf8;
    if (r.enum?.closed) flags |= FieldFlag.ClosedEnum;
    field.flags = flags;
    return field;
  }

  // numbered by file name, then by declaration: the same output whatever order the files were
  // named in, and whether hppproto-gen parsed them or protoc handed them to the plugin
  const byFile = (a: { file: string }, b: { file: string }) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0);
  files.sort();
  messages.sort(byFile).forEach((m, i) => (m.index = i));
  enums.sort(byFile);
  let closedCount = 0;
  for (const e of enums) if (e.closed) e.tableIndex = closedCount++;
  for (const m of messages) layout(m);
  return { messages, enums, files };
}

// wasm32 slot sizes (ts/abi.ts, checked against cpp/include/hppproto/record.hpp): every record starts
// with its unknown fields' ArraySlot; a record pointer is 4 bytes.
const HEADER = UNKNOWN_FIELDS + ARRAY_SLOT_SIZE;
const BYTES_SLOT = BYTES_SLOT_SIZE;
const ARRAY_SLOT = ARRAY_SLOT_SIZE;
const POINTER = 4;

export function valueSize(t: FieldType): number {
  switch (t) {
    case FieldType.Double: case FieldType.Int64: case FieldType.Uint64: case FieldType.Fixed64:
    case FieldType.Sfixed64: case FieldType.Sint64:
      return 8;
    case FieldType.Bool:
      return 1;
    case FieldType.String: case FieldType.Bytes:
      return BYTES_SLOT;
    case FieldType.Message: case FieldType.Group:
      return POINTER;
    default:
      return 4;
  }
}

const isArray = (f: FieldModel) => f.label === Label.Repeated || f.label === Label.Map;
const slotSize = (f: FieldModel) => (isArray(f) ? ARRAY_SLOT : valueSize(f.type));
const slotAlign = (f: FieldModel): number => {
  if (isArray(f)) return 4;
  switch (f.type) {
    case FieldType.String: case FieldType.Bytes: case FieldType.Message: case FieldType.Group:
      return 4; // pointer-sized members
    default:
      return valueSize(f.type);
  }
};
const alignUp = (v: number, a: number) => Math.ceil(v / a) * a;

/** Header, hasbits, oneof case slots, then slots by falling alignment: the record stays compact. */
function layout(m: MessageModel): void {
  let pos = HEADER;
  const explicit = m.fields.filter((f) => f.label === Label.Explicit);
  explicit.forEach((f, i) => (f.presence = pos * 8 + i));
  pos += Math.ceil(explicit.length / 8);
  for (const o of m.oneofs) {
    pos = alignUp(pos, 4);
    o.caseOffset = pos;
    pos += 4;
  }
  for (const o of m.oneofs) {
    const size = Math.max(...o.fields.map(slotSize));
    const align = Math.max(...o.fields.map(slotAlign));
    pos = alignUp(pos, align);
    o.valueOffset = pos;
    for (const f of o.fields) {
      f.offset = pos;
      f.presence = o.caseOffset;
    }
    pos += size;
  }
  for (const align of [8, 4, 1]) {
    for (const f of m.fields) {
      if (f.label === Label.Oneof || slotAlign(f) !== align) continue;
      pos = alignUp(pos, align);
      f.offset = pos;
      pos += slotSize(f);
    }
  }
  m.recordSize = alignUp(pos, 8);
}

/** The binary schema table (format in cpp/include/hppproto/schema.hpp). */
export function encodeTable(model: SchemaModel): Uint8Array {
  const words: number[] = [0x54505048, 2];
  const closed = model.enums.filter((e) => e.closed);
  words.push(closed.length, model.messages.length);
  for (const e of closed) {
    const values = [...new Set(e.values.map((v) => v.number))].sort((a, b) => a - b);
    words.push(values.length, ...values.map((v) => v >>> 0));
  }
  for (const m of model.messages) {
    words.push(m.recordSize, m.messageSet ? 1 : 0, m.fields.length);
    for (const f of m.fields) {
      const aux = f.message ? f.message.index : f.flags & FieldFlag.ClosedEnum ? f.enum!.tableIndex : 0xffffffff;
      words.push(f.number, f.type | (f.label << 8) | (f.flags << 16), f.offset, f.presence, aux);
    }
  }
  const out = new Uint8Array(words.length * 4);
  const dv = new DataView(out.buffer);
  words.forEach((w, i) => dv.setUint32(i * 4, w >>> 0, true));
  return out;
}

/** The names a schema carries beside its table: field names for error paths, ProtoJSON rows, enums. */
export function schemaInfo(model: SchemaModel): { messages: MessageInfo[]; enums: EnumInfo[] } {
  const enumIndex = new Map(model.enums.map((e, i) => [e, i]));
  const messages = model.messages.map((m): MessageInfo => ({
    name: m.fullName,
    fields: Object.fromEntries(m.fields.map((f) => [f.number, f.name])),
    json: m.fields.map((f): JsonField => {
      const ref = f.message ? f.message.index : f.enum ? enumIndex.get(f.enum)! : -1;
      const row = [f.number, f.name, f.jsonName, f.prop, f.type, f.label, ref] as const;
      return f.oneof ? [...row, f.oneof.prop] : row;
    }),
  }));
  const enums = model.enums.map((e): EnumInfo => ({ name: e.fullName, values: e.values.map((v) => [v.number, v.name] as const) }));
  return { messages, enums };
}

/** Numeric field types: the RecordWriter/Memory accessor, log2 of the element size, TS and typed-array types. */
export const numberKinds: Partial<Record<FieldType, { read: string; shift: number; ts: string; array: string }>> = {
  [FieldType.Int32]: { read: "i32", shift: 2, ts: "number", array: "Int32Array" },
  [FieldType.Sint32]: { read: "i32", shift: 2, ts: "number", array: "Int32Array" },
  [FieldType.Sfixed32]: { read: "i32", shift: 2, ts: "number", array: "Int32Array" },
  [FieldType.Enum]: { read: "i32", shift: 2, ts: "number", array: "Int32Array" },
  [FieldType.Uint32]: { read: "u32", shift: 2, ts: "number", array: "Uint32Array" },
  [FieldType.Fixed32]: { read: "u32", shift: 2, ts: "number", array: "Uint32Array" },
  [FieldType.Float]: { read: "f32", shift: 2, ts: "number", array: "Float32Array" },
  [FieldType.Double]: { read: "f64", shift: 3, ts: "number", array: "Float64Array" },
  [FieldType.Int64]: { read: "i64", shift: 3, ts: "bigint", array: "BigInt64Array" },
  [FieldType.Sint64]: { read: "i64", shift: 3, ts: "bigint", array: "BigInt64Array" },
  [FieldType.Sfixed64]: { read: "i64", shift: 3, ts: "bigint", array: "BigInt64Array" },
  [FieldType.Uint64]: { read: "u64", shift: 3, ts: "bigint", array: "BigUint64Array" },
  [FieldType.Fixed64]: { read: "u64", shift: 3, ts: "bigint", array: "BigUint64Array" },
};

export const isMessage = (f: FieldModel) => f.type === FieldType.Message || f.type === FieldType.Group;
