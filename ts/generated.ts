// What generated code imports ("hppproto/generated"): the message types and view classes it
// builds on, the helpers its readers, fillers and ProtoJSON writers call, and the schema and
// interpreted facades. Not an API for applications: it changes with the code generator.
export { MessageType, type MessageParts, type Materializer, type Init } from "./message.js";
export type { Int64, Int64Forms } from "./int64.js";
export type { JsonWrite } from "./json/write.js";
export type { JsonWriteOptions } from "./json/print.js";
export { RecordWriter, type Fill } from "./fill.js";
export { mapKey } from "./checks.js";
export * from "./encoder.js"; // the encoder and its field writers
export { MessageView, ListView, MessageList, MapView, type ViewClass, type SlotReader } from "./view.js";
export { defineFileSchema, type SchemaDef, type SchemaSource } from "./schema.js";
export { compiledDecoders } from "./compiled.js";
export { codec } from "./codecstarter.js"; // a message type's part where only the codec encodes its views
export { COMPILED_CORE as compiledCore } from "./compiledcore.js";
export { interpretedType, interpretedParts, interpretedBuilder, type InterpretedParts } from "./interpreted/index.js";
export { extension, type Extension } from "./extension.js";
export { service, type ServiceType, type Method } from "./service.js";
export { file, type FileReflection } from "./reflect.js";
export type { Memory } from "./memory.js";
export type { Runtime } from "./runtime.js";
// the plain-object readers' helpers, each generated module importing those it calls (codegen/emit/index.ts names
// them after these modules' exports); not as a namespace: bundlers keep every member of a re-exported one
export * from "./plain.js";
// a message type's decode(), view() and encode() as functions of their own (generated decodeX, viewX, encodeX)
export { decodeFunction, type Decode } from "./decodeplain.js";
export { viewFunction, type DecodeView } from "./decodeview.js";
export { encodeFunction, type EncodePlain } from "./encodeplain.js";
// the decoders of plain objects straight from wire bytes (generated code's decode$X, and decodeX where a message has one)
export { readFunction, readerOf, type WireReader } from "./reader.js";
