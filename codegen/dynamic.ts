// Message types built at run time from .proto files, for tools that handle messages without
// generated code (hppproto-gen decode/encode). The files are parsed as hppproto-gen parses them,
// described as protoc would, and made into message types from those descriptors (descriptorset.ts,
// which also takes a FileDescriptorSet). Browsers get browser.ts: the same without files on disk.
import { describeFiles } from "./describe.js";
import { schemaFromDescriptors, type DynamicSchema } from "./descriptorset.js";
import { loadProtos } from "./load.js";

export { schemaFromDescriptors, schemaFromDescriptorSet, type DynamicSchema, type DynamicType } from "./descriptorset.js";
export { schemaFromSources } from "./sources.js";

/** Parses .proto files (as hppproto-gen does) and builds a message type for each of their messages. */
export function loadSchema(files: string[], protoPaths: string[] = []): DynamicSchema {
  return schemaFromDescriptors(describeFiles(loadProtos(files, protoPaths)));
}
