// The schema model the emitters work from: every message (map entries included) and enum of the
// loaded files, with field types, presence, packedness, and the record layout for wasm32.
import { camelCase, charsOfBytes, defineSchema, FieldFlag, FieldType, hasRef, int64Forms, Label, numberKind, OptionsOf, propertyName, SourceBits, SourceFlags, type Int64As, type NumberKind } from "../ts/schema.js";
import {
  editionDefaults, EnumType, fieldFeatures, FieldLabel, FieldPresence, IdempotencyLevel, JsType, MessageEncoding, PathOf, qualified, RepeatedFieldEncoding, unescapeBytes, Utf8Validation, withFeatures,
  type DescriptorProto, type EnumDescriptorProto, type Features, type FieldDescriptorProto, type FileDescriptorProto, type ServiceDescriptorProto,
} from "./descriptor.js";

export interface EnumModel {
  fullName: string;
  file: string;
  /** Name within its file: nested names joined with "_". */
  localName: string;
  values: { name: string; number: number; deprecated: boolean; comment?: string; customOptions?: Uint8Array }[];
  closed: boolean;
  /** The deprecated option: generated as @deprecated. */
  deprecated: boolean;
  /** Its comment in the .proto: generated as JSDoc. */
  comment?: string;
  /** Index among the table's enums, for closed enums. */
  tableIndex: number;
  /** Its options' extension fields (custom options), as wire bytes. */
  customOptions?: Uint8Array;
}

export interface OneofModel {
  name: string;
  prop: string;
  fields: FieldModel[];
  caseOffset: number;
  valueOffset: number;
  customOptions?: Uint8Array;
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
  /** proto2 / editions explicit default: a number, bigint, boolean, or string (enum value names; bytes one char per byte). */
  defaultValue?: unknown;
  offset: number;
  /** Hasbit position for explicit presence; the case slot offset for oneof members. */
  presence: number;
  /** The deprecated option: generated as @deprecated. */
  deprecated: boolean;
  /** Its comment in the .proto: generated as JSDoc. */
  comment?: string;
  customOptions?: Uint8Array;
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
  /** Reserved field names. */
  reserved: string[];
  /** The deprecated option: generated as @deprecated. */
  deprecated: boolean;
  /** Its comment in the .proto: generated as JSDoc. */
  comment?: string;
  customOptions?: Uint8Array;
  /**
   * Set on the message a file has for the extensions it declares of a message of another file (the
   * extendee): its fields are those extensions (ts/schema.ts MessageInfo.extensionHolder).
   */
  extensionHolder?: MessageModel;
}

/** An `extend` field: a field of the message it extends, declared (and generated as a value) in its own file. */
export interface ExtensionModel {
  /** Fully qualified, e.g. "pkg.my_option". */
  fullName: string;
  /** The file that declares it. */
  file: string;
  /** Name within its file: the declaring message's local name and its own, joined with "_". */
  localName: string;
  extendee: MessageModel;
  /** Its field: in the extendee, or in the carrier. */
  field: FieldModel;
  /** The extension holder of its file holding its field, when the extendee does not (see buildModel). */
  carrier?: MessageModel;
  /** Its place among the file's extensions, as declared: generated in that order whatever order the files came in. */
  order: number;
}

/** An RPC method: its request and response messages, streaming, idempotency. */
export interface MethodModel {
  /** As in the .proto, e.g. "SayHello". */
  name: string;
  input: MessageModel;
  output: MessageModel;
  clientStreaming: boolean;
  serverStreaming: boolean;
  idempotency: "unknown" | "no_side_effects" | "idempotent";
  deprecated: boolean;
  comment?: string;
  customOptions?: Uint8Array;
}

export interface ServiceModel {
  fullName: string;
  file: string;
  localName: string;
  methods: MethodModel[];
  deprecated: boolean;
  comment?: string;
  customOptions?: Uint8Array;
}

export interface SchemaModel {
  messages: MessageModel[];
  enums: EnumModel[];
  extensions: ExtensionModel[];
  services: ServiceModel[];
  /** Files in load order, by import name. */
  files: string[];
  /** The files that have custom options: their package and options. */
  fileOptions: Map<string, FileOptionsModel>;
}

