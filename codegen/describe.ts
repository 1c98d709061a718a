// The descriptors of .proto files protobufjs parsed: what protoc would hand a plugin for the same
// files (FileDescriptorProto), so the model reads one form whichever of the two parsed them.
import protobuf from "protobufjs";
import descriptorModule from "protobufjs/ext/descriptor.js";
import {
  Edition, escapeBytes, FieldLabel, IdempotencyLevel, JsType, mapEntryName, OptimizeMode, PathOf,
  type DescriptorProto, type EnumDescriptorProto, type FeatureSet, type FieldDescriptorProto, type FileDescriptorProto, type MethodDescriptorProto,
  type ServiceDescriptorProto, type SourceLocation,
} from "./descriptor.js";
import { encodeCustomOptions, fileCustomOptions, nestedOptions } from "./options.js";
import { withSources } from "./located.js";
import { declaringFile, defaultBytes, exactIntegerDefault, realName, scannedOf, sourceOf, type LoadedFiles } from "./parse.js";

// a CommonJS module: its exports arrive as the default export
const descriptor = descriptorModule as unknown as typeof import("protobufjs/ext/descriptor.js");

const scalarTypes: Record<string, number> = {
  double: 1, float: 2, int64: 3, uint64: 4, int32: 5, fixed64: 6, fixed32: 7, bool: 8,
  string: 9, bytes: 12, uint32: 13, sfixed32: 15, sfixed64: 16, sint32: 17, sint64: 18,
};
const TYPE_GROUP = 10, TYPE_MESSAGE = 11, TYPE_BYTES = 12, TYPE_ENUM = 14;

// protobufjs builds these well-known types from JSON, without a file name.
const builtinFiles: Record<string, string> = {
  Any: "any", Duration: "duration", Empty: "empty", FieldMask: "field_mask", Struct: "struct", Value: "struct",
  ListValue: "struct", NullValue: "struct", Timestamp: "timestamp", DoubleValue: "wrappers", FloatValue: "wrappers",
  Int64Value: "wrappers", UInt64Value: "wrappers", Int32Value: "wrappers", UInt32Value: "wrappers",
  BoolValue: "wrappers", StringValue: "wrappers", BytesValue: "wrappers",
};
function builtinFile(o: protobuf.ReflectionObject): string {
  let top = o;
  while (top.parent && top.parent instanceof protobuf.Type) top = top.parent;
  const file = top.fullName.startsWith(".google.protobuf.") ? builtinFiles[top.name] : undefined;
  if (!file) throw new Error(`cannot tell which file declares ${o.fullName}`);
  return `google/protobuf/${file}.proto`;
}

const fullName = (o: protobuf.ReflectionObject) => realName(o.fullName);

/** The declaration's editions features (protobufjs keeps them as options, with the names of the .proto). */
function featuresOf(o: protobuf.ReflectionObject): FeatureSet | undefined {
  const own = o.options?.["features"] as Record<string, string> | undefined;
  if (!own) return undefined;
  const named = Object.fromEntries(Object.entries(own).map(([k, v]) => [k.replace(/_(\w)/g, (_, c: string) => c.toUpperCase()), v]));
  return descriptor.FeatureSet.toObject(descriptor.FeatureSet.fromObject(named)) as FeatureSet;
}

/** The options any declaration may have: deprecated, editions features, custom options. */
function commonOptions(o: protobuf.ReflectionObject): { deprecated?: boolean; features?: FeatureSet; custom?: Uint8Array } {
  const features = featuresOf(o), custom = encodeCustomOptions(o.parsedOptions, o);
  return { ...(o.options?.["deprecated"] === true && { deprecated: true }), ...(features && { features }), ...(custom && { custom }) };
}

/** Sets a descriptor's options where there are any. */
function setOptions<T extends { options?: object }>(out: T, options: object): T {
  if (Object.keys(options).length > 0) out.options = options as T["options"];
  return out;
}

/**
 * A field's name as declared. protobufjs names a proto2 group's field after the type with a
 * lower-case first letter ("optionalGroup"), where protoc lower-cases the whole name
 * ("optionalgroup"); its built-in well-known types name google.protobuf.Value's fields in
 * lowerCamelCase ("nullValue"), where their .proto has snake_case.
 */
function fieldName(f: protobuf.Field): string {
  if (declaringFile(f) === undefined) return f.name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
  const t = f.resolvedType;
  if (f.delimited && t instanceof protobuf.Type && f.name === t.name.charAt(0).toLowerCase() + t.name.slice(1) && t.parent === f.parent) {
    return realName(t.name.toLowerCase());
  }
  return realName(f.name);
}

