// protoc-gen-hppproto: hppproto-gen as a protoc (or buf) plugin. protoc parses the .proto files and
// hands them over as descriptors in a CodeGeneratorRequest on stdin; the modules go back in a
// CodeGeneratorResponse on stdout. The output is the same as hppproto-gen's for the same files.
import protobuf from "protobufjs";
import descriptorModule from "protobufjs/ext/descriptor.js"; // adds Root.fromDescriptor
import { Writer } from "../ts/writer.js";
import { serviceWarnings } from "./check.js";
import { UsageError, buildOutputs, parseOutputOption, type OutputOptions } from "./cli.js";
import { parsedName, unescapeBytes } from "./load.js";

// a CommonJS module: its exports arrive as the default export
const descriptor = descriptorModule as unknown as typeof import("protobufjs/ext/descriptor.js");

// google/protobuf/compiler/plugin.proto
const Request = { parameter: 2, protoFile: 15 } as const;
const Response = { error: 1, supportedFeatures: 2, minimumEdition: 3, maximumEdition: 4, file: 15 } as const;
const File = { name: 1, content: 15 } as const;
const FEATURE_PROTO3_OPTIONAL = 1;
const FEATURE_SUPPORTS_EDITIONS = 2;
const EDITION_PROTO2 = 998;
const EDITION_2023 = 1000;

/** FileOptions.OptimizeMode.CODE_SIZE. */
const OPTIMIZE_CODE_SIZE = 2;

interface EnumDescriptor {
  name: string;
  value?: { name: string }[];
}
interface MessageDescriptor {
  name: string;
  field?: { name: string }[];
  extension?: { name: string }[];
  nestedType?: MessageDescriptor[];
  enumType?: EnumDescriptor[];
}
interface FileDescriptor {
  name: string;
  options?: { optimizeFor?: number };
  package?: string;
  messageType?: MessageDescriptor[];
  enumType?: EnumDescriptor[];
  extension?: { name: string }[];
  sourceCodeInfo?: { location?: { path?: number[]; leadingComments?: string; trailingComments?: string }[] };
}

// Paths in SourceCodeInfo: field numbers of descriptor.proto's messages
const Path = { fileMessage: 4, fileEnum: 5, fileExtension: 7, messageField: 2, messageNested: 3, messageEnum: 4, messageExtension: 6, enumValue: 2 } as const;

/**
 * protoc's comments (a file's SourceCodeInfo) on the elements fromDescriptor made, as the .proto
 * parser leaves them: the leading comment, else the trailing one.
 */
function attachComments(root: protobuf.Root, files: FileDescriptor[]): void {
  for (const file of files) {
    const byPath = new Map<string, string>();
    for (const loc of file.sourceCodeInfo?.location ?? []) {
      const text = loc.leadingComments || loc.trailingComments;
      if (text) byPath.set((loc.path ?? []).join("."), text);
    }
    if (byPath.size === 0) continue;
    const onEnum = (e: EnumDescriptor, path: string, scope: string) => {
      const en = root.lookupEnum(`${scope}.${e.name}`);
      en.comment = byPath.get(path) ?? null;
      e.value?.forEach((v, i) => (en.comments[v.name] = byPath.get(`${path}.${Path.enumValue}.${i}`) ?? null));
    };
    const onExtension = (e: { name: string }, path: string, scope: string) => {
      const field = root.lookup(`${scope}.${e.name}`);
      if (field instanceof protobuf.Field) field.comment = byPath.get(path) ?? null;
    };
    const onMessage = (m: MessageDescriptor, path: string, scope: string) => {
      const name = `${scope}.${m.name}`;
      const type = root.lookup(name);
      if (!(type instanceof protobuf.Type)) return; // a map entry: no type of its own
      type.comment = byPath.get(path) ?? null;
      m.field?.forEach((f, i) => {
        const field = type.fields[f.name];
        if (field) field.comment = byPath.get(`${path}.${Path.messageField}.${i}`) ?? null;
      });
      m.nestedType?.forEach((n, i) => onMessage(n, `${path}.${Path.messageNested}.${i}`, name));
      m.enumType?.forEach((e, i) => onEnum(e, `${path}.${Path.messageEnum}.${i}`, name));
      m.extension?.forEach((e, i) => onExtension(e, `${path}.${Path.messageExtension}.${i}`, name));
    };
    const scope = file.package ? `.${file.package}` : "";
    file.messageType?.forEach((m, i) => onMessage(m, `${Path.fileMessage}.${i}`, scope));
    file.enumType?.forEach((e, i) => onEnum(e, `${Path.fileEnum}.${i}`, scope));
    file.extension?.forEach((e, i) => onExtension(e, `${Path.fileExtension}.${i}`, scope));
  }
}

