// ProtoJSON out: a message (a plain object or a view) or wire bytes as ProtoJSON text or a JSON
// value. Free functions, so that a program that writes no JSON carries none of this. Plain objects
// are written by the writers generated per message (long strings escaped by the codec when it is
// loaded); views and wire bytes by the codec's writer (json_encoder.hpp) when it is loaded, else
// read out and written in JS; what the codec leaves to JS (the well-known types' own forms) and
// extensions a registry resolves are written from the schema.
import { runtime, type Runtime } from "../runtime.js";
import type { AnyMessageType, PlainOf, ViewOf } from "../message.js";
import { isView } from "../viewmark.js";
import { scratchRecord } from "../decodeplain.js";
import { jsonNamesTable } from "./names.js";
import { within } from "./common.js";
import * as jsonWrite from "./write.js";
import { indentJson, messageToJson, shortestFloat32, stringify, type JsonWriteOptions } from "./print.js";
import type { BinaryInput } from "../input.js";
import type { Registry } from "../registry.js";

/** A double or float the codec's text leaves to JS: Number#toString's shortest text that reads back. */
const printNumber = (v: number, isFloat: boolean): string => String(isFloat ? shortestFloat32(v) : v);

/** Whether the options' registry has extensions, which only the schema-driven writer finds in unknown fields. */
const printsExtensions = (options: JsonWriteOptions): boolean => (options.registry as Registry | undefined)?.hasExtensions === true;

type Plain = Record<string, unknown>;

/**
 * The options read once, before a record is taken: a getter among them ran after, and could reset
 * the arena holding the record or decode over the scratch one (the text was then another message's).
 */
const ownOptions = (o: JsonWriteOptions): JsonWriteOptions =>
  ({ emitDefaults: !!o.emitDefaults, enumsAsInts: !!o.enumsAsInts, useProtoNames: !!o.useProtoNames, registry: o.registry });

/** The message as a ProtoJSON value (objects, arrays, strings, numbers, booleans, null). */
export function toJson<M extends AnyMessageType>(type: M, message: PlainOf<M> | ViewOf<M>, options: JsonWriteOptions = {}): unknown {
  // the text read back: one writer, and the same value whichever is asked for
  return JSON.parse(toJsonString(type, message, options));
}

/** The message as ProtoJSON text; `indent` as JSON.stringify takes it. */
export function toJsonString<M extends AnyMessageType>(type: M, message: PlainOf<M> | ViewOf<M>, options: JsonWriteOptions & { indent?: number | string } = {}): string {
  if (options.indent !== undefined) return indentJson(toJsonString(type, message, { ...options, indent: undefined }), options.indent);
  // extensions held in unknown fields, which a registry resolves: the writer interpreted from the schema
  if (printsExtensions(options)) return bySchema(type, message, options);
  // plain objects: the generated text writer (long strings in it are escaped by the codec)
  if (type.parts.toJsonString !== undefined && !isView(message)) return inJs(type, message as Plain, options);
  // the codec writes the record (a view's own, or the plain object written as encode() writes
  // it); what it leaves to JS (well-known types' own forms), objects encode() would refuse, and
  // runtimes without the codec's writer get the JS writer, which also names what is wrong
  const own = ownOptions(options);
  const text = type.withRecord(message, (rt, handle, rec) => codecText(type, rt, handle, rec, own), () => undefined);
  return text ?? inJs(type, plainOf(type, message), options);
}

/**
 * ProtoJSON text of a message in wire bytes, as toJsonString(type, type.decode(bytes)) gives it,
 * but written by the codec (when loaded) from the decoded record: no JS object in between (but for
 * what the codec leaves to the JS writer). Map entries come in the order of the wire data.
 */
export function decodeToJsonString(type: AnyMessageType, input: BinaryInput, options: JsonWriteOptions & { indent?: number | string } = {}): string {
  if (options.indent !== undefined) return indentJson(decodeToJsonString(type, input, { ...options, indent: undefined }), options.indent);
  options = ownOptions(options);
  const rt = runtime();
  const rec = scratchRecord(rt, type.schemaDef, type.index, input, "decodeToJsonString");
  const read = () => rt.readPlain(type.part("read", "plain objects"), rec, rt.stagedSize) as Plain;
  if (printsExtensions(options)) return toJsonString(type, read(), options);
  return codecText(type, rt, rt.schema(type.schemaDef), rec, options) ?? inJs(type, read(), options);
}

/** The text of a record written by the codec, or undefined when the JS writer writes it. */
function codecText(type: AnyMessageType, rt: Runtime, handle: number, rec: number, options: JsonWriteOptions): string | undefined {
  const full = rt.full;
  const names = full?.jsonNamesOf(type.schemaDef, handle, jsonNamesTable) ?? 0;
  if (full === undefined || names === 0) return undefined; // no codec, or the decode-only one: no JSON writer
  const flags = (options.useProtoNames ? 1 : 0) | (options.enumsAsInts ? 2 : 0) | (options.emitDefaults ? 4 : 0);
  return full.jsonEncode(handle, names, type.index, rec, flags, printNumber);
}

/**
 * A plain object's text by the generated writer, or else the schema-driven one (a JSON value, then
 * its text). Callers turn views into plain objects: the hot path, a plain object, asks nothing more.
 */
function inJs(type: AnyMessageType, message: Plain, options: JsonWriteOptions): string {
  const generated = type.parts.toJsonString;
  if (generated === undefined) return bySchema(type, message, options);
  try {
    return generated(message, options, jsonWrite);
  } catch (e) {
    throw within(e, type.typeName);
  }
}

/** The writer interpreted from the schema: a JSON value, then its text. */
function bySchema(type: AnyMessageType, message: unknown, options: JsonWriteOptions): string {
  return stringify(() => messageToJson(type.schemaDef, type.index, plainOf(type, message), options, type.typeName));
}

/** A view read out; anything else goes to the writer as it is, which says what is wrong with it. */
const plainOf = (type: AnyMessageType, message: unknown): Plain => (isView(message) ? type.plainOf(message) : message) as Plain;
