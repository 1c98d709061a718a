// What browsers get of hppproto/codegen: message types from descriptors or from .proto sources in
// memory, without the file system dynamic.ts's loadSchema reads .proto files from.
export { schemaFromDescriptors, schemaFromDescriptorSet, type DynamicSchema, type DynamicType } from "./descriptorset.js";
export { schemaFromSources } from "./sources.js";