/** A field's declared default, written as protoc writes default_value. */
function defaultValue(f: protobuf.Field, type: number): string | undefined {
  const d = f.options?.["default"] as unknown;
  if (d === undefined) return undefined;
  if (type === 9 || type === TYPE_BYTES) {
    const bytes = defaultBytes(f) ?? new TextEncoder().encode(String(d));
    return type === TYPE_BYTES ? escapeBytes(bytes) : new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes); // (a leading U+FEFF is text)
  }
  if (typeof d === "number") {
    if (type === 3 || type === 4 || type === 6 || type === 16 || type === 18) return String(exactIntegerDefault(f) ?? BigInt(d));
    const value = type === 2 ? Math.fround(d) : d; // a float's default is the float nearest the literal
    return Number.isNaN(value) ? "nan" : value === Infinity ? "inf" : value === -Infinity ? "-inf" : String(value);
  }
  return type === TYPE_ENUM ? realName(String(d)) : String(d);
}

function fieldType(f: protobuf.Field, typeOf: string, resolved: protobuf.ReflectionObject | null): Pick<FieldDescriptorProto, "type" | "typeName"> {
  if (Object.hasOwn(scalarTypes, typeOf)) return { type: scalarTypes[typeOf]! };
  if (resolved instanceof protobuf.Enum) return { type: TYPE_ENUM, typeName: fullName(resolved) };
  if (resolved instanceof protobuf.Type) {
    return { type: (resolved as { group?: boolean }).group && f.delimited ? TYPE_GROUP : TYPE_MESSAGE, typeName: fullName(resolved) };
  }
  throw new Error(`${fullName(f.parent!)}.${f.name}: cannot resolve type ${typeOf}`);
}

function describeField(f: protobuf.Field, proto2: boolean, oneofIndex?: number): FieldDescriptorProto {
  const out: FieldDescriptorProto = { name: fieldName(f), number: f.id, label: FieldLabel.Optional };
  if (f.repeated) out.label = FieldLabel.Repeated;
  else if (proto2 && f.rule === "required") out.label = FieldLabel.Required;
  Object.assign(out, fieldType(f, f.type, f.resolvedType));
  if (f.extend !== undefined) out.extendee = fullName(f.extensionField!.parent!);
  const d = defaultValue(f, out.type!);
  if (d !== undefined) out.defaultValue = d;
  if (oneofIndex !== undefined) out.oneofIndex = oneofIndex;
  const json = f.options?.["json_name"];
  if (typeof json === "string") out.jsonName = json;
  if (f.options?.["proto3_optional"] === true) out.proto3Optional = true;
  const options: NonNullable<FieldDescriptorProto["options"]> = commonOptions(f);
  if (typeof f.options?.["packed"] === "boolean") options.packed = f.options["packed"] as boolean;
  const jstype = f.options?.["jstype"];
  if (jstype === "JS_STRING" || jstype === "JS_NUMBER") options.jstype = jstype === "JS_STRING" ? JsType.String : JsType.Number;
  return setOptions(out, options);
}

/** Reads the protobufjs objects of one file into its descriptor, and its comments into SourceCodeInfo. */
class FileDescriber {
  readonly locations: SourceLocation[] = [];
  constructor(private readonly proto2: boolean, private readonly comments: boolean) {}

  comment(path: number[], text: string | null | undefined): void {
    if (this.comments && text) this.locations.push({ path, leadingComments: text });
  }

  field(f: protobuf.Field, oneofIndex?: number): FieldDescriptorProto {
    return describeField(f, this.proto2, oneofIndex);
  }

