// The runtime of the whole codec: the codec's runtime (codecruntime.ts) with encoding, record
// writers and the codec's ProtoJSON reader and writer. Programs that load hppproto.wasm start this
// class; the decode-only entry starts CodecRuntime, and programs without the codec Runtime: those
// carry none of this.
import { codeName, DecodeError, EncodeError, SchemaError, STACK_EXHAUSTED, type EncodeErrorCode } from "./errors.js";
import { ownedCopy } from "./copy.js";
import { RecordWriter } from "./fill.js";
import { CodecRuntime } from "./codecruntime.js";
import { MAX_INPUT, takePartial } from "./limits.js";
import { decodeOnly } from "./runtime.js";
import type { SchemaDef } from "./schema.js";
import { Arena } from "./arena.js";
import type { AnyMessageType } from "./message.js";
import { encodeLevel, enterEncode, leaveEncode, scratchArenas, sealIfNested } from "./scratch.js";
import type { MessageView } from "./view.js";
import { isView } from "./viewmark.js";

const utf8Encoder = new TextEncoder();

/** Where JSON text from the codec's writer takes a double or a float printed by JS (json_encoder.hpp). */
const NUMBER_MARKERS = /[\x01\x02]/g;
const FLOAT_MARKER = "\x02";


export class FullRuntime extends CodecRuntime {
  /** Address of the last encode's bytes (the codec's output buffer). */
  output = 0;

  override get full(): FullRuntime {
    return this;
  }

  /** @internal a record writer over an arena (encode, builders) */
  recordWriter(arena: number): RecordWriter {
    return new RecordWriter(this, arena);
  }

  /**
   * The handle of the schema's ProtoJSON names in WASM, sent on first use (`table` builds them), or
   * 0 when this module has no JSON reader (hppproto/decode).
   */
  jsonNamesOf(def: SchemaDef, handle: number, table: (def: SchemaDef) => Uint8Array): number {
    const handles = this.schemas.get(def)!; // loaded: `handle` is its schema's
    if (handles.jsonNames !== undefined) return handles.jsonNames;
    let names = 0;
    const load = this.exports.hp_json_names_load;
    if (load !== undefined) {
      names = this.loadTable(table(def), (p, n) => load(handle, p, n));
      if (names === 0) throw new SchemaError(`hppproto: the codec refused the ProtoJSON names of ${def.messages[0]?.name ?? "a schema"}'s schema`);
    }
    handles.jsonNames = names;
    return names;
  }

  /**
   * Reads ProtoJSON text into a record of the arena (emptied first), or returns 0 when the text is
   * the JS reader's (a form the codec's reader leaves to it, or an error). Text that would take more
   * memory than its size allows is a DecodeError MEMORY_BUDGET whose offset is in the string (UTF-16
   * units). The text is staged as UTF-8 in the copy staging buffer; given a record, the caller ends
   * with mem.clearSource().
   */
  jsonDecode(schema: number, names: number, message: number, arena: number, text: string): number {
    const written = this.stageText(text);
    if (written < 0) return 0;
    const at = this.copyStaging.ptr;
    // ASCII text: the strings the record points to in it can be sliced from it (the caller clears this)
    if (written === text.length) this.mem.setSource(text, at);
    this.enter();
    let rec: number;
    try {
      rec = this.exports.hp_json_decode!(schema, names, message, arena, at, written, 1) >>> 0;
      this.calling = false;
    } catch (e) {
      this.mem.clearSource();
      throw this.trapped(e, () => new DecodeError("DEPTH_LIMIT", 0, ""));
    }
    this.mem.sync();
    if (rec === 0) {
      this.mem.clearSource();
      const s = this.status();
      if (codeName(s.code) === "MEMORY_BUDGET") throw new DecodeError("MEMORY_BUDGET", this.mem.str(at, s.offset).length, "");
    }
    return rec;
  }