export interface FileOptionsModel {
  package: string;
  customOptions: Uint8Array;
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

/** A file's comments by SourceCodeInfo path: the leading comment, else the trailing one (as the .proto parser reads them). */
function commentsOf(file: FileDescriptorProto): (path: number[]) => string | undefined {
  const byPath = new Map<string, string>();
  for (const loc of file.sourceCodeInfo?.location ?? []) {
    const text = loc.leadingComments || loc.trailingComments;
    if (text) byPath.set((loc.path ?? []).join("."), text);
  }
  return (path) => docText(byPath.get(path.join(".")));
}

/** A declared default as a descriptor writes it (text; bytes C-escaped), as the model holds it. */
function defaultOf(type: FieldType, text: string): unknown {
  switch (type) {
    case FieldType.String: case FieldType.Enum: return text;
    case FieldType.Bytes: return charsOfBytes(unescapeBytes(text));
    case FieldType.Bool: return text === "true";
    case FieldType.Float: case FieldType.Double: return text === "inf" ? Infinity : text === "-inf" ? -Infinity : text === "nan" ? NaN : Number(text);
    default: return numberKinds[type]!.ts === "bigint" ? BigInt(text) : Number(text);
  }
}

/** Where a declaration sits: its file, the features it inherits, its comments. */
interface Scope {
  file: FileDescriptorProto;
  features: Features;
  comment: (path: number[]) => string | undefined;
}

interface DeclaredMessage {
  d: DescriptorProto;
  m: MessageModel;
  scope: Scope;
  path: number[];
}

interface DeclaredExtension {
  d: FieldDescriptorProto;
  /** The full name of the message or package that declares it. */
  parent: string;
  /** The local name of the message that declares it, or "" at file level. */
  parentLocal: string;
  scope: Scope;
  path: number[];
  /** Its place among the extensions of all files, as declared. */
  order: number;
}

/**
 * Where extensions are fields: "run", of the message they extend whatever file declares them (one
 * schema for every file, as runtime schemas are); "file", only when declared in the extendee's own
 * file, so that a message's record is the same in every file's schema that holds it (generated
 * code: each file has its schema, and separate generation runs compose). An extension of another
 * file's message is then a field of its own file's extension holder for that message.
 */
export type ExtensionFields = "run" | "file";

/** The property a name gets among those `used` already holds (a "$" added until it is free), added to them. */
function claimProperty(used: Set<string>, name: string): string {
  let p = propertyName(name);
  while (used.has(p)) p += "$";
  used.add(p);
  return p;
}

/** The model of the messages and enums of a set of files (each file's imports included), from their descriptors. */
export function buildModel(descriptors: readonly FileDescriptorProto[], extensionFields: ExtensionFields = "run"): SchemaModel {
  const messages: MessageModel[] = [];
  const enums: EnumModel[] = [];
  const files: string[] = [];
  const fileOptions = new Map<string, FileOptionsModel>();
  // by full name with a leading dot, as descriptors refer to them
  const declared = new Map<string, DeclaredMessage>();
  const mapEntries = new Map<string, DescriptorProto>();
  const byEnum = new Map<string, EnumModel>();
  const extensions: DeclaredExtension[] = [];
  const extensionModels: ExtensionModel[] = [];
  const services: { d: ServiceDescriptorProto; pkg: string; scope: Scope; path: number[] }[] = [];
  const inFile = (file: FileDescriptorProto) => {
    if (files.includes(file.name)) return;
    files.push(file.name);
    if (file.options?.custom) fileOptions.set(file.name, { package: file.package ?? "", customOptions: file.options.custom });
  };

  const addEnum = (e: EnumDescriptorProto, parent: string, parentLocal: string, scope: Scope, path: number[]) => {
    const features = withFeatures(scope.features, e.options?.features);
    const model: EnumModel = {
      fullName: qualified(parent, e.name), file: scope.file.name, localName: parentLocal ? `${parentLocal}_${e.name}` : e.name,
      values: (e.value ?? []).map((v, i) => ({
        name: v.name, number: v.number, deprecated: v.options?.deprecated === true, comment: scope.comment([...path, PathOf.enumValue, i]), customOptions: v.options?.custom,
      })),
      closed: features.enumType === EnumType.Closed, tableIndex: -1, deprecated: e.options?.deprecated === true, comment: scope.comment(path), customOptions: e.options?.custom,
    };
    inFile(scope.file);
    enums.push(model);
    byEnum.set(`.${model.fullName}`, model);
  };
  const addExtensions = (list: FieldDescriptorProto[] | undefined, parent: string, parentLocal: string, scope: Scope, path: number[]) =>
    list?.forEach((d, i) => extensions.push({ d, parent, parentLocal, scope, path: [...path, i], order: extensions.length }));
  // each message, then the messages and enums declared in it: the order the runtime's table numbers them in
  const addMessage = (d: DescriptorProto, parent: string, parentLocal: string, outer: Scope, path: number[]) => {
    const fullName = qualified(parent, d.name);
    const scope = { ...outer, features: withFeatures(outer.features, d.options?.features) };
    if (d.options?.mapEntry) {
      mapEntries.set(`.${fullName}`, d);
      return;
    }
    const localName = parentLocal ? `${parentLocal}_${d.name}` : d.name;
    const m: MessageModel = {
      fullName, file: scope.file.name, localName, fields: [], oneofs: [], index: messages.length, recordSize: 0, isMapEntry: false,
      messageSet: d.options?.messageSetWireFormat === true, reserved: d.reservedName ?? [], deprecated: d.options?.deprecated === true, comment: scope.comment(path),
      customOptions: d.options?.custom,
    };
    inFile(scope.file);
    messages.push(m);
    declared.set(`.${fullName}`, { d, m, scope, path });
    d.nestedType?.forEach((n, i) => addMessage(n, fullName, localName, scope, [...path, PathOf.messageNested, i]));
    d.enumType?.forEach((e, i) => addEnum(e, fullName, localName, scope, [...path, PathOf.messageEnum, i]));
    addExtensions(d.extension, fullName, localName, scope, [...path, PathOf.messageExtension]);
  };
  for (const file of descriptors) {
    const scope: Scope = { file, features: withFeatures(editionDefaults(file), file.options?.features), comment: commentsOf(file) };
    const pkg = file.package ?? "";
    if (file.options?.custom) inFile(file);
    file.messageType?.forEach((d, i) => addMessage(d, pkg, "", scope, [PathOf.fileMessage, i]));
    file.enumType?.forEach((e, i) => addEnum(e, pkg, "", scope, [PathOf.fileEnum, i]));
    addExtensions(file.extension, pkg, "", scope, [PathOf.fileExtension]);
    file.service?.forEach((d, i) => services.push({ d, pkg, scope, path: [PathOf.fileService, i] }));
  }

  for (const { d, m, scope, path } of declared.values()) {
    const usedProps = new Set<string>();
    const uniqueProp = (name: string) => claimProperty(usedProps, name);
    const oneofs = new Map<number, OneofModel>();
    const own = (d.field ?? []).map((f, i) => ({ f, i })).sort((a, b) => a.f.number - b.f.number);
    for (const { f, i } of own) {
      // a proto3 optional field's one-field oneof is only its presence
      const oneofIndex = f.proto3Optional ? undefined : f.oneofIndex;
      const oneof = oneofIndex === undefined ? undefined : d.oneofDecl![oneofIndex]!;
      const features = fieldFeatures(withFeatures(scope.features, oneof?.options?.features), f);
      const field = buildField(f, m, uniqueProp(f.name), features, scope.comment([...path, PathOf.messageField, i]));
      field.jsonName = f.jsonName ?? camelCase(f.name);
      if (field.mapEntry) {
        field.mapEntry.index = messages.length;
        messages.push(field.mapEntry);
      }
      if (oneof) {
        let om = oneofs.get(oneofIndex!);
        if (!om) {
          om = { name: oneof.name, prop: uniqueProp(oneof.name), fields: [], caseOffset: 0, valueOffset: 0, customOptions: oneof.options?.custom };
          oneofs.set(oneofIndex!, om);
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
    const extending = extensions.filter((e) => e.d.extendee === `.${m.fullName}`).sort((a, b) => a.d.number - b.d.number);
    const holders = new Map<string, { holder: MessageModel; props: Set<string> }>(); // by the file declaring them
    for (const e of extending) {
      const localName = e.parentLocal ? `${e.parentLocal}_${e.d.name}` : e.d.name;
      const file = e.scope.file.name;
      let carrier: MessageModel | undefined;
      let prop: string;
      if (extensionFields === "file" && file !== m.file) {
        let h = holders.get(file);
        if (h === undefined) {
          const holder: MessageModel = {
            fullName: m.fullName, file, localName: `${m.localName}$extensions`, fields: [], oneofs: [], index: messages.length, recordSize: 0,
            isMapEntry: false, messageSet: m.messageSet, reserved: [], deprecated: false, extensionHolder: m,
          };
          messages.push(holder);
          holders.set(file, (h = { holder, props: new Set() }));
        }
        carrier = h.holder;
        prop = claimProperty(h.props, localName);
      } else prop = uniqueProp(localName);
      const field = buildField(e.d, carrier ?? m, prop, fieldFeatures(e.scope.features, e.d), e.scope.comment(e.path));
      const fullName = qualified(e.parent, e.d.name);
      field.name = field.jsonName = `[${fullName}]`;
      (carrier ?? m).fields.push(field);
      inFile(e.scope.file); // a module of its own, also for a file that only extends (custom options)
      extensionModels.push({ fullName, file, localName, extendee: m, field, order: e.order, carrier });
    }
    m.fields.sort((a, b) => a.number - b.number);
  }

  function buildField(f: FieldDescriptorProto, owner: MessageModel, prop: string, features: Features, comment: string | undefined): FieldModel {
    const field: FieldModel = {
      name: f.name, jsonName: camelCase(f.name), prop, number: f.number, type: FieldType.Int32, label: Label.Implicit, flags: 0, offset: 0, presence: 0,
      deprecated: f.options?.deprecated === true, comment, customOptions: f.options?.custom,
    };
    const resolve = (type: FieldType, typeName: string | undefined) => {
      if (type === FieldType.Enum) {
        const e = byEnum.get(typeName!);
        if (e) return { type, enum: e };
      } else if (type === FieldType.Message || type === FieldType.Group) {
        const m = declared.get(typeName!)?.m;
        if (m) return { type: features.messageEncoding === MessageEncoding.Delimited ? FieldType.Group : FieldType.Message, message: m };
      } else return { type };
      throw new Error(`${owner.fullName}.${f.name}: cannot resolve type ${typeName}`);
    };
    const verifyUtf8 = features.utf8Validation === Utf8Validation.Verify;
    const entry = f.label === FieldLabel.Repeated && f.typeName !== undefined ? mapEntries.get(f.typeName) : undefined;
    if (entry) {
      field.label = Label.Map;
      field.type = FieldType.Message;
      const slot = (number: number, name: string): FieldModel => {
        const declared = entry.field!.find((s) => s.number === number)!;
        const r = resolve(declared.type!, declared.typeName);
        return {
          name, jsonName: name, prop: name, number, type: r.type === FieldType.Group ? FieldType.Message : r.type, label: Label.Implicit,
          flags: (r.type === FieldType.String && verifyUtf8 ? FieldFlag.ValidateUtf8 : 0) | (r.enum?.closed ? FieldFlag.ClosedEnum : 0),
          message: r.message, enum: r.enum, offset: 0, presence: 0, deprecated: false,
        };
      };
      field.mapEntry = {
        fullName: `${owner.fullName}.${field.name}Entry`, file: owner.file, localName: `${owner.localName}_${field.name}Entry`,
        fields: [slot(1, "key"), slot(2, "value")], oneofs: [], index: -1, recordSize: 0, isMapEntry: true,
        messageSet: false, reserved: [], deprecated: false,
      };
      field.message = field.mapEntry;
      return field;
    }
    const r = resolve(f.type!, f.typeName);
    field.type = r.type;
    field.message = r.message;
    field.enum = r.enum;
    let flags = 0;
    if (f.label === FieldLabel.Repeated) {
      field.label = Label.Repeated;
      if (features.repeatedFieldEncoding === RepeatedFieldEncoding.Packed && r.type !== FieldType.String && r.type !== FieldType.Bytes && !r.message) flags |= FieldFlag.Packed;
    } else if (r.message || f.oneofIndex !== undefined || f.extendee !== undefined || features.fieldPresence !== FieldPresence.Implicit) {
      field.label = Label.Explicit;
      if (features.fieldPresence === FieldPresence.LegacyRequired) flags |= FieldFlag.Required;
      if (f.defaultValue !== undefined) field.defaultValue = defaultOf(r.type, f.defaultValue);
    }
    const jstype = f.options?.jstype;
    if (numberKinds[r.type]?.ts === "bigint" && (jstype === JsType.String || jstype === JsType.Number)) field.jsType = jstype === JsType.String ? "string" : "number";
    if (r.type === FieldType.String && verifyUtf8) flags |= FieldFlag.ValidateUtf8;
    if (r.enum?.closed) flags |= FieldFlag.ClosedEnum;
    field.flags = flags;
    return field;
  }

  // numbered by file name, then by declaration: the same output whatever order the files were
  // named in, and whether hppproto-gen parsed them or protoc handed them to the plugin
  const byFile = (a: { file: string }, b: { file: string }) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0);
  // in a file: its messages as declared, then map entries, then extension holders by extendee (what
  // the other files are, and their order, must not change a file's schema)
  const rank = (m: MessageModel) => (m.extensionHolder ? 2 : m.isMapEntry ? 1 : 0);
  const holdersByExtendee = (a: MessageModel, b: MessageModel) => (!a.extensionHolder || a.fullName === b.fullName ? 0 : a.fullName < b.fullName ? -1 : 1);
  messages.sort((a, b) => byFile(a, b) || rank(a) - rank(b) || holdersByExtendee(a, b)).forEach((m, i) => (m.index = i));
  enums.sort(byFile);
  let closedCount = 0;
  for (const e of enums) if (e.closed) e.tableIndex = closedCount++;
  const serviceModels = services.map(({ d, pkg, scope, path }): ServiceModel => {
    inFile(scope.file);
    const message = (typeName: string, method: string) => {
      const m = declared.get(typeName)?.m;
      if (m === undefined) throw new Error(`${qualified(pkg, d.name)}.${method}: cannot resolve type ${typeName}`);
      return m;
    };
    return {
      fullName: qualified(pkg, d.name), file: scope.file.name, localName: d.name, deprecated: d.options?.deprecated === true,
      comment: scope.comment(path), customOptions: d.options?.custom,
      methods: (d.method ?? []).map((x, i) => ({
        name: x.name, input: message(x.inputType, x.name), output: message(x.outputType, x.name),
        clientStreaming: x.clientStreaming === true, serverStreaming: x.serverStreaming === true,
        idempotency: x.options?.idempotencyLevel === IdempotencyLevel.NoSideEffects ? "no_side_effects" : x.options?.idempotencyLevel === IdempotencyLevel.Idempotent ? "idempotent" : "unknown",
        deprecated: x.options?.deprecated === true, comment: scope.comment([...path, PathOf.serviceMethod, i]), customOptions: x.options?.custom,
      })),
    };
  });
  files.sort();
  const model = { messages, enums, files, fileOptions, extensions: extensionModels.sort((a, b) => byFile(a, b) || a.order - b.order), services: serviceModels.sort(byFile) };
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
 * What one schema holds, in its order: its own enums and messages, then those of other files they
 * refer to, directly or through each other (none for a run's one schema).
 */
export interface SchemaScope {
  enums: readonly EnumModel[];
  messages: readonly MessageModel[];
  ownEnums: number;
  ownMessages: number;
  /** The files whose schemas the others come from, in the order defineSchema gets them. */
  links: readonly string[];
  /** Each message's and enum's index in the schema of its own file. */
  local: ReadonlyMap<MessageModel | EnumModel, number>;
}

/** The one schema of every file of the model (runtime schemas). */
export function runScope(model: SchemaModel): SchemaScope {
  return { enums: model.enums, messages: model.messages, ownEnums: model.enums.length, ownMessages: model.messages.length, links: [], local: new Map() };
}

/** Each message's and enum's index in its own file's schema. */
export function localIndexes(model: SchemaModel): Map<MessageModel | EnumModel, number> {
  const local = new Map<MessageModel | EnumModel, number>();
  const count = new Map<string, number>();
  for (const x of [...model.enums, ...model.messages]) {
    const key = `${"values" in x ? "e" : "m"}:${x.file}`;
    const n = count.get(key) ?? 0;
    local.set(x, n);
    count.set(key, n + 1);
  }
  return local;
}

/**
 * A file's schema: its own enums and messages (extension holders and map entries included), then
 * every message and enum of other files their fields reach, in the order a breadth-first walk of
 * the fields finds them, each linked from the schema of the file that declares it.
 */
export function fileScope(model: SchemaModel, file: string, local: ReadonlyMap<MessageModel | EnumModel, number>): SchemaScope {
  const enums = model.enums.filter((e) => e.file === file);
  const messages = model.messages.filter((m) => m.file === file);
  const ownEnums = enums.length, ownMessages = messages.length;
  const seen = new Set<MessageModel | EnumModel>([...enums, ...messages]);
  for (let i = 0; i < messages.length; i++) {
    for (const f of messages[i]!.fields) {
      if (f.message !== undefined && !seen.has(f.message)) {
        seen.add(f.message);
        messages.push(f.message);
      }
      if (f.enum !== undefined && !seen.has(f.enum)) {
        seen.add(f.enum);
        enums.push(f.enum);
      }
    }
  }
  const links = [...new Set([...enums.slice(ownEnums), ...messages.slice(ownMessages)].map((x) => x.file))];
  return { enums, messages, ownEnums, ownMessages, links, local };
}

/**
 * The schema as generated code declares it (ts/schema.ts's SchemaSource), in parts: the header,
 * each enum, the message count, each message, the linked enums and messages. What the runtime
 * needs to lay out records, build the codec's table and name fields; everything derivable left out.
 */
export function schemaSource(model: SchemaModel, int64: Int64As = "bigint", scope: SchemaScope = runScope(model)): (string | number | boolean)[][] {
  type Part = (string | number | boolean)[];
  const ownEnums = scope.enums.slice(0, scope.ownEnums), ownMessages = scope.messages.slice(0, scope.ownMessages);
  const parts: Part[] = [[int64Forms.indexOf(int64), ownEnums.length]];
  const enumIndex = new Map(scope.enums.map((e, i) => [e, i]));
  const messageIndex = new Map(scope.messages.map((m, i) => [m, i]));
  for (const e of ownEnums) {
    const out: Part = [e.fullName, e.closed ? 1 : 0, e.values.length];
    for (const v of e.values) out.push(v.name, v.number);
    parts.push(out);
  }
  parts.push([ownMessages.length]);
  for (const m of ownMessages) {
    const out: Part = [];
    parts.push(out);
    const flags = (m.messageSet ? SourceFlags.MessageSet : 0) | (m.isMapEntry ? SourceFlags.MapEntry : 0) | (m.reserved.length > 0 ? SourceFlags.Reserved : 0) |
      (m.extensionHolder ? SourceFlags.ExtensionHolder : 0);
    out.push(m.fullName, flags);
    if (m.reserved.length > 0) out.push(m.reserved.length, ...m.reserved);
    out.push(m.oneofs.length);
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
      if (hasRef(f.type, f.label)) out.push(f.message ? messageIndex.get(f.message)! : enumIndex.get(f.enum!)!);
      if (f.oneof) out.push(m.oneofs.indexOf(f.oneof));
      if (def !== undefined) out.push(def);
    }
  }
  const linked = (list: readonly (MessageModel | EnumModel)[]): Part => [list.length, ...list.flatMap((x) => [scope.links.indexOf(x.file), scope.local.get(x)!, x.fullName])];
  parts.push(linked(scope.enums.slice(scope.ownEnums)), linked(scope.messages.slice(scope.ownMessages)));
  const options = optionsSource(ownMessages, ownEnums, messageIndex, enumIndex);
  if (options.length > 0) parts.push([options.length / OPTION_ENTRY, ...options]);
  return parts;
}

const OPTION_ENTRY = 4;
/** Custom options, when any are set: [kind, index, inner index, bytes one char per byte] per declaration. */
function optionsSource(messages: readonly MessageModel[], enums: readonly EnumModel[], messageIndex: Map<MessageModel, number>, enumIndex: Map<EnumModel, number>): (string | number)[] {
  const out: (string | number)[] = [];
  const add = (kind: OptionsOf, index: number, inner: number, bytes: Uint8Array | undefined) => {
    if (bytes !== undefined && bytes.length > 0) out.push(kind, index, inner, charsOfBytes(bytes));
  };
  for (const m of messages) {
    const index = messageIndex.get(m)!;
    add(OptionsOf.Message, index, 0, m.customOptions);
    m.fields.forEach((f, i) => add(OptionsOf.Field, index, i, f.customOptions));
    m.oneofs.forEach((o, i) => add(OptionsOf.Oneof, index, i, o.customOptions));
  }
  for (const e of enums) {
    add(OptionsOf.Enum, enumIndex.get(e)!, 0, e.customOptions);
    e.values.forEach((v, i) => add(OptionsOf.EnumValue, enumIndex.get(e)!, i, v.customOptions));
  }
  return out;
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

/** Wire types. */
export enum Wire { Varint = 0, Fixed64 = 1, Len = 2, Group = 3, EndGroup = 4, Fixed32 = 5 }

/** The wire type a field type's values are written with (a group's: its start). */
export function wireType(t: FieldType): Wire {
  switch (t) {
    case FieldType.Double: case FieldType.Fixed64: case FieldType.Sfixed64: return Wire.Fixed64;
    case FieldType.Float: case FieldType.Fixed32: case FieldType.Sfixed32: return Wire.Fixed32;
    case FieldType.String: case FieldType.Bytes: case FieldType.Message: return Wire.Len;
    case FieldType.Group: return Wire.Group;
    default: return Wire.Varint;
  }
}

export const isMessage = (f: FieldModel) => f.type === FieldType.Message || f.type === FieldType.Group;