  message(t: protobuf.Type, path: number[]): DescriptorProto {
    const out: DescriptorProto = { name: realName(t.name) };
    this.comment(path, t.comment);
    // proto3 optional fields' one-field oneofs go last, as protoc lists them
    const oneofs = [...t.oneofsArray.filter((o) => !this.synthetic(o)), ...t.oneofsArray.filter((o) => this.synthetic(o))];
    if (oneofs.length > 0) {
      out.oneofDecl = oneofs.map((o) => setOptions<NonNullable<DescriptorProto["oneofDecl"]>[number]>({ name: realName(o.name) }, commonOptions(o)));
    }
    const nested: DescriptorProto[] = [];
    const enums: EnumDescriptorProto[] = [];
    const fields: FieldDescriptorProto[] = [];
    // protobufjs adds a copy of every extension field to the type it extends
    t.fieldsArray.filter((f) => !f.declaringField).forEach((f, i) => {
      const d = this.field(f, f.partOf ? oneofs.indexOf(f.partOf) : undefined);
      this.comment([...path, PathOf.messageField, i], f.comment);
      if (f instanceof protobuf.MapField) {
        const entry = mapEntryName(d.name);
        const key = { name: "key", number: 1, label: FieldLabel.Optional, ...fieldType(f, f.keyType, null) };
        const value = { name: "value", number: 2, label: FieldLabel.Optional, ...fieldType(f, f.type, f.resolvedType) };
        nested.push({ name: entry, field: [key, value], options: { mapEntry: true } });
        Object.assign(d, { label: FieldLabel.Repeated, type: TYPE_MESSAGE, typeName: `${fullName(t)}.${entry}` });
      }
      fields.push(d);
    });
    if (fields.length > 0) out.field = fields;
    // protobufjs's ranges include their end, descriptors' do not
    if (t.extensions?.length) out.extensionRange = t.extensions.map(([start, end]) => ({ start, end: end! + 1 }));
    const reserved = (t.reserved ?? []).filter((r): r is string => typeof r === "string").map(realName);
    if (reserved.length > 0) out.reservedName = reserved;
    const extensions: FieldDescriptorProto[] = [];
    for (const o of t.nestedArray) {
      if (o instanceof protobuf.Type) nested.push(this.message(o, [...path, PathOf.messageNested, nested.length]));
      else if (o instanceof protobuf.Enum) enums.push(this.enum(o, [...path, PathOf.messageEnum, enums.length]));
      else if (o instanceof protobuf.Field && o.extend !== undefined) {
        this.comment([...path, PathOf.messageExtension, extensions.length], o.comment);
        extensions.push(this.field(o));
      }
    }
    if (nested.length > 0) out.nestedType = nested;
    if (enums.length > 0) out.enumType = enums;
    if (extensions.length > 0) out.extension = extensions;
    const options: NonNullable<DescriptorProto["options"]> = commonOptions(t);
    if (t.options?.["message_set_wire_format"] === true) options.messageSetWireFormat = true;
    return setOptions(out, options);
  }

  enum(e: protobuf.Enum, path: number[]): EnumDescriptorProto {
    this.comment(path, e.comment);
    const value = Object.entries(e.values).map(([name, number], i) => {
      this.comment([...path, PathOf.enumValue, i], e.comments[name]);
      const deprecated = e.valuesOptions?.[name]?.["deprecated"] === true;
      const custom = encodeCustomOptions(nestedOptions(e.valuesOptions?.[name]), e);
      return deprecated || custom ? { name: realName(name), number, options: { ...(deprecated && { deprecated }), ...(custom && { custom }) } } : { name: realName(name), number };
    });
    const options: NonNullable<EnumDescriptorProto["options"]> = commonOptions(e);
    if (e.options?.["allow_alias"] === true) options.allowAlias = true;
    return setOptions<EnumDescriptorProto>({ name: realName(e.name), value }, options);
  }

  service(s: protobuf.Service, path: number[]): ServiceDescriptorProto {
    this.comment(path, s.comment);
    const out: ServiceDescriptorProto = { name: realName(s.name) };
    const methods = s.methodsArray.map((m, i): MethodDescriptorProto => {
      this.comment([...path, PathOf.serviceMethod, i], m.comment);
      const typeName = (t: protobuf.Type | null, name: string) => {
        if (!t) throw new Error(`${fullName(m)}: cannot resolve type ${name}`);
        return fullName(t);
      };
      m.resolve();
      const d: MethodDescriptorProto = { name: realName(m.name), inputType: typeName(m.resolvedRequestType, m.requestType), outputType: typeName(m.resolvedResponseType, m.responseType) };
      if (m.requestStream) d.clientStreaming = true;
      if (m.responseStream) d.serverStreaming = true;
      const options: NonNullable<MethodDescriptorProto["options"]> = commonOptions(m);
      const level = m.options?.["idempotency_level"];
      if (level === "NO_SIDE_EFFECTS" || level === "IDEMPOTENT") options.idempotencyLevel = level === "NO_SIDE_EFFECTS" ? IdempotencyLevel.NoSideEffects : IdempotencyLevel.Idempotent;
      return setOptions(d, options);
    });
    if (methods.length > 0) out.method = methods;
    return setOptions(out, commonOptions(s));
  }