  /**
   * The ProtoJSON text of the record, or undefined when the JS writer writes it (a form the
   * codec's writer leaves to it). The codec leaves doubles that are not small integers to JS, as
   * a marker byte each and their values in a list: Number#toString prints the shortest text that
   * reads back.
   */
  jsonEncode(schema: number, names: number, message: number, rec: number, flags: number, printNumber: (v: number, float: boolean) => string): string | undefined {
    this.enter();
    let n: number;
    try {
      n = this.exports.hp_json_encode!(schema, names, message, rec, flags, this.slotPtr);
      this.calling = false;
    } catch (e) {
      throw this.trapped(e, () => new EncodeError("DEPTH_LIMIT", "", "messages nested too deep to write"));
    }
    this.mem.sync();
    if (n < 0) return undefined;
    const m = this.mem;
    const text = m.str(this.exports.hp_output!() >>> 0, n);
    const count = m.u32[this.slotPtr >>> 2]!;
    if (count === 0) return text;
    const f64 = m.f64, at = (this.exports.hp_json_numbers!() >>> 0) >>> 3;
    let i = 0;
    return text.replace(NUMBER_MARKERS, (c) => printNumber(f64[at + i++]!, c === FLOAT_MARKER));
  }

  /**
   * A well-formed string as a JSON string literal, escaped by the codec as JSON.stringify escapes;
   * undefined when this module has no JSON writer (hppproto/decode) or the text is too large. The
   * string is staged in the copy staging buffer, whose records are always read out before any JS
   * writer runs, so nothing still reads the bytes this overwrites.
   */
  jsonQuote(text: string): string | undefined {
    const quote = this.exports.hp_json_quote;
    if (quote === undefined) return undefined;
    const written = this.stageText(text);
    if (written < 0) return undefined;
    this.enter();
    let n: number;
    try {
      n = quote(this.copyStaging.ptr, written);
      this.calling = false;
    } catch (e) {
      throw this.trapped(e, () => new EncodeError("DEPTH_LIMIT", "", "messages nested too deep to write"));
    }
    this.mem.sync();
    if (n < 0) return undefined;
    // nothing escaped (the text only gained its quotes): the string as it is, not decoded again
    return n === written + 2 ? `"${text}"` : this.mem.str(this.exports.hp_output!() >>> 0, n);
  }

  /** Text as UTF-8 in the copy staging buffer: its size in bytes, or -1 when it might not fit the input limit. */
  private stageText(text: string): number {
    const need = text.length * 3; // UTF-16 code units to UTF-8: at most 3 bytes each
    if (need > MAX_INPUT) return -1;
    const staging = this.copyStaging;
    if (need > staging.size) this.growStaging(staging, need, () => {});
    // one subarray over the whole buffer, made again when the buffer moves or memory grows (which
    // empties it): given a fresh one, encodeInto costs about 180 ns more in Chromium (half its time
    // on GoogleMessage1's text)
    let into = this.stagingText;
    if (into.byteOffset !== staging.ptr || into.length !== staging.size) into = this.stagingText = this.mem.u8.subarray(staging.ptr, staging.ptr + staging.size);
    return utf8Encoder.encodeInto(text, into).written;
  }

  private stagingText: Uint8Array = new Uint8Array(0);

  /**
   * @internal `message` of `type` (a view, or a plain object written into the scratch record of its
   * encode) encoded by the codec: its size, the bytes at `output` until the next encode (with
   * `sizeOnly`, the size alone).
   */
  encodeMessage(type: AnyMessageType, message: unknown, sizeOnly: boolean): number {
    const partial = takePartial(); // (before the getters the fill runs)
    const handle = this.schema(type.schemaDef);
    const writer = this.startEncode(type.typeName);
    try {
      const rec = type.record(writer, message);
      // the codec's allow_partial limit as the encode took it at its start, for its call into WASM
      if (partial) this.allowPartial(true);
      return sizeOnly ? this.encodedSize(handle, type.index, rec, type.schemaDef) : this.encode(handle, type.index, rec, type.schemaDef);
    } catch (e) {
      throw sealIfNested(e);
    } finally {
      if (partial) this.allowPartial(false);
      leaveEncode();
    }
  }

  /** @internal messages of `type` encoded by the codec, each after its length: as encodeMessage(). */
  encodeMessages(type: AnyMessageType, list: readonly unknown[]): number {
    const partial = takePartial();
    const handle = this.schema(type.schemaDef);
    const writer = this.startEncode(type.typeName);
    try {
      // the length once, each record before memory's arrays are read: a getter of a plain object may
      // grow the list or memory; and then the views again, whose arenas such a getter may have reset
      const n = list.length;
      const recs = writer.alloc(n * 4);
      const views: MessageView[] = [];
      for (let i = 0; i < n; i++) {
        const e = list[i];
        const rec = type.record(writer, e, undefined, `[#${i}]`);
        this.mem.u32[(recs >>> 2) + i] = rec;
        if (isView(e)) views.push(e);
      }
      for (const v of views) v.$mem(); // StaleViewError
      if (partial) this.allowPartial(true);
      return this.encodeDelimited(handle, type.index, recs, n, type.schemaDef);
    } catch (e) {
      throw sealIfNested(e);
    } finally {
      if (partial) this.allowPartial(false);
      leaveEncode();
    }
  }

