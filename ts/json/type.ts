// A message type with ProtoJSON: what generated code uses unless hppproto-gen --facades leaves JSON
// out, so that bundles without it carry none of the JSON code. The codec reads and writes the text
// (json_decoder.hpp, json_encoder.hpp); the forms it leaves to JS (the well-known types' own, and
// every error, whose code and path the JS side gives) are read and written from the schema.
import { MessageType, scratchPlainArena, type Init } from "../message.js";
import type { Int64Forms } from "../int64.js";
import { fullRuntime, runtime, type Runtime } from "../runtime.js";
import { jsonNamesTable } from "./names.js";
import type { MessageView } from "../view.js";
import { isView } from "../viewmark.js";
import { JsonError, within } from "./common.js";
import { fromJs, JsonSyntaxError, parseFast, parseJson, type JsonValue } from "./parse.js";
import { indentJson, messageToJson, shortestFloat32, stringify, type JsonWriteOptions } from "./print.js";
import { messageFromJson, type JsonReadOptions } from "./read.js";
import { FALLBACK, throughCodec } from "./in.js";
import { interpretedFromJson } from "../interpreted/fromjson.js";
import { textOf, type BinaryInput } from "../input.js";
import type { Registry } from "../registry.js";

/** A double or float the codec's text leaves to JS: Number#toString's shortest text that reads back. */
const printNumber = (v: number, isFloat: boolean): string => String(isFloat ? shortestFloat32(v) : v);

/** Whether the options' registry has extensions, which only the schema-driven writer finds in unknown fields. */
const printsExtensions = (options: JsonWriteOptions): boolean => (options.registry as Registry | undefined)?.hasExtensions === true;

export class JsonMessageType<T, V, B extends V = V, F extends Int64Forms<unknown, unknown, unknown> = Int64Forms<T, T, T>> extends MessageType<T, V, B, F> {
  /** The message as a ProtoJSON value (objects, arrays, strings, numbers, booleans, null). */
  toJson(message: T | V, options: JsonWriteOptions = {}): unknown {
    // the text read back: one writer, and the same value whichever is asked for
    return JSON.parse(this.toJsonString(message, options));
  }

  /** The message as ProtoJSON text; `indent` as JSON.stringify takes it. */
  toJsonString(message: T | V, options: JsonWriteOptions & { indent?: number | string } = {}): string {
    if (options.indent !== undefined) return indentJson(this.toJsonString(message, { ...options, indent: undefined }), options.indent);
    // extensions held in unknown fields, which a registry resolves: the writer interpreted from the schema
    if (printsExtensions(options)) return this.toJsonStringBySchema(message, options);
    // plain objects: the generated text writer (long strings in it are escaped by the codec)
    if (this.parts.toJsonString !== undefined && !isView(message)) return this.toJsonStringInJs(message as T, options);
    // the codec writes the record (a view's own, or the plain object written as encode() writes
    // it); what it leaves to JS (well-known types' own forms), objects encode() would refuse, and
    // programs started with the decode-only module get the JS writer, which also names what is wrong
    const text = this.withRecord(message as Init<T> | V, (rt, handle, rec) => this.jsonText(rt, handle, rec, options), () => undefined);
    return text ?? this.toJsonStringInJs(this.plain(message) as T, options);
  }

  /**
   * ProtoJSON text of a message in wire bytes, as toJsonString(decode(bytes)) gives it but written
   * by the codec from the decoded record: no JS object in between (but for what the codec leaves
   * to the JS writer). Map entries come in the order of the wire data.
   */
  decodeToJsonString(input: BinaryInput, options: JsonWriteOptions & { indent?: number | string } = {}): string {
    if (options.indent !== undefined) return indentJson(this.decodeToJsonString(input, { ...options, indent: undefined }), options.indent);
    const rt = runtime();
    const rec = this.scratchRecord(rt, input, "decodeToJsonString");
    const read = () => this.part("read", "plain objects")(rt.mem, rec, rt);
    if (printsExtensions(options)) return this.toJsonString(read(), options);
    return this.jsonText(rt, rt.schema(this.schemaDef), rec, options) ?? this.toJsonStringInJs(read(), options);
  }

  /** The text of a record written by the codec, or undefined when the JS writer writes it. */
  private jsonText(rt: Runtime, handle: number, rec: number, options: JsonWriteOptions): string | undefined {
    const full = rt.full;
    const names = full?.jsonNamesOf(this.schemaDef, handle, jsonNamesTable) ?? 0;
    if (full === undefined || names === 0) return undefined; // the decode-only module has no JSON writer
    const flags = (options.useProtoNames ? 1 : 0) | (options.enumsAsInts ? 2 : 0) | (options.emitDefaults ? 4 : 0);
    return full.jsonEncode(handle, names, this.index, rec, flags, printNumber);
  }