  private synthetic(o: protobuf.OneOf): boolean {
    return o.fieldsArray.length === 1 && (o.fieldsArray[0]!.options?.["proto3_optional"] === true || o.name.startsWith("_"));
  }
}

/** The syntax statement of a parsed file, as a descriptor has it. */
function syntaxOf(file: string | undefined): Pick<FileDescriptorProto, "syntax" | "edition"> {
  if (file === undefined) return { syntax: "proto3" }; // protobufjs's built-in well-known types
  const statement = scannedOf(file)?.syntax;
  if (!statement) return {};
  if (statement.keyword === "syntax") return { syntax: statement.value };
  // protobufjs reads the edition in development ("UNSTABLE") as the newest it knows, and its
  // descriptor.proto has no number for it: protoc's
  if (statement.value === "UNSTABLE") return { syntax: "editions", edition: Edition.Unstable };
  return { syntax: "editions", edition: (descriptor.FileDescriptorProto.fromObject({ edition: `EDITION_${statement.value}` }) as { edition?: number }).edition ?? Edition.E2023 };
}

/** One descriptor per loaded file that declares something, named by its import name. */
export function describeFiles(loaded: LoadedFiles): FileDescriptorProto[] {
  return withSources(loaded.sources, () => describeAll(loaded));
}

function describeAll({ root, importNames, wellKnown, forOptionsOnly }: LoadedFiles): FileDescriptorProto[] {
  const files = new Map<string, { proto: FileDescriptorProto; describer: FileDescriber }>();
  const fileName = (o: protobuf.ReflectionObject) => {
    const declared = declaringFile(o);
    return importNames.get(declared ?? builtinFile(o)) ?? declared ?? builtinFile(o);
  };
  const fileFor = (o: protobuf.ReflectionObject, pkg: string) => {
    const declared = declaringFile(o);
    const name = fileName(o);
    let file = files.get(name);
    if (!file) {
      const proto: FileDescriptorProto = { name, ...syntaxOf(declared) };
      if (pkg) proto.package = pkg;
      const optimizeFor = declared === undefined ? undefined : /(?:^|[;}\s])option\s+optimize_for\s*=\s*(SPEED|CODE_SIZE|LITE_RUNTIME)\s*;/.exec(sourceOf(declared))?.[1];
      if (optimizeFor) proto.options = { optimizeFor: OptimizeMode[optimizeFor === "SPEED" ? "Speed" : optimizeFor === "CODE_SIZE" ? "CodeSize" : "LiteRuntime"] };
      const custom = declared === undefined ? undefined : fileCustomOptions(declared, o.parent!);
      if (custom) proto.options = { ...proto.options, custom };
      const proto2 = proto.syntax === undefined || proto.syntax === "proto2";
      file = { proto, describer: new FileDescriber(proto2, !wellKnown.has(name)) };
      files.set(name, file);
    }
    return file;
  };
  const visit = (ns: protobuf.NamespaceBase) => {
    const pkg = ns instanceof protobuf.Root ? "" : realName(ns.fullName.slice(1));
    for (const o of ns.nestedArray) {
      const isPackage = o instanceof protobuf.Namespace && !(o instanceof protobuf.Type) && !(o instanceof protobuf.Service);
      if (!isPackage && forOptionsOnly.has(fileName(o))) continue; // a declaration of a file loaded for its options only
      if (o instanceof protobuf.Type) {
        const { proto, describer } = fileFor(o, pkg);
        (proto.messageType ??= []).push(describer.message(o, [PathOf.fileMessage, proto.messageType.length]));
      } else if (o instanceof protobuf.Enum) {
        const { proto, describer } = fileFor(o, pkg);
        (proto.enumType ??= []).push(describer.enum(o, [PathOf.fileEnum, proto.enumType.length]));
      } else if (o instanceof protobuf.Field && o.extend !== undefined) {
        const { proto, describer } = fileFor(o, pkg);
        describer.comment([PathOf.fileExtension, proto.extension?.length ?? 0], o.comment);
        (proto.extension ??= []).push(describer.field(o));
      } else if (o instanceof protobuf.Service) {
        const { proto, describer } = fileFor(o, pkg);
        (proto.service ??= []).push(describer.service(o, [PathOf.fileService, proto.service.length]));
      } else if (o instanceof protobuf.Namespace) visit(o);
    }
  };
  visit(root);
  return [...files.values()].map(({ proto, describer }) => {
    if (describer.locations.length > 0) proto.sourceCodeInfo = { location: describer.locations };
    return proto;
  });
}
