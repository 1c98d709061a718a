// The hppproto runtime: load the codec, decode with generated message types, read views.
export { init, initSync, type InitOptions } from "./loader.js";
export { runtime, type Runtime, type Limits } from "./runtime.js";
export { Arena, type ArenaOptions } from "./arena.js";
export { MessageType, type MessageParts, type Materializer, type Init } from "./message.js";
export { JsonMessageType } from "./json/type.js";
export * as jsonOut from "./json/out.js";
export { RecordWriter, mapKey, type Fill } from "./fill.js";
export { MessageView, ListView, MapView, type ViewClass, type SlotReader } from "./view.js";
export { DecodeError, EncodeError, SchemaError, StaleViewError, type ErrorCode, type EncodeErrorCode } from "./errors.js";
export { defineSchema, type SchemaDef, type MessageInfo } from "./schema.js";
export type { Memory } from "./memory.js";
export * as plain from "./plain.js";
export * as builder from "./builder.js";
export { Writer } from "./writer.js";
export { DelimitedReader, decodeStream, type ChunkSource } from "./stream.js";
export { JsonError, type JsonErrorCode } from "./json/common.js";
export type { JsonWriteOptions } from "./json/print.js";
export type { JsonReadOptions } from "./json/read.js";