  /**
   * A plain object's text by the generated writer, or else the schema-driven one (a JSON value, then
   * its text). Callers turn views into plain objects: the hot path, a plain object, asks nothing more.
   */
  private toJsonStringInJs(message: T, options: JsonWriteOptions): string {
    const generated = this.parts.toJsonString;
    if (generated === undefined) return this.toJsonStringBySchema(message, options);
    try {
      return generated(message, options);
    } catch (e) {
      throw within(e, this.typeName);
    }
  }

  /** The writer interpreted from the schema: a JSON value, then its text. */
  private toJsonStringBySchema(message: T | V, options: JsonWriteOptions): string {
    return stringify(() => messageToJson(this.schemaDef, this.index, this.plain(message), options, this.typeName));
  }

  private plain(message: T | V): Record<string, unknown> {
    // anything else goes to the writer as it is, which says what is wrong with it
    return (isView(message) ? this.plainOf(message) : message) as Record<string, unknown>;
  }

  /** A plain object from a ProtoJSON value (what JSON.parse returns). */
  fromJson(json: unknown, options: JsonReadOptions = {}): T {
    let value: JsonValue;
    try {
      value = fromJs(json);
    } catch (e) {
      throw new JsonError("INVALID_JSON", this.typeName, (e as Error).message);
    }
    return this.fromJsonValue(value, options);
  }

  /** A plain object from ProtoJSON text. Duplicate keys and large integers are handled exactly. */
  fromJsonString(text: string, options: JsonReadOptions = {}): T {
    textOf(text, this.typeName, "fromJsonString");
    // the codec reads the forms serializers write straight into a record, read out as decode() does;
    // it hands anything else (and every error) to the reader below
    const read = this.parts.read;
    if (read !== undefined) {
      const rt = runtime();
      const rec = this.jsonRecord(rt, text);
      if (rec !== 0) {
        try {
          return read(rt.mem, rec, rt);
        } finally {
          rt.mem.clearSource();
        }
      }
    }
    return this.fromJsonStringInJs(text, options);
  }

  /** The JS reader: JSON.parse when it is exact for this text, else the strict parser (which also names what is wrong). */
  private fromJsonStringInJs(text: string, options: JsonReadOptions): T {
    let value = parseFast(text);
    if (value === undefined) {
      try {
        value = parseJson(text);
      } catch (e) {
        if (e instanceof JsonSyntaxError) throw new JsonError("INVALID_JSON", this.typeName + e.path, e.message);
        throw e;
      }
    }
    return this.fromJsonValue(value, options);
  }

  /**
   * The wire bytes of the message in ProtoJSON text, as encode(fromJsonString(text)) gives them,
   * but read by the codec into a record and encoded from there: no JS object in between. (Text the
   * codec leaves to the JS reader, such as a well-known type's own form, goes through a plain object.)
   */
  encodeFromJsonString(text: string, options: JsonReadOptions = {}): Uint8Array {
    textOf(text, this.typeName, "encodeFromJsonString");
    const rt = fullRuntime();
    const rec = this.jsonRecord(rt, text);
    if (rec === 0) return this.encode(this.fromJsonStringInJs(text, options) as never);
    rt.mem.clearSource();
    return rt.takeOutput(rt.encode(rt.schema(this.schemaDef), this.index, rec, this.schemaDef));
  }

  /** The record the codec reads the text into (in decode()'s scratch arena), or 0 when the JS reader reads it. */
  private jsonRecord(rt: Runtime, text: string): number {
    const full = rt.full;
    const handle = rt.schema(this.schemaDef);
    const names = full?.jsonNamesOf(this.schemaDef, handle, jsonNamesTable) ?? 0;
    if (full === undefined || names === 0) return 0; // the decode-only module has no JSON reader
    const arena = scratchPlainArena(rt);
    arena.generation++;
    return full.jsonDecode(handle, names, this.index, arena.ptr, text);
  }

  private fromJsonValue(value: JsonValue, options: JsonReadOptions): T {
    try {
      return interpretedFromJson(this.schemaDef, this.index)(value, options, 0) as T;
    } catch (e) {
      if (e !== FALLBACK) throw within(e, this.typeName);
    }
    // what that reader leaves (a closed enum's unknown number, a missing required field, deep
    // nesting): read the schema-driven way and through the codec
    const init = messageFromJson(this.schemaDef, this.index, value, options, this.typeName);
    try {
      return throughCodec(this, init) as T;
    } catch (e) {
      throw within(e, this.typeName);
    }
  }
}
