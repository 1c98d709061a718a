// The part of google/protobuf/descriptor.proto the model reads, as protobufjs's toObject gives it
// (lowerCamelCase names, enums as numbers): what protoc hands the plugin, and what describe.ts
// makes of the .proto files protobufjs parsed. The model starts from these, whoever parsed.
import { camelCase } from "../ts/schema.js";

export interface FileDescriptorProto {
  /** The import name: the path below its include directory. */
  name: string;
  package?: string;
  dependency?: string[];
  messageType?: DescriptorProto[];
  enumType?: EnumDescriptorProto[];
  service?: ServiceDescriptorProto[];
  extension?: FieldDescriptorProto[];
  options?: { optimizeFor?: number; features?: FeatureSet; custom?: Uint8Array };
  sourceCodeInfo?: { location?: SourceLocation[] };
  /** "proto2" (or absent), "proto3" or "editions". */
  syntax?: string;
  edition?: number;
}

export interface DescriptorProto {
  name: string;
  field?: FieldDescriptorProto[];
  extension?: FieldDescriptorProto[];
  nestedType?: DescriptorProto[];
  enumType?: EnumDescriptorProto[];
  oneofDecl?: { name: string; options?: { features?: FeatureSet; custom?: Uint8Array } }[];
  reservedName?: string[];
  /** Field numbers for extensions and reserved ones: start inclusive, end exclusive (checked by validate.ts). */
  extensionRange?: NumberRange[];
  reservedRange?: NumberRange[];
  options?: { messageSetWireFormat?: boolean; mapEntry?: boolean; deprecated?: boolean; features?: FeatureSet; custom?: Uint8Array };
}

export interface FieldDescriptorProto {
  name: string;
  number: number;
  label?: number;
  /** descriptor.proto's Type numbers, which are ts/schema.ts's FieldType's. */
  type?: number;
  /** Fully qualified, with a leading dot. */
  typeName?: string;
  extendee?: string;
  /** As protoc writes it: numbers and enum names as text, strings as they are, bytes C-escaped. */
  defaultValue?: string;
  oneofIndex?: number;
  jsonName?: string;
  options?: { packed?: boolean; jstype?: number; deprecated?: boolean; features?: FeatureSet; custom?: Uint8Array };
  proto3Optional?: boolean;
}

export interface EnumDescriptorProto {
  name: string;
  value?: { name: string; number: number; options?: { deprecated?: boolean; custom?: Uint8Array } }[];
  options?: { allowAlias?: boolean; deprecated?: boolean; features?: FeatureSet; custom?: Uint8Array };
}

export interface NumberRange {
  start?: number;
  end?: number;
}

export interface ServiceDescriptorProto {
  name: string;
  method?: MethodDescriptorProto[];
  options?: { deprecated?: boolean; custom?: Uint8Array };
}

export interface MethodDescriptorProto {
  name: string;
  /** Fully qualified, with a leading dot. */
  inputType: string;
  outputType: string;
  clientStreaming?: boolean;
  serverStreaming?: boolean;
  /** idempotencyLevel: descriptor.proto's MethodOptions.IdempotencyLevel number. */
  options?: { deprecated?: boolean; idempotencyLevel?: number; custom?: Uint8Array };
}

/**
 * Custom options (`custom` of each options object above) are the extension fields of the
 * declaration's XxxOptions message as wire bytes; protobufjs's toObject drops them, so
 * codegen/options.ts reads them from the descriptor's bytes (or encodes what protobufjs parsed).
 */
export interface SourceLocation {
  path?: number[];
  leadingComments?: string;
  trailingComments?: string;
}

/** The editions features the codec's behaviour depends on. */
export interface FeatureSet {
  fieldPresence?: number;
  enumType?: number;
  repeatedFieldEncoding?: number;
  utf8Validation?: number;
  messageEncoding?: number;
}

/** The largest field number (2^29 - 1, `max` in a range): the codec's (protoc allows message set extensions beyond it). */
export const MAX_FIELD_NUMBER = 536870911;

/** A declaration's full name in its scope (a package or message, "" at the top). */
export const qualified = (scope: string, name: string): string => (scope ? `${scope}.${name}` : name);

/** protoc's name for a map field's entry type: the field's name in UpperCamelCase (underscores dropped), then "Entry". */
export const mapEntryName = (field: string): string => `${camelCase(`_${field}`)}Entry`;

export const FieldLabel = { Optional: 1, Required: 2, Repeated: 3 } as const;
export const Edition = { Proto2: 998, Proto3: 999, E2023: 1000, Unstable: 9999 } as const;
export const JsType = { Normal: 0, String: 1, Number: 2 } as const;
export const IdempotencyLevel = { Unknown: 0, NoSideEffects: 1, Idempotent: 2 } as const;
export const OptimizeMode = { Speed: 1, CodeSize: 2, LiteRuntime: 3 } as const;
export const FieldPresence = { Explicit: 1, Implicit: 2, LegacyRequired: 3 } as const;
export const EnumType = { Open: 1, Closed: 2 } as const;
export const RepeatedFieldEncoding = { Packed: 1, Expanded: 2 } as const;
export const Utf8Validation = { Verify: 2, None: 3 } as const;
export const MessageEncoding = { LengthPrefixed: 1, Delimited: 2 } as const;