  /**
   * @internal `use` of the record of `message`: a view's own, or the plain object written into the
   * scratch record of an encode; `refused` answers when the object cannot be written.
   */
  withRecord<R>(type: AnyMessageType, message: unknown, use: (rt: FullRuntime, handle: number, rec: number) => R, refused: () => R): R {
    const handle = this.schema(type.schemaDef);
    const writer = this.startEncode(type.typeName);
    try {
      let rec: number;
      try {
        rec = type.record(writer, message);
      } catch {
        return refused();
      }
      return use(this, handle, rec);
    } finally {
      leaveEncode();
    }
  }

  /**
   * Starts an encode: the emptied record writer of its nesting level, the encode counted last (what
   * fails before that leaves the count as it was). The caller ends it with leaveEncode().
   */
  private startEncode(typeName: string): RecordWriter {
    const level = encodeLevel(typeName);
    const s = scratchArenas(this);
    let e = s.encoders[level];
    if (e === undefined) {
      const arena = new Arena();
      s.encoders[level] = e = { arena, writer: this.recordWriter(arena.ptr) };
    }
    this.exports.hp_arena_reset(e.arena.ptr);
    enterEncode();
    return e.writer;
  }

  /**
   * Encodes the record into the codec's output buffer and returns the size; the bytes are at
   * `output` until the next encode.
   */
  encode(schema: number, message: number, rec: number, def: SchemaDef): number {
    const encode = this.exports.hp_encode ?? decodeOnly();
    this.enter();
    let n: number;
    try {
      n = encode(schema, message, rec);
      this.calling = false;
    } catch (e) {
      throw this.trapped(e, () => this.stackError(def, message));
    }
    return this.finishEncode(n, def, message);
  }

  encodedSize(schema: number, message: number, rec: number, def: SchemaDef): number {
    const encodedSize = this.exports.hp_encoded_size ?? decodeOnly();
    this.enter();
    let n: number;
    try {
      n = encodedSize(schema, message, rec);
      this.calling = false;
    } catch (e) {
      throw this.trapped(e, () => this.stackError(def, message));
    }
    if (n < 0) throw this.encodeError(def, message);
    return n;
  }

  /** Encodes `count` records whose pointers are at recs, each after its length. */
  encodeDelimited(schema: number, message: number, recs: number, count: number, def: SchemaDef): number {
    const encodeDelimited = this.exports.hp_encode_delimited ?? decodeOnly();
    this.enter();
    let n: number;
    try {
      n = encodeDelimited(schema, message, recs, count);
      this.calling = false;
    } catch (e) {
      throw this.trapped(e, () => this.stackError(def, message));
    }
    return this.finishEncode(n, def, message);
  }

  private stackError(def: SchemaDef, message: number): EncodeError {
    return new EncodeError("DEPTH_LIMIT", def.messages[message]?.name ?? "", STACK_EXHAUSTED);
  }

  /** A copy of the last encode's n bytes (see ownedCopy). */
  takeOutput(n: number): Uint8Array {
    return ownedCopy(this.mem.u8, this.output, n);
  }


  private finishEncode(n: number, def: SchemaDef, message: number): number {
    this.mem.sync();
    if (n < 0) throw this.encodeError(def, message);
    this.output = this.exports.hp_output!() >>> 0;
    return n;
  }

  private encodeError(def: SchemaDef, root: number): EncodeError {
    const s = this.status();
    const code = codeName(s.code);
    const known: EncodeErrorCode[] = ["MISSING_REQUIRED", "DEPTH_LIMIT", "MESSAGE_TOO_LARGE", "OUT_OF_MEMORY"];
    const reason = code === "MESSAGE_TOO_LARGE" ? `encoded message is larger than the limit (${s.detail} bytes)`
      : code === "DEPTH_LIMIT" ? `messages nested deeper than the limit (${s.detail})`
      : code === "MISSING_REQUIRED" ? "required field is not set" : undefined;
    return new EncodeError(known.includes(code as EncodeErrorCode) ? (code as EncodeErrorCode) : "INVALID_VALUE", this.statusPath(def, root), reason);
  }
}
