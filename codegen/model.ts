// The schema model the emitters work from: every message (map entries included) and enum of the
// loaded files, with field types, presence, packedness, and the record layout for wasm32.
import protobuf from "protobufjs";
import { camelCase, defineSchema, FieldFlag, FieldType, hasRef, int64Forms, Label, numberKind, propertyName, SourceBits, SourceFlags, type Int64As, type NumberKind } from "../ts/schema.js";
import { declaringFile, defaultBytes, exactIntegerDefault, isBundledWellKnown, realName } from "./load.js";

export interface EnumModel {
  fullName: string;
  file: string;
  /** Name within its file: nested names joined with "_". */
  localName: string;
  values: { name: string; number: number; deprecated: boolean; comment?: string }[];
  closed: boolean;
  /** The deprecated option: generated as @deprecated. */
  deprecated: boolean;
  /** Its comment in the .proto: generated as JSDoc. */
  comment?: string;
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
  /** Its comment in the .proto: generated as JSDoc. */
  comment?: string;
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
  /** Its comment in the .proto: generated as JSDoc. */
  comment?: string;
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

/**
 * A comment as generated code shows it: each line trimmed, a block comment's leading "*" dropped,
 * blank lines at either end dropped. protobufjs's comments (hppproto-gen) and protoc's (the plugin)
 * come out the same.
 */
export function docText(raw: string | null | undefined): string | undefined {
  if (raw == null) return undefined;
  const lines = raw.split(/\r?\n/).map((l) => l.trim().replace(/^\*(?: |$)/, "").trimEnd());
  while (lines.length > 0 && lines[0] === "") lines.shift();
  while (lines.length > 0 && lines[lines.length - 1] === "") lines.pop();
  return lines.length === 0 ? undefined : lines.join("\n");
}

/**
 * An element's comment, but none for the well-known types protobufjs supplies (google/protobuf/any.proto,
 * api.proto ...): hppproto-gen reads its copies, which have none, and protoc and buf hand the
 * plugin their own, which have; leaving them out keeps both outputs the same.
 */
const commentOf = (file: string, raw: string | null | undefined) => (isBundledWellKnown(file) ? undefined : docText(raw));

/** For a copy of an extension protobufjs adds to the type it extends: the extension as declared. */
const declaringField = (f: protobuf.Field): protobuf.Field | undefined => f.declaringField ?? undefined;

// protobufjs resolves editions features (with their proto2/proto3 meaning) but keeps them private
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
          comment: commentOf(file, nested.comment),
        };
        messages.push(m);
        byType.set(nested, m);
      } else if (nested instanceof protobuf.Enum) {
        const file = fileOf(nested);
        const values = Object.entries(nested.values).map(([name, number]) =>
          ({ name: realName(name), number, deprecated: nested.valuesOptions?.[name]?.["deprecated"] === true, comment: commentOf(file, nested.comments[name]) }));
        byEnum.set(nested, {
          fullName: fullNameOf(nested), file, localName: localName(nested), values,
          closed: features(nested).enum_type === "CLOSED", tableIndex: -1, deprecated: nested.options?.["deprecated"] === true,
          comment: commentOf(file, nested.comment),
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
    if (f.delimited && t instanceof protobuf.Type && f.name === t.name.charAt(0).toLowerCase() + t.name.slice(1) && t.parent === f.parent)
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
      deprecated: f.options?.["deprecated"] === true, comment: commentOf(owner.file, f.comment),
    };
    const resolve = (typeName: string, resolved: protobuf.ReflectionObject | null) => {
      if (Object.hasOwn(scalarTypes, typeName)) return { type: scalarTypes[typeName]! };
      if (resolved instanceof protobuf.Enum) return { type: FieldType.Enum, enum: byEnum.get(resolved)! };
      if (resolved instanceof protobuf.Type) {
        return { type: f.delimited ? FieldType.Group : FieldType.Message, message: byType.get(resolved)! };
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
  const model = { messages, enums, files };
  placeFields(model);
  return model;
}

/**
 * Slot offsets, presence and record sizes as the runtime has them: read back from the schema this
 * model declares, as defineSchema makes it, so generated code and the runtime cannot disagree.
 */
function placeFields(model: SchemaModel): void {
  const schema = defineSchema(schemaSource(model).flat());
  model.messages.forEach((m, i) => {
    const info = schema.messages[i]!;
    m.fields.forEach((f, j) => {
      f.offset = info.fields[j]!.offset;
      f.presence = info.fields[j]!.presence;
    });
    m.oneofs.forEach((o, j) => {
      o.caseOffset = info.oneofs[j]!.caseOffset;
      o.valueOffset = info.oneofs[j]!.valueOffset;
    });
    m.recordSize = info.recordSize;
  });
}

/**
 * The schema as generated code declares it (ts/schema.ts's SchemaSource), in parts: the header,
 * each enum, the message count, each message. What the runtime needs to lay out records, build the
 * codec's table and name fields; everything derivable left out.
 */
export function schemaSource(model: SchemaModel, int64: Int64As = "bigint"): (string | number | boolean)[][] {
  type Part = (string | number | boolean)[];
  const parts: Part[] = [[int64Forms.indexOf(int64), model.enums.length]];
  const enumIndex = new Map(model.enums.map((e, i) => [e, i]));
  for (const e of model.enums) {
    const out: Part = [e.fullName, e.closed ? 1 : 0, e.values.length];
    for (const v of e.values) out.push(v.name, v.number);
    parts.push(out);
  }
  parts.push([model.messages.length]);
  for (const m of model.messages) {
    const out: Part = [];
    parts.push(out);
    out.push(m.fullName, (m.messageSet ? SourceFlags.MessageSet : 0) | (m.isMapEntry ? SourceFlags.MapEntry : 0), m.oneofs.length);
    for (const o of m.oneofs) out.push(o.name, o.prop === propertyName(o.name) ? "" : o.prop);
    out.push(m.fields.length);
    for (const f of m.fields) {
      const jsonName = f.jsonName !== camelCase(f.name), prop = f.prop !== propertyName(f.name);
      const def = sourceDefault(f);
      const jsType = f.jsType ? int64Forms.indexOf(f.jsType) : 0;
      const code = f.type | (f.label << SourceBits.LabelShift) | (f.flags << SourceBits.FlagsShift) | (jsonName ? SourceBits.JsonName : 0) | (prop ? SourceBits.Prop : 0) |
        (def !== undefined ? SourceBits.Default : 0) | (jsType << SourceBits.Int64Shift);
      out.push(f.number, code, f.name);
      if (jsonName) out.push(f.jsonName);
      if (prop) out.push(f.prop);
      if (hasRef(f.type, f.label)) out.push(f.message ? f.message.index : enumIndex.get(f.enum!)!);
      if (f.oneof) out.push(m.oneofs.indexOf(f.oneof));
      if (def !== undefined) out.push(def);
    }
  }
  return parts;
}

/**
 * A field's declared default where it is not the zero a record holds: numbers as numbers, 64-bit
 * integers as decimal strings, strings as themselves, bytes as one char per byte, enums as numbers
 * (a closed enum without one defaults to its first value). Views read it for unset fields.
 */
export function sourceDefault(f: FieldModel): string | number | boolean | undefined {
  if (f.label !== Label.Explicit || isMessage(f)) return undefined;
  const d = f.defaultValue;
  if (f.type === FieldType.Enum) {
    const values = f.enum!.values;
    const n = typeof d === "string" ? values.find((v) => v.name === d)?.number : typeof d === "number" ? d : f.enum!.closed ? values[0]?.number : 0;
    return n ? n : undefined;
  }
  if (d === undefined) return undefined;
  switch (f.type) {
    case FieldType.String: case FieldType.Bytes: return d === "" ? undefined : String(d);
    case FieldType.Bool: return d === true || d === "true" ? true : undefined;
    default: {
      if (numberKinds[f.type]!.ts === "bigint") {
        let v = BigInt.asUintN(64, BigInt(typeof d === "number" ? Math.trunc(d) : String(d)));
        if (numberKinds[f.type]!.read === "i64") v = BigInt.asIntN(64, v);
        return v === 0n ? undefined : String(v);
      }
      let v = typeof d === "number" ? d : d === "inf" ? Infinity : d === "-inf" ? -Infinity : d === "nan" ? NaN : Number(d);
      if (f.type === FieldType.Float) v = Math.fround(v); // what the field reads when set to it
      return Object.is(v, 0) ? undefined : v;
    }
  }
}

/** Numeric field types: the RecordWriter/Memory accessor, log2 of the element size, TS and typed-array types. */
const kinds: Record<NumberKind, { shift: number; ts: string; array: string }> = {
  i32: { shift: 2, ts: "number", array: "Int32Array" }, u32: { shift: 2, ts: "number", array: "Uint32Array" },
  f32: { shift: 2, ts: "number", array: "Float32Array" }, f64: { shift: 3, ts: "number", array: "Float64Array" },
  i64: { shift: 3, ts: "bigint", array: "BigInt64Array" }, u64: { shift: 3, ts: "bigint", array: "BigUint64Array" },
};
export const numberKinds: Partial<Record<FieldType, { read: NumberKind; shift: number; ts: string; array: string }>> = Object.fromEntries(
  Object.values(FieldType).filter((t): t is FieldType => typeof t === "number" && numberKind(t) !== undefined)
    .map((t) => [t, { read: numberKind(t)!, ...kinds[numberKind(t)!] }]),
);

export const isMessage = (f: FieldModel) => f.type === FieldType.Message || f.type === FieldType.Group;
