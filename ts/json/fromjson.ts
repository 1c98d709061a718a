// ProtoJSON in: plain objects, or wire bytes, from ProtoJSON text or a JSON value. Free functions,
// so that a program that reads no JSON carries none of this; a program that does loads the codec
// (codec.ts), whose reader (json_decoder.hpp) reads the forms serializers write straight into a
// record. The forms it leaves to JS (the well-known types' own, and every error, whose code and
// path the JS side gives) are read from the schema.
import "../codec.js"; // the codec's reader: about 3x the JS reader's speed on GoogleMessage1 (Node 24)
import type { AnyMessageType, PlainOf } from "../message.js";
import { scratchPlainArena } from "../scratch.js";
import { runtime, type Runtime } from "../runtime.js";
import { jsonNamesTable } from "./names.js";
import { JsonError, within } from "./common.js";
import { fromJs, JsonNumber, JsonSyntaxError, members, parseFast, parseJson, type JsonObject, type JsonValue } from "./parse.js";
import { messageFromJson, type JsonReadOptions } from "./read.js";
import { FALLBACK, throughCodec } from "./in.js";
import { interpretedFromJson } from "../interpreted/fromjson.js";
import { textOf } from "../input.js";
import { DecodeError } from "../errors.js";
import { MEMORY_BUDGET_REASON, ReadBudget, utf8Size } from "../budget.js";

/** A plain object from a ProtoJSON value (what JSON.parse returns). */
export function fromJson<M extends AnyMessageType>(type: M, json: unknown, options: JsonReadOptions = {}): PlainOf<M> {
  let value: JsonValue;
  try {
    value = fromJs(json);
  } catch (e) {
    throw new JsonError("INVALID_JSON", type.typeName, (e as Error).message);
  }
  return fromJsonValue(type, value, options, () => jsonSize(value)) as PlainOf<M>;
}

/** A plain object from ProtoJSON text. Duplicate keys and large integers are handled exactly. */
export function fromJsonString<M extends AnyMessageType>(type: M, text: string, options: JsonReadOptions = {}): PlainOf<M> {
  textOf(text, type.typeName, "fromJsonString");
  // the codec reads the forms serializers write straight into a record, read out as decode() does;
  // it hands anything else (and every error) to the reader below
  const read = type.parts.read;
  if (read !== undefined) {
    const rt = runtime();
    const rec = codecRecord(type, rt, text);
    if (rec !== 0) {
      try {
        return rt.readPlain(read, rec, text.length) as PlainOf<M>;
      } finally {
        rt.mem.clearSource();
      }
    }
  }
  return inJs(type, text, options) as PlainOf<M>;
}

/**
 * The wire bytes of the message in ProtoJSON text, as type.encode(fromJsonString(type, text))
 * gives them, but read by the codec into a record and encoded from there: no JS object in between.
 * (Text the codec leaves to the JS reader, such as a well-known type's own form, goes through a
 * plain object, as everything does without the codec.)
 */
export function encodeFromJsonString(type: AnyMessageType, text: string, options: JsonReadOptions = {}): Uint8Array {
  textOf(text, type.typeName, "encodeFromJsonString");
  const rt = runtime().full;
  const rec = rt === undefined ? 0 : codecRecord(type, rt, text);
  if (rec === 0) return type.encode(inJs(type, text, options) as never);
  rt!.mem.clearSource();
  return rt!.takeOutput(rt!.encode(rt!.schema(type.schemaDef), type.index, rec, type.schemaDef));
}

/** The JS reader: JSON.parse when it is exact for this text, else the strict parser (which also names what is wrong). */
function inJs(type: AnyMessageType, text: string, options: JsonReadOptions): unknown {
  let value = parseFast(text);
  if (value === undefined) {
    try {
      value = parseJson(text);
    } catch (e) {
      if (e instanceof JsonSyntaxError) throw new JsonError("INVALID_JSON", type.typeName + e.path, e.message);
      throw e;
    }
  }
  return fromJsonValue(type, value, options, () => utf8Size(text));
}

/** The record the codec reads the text into (in decode()'s scratch arena), or 0 when the JS reader reads it. */
function codecRecord(type: AnyMessageType, rt: Runtime, text: string): number {
  const full = rt.full;
  if (full === undefined) return 0; // no codec, or the decode-only one: no JSON reader
  const handle = rt.schema(type.schemaDef);
  const names = full.jsonNamesOf(type.schemaDef, handle, jsonNamesTable);
  if (names === 0) return 0;
  const arena = scratchPlainArena(rt);
  arena.generation++;
  try {
    return full.jsonDecode(handle, names, type.index, arena.ptr, text);
  } catch (e) {
    if (!(e instanceof DecodeError && e.code === "MEMORY_BUDGET")) throw e;
    throw new JsonError("MEMORY_BUDGET", type.typeName, `${MEMORY_BUDGET_REASON}: refused at offset ${e.offset} of the text`);
  }
}

/** The message of a JSON value; `inputSize`: the bytes of its text, for the read's memory budget. */
function fromJsonValue(type: AnyMessageType, value: JsonValue, options: JsonReadOptions, inputSize: () => number): unknown {
  try {
    return interpretedFromJson(type.schemaDef, type.index)(value, { ...options, budget: new ReadBudget(inputSize) }, 0);
  } catch (e) {
    if (e !== FALLBACK) throw within(e, type.typeName);
  }
  // what that reader leaves (a closed enum's unknown number, a missing required field, deep
  // nesting): read the schema-driven way and through the codec
  const init = messageFromJson(type.schemaDef, type.index, value, { ...options, budget: new ReadBudget(inputSize) }, type.typeName);
  try {
    return throughCodec(type, init);
  } catch (e) {
    throw within(e, type.typeName);
  }
}

/** The size of a JSON value's text (strings as if nothing in them were escaped): the budget's input size for a value. */
function jsonSize(v: JsonValue): number {
  if (v === null) return 4;
  switch (typeof v) {
    case "boolean": return v ? 4 : 5;
    case "number": return String(v).length;
    case "string": return utf8Size(v) + 2;
  }
  if (v instanceof JsonNumber) return v.text.length;
  let n = 2; // the brackets; then a comma between elements
  if (Array.isArray(v)) {
    for (const x of v) n += jsonSize(x) + 1;
    return n - (v.length > 0 ? 1 : 0);
  }
  const entries = members(v as JsonObject);
  for (const [k, x] of entries) n += utf8Size(k) + 3 + jsonSize(x) + 1;
  return n - (entries.length > 0 ? 1 : 0);
}
