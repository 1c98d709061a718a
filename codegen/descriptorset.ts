// Message types at run time from descriptors: a FileDescriptorSet's bytes (as protoc
// --descriptor_set_out and buf build write them) become message types with every facade
// interpreted from the schema, as CODE_SIZE generated code's are. No file system, so this works in
// browsers; parsed .proto files (dynamic.ts, sources.ts) end up here as descriptors too.
import protobuf from "protobufjs";
import descriptorModule from "protobufjs/ext/descriptor.js";
import { Extension } from "../ts/extension.js";
import "../ts/codec.js"; // messages of runtime schemas are decoded and encoded by the codec
import { interpretedType } from "../ts/interpreted/index.js";
import type { MessageType } from "../ts/message.js";
import { SchemaError } from "../ts/errors.js";
import { excerpt } from "../ts/excerpt.js";
import { defineSchema, type SchemaDef } from "../ts/schema.js";
import { fileReflection, type FileReflection } from "../ts/reflect.js";
import type { MessageView } from "../ts/view.js";
import type { FileDescriptorProto } from "./descriptor.js";
import { buildModel, schemaSource } from "./model.js";
import { attachCustomOptions } from "./options.js";
import { validateDescriptors } from "./validate.js";

// a CommonJS module: its exports arrive as the default export
const descriptor = descriptorModule as unknown as typeof import("protobufjs/ext/descriptor.js");

type Plain = Record<string, unknown>;
/** A message type of a runtime schema: plain objects, views and builders typed loosely. */
export type DynamicType = MessageType<Plain, MessageView & Plain, MessageView & Plain>;

export interface DynamicSchema {
  readonly schema: SchemaDef;
  /** Every message of the files and their imports, by full name (map entries excluded). */
  readonly types: ReadonlyMap<string, DynamicType>;
  /** Every extension of the files and their imports, by full name (for a Registry, getExtension, getOption). */
  readonly extensions: ReadonlyMap<string, Extension<Plain, unknown>>;
  /** The files, by name: for their custom options (getOption). */
  readonly files: ReadonlyMap<string, FileReflection>;
}

/** A FileDescriptorProto's wire bytes as the model reads descriptors. */
export function fileDescriptorOf(bytes: Uint8Array): FileDescriptorProto {
  const file = descriptor.FileDescriptorProto.toObject(descriptor.FileDescriptorProto.decode(bytes)) as FileDescriptorProto;
  attachCustomOptions(bytes, file);
  return file;
}

/** Message types of descriptors (each file after the files it imports, as protoc orders them). */
export function schemaFromDescriptors(files: readonly FileDescriptorProto[]): DynamicSchema {
  const model = buildModel(files);
  const schema = defineSchema(schemaSource(model).flat());
  const types = new Map<string, DynamicType>();
  for (const m of model.messages) if (!m.isMapEntry) types.set(m.fullName, interpretedType(schema, m.index));
  const extensions = new Map<string, Extension<Plain, unknown>>();
  for (const x of model.extensions) extensions.set(x.fullName, new Extension<Plain, unknown>(types.get(x.extendee.fullName)!, x.field.number));
  const reflected = new Map<string, FileReflection>();
  for (const f of files) reflected.set(f.name, fileReflection(f.name, f.package ?? "", f.options?.custom));
  return { schema, types, extensions, files: reflected };
}

/**
 * Message types of a FileDescriptorSet: `protoc --include_imports --descriptor_set_out=set.binpb`
 * or `buf build -o set.binpb` (every file its messages need must be in it). A set that is not one,
 * or that protoc would reject, is a SchemaError naming the file and the declaration.
 */
export function schemaFromDescriptorSet(bytes: Uint8Array): DynamicSchema {
  const files: FileDescriptorProto[] = [];
  try {
    const r = protobuf.Reader.create(bytes);
    while (r.pos < r.len) {
      const tag = r.uint32();
      if (tag === ((1 << 3) | 2)) files.push(fileDescriptorOf(r.bytes())); // FileDescriptorSet.file
      else r.skipType(tag & 7);
    }
  } catch (e) {
    throw new SchemaError(`hppproto: not a FileDescriptorSet: ${excerpt((e as Error).message)}`);
  }
  validateDescriptors(files);
  return schemaFromDescriptors(files);
}
