// The hppproto runtime: load the codec, decode with generated message types, read views.
// (What generated code itself imports is in "hppproto/generated": ts/generated.ts.)
export { init, initSync, type InitOptions, type InitSyncOptions } from "./loader.js";
export { getLimits, setLimits, type Limits } from "./limits.js";
export { Arena, type ArenaOptions } from "./arena.js";
export { MessageType, type AnyMessageType, type PlainOf, type ViewOf, type BuilderOf, type Init, type PartialMessage } from "./message.js";
export type { Decode } from "./decodeplain.js";
export type { DecodeView } from "./decodeview.js";
export type { EncodePlain } from "./encodeplain.js";
// what a message type does beyond decode, view and encode: free functions, left out of programs that do not call them
export { create, clone, merge } from "./create.js";
export { equals } from "./equals.js";
export { isMessage, isFieldSet, clearField } from "./fields.js";
export { builder } from "./builder.js";
export { toJson, toJsonString, decodeToJsonString } from "./json/tojson.js";
export { fromJson, fromJsonString, encodeFromJsonString } from "./json/fromjson.js";
export type { Int64Form } from "./int64.js";
export { Registry } from "./registry.js";
export { Extension, getExtension, setExtension, hasExtension, clearExtension, getOption, hasOption, type OptionsHolder } from "./extension.js";
export { ServiceType, type Method, type MethodKind, type Idempotency } from "./service.js";
export { fieldsOf, oneofsOf, findField, type FileReflection, type FieldReflection, type OneofReflection, type EnumReflection, type EnumValueReflection, type ScalarType } from "./reflect.js";
export type { JsonValue } from "./json/parse.js";
export { MessageView, ListView, MapView } from "./view.js";
export { DecodeError, EncodeError, NotInitializedError, SchemaError, StaleViewError, type ErrorCode, type EncodeErrorCode } from "./errors.js";
export { Writer } from "./writer.js";
export type { BinaryInput } from "./input.js";
export { DelimitedReader, decodeStream, type ChunkSource } from "./stream.js";
export { JsonError, type JsonErrorCode } from "./json/common.js";
export type { JsonWriteOptions } from "./json/print.js";
export type { JsonReadOptions } from "./json/read.js";
export { toText, fromText, TextError, type TextErrorCode, type TextReadOptions, type TextWriteOptions } from "./text/index.js";
export {
  timestampFromMs, timestampMs, timestampFromDate, timestampDate, timestampNow, durationFromMs, durationMs,
  valueFromJson, valueToJson, structFromJson, structToJson, anyPack, anyIs, anyUnpack,
  type SecondsAndNanos, type Timestamp, type Duration, type JsonData, type Value, type Struct, type ListValue, type Any,
} from "./wkt.js";
export {
  fieldMaskToString, fieldMaskFromString, fieldMaskApply, fieldMaskMerge, fieldMaskUnion, fieldMaskIntersect, type FieldMaskMergeOptions,
} from "./fieldmask.js";
