// What generated code imports ("hppproto/generated"): the message types and view classes it
// builds on, the helpers its readers, fillers and ProtoJSON writers call, and the schema and
// interpreted facades. Not an API for applications: it changes with the code generator.
export { MessageType, type MessageParts, type Materializer, type Init } from "./message.js";
export type { Int64, Int64Forms } from "./int64.js";
export type { JsonWrite } from "./json/write.js";
export type { JsonWriteOptions } from "./json/print.js";
export { RecordWriter, type Fill } from "./fill.js";
export { mapKey } from "./checks.js";
export {
  PlainEncoder, type Encode, writeUnknown, badOneofCase, missingRequired, writeInt32, writeEnumValue, writeUint32, writeSint32, writeFixed32, writeSfixed32, writeBool, writeDouble, writeFloat, writeInt64, writeUint64, writeSint64, writeFixed64, writeSfixed64, writeString, writeBytes, writeAbsent, writeMessage, writeSetItem, writeMessages, writeStrings, writeEach, writeMap, writePackedInt32, writePackedUint32, writePackedSint32, writePackedBool, writePackedEnum, writePackedDouble, writePackedFloat, writePackedFixed32, writePacked64,
} from "./encoder.js";
export { MessageView, ListView, MessageList, MapView, type ViewClass, type SlotReader } from "./view.js";
export { defineFileSchema, type SchemaDef, type SchemaSource } from "./schema.js";
export { COMPILED_CORE as compiledCore } from "./compiledcore.js";
export { interpretedType, interpretedParts, interpretedBuilder, type InterpretedParts } from "./interpreted/index.js";
export { extension, type Extension } from "./extension.js";
export { service, type ServiceType, type Method } from "./service.js";
export { file, type FileReflection } from "./reflect.js";
export type { Memory } from "./memory.js";
export type { Runtime } from "./runtime.js";
// one by one, not as a namespace: bundlers keep every member of a re-exported namespace
export {
  withDefaults as plainWithDefaults, sub as plainSub, messages as plainMessages, i32s as plainI32s, u32s as plainU32s, f32s as plainF32s, f64s as plainF64s, i64s as plainI64s, u64s as plainU64s, int64Strings as plainInt64Strings, int64Numbers as plainInt64Numbers, safeNumber as plainSafeNumber, bools as plainBools, strings as plainStrings, bytesList as plainBytesList, bytesView as plainBytesView, map as plainMap, hasUnknown as plainHasUnknown, unknown as plainUnknown,
} from "./plain.js";