// Field numbers of descriptor.proto's messages, as SourceCodeInfo paths use them
export const PathOf = {
  fileMessage: 4, fileEnum: 5, fileService: 6, fileExtension: 7,
  messageField: 2, messageNested: 3, messageEnum: 4, messageExtension: 6,
  enumValue: 2,
  serviceMethod: 2,
} as const;

/** Every feature resolved: what a file of an edition (or proto2, proto3) starts from. */
export type Features = Required<FeatureSet>;

export function editionDefaults(file: FileDescriptorProto): Features {
  const edition = file.syntax === "editions" ? (file.edition ?? Edition.E2023) : file.syntax === "proto3" ? Edition.Proto3 : Edition.Proto2;
  if (edition === Edition.Proto2) {
    return { fieldPresence: FieldPresence.Explicit, enumType: EnumType.Closed, repeatedFieldEncoding: RepeatedFieldEncoding.Expanded, utf8Validation: Utf8Validation.None, messageEncoding: MessageEncoding.LengthPrefixed };
  }
  return {
    fieldPresence: edition === Edition.Proto3 ? FieldPresence.Implicit : FieldPresence.Explicit,
    enumType: EnumType.Open, repeatedFieldEncoding: RepeatedFieldEncoding.Packed, utf8Validation: Utf8Validation.Verify, messageEncoding: MessageEncoding.LengthPrefixed,
  };
}

/** A scope's features: its parent's, overridden by the ones it sets. */
export function withFeatures(parent: Features, own: FeatureSet | undefined): Features {
  if (!own) return parent;
  const out = { ...parent };
  for (const key of Object.keys(out) as (keyof Features)[]) if (own[key]) out[key] = own[key]!;
  return out;
}

/**
 * A field's features with proto2's and proto3's syntax read as the features it stands for
 * (required, group, packed), as protoc does for files that are not editions.
 */
export function fieldFeatures(scope: Features, f: FieldDescriptorProto): Features {
  const out = { ...withFeatures(scope, f.options?.features) };
  if (f.label === FieldLabel.Required) out.fieldPresence = FieldPresence.LegacyRequired;
  if (f.type === 10) out.messageEncoding = MessageEncoding.Delimited; // TYPE_GROUP
  if (f.options?.packed !== undefined) out.repeatedFieldEncoding = f.options.packed ? RepeatedFieldEncoding.Packed : RepeatedFieldEncoding.Expanded;
  return out;
}

/** The bytes of a C-escaped string (a .proto string literal's body, or a descriptor's bytes default). */
export function unescapeBytes(body: string): Uint8Array {
  const out: number[] = [];
  const utf8 = new TextEncoder();
  for (let i = 0; i < body.length; ) {
    const c = body[i]!;
    if (c !== "\\") {
      const cp = body.codePointAt(i)!;
      out.push(...utf8.encode(String.fromCodePoint(cp)));
      i += cp > 0xffff ? 2 : 1;
      continue;
    }
    const e = /^(?:x[0-9a-fA-F]{1,2}|[0-7]{1,3}|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|[^])?/.exec(body.slice(i + 1, i + 10))![0];
    i += 1 + e.length;
    if (e === "") out.push(0x5c); // a backslash ending the text stands for itself
    else if (e[0] === "x") out.push(parseInt(e.slice(1), 16));
    else if (/^[0-7]/.test(e)) out.push(parseInt(e, 8) & 0xff);
    else if ((e[0] === "u" || e[0] === "U") && e.length > 1) {
      const cp = parseInt(e.slice(1), 16);
      if (cp > 0x10ffff) throw new RangeError(`\\${e} is beyond U+10FFFF`);
      out.push(...utf8.encode(String.fromCodePoint(cp)));
    } else out.push((simpleEscapes[e] ?? e).charCodeAt(0));
  }
  return Uint8Array.from(out);
}

const simpleEscapes: Record<string, string> = { n: "\n", r: "\r", t: "\t", a: "\x07", b: "\b", f: "\f", v: "\v" };

const shortEscapes: Record<number, string> = { 0x0a: "\\n", 0x0d: "\\r", 0x09: "\\t", 0x22: '\\"', 0x27: "\\'", 0x5c: "\\\\" };
/** Bytes C-escaped as protoc writes a bytes field's default: \n \r \t \" \' \\, other unprintable bytes in octal. */
export const escapeBytes = (bytes: Uint8Array): string =>
  Array.from(bytes, (b) => shortEscapes[b] ?? (b >= 0x20 && b < 0x7f ? String.fromCharCode(b) : `\\${b.toString(8).padStart(3, "0")}`)).join("");