/** The request's parameter, and the descriptors of every file to generate and of their imports. */
function readRequest(bytes: Uint8Array): { parameter: string; files: FileDescriptor[] } {
  const r = protobuf.Reader.create(bytes);
  let parameter = "";
  const files: FileDescriptor[] = [];
  while (r.pos < r.len) {
    const tag = r.uint32();
    if (tag >>> 3 === Request.parameter && (tag & 7) === 2) parameter = r.string();
    else if (tag >>> 3 === Request.protoFile && (tag & 7) === 2) {
      const file = descriptor.FileDescriptorProto.toObject(descriptor.FileDescriptorProto.decode(r.bytes()), { defaults: false });
      files.push(unescapeBytesDefaults(renameDunderProto(file)) as FileDescriptor);
    } else r.skipType(tag & 7);
  }
  return { parameter, files };
}

/** Names protobufjs would drop ("__proto__") under the stand-in hppproto-gen reads them with (see load.ts). */
function renameDunderProto(o: unknown): unknown {
  if (Array.isArray(o)) return o.map(renameDunderProto);
  if (o === null || typeof o !== "object" || o instanceof Uint8Array) return o;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(o)) {
    const named = k === "name" || k === "typeName" || k === "extendee" || k === "package";
    out[k] = named && typeof v === "string" ? parsedName(v) : renameDunderProto(v);
  }
  return out;
}

const TYPE_BYTES = 12;

/**
 * A descriptor holds a bytes field's default C-escaped ("\\000\\xff"); the .proto parser gives
 * one character per byte, which is what the model takes.
 */
function unescapeBytesDefaults(o: unknown): unknown {
  if (Array.isArray(o)) o.forEach(unescapeBytesDefaults);
  else if (o !== null && typeof o === "object" && !(o instanceof Uint8Array)) {
    const field = o as { type?: unknown; defaultValue?: unknown };
    if (field.type === TYPE_BYTES && typeof field.defaultValue === "string") field.defaultValue = String.fromCharCode(...unescapeBytes(field.defaultValue));
    for (const v of Object.values(o)) unescapeBytesDefaults(v);
  }
  return o;
}

/**
 * protoc fills in every field's json_name (its own lowerCamelCase, or the json_name option);
 * fromDescriptor keeps it beside the options, where the model looks for an explicit one.
 */
function keepJsonNames(ns: protobuf.NamespaceBase): void {
  for (const o of ns.nestedArray) {
    if (o instanceof protobuf.Field && o.jsonName) o.options = { ...o.options, json_name: o.jsonName };
    if (o instanceof protobuf.Type) {
      for (const f of o.fieldsArray) if (f.jsonName) f.options = { ...f.options, json_name: f.jsonName };
    }
    if (o instanceof protobuf.Namespace || o instanceof protobuf.Type) keepJsonNames(o);
  }
}

/** Parameters as protoc passes --hppproto_opt: key=value pairs separated by commas. */
export function parseParameter(parameter: string): OutputOptions {
  const opts: OutputOptions = {};
  for (const pair of parameter.split(",").filter((p) => p.trim() !== "")) {
    const eq = pair.indexOf("=");
    if (eq < 0) throw new UsageError(`option ${pair} needs a value (key=value)`);
    // lists inside one option use "+": facades=views+plain
    parseOutputOption(opts, `--${pair.slice(0, eq).trim()}`, pair.slice(eq + 1).trim().replaceAll("+", ","));
  }
  return opts;
}

export function generateResponse(request: Uint8Array): Uint8Array {
  const w = new Writer();
  w.uint64(Response.supportedFeatures, FEATURE_PROTO3_OPTIONAL | FEATURE_SUPPORTS_EDITIONS);
  w.int32(Response.minimumEdition, EDITION_PROTO2);
  w.int32(Response.maximumEdition, EDITION_2023);
  try {
    const { parameter, files } = readRequest(request);
    const opts = parseParameter(parameter);
    const root = protobuf.Root.fromDescriptor({ file: files } as never, { keepCase: true });
    // fromDescriptor names the package's namespace after its last file; each type keeps its own
    for (const f of files) {
      const pkg = f.package ? root.lookup(f.package) : root;
      for (const t of [...(f.messageType ?? []), ...(f.enumType ?? [])]) {
        const o = (pkg as protobuf.Namespace | null)?.get(t.name);
        if (o) o.filename = f.name;
      }
    }
    keepJsonNames(root);
    attachComments(root, files);
    for (const warning of serviceWarnings(root)) process.stderr.write(`protoc-gen-hppproto: ${warning}\n`); // protoc shows it
    const codeSize = new Set(files.filter((f) => f.options?.optimizeFor === OPTIMIZE_CODE_SIZE).map((f) => f.name));
    for (const out of buildOutputs(root, new Map(), opts, codeSize).outputs) {
      w.fork(Response.file).string(File.name, out.name).string(File.content, out.content).join();
    }
  } catch (e) {
    if (!(e instanceof Error)) throw e;
    w.string(Response.error, e.message);
  }
  return w.finish();
}
