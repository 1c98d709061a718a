// The schema compiled into its own codec (issue 39): a WebAssembly module whose decoders are
// specialised to one run's messages, each field's tag, slot offset, presence bit and type a
// constant. It builds the very records the table-driven decoder (cpp/include/hppproto/decoder.hpp)
// builds, in the same arena and in the same order, and fails as it fails: the same error code,
// offset, detail and field path in the codec's Status.
//
// What the module needs from the generic one, and nothing else (ts/compiled.ts names the imports):
// its linear memory, the addresses of its Limits and Status (ts/abi.ts), and the arena's calls:
// reset (for decodes into an arena emptied first), the next block when the current one is full
// (under the decode's memory budget) and rewind. It allocates by bumping the arena's own cursor
// (ARENA_CUR/ARENA_END) and calls out only for a new block.
//
// An export returns the record, or 1 for an error (the Status set, as hp_decode sets it, and
// whatever the decode allocated given back). It returns 0, for the generic decoder to decide, only
// where that decoder's outcome depends on state the module does not see: an array whose storage
// would pass 4 GiB (reported by the generic decoder from its last allocation's failure).
import {
  ARENA_CUR, ARENA_END, ARENA_HEAD, LIMITS_ALLOW_PARTIAL, LIMITS_MAX_DEPTH, LIMITS_MAX_ELEMENTS, LIMITS_MAX_MESSAGE_SIZE, PATH_ENTRY_FIELD, PATH_ENTRY_INDEX,
  PATH_ENTRY_MESSAGE, PATH_ENTRY_SIZE, STATUS_CODE, STATUS_DETAIL, STATUS_MAX_PATH, STATUS_OFFSET, STATUS_PATH, STATUS_PATH_SIZE, STATUS_TRUNCATED,
  UNKNOWN_FIELDS,
} from "../../ts/abi.js";
import { COMPILED_IMPORTS, CORE_IMPORT, DECODER_STATE, DELIMITED_EXPORT, FRAME_MODULE_SHIFT, LAYOUT_EXPORT, LINK_PREFIX, layoutHash, PARSE_EXPORT } from "../../ts/compiledabi.js";
import { valueSize } from "../../ts/layout.js";
import { FieldFlag, FieldType, Label } from "../../ts/schema.js";
import { Wire, wireType, type FieldModel, type MessageModel } from "../model.js";
import { presenceBit } from "../emit/code.js";
import { Code, type Label as Target, Module, Type } from "./writer.js";
import { validUtf8 } from "./utf8.js";

const { I32, I64 } = Type;

/** ArraySlot (cpp/include/hppproto/record.hpp): data, size, capacity. */
const ARRAY_DATA = 0, ARRAY_SIZE = 4, ARRAY_CAPACITY = 8;

/** hppproto::Error codes (cpp/include/hppproto/status.hpp) the decoders report. */
const enum Err {
  Truncated = 1, VarintOverlong = 2, InvalidFieldNumber = 3, InvalidWireType = 4, LengthOutOfBounds = 6, InvalidUtf8 = 7,
  UnterminatedGroup = 8, UnmatchedEndGroup = 9, DepthLimit = 10, MissingRequired = 11, MessageTooLarge = 13, PackedLength = 14, TooManyElements = 16,
}

/**
 * A message's parse function: locals after its parameters (p, end, rec, depth, group: the number of
 * the group whose end tag ends it, 0 for a length-delimited message); T is scratch for one read;
 * FIELD is where the field being read starts (its tag); ELEM the size of the array a field appends
 * to, when it began (the element an error names).
 */
const P = 0, END = 1, REC = 2, DEPTH = 3, GROUP = 4, TAG = 5, V = 6, LEN = 7, SUB = 8, DST = 9, Q = 10, T = 11, FIELD = 12, ELEM = 13, MISSES = 14;
const parseLocals = [I32, I64, I32, I32, I32, I32, I32, I32, I32, I32];

/** Field numbers up to this dispatch through one br_table entry each; sparser messages compare. */
const DENSE_LIMIT = 512;


const isArray = (f: FieldModel) => f.label === Label.Repeated || f.label === Label.Map;
const isClosedEnum = (f: FieldModel) => (f.flags & FieldFlag.ClosedEnum) !== 0;
const isRequired = (f: FieldModel) => (f.flags & FieldFlag.Required) !== 0;

/** The helpers and globals every decoder uses, defined once per module. */
interface Helpers {
  arenaReset: number;
  arenaReserved: number;
  arenaGrow: number;
  arenaRewind: number;
  limits: number;
  status: number;
  /** The module's number among its host's (compiled.ts), in the path frames it pushes. */
  moduleId: number;
  /** The arena's cursor and the end of its block while a decode runs. */
  cur: number;
  end: number;
  /** The arena, the input's size, and (once the decode took a new block: `grew`) what the arena held when it began. */
  arena: number;
  inputSize: number;
  reserved: number;
  grew: number;
  /** Where the last parse stopped: past a group's end tag. */
  after: number;
  /** Where the input starts: offsets in the Status count from it. */
  base: number;
  /** Set when a decode gives up to the generic decoder rather than failing. */
  fallback: number;
  varint: number;
  tag: number;
  utf8: number;
  grow: number;
  alloc: number;
  addUnknown: number;
  countVarints: number;
  packedVarints: number;
  skipGroup: number;
  skipValue: number;
  unknownEnum: number;
  fail: number;
  frame: number;
  finish: number;
  pair: number; // block type (i32, i64): a varint read's position and value
}

/** The helpers compiled modules share, by their names in the core module: [name, params, results, extra locals, body]. */
const HELPERS = [
  ["varint", [I32, I32], [I32, I64], [I64, I32, I32], (h: Helpers) => readVarint(h, 10)],
  ["tag", [I32, I32], [I32, I64], [I64, I32, I32], (h: Helpers) => readVarint(h, 5)],
  ["utf8", [I32, I32], [I32], [I32, I32, I32, I32, I32], () => validUtf8()],
  ["grow", [I32, I32, I32, I32], [I32], [I32, I32, I32, I32, I32], (h: Helpers) => grow(h)],
  ["alloc", [I32, I32], [I32], [I32], (h: Helpers) => allocate(h)],
  ["addUnknown", [I32, I32, I32], [I32], [I32, I32], (h: Helpers) => addUnknown(h)],
  ["countVarints", [I32, I32], [I32], [I32], () => countVarints()],
  ["packedVarints", [I32, I32, I32, I32], [I32], [I64, I32], (h: Helpers) => packedVarints(h)],
  ["skipGroup", [I32, I32, I32, I32], [I32], [I32, I32, I32, I64], (h: Helpers) => skipGroup(h)],
  ["skipValue", [I32, I32, I32, I32, I32], [I32], [I64], (h: Helpers) => skipValue(h)],
  ["unknownEnum", [I32, I32, I64, I32], [I32], [I32, I32, I64], (h: Helpers) => unknownEnum(h)],
  ["fail", [I32, I32, I32], [], [], (h: Helpers) => fail(h)],
  ["frame", [I32, I32, I32], [], [I32, I32], (h: Helpers) => pushFrame(h)],
  ["finish", [], [], [I32, I32, I32], (h: Helpers) => finishPath(h)],
] as const satisfies readonly (readonly [string, readonly Type[], readonly Type[], readonly Type[], (h: Helpers) => Code])[];
type HelperName = (typeof HELPERS)[number][0];

/** What the host gives a module, imported in this order: the arena's calls, memory, Limits, Status, the decode's state. */
function hostImports(m: Module) {
  const names = COMPILED_IMPORTS;
  const arenaReset = m.importFunction(names.module, names.arenaReset, [I32], []);
  const arenaReserved = m.importFunction(names.module, names.arenaReserved, [I32], [I32]);
  const arenaGrow = m.importFunction(names.module, names.arenaGrow, [I32, I32, I32, I32, I32], [I32]);
  const arenaRewind = m.importFunction(names.module, names.arenaRewind, [I32, I32, I32], []);
  m.importMemory(names.module, names.memory, 0);
  const limits = m.importGlobal(names.module, names.limits, I32);
  const status = m.importGlobal(names.module, names.status, I32);
  // the decode's state, shared by the modules of every file: a decode runs through the parse
  // functions of the files its messages come from
  const [cur, end, arena, inputSize, reserved, grew, after, base, fallback] = DECODER_STATE.map((name) => m.importGlobal(names.module, name, I32, true)) as [number, number, number, number, number, number, number, number, number];
  return { arenaReset, arenaReserved, arenaGrow, arenaRewind, limits, status, cur, end, arena, inputSize, reserved, grew, after, base, fallback };
}

/**
 * The core module: the decoder's helpers (varints, UTF-8 checks, arrays, allocation, unknown
 * fields, skipping, the Status), which every compiled module imports from it rather than carrying
 * its own copy. npm run build writes it into the runtime (wasm/inline.mjs: dist/ts/compiledcore.js);
 * generated code hands it over with its module, and the runtime instantiates it once per host.
 */
export function compileCore(): Uint8Array {
  const m = new Module();
  const host = hostImports(m);
  const helpers = Object.fromEntries(HELPERS.map(([name, params, results]) => [name, m.declare(params, results)])) as Record<HelperName, number>;
  const h: Helpers = { ...host, ...helpers, moduleId: -1 /* frames are numbered by the module calling frame */, pair: m.type([], [I32, I64]) };
  for (const [name, , , locals, body] of HELPERS) {
    m.define(helpers[name], locals, body(h));
    m.export(name, "func", helpers[name]);
  }
  return m.bytes();
}

/**
 * Where a message's parse function comes from, for a message of another file: [index of the linked
 * schema (defineSchema's links), index of the message there], whose module exports it; undefined
 * for a message decoded by this module.
 */
export type LinkOf = (m: MessageModel) => readonly [number, number] | undefined;

/**
 * A module decoding the messages of `messages` that `include` picks, and every message their fields
 * refer to (those `linkOf` places in linked files through their modules' parse functions, `p` and
 * the index there), with two exports per message, named by its index in `messages` (the schema's): `i`,
 * (arena, data, size, reset) -> record address, 1 for an error (Status set), or 0 for the generic
 * decoder; and `d` and `i`, a length-delimited run of them, (arena, data, size, reset, out) -> 2 (the
 * array slot `out` holds the records), 1 or 0.
 */
export function compileDecoders(messages: readonly MessageModel[], include: (m: MessageModel) => boolean = () => true, linkOf: LinkOf = () => undefined): Uint8Array {
  const m = new Module();
  const names = COMPILED_IMPORTS;
  // the messages decoded here, and those whose parse functions the modules of linked files export
  const own = new Set<MessageModel>(), linked = new Map<MessageModel, readonly [number, number]>();
  const reach = (msg: MessageModel): void => {
    if (own.has(msg) || linked.has(msg)) return;
    const link = linkOf(msg);
    if (link !== undefined) {
      linked.set(msg, link);
      return;
    }
    own.add(msg);
    for (const f of msg.fields) if (f.message) reach(f.message);
  };
  messages.filter(include).forEach(reach);
  const parse = new Map<MessageModel, number>();
  for (const [msg, [link, index]] of linked) parse.set(msg, m.importFunction(`${LINK_PREFIX}${link}`, `${PARSE_EXPORT}${index}`, [I32, I32, I32, I32, I32], [I32]));
  // the helpers, from the core module every compiled module shares (compileCore)
  const helpers = Object.fromEntries(HELPERS.map(([name, params, results]) => [name, m.importFunction(CORE_IMPORT, name, params, results)])) as Record<HelperName, number>;
  const h: Helpers = { ...hostImports(m), ...helpers, moduleId: m.importGlobal(COMPILED_IMPORTS.module, COMPILED_IMPORTS.moduleId, I32), pair: m.type([], [I32, I64]) };
  // path frames carry this module's number (compiled.ts frameMessage): the core's frame, through a wrapper that adds it
  const coreFrame = h.frame;
  h.frame = m.declare([I32, I32, I32], []);
  m.define(h.frame, [], new Code().get(0).globalGet(h.moduleId).i32(FRAME_MODULE_SHIFT).op("i32.shl", "i32.or").get(1).get(2).call(coreFrame));
  for (const msg of own) parse.set(msg, m.declare([I32, I32, I32, I32, I32], [I32]));
  const index = new Map(messages.map((msg, i) => [msg, i]));
  // the message set items of message sets (cpp's parse_message_set_item), a function each
  const items = new Map([...own].filter((msg) => msg.messageSet).map((msg) => [msg, m.declare([I32, I32, I32, I32, I32], [I32])]));
  for (const [msg, fn] of items) m.define(fn, [I64, I32, I32, I32, I32, I64, I32, I32], messageSetItem(msg, h, parse, index));
  for (const msg of own) m.define(parse.get(msg)!, parseLocals, parseMessage(msg, h, parse, items, index));
  messages.forEach((msg, i) => {
    if (!own.has(msg)) return;
    const fn = parse.get(msg)!;
    m.export(`${PARSE_EXPORT}${i}`, "func", fn); // for the modules of the files that link to this one
    if (!include(msg)) return;
    m.export(String(i), "func", m.func([I32, I32, I32, I32], [I32], [I32, I32, I32], decodeTop(msg, fn, h)));
    m.export(`${DELIMITED_EXPORT}${i}`, "func", m.func([I32, I32, I32, I32, I32], [I32], [I32, I32, I32, I32, I32, I32, I32, I64], decodeDelimitedTop(msg, i, fn, h)));
  });
  m.export(LAYOUT_EXPORT, "global", m.global(I32, false, layoutHash(messages, (f) => (f.flags & FieldFlag.ClosedEnum ? f.enum!.values.map((v) => v.number) : undefined))));
  return m.bytes();
}

/**
 * (arena, data, size, reset) -> the record, 1 (an error, the Status set and its path finished), or
 * 0 (the generic decoder's). A reset (hp_decode's) comes first, whatever follows; after it the
 * arena's cursor moves only on success, and a failure gives back the blocks the decode took.
 */
function decodeTop(msg: MessageModel, parse: number, h: Helpers): Code {
  const ARENA = 0, DATA = 1, SIZE = 2, RESET = 3, REC_ = 4, HEAD = 5, CUR = 6;
  const c = new Code();
  enterDecode(c, h, ARENA, DATA, SIZE, RESET, HEAD, CUR);
  const failed = c.block();
  c.get(SIZE).globalGet(h.limits).load("i32", LIMITS_MAX_MESSAGE_SIZE).op("i32.gt_u");
  failIf(c, h, Err.MessageTooLarge, () => c.get(DATA), () => c.globalGet(h.limits).load("i32", LIMITS_MAX_MESSAGE_SIZE), failed);
  newRecord(c, msg, h, REC_, failed, () => c.get(DATA));
  c.get(DATA).get(DATA).get(SIZE).op("i32.add").get(REC_).globalGet(h.limits).load("i32", LIMITS_MAX_DEPTH).i32(0).call(parse).op("i32.eqz").br_if(failed);
  c.get(ARENA).globalGet(h.cur).store("i32", ARENA_CUR);
  c.get(REC_).op("return");
  c.end();
  leaveFailed(c, h, ARENA, HEAD, CUR);
  return c;
}

/**
 * An entry's start: the reset asked for (hp_decode's, whatever follows), offsets counted from
 * DATA, the decode's memory budget from SIZE, the arena's current block in globals (its head and
 * cursor kept in locals HEAD and CUR for a failure to go back to).
 */
function enterDecode(c: Code, h: Helpers, ARENA: number, DATA: number, SIZE: number, RESET: number, HEAD: number, CUR: number): void {
  c.get(RESET);
  c.if_();
  c.get(ARENA).call(h.arenaReset);
  c.end();
  c.i32(0).globalSet(h.fallback);
  c.get(DATA).globalSet(h.base);
  c.get(ARENA).globalSet(h.arena);
  c.get(SIZE).globalSet(h.inputSize);
  c.i32(0).globalSet(h.grew);
  c.get(ARENA).load("i32", ARENA_CUR).tee(CUR).globalSet(h.cur);
  c.get(ARENA).load("i32", ARENA_END).globalSet(h.end);
  c.get(ARENA).load("i32", ARENA_HEAD).set(HEAD);
}

/**
 * An entry's failure: the blocks the decode took given back (the arena's cursor was never written),
 * then 0 for the generic decoder, or the Status's path finished and 1.
 */
function leaveFailed(c: Code, h: Helpers, ARENA: number, HEAD: number, CUR: number): void {
  c.globalGet(h.grew);
  c.if_();
  c.get(ARENA).get(HEAD).get(CUR).call(h.arenaRewind);
  c.end();
  c.globalGet(h.fallback);
  c.if_();
  c.i32(0).op("return");
  c.end();
  c.call(h.finish);
  c.i32(1);
}

/**
 * Decoder::decode_delimited: (arena, data, size, reset, out) -> 2 with the array slot `out` holding
 * a record per message of the run (varint length, then the message), 1 (an error, the Status set,
 * the message's position its path's first frame) or 0 (the generic decoder's). Offsets count from
 * the run's start; the memory budget is the run's; a failure gives back all the run took.
 */
function decodeDelimitedTop(msg: MessageModel, mi: number, parse: number, h: Helpers): Code {
  const ARENA = 0, DATA = 1, SIZE = 2, RESET = 3, OUT = 4, REC_ = 5, HEAD = 6, CUR = 7, P = 8, END_ = 9, INDEX = 10, SLOT = 11, V_ = 12;
  const c = new Code();
  enterDecode(c, h, ARENA, DATA, SIZE, RESET, HEAD, CUR);
  for (const at of [ARRAY_DATA, ARRAY_SIZE, ARRAY_CAPACITY]) c.get(OUT).i32(0).store("i32", at);
  c.get(DATA).tee(P).get(SIZE).op("i32.add").set(END_);
  const failed = c.block();
  const done = c.block();
  const next = c.loop();
  c.get(P).get(END_).op("i32.ge_u").br_if(done);
  c.get(P).get(END_).call(h.varint).set(V_).tee(P).op("i32.eqz").br_if(failed);
  c.get(V_).get(END_).get(P).op("i32.sub", "i64.extend_i32_u", "i64.gt_u");
  failIf(c, h, Err.LengthOutOfBounds, () => c.get(P), 0, failed);
  c.get(OUT).i32(1).i32(4).get(P).call(h.grow).tee(SLOT).op("i32.eqz").br_if(failed);
  // decode_top: the message's own size limit, then its record
  c.get(V_).op("i32.wrap_i64").globalGet(h.limits).load("i32", LIMITS_MAX_MESSAGE_SIZE).op("i32.gt_u");
  failIf(c, h, Err.MessageTooLarge, () => c.get(P), () => c.globalGet(h.limits).load("i32", LIMITS_MAX_MESSAGE_SIZE), failed);
  newRecord(c, msg, h, REC_, failed, () => c.get(P));
  c.get(P).get(P).get(V_).op("i32.wrap_i64", "i32.add").get(REC_).globalGet(h.limits).load("i32", LIMITS_MAX_DEPTH).i32(0).call(parse).op("i32.eqz").br_if(failed);
  c.get(SLOT).get(REC_).store("i32", 0);
  c.get(P).get(V_).op("i32.wrap_i64", "i32.add").set(P);
  c.get(INDEX).i32(1).op("i32.add").set(INDEX);
  c.br(next);
  c.end();
  c.end();
  c.get(ARENA).globalGet(h.cur).store("i32", ARENA_CUR);
  c.i32(2).op("return");
  c.end();
  c.i32(mi).i32(0).get(INDEX).call(h.frame);
  leaveFailed(c, h, ARENA, HEAD, CUR);
  return c;
}

/** Status::fail: (code, at, detail), the offset counted from the input's start, the path emptied. */
function fail(h: Helpers): Code {
  const CODE = 0, AT = 1, DETAIL = 2;
  const c = new Code();
  c.globalGet(h.status).get(CODE).store("i32", STATUS_CODE);
  c.globalGet(h.status).get(AT).globalGet(h.base).op("i32.sub").store("i32", STATUS_OFFSET);
  c.globalGet(h.status).get(DETAIL).store("i32", STATUS_DETAIL);
  c.globalGet(h.status).i32(0).store("i32", STATUS_PATH_SIZE);
  c.globalGet(h.status).i32(0).store("i32", STATUS_TRUNCATED);
  return c;
}

/**
 * Status::push_frame: (message, field number, element) added while unwinding, innermost first;
 * past STATUS_MAX_PATH frames the innermost are dropped and the path is marked cut.
 */
function pushFrame(h: Helpers): Code {
  const MSG = 0, NUMBER = 1, ELEMENT = 2, SIZE = 3, AT = 4;
  const c = new Code();
  c.globalGet(h.status).load("i32", STATUS_PATH_SIZE).tee(SIZE).i32(STATUS_MAX_PATH).op("i32.eq");
  c.if_();
  c.globalGet(h.status).i32(STATUS_PATH).op("i32.add").tee(AT);
  c.get(AT).i32(PATH_ENTRY_SIZE).op("i32.add").i32((STATUS_MAX_PATH - 1) * PATH_ENTRY_SIZE).memoryCopy();
  c.globalGet(h.status).i32(1).store("i32", STATUS_TRUNCATED);
  c.get(SIZE).i32(1).op("i32.sub").set(SIZE);
  c.end();
  c.globalGet(h.status).get(SIZE).i32(PATH_ENTRY_SIZE).op("i32.mul", "i32.add").i32(STATUS_PATH).op("i32.add").tee(AT);
  c.get(MSG).store("i32", PATH_ENTRY_MESSAGE);
  c.get(AT).get(NUMBER).store("i32", PATH_ENTRY_FIELD);
  c.get(AT).get(ELEMENT).store("i32", PATH_ENTRY_INDEX);
  c.globalGet(h.status).get(SIZE).i32(1).op("i32.add").store("i32", STATUS_PATH_SIZE);
  return c;
}

/** Status::finish: the frames, pushed innermost first, put outermost first. */
function finishPath(h: Helpers): Code {
  const I = 0, J = 1, X = 2;
  const c = new Code();
  const at = (k: number) => c.globalGet(h.status).get(k).i32(PATH_ENTRY_SIZE).op("i32.mul", "i32.add");
  c.globalGet(h.status).load("i32", STATUS_PATH_SIZE).i32(1).op("i32.sub").set(J);
  const done = c.block();
  const swap = c.loop();
  c.get(I).get(J).op("i32.ge_s").br_if(done);
  for (const word of [0, 4, 8]) {
    at(I).load("i32", STATUS_PATH + word).set(X);
    at(I);
    at(J).load("i32", STATUS_PATH + word);
    c.store("i32", STATUS_PATH + word);
    at(J).get(X).store("i32", STATUS_PATH + word);
  }
  c.get(I).i32(1).op("i32.add").set(I);
  c.get(J).i32(1).op("i32.sub").set(J);
  c.br(swap).end().end();
  return c;
}

/** Branches to `out` after marking the decode as the generic decoder's. */
function fallBack(c: Code, h: Helpers, out: Target): void {
  c.i32(1).globalSet(h.fallback).br(out);
}

/** Pops a condition: when true, fails with `code` at the address `at` pushes and `detail`, and branches to `out`. */
function failIf(c: Code, h: Helpers, code: Err, at: () => void, detail: number | (() => void), out: Target): void {
  c.if_();
  c.i32(code);
  at();
  if (typeof detail === "number") c.i32(detail);
  else detail();
  c.call(h.fail).br(out);
  c.end();
}

/** Fails with `code` at the address `at` pushes and `detail`, and returns 0 from a helper returning i32. */
function failReturning0(c: Code, h: Helpers, code: Err, at: () => void, detail: () => void): void {
  c.i32(code);
  at();
  detail();
  c.call(h.fail).i32(0).op("return");
}

/**
 * new_record: a zeroed record of msg's size into local `into`, bumped from the current block, else
 * from the next (its failure, at the address `at` pushes, branching to `out`).
 */
function newRecord(c: Code, msg: MessageModel, h: Helpers, into: number, out: Target, at: () => void): void {
  const size = msg.recordSize; // a multiple of 8 (layoutRecord)
  c.globalGet(h.end).globalGet(h.cur).op("i32.sub").i32(size).op("i32.lt_u");
  c.if_();
  c.i32(size);
  at();
  c.call(h.alloc).tee(into).op("i32.eqz").br_if(out);
  c.else_();
  c.globalGet(h.cur).tee(into).i32(size).op("i32.add").globalSet(h.cur);
  c.end();
  // stores, as Arena::zero: V8 runs memory.fill as a call out of the module
  if (size > 256) {
    c.get(into).i32(0).i32(size).memoryFill();
    return;
  }
  for (let at = 0; at < size; at += 8) c.get(into).i64(0).store("i64", at);
}

/**
 * Arena::allocate: (size, at) -> address, bumped from the current block, else from the next one
 * the arena takes under the decode's budget (the arena's cursor written back first, and read back
 * after); 0 when that fails, the Status failed at `at` as the generic decoder fails allocations.
 */
function allocate(h: Helpers): Code {
  const SIZE = 0, AT_ = 1, P_ = 2;
  const c = new Code();
  const full = c.block();
  c.get(SIZE).i32(7).op("i32.add").i32(-8).op("i32.and").set(SIZE); // sizes stay far below 4 GiB here (grow checks them)
  c.get(SIZE).globalGet(h.end).globalGet(h.cur).op("i32.sub").op("i32.gt_u").br_if(full);
  c.globalGet(h.cur).tee(P_).get(SIZE).op("i32.add").globalSet(h.cur);
  c.get(P_).op("return");
  c.end();
  c.globalGet(h.grew).op("i32.eqz");
  c.if_();
  c.globalGet(h.arena).call(h.arenaReserved).globalSet(h.reserved); // no block taken yet: what it held at the start
  c.i32(1).globalSet(h.grew);
  c.end();
  c.globalGet(h.arena).globalGet(h.cur).store("i32", ARENA_CUR);
  c.globalGet(h.arena).get(SIZE).globalGet(h.reserved).globalGet(h.inputSize).get(AT_).globalGet(h.base).op("i32.sub").call(h.arenaGrow).tee(P_);
  c.if_();
  c.globalGet(h.arena).load("i32", ARENA_CUR).globalSet(h.cur);
  c.globalGet(h.arena).load("i32", ARENA_END).globalSet(h.end);
  c.end();
  c.get(P_);
  return c;
}

/**
 * Decoder::grow and grow_storage: (slot, n, width, at) -> where n more elements go, or 0: more than
 * maxElements is an error at `at`, a block too small the generic decoder's. The first run of an
 * array is sized exactly (at least 4), appends double, capacity 0 with a size means borrowed from
 * the input; all as the generic decoder does, so that the arenas come out identical.
 */
function grow(h: Helpers): Code {
  const SLOT = 0, N = 1, WIDTH = 2, AT_ = 3, SIZE = 4, CAP = 5, NEEDED = 6, MAX = 7, FRESH = 8;
  const c = new Code();
  const failed = c.block();
  c.get(SLOT).load("i32", ARRAY_SIZE).set(SIZE);
  c.get(SLOT).load("i32", ARRAY_CAPACITY).set(CAP);
  c.globalGet(h.limits).load("i32", LIMITS_MAX_ELEMENTS).set(MAX);
  c.get(N).get(MAX).get(SIZE).op("i32.sub").op("i32.gt_u");
  failIf(c, h, Err.TooManyElements, () => c.get(AT_), () => c.get(MAX), failed);
  c.get(SIZE).get(N).op("i32.add").tee(NEEDED).get(CAP).op("i32.gt_u");
  c.if_();
  {
    // cap = capacity == 0 ? max(needed, 4) : capacity, doubled until it holds needed
    c.get(CAP).op("i32.eqz");
    c.if_();
    c.get(NEEDED).i32(4).get(NEEDED).i32(4).op("i32.gt_u", "select").set(CAP);
    c.end();
    const doubled = c.block();
    const again = c.loop();
    c.get(CAP).get(NEEDED).op("i32.ge_u").br_if(doubled);
    c.get(NEEDED).get(CAP).i32(1).op("i32.shl").get(CAP).i32(0).op("i32.lt_s", "select").set(CAP);
    c.br(again).end().end();
    c.get(MAX).get(CAP).get(CAP).get(MAX).op("i32.gt_u", "select").set(CAP);
    c.get(CAP).i32(-1).get(WIDTH).op("i32.div_u", "i32.gt_u");
    c.if_();
    fallBack(c, h, failed); // the generic decoder reports this from its last allocation's failure
    c.end();
    c.get(CAP).get(WIDTH).op("i32.mul").get(AT_).call(h.alloc).tee(FRESH).op("i32.eqz").br_if(failed);
    c.get(FRESH).get(SLOT).load("i32", ARRAY_DATA).get(SIZE).get(WIDTH).op("i32.mul").memoryCopy();
    c.get(SLOT).get(FRESH).store("i32", ARRAY_DATA);
    c.get(SLOT).get(CAP).store("i32", ARRAY_CAPACITY);
  }
  c.end();
  c.get(SLOT).get(NEEDED).store("i32", ARRAY_SIZE);
  c.get(SLOT).load("i32", ARRAY_DATA).get(SIZE).get(WIDTH).op("i32.mul", "i32.add").op("return");
  c.end();
  c.i32(0);
  return c;
}

/**
 * Decoder::add_unknown: (rec, start, end) -> 1, or 0 when the record's unknown-field list cannot
 * grow. Bytes adjacent to the last range extend it.
 */
function addUnknown(h: Helpers): Code {
  const R = 0, START = 1, STOP = 2, SIZE = 3, LAST = 4;
  const c = new Code();
  c.get(R).load("i32", UNKNOWN_FIELDS + ARRAY_SIZE).tee(SIZE);
  c.if_();
  c.get(R).load("i32", UNKNOWN_FIELDS + ARRAY_DATA).get(SIZE).i32(3).op("i32.shl", "i32.add").i32(8).op("i32.sub").tee(LAST);
  c.load("i32").get(LAST).load("i32", 4).op("i32.add").get(START).op("i32.eq");
  c.if_();
  c.get(LAST).get(LAST).load("i32", 4).get(STOP).get(START).op("i32.sub", "i32.add").store("i32", 4);
  c.i32(1).op("return");
  c.end();
  c.end();
  c.get(R).i32(UNKNOWN_FIELDS).op("i32.add").i32(1).i32(8).get(START).call(h.grow).tee(LAST).op("i32.eqz");
  c.if_();
  c.i32(0).op("return");
  c.end();
  c.get(LAST).get(START).store("i32").get(LAST).get(STOP).get(START).op("i32.sub").store("i32", 4);
  c.i32(1);
  return c;
}

/**
 * read_varint (maxBytes 10) or read_tag (5): (p, end) -> (position after it, value), or position 0
 * with the Status set to truncated or overlong at p.
 */
function readVarint(h: Helpers, maxBytes: 10 | 5): Code {
  const PP = 0, E = 1, RESULT = 2, SHIFT = 3;
  const lastShift = (maxBytes - 1) * 7, lastMax = maxBytes === 10 ? 1 : 0x0f;
  const c = new Code();
  const failWith = (code: Err) => {
    c.i32(code).get(PP).i32(0).call(h.fail);
    c.i32(0).i64(0).op("return");
  };
  c.get(PP).set(T_START);
  const next = c.loop();
  c.get(T_START).get(E).op("i32.ge_u");
  c.if_();
  failWith(Err.Truncated);
  c.end();
  // the last byte may only hold the value's top bits
  c.get(SHIFT).i32(lastShift).op("i32.eq").get(T_START).load("i32_8u").i32(lastMax).op("i32.gt_u", "i32.and");
  c.if_();
  failWith(Err.VarintOverlong);
  c.end();
  c.get(RESULT).get(T_START).load("i64_8u").i64(0x7f).op("i64.and").get(SHIFT).op("i64.extend_i32_u", "i64.shl", "i64.or").set(RESULT);
  c.get(T_START).i32(1).op("i32.add").set(T_START);
  c.get(T_START).i32(-1).op("i32.add").load("i32_8u").i32(0x80).op("i32.lt_u");
  c.if_();
  c.get(T_START).get(RESULT).op("return");
  c.end();
  c.get(SHIFT).i32(7).op("i32.add").tee(SHIFT).i32(lastShift).op("i32.le_u").br_if(next);
  c.end();
  failWith(Err.VarintOverlong);
  return c;
}
/** readVarint's cursor (its first extra local after RESULT and SHIFT); PP keeps where the varint starts. */
const T_START = 4;

/**
 * skip_field for a group: (p, end, number, depth) -> the position past its end tag, or 0 with the
 * Status set. Its fields are skipped, groups in it one level deeper; depth counts down, the group
 * itself an error at 0 or below.
 */
function skipGroup(h: Helpers): Code {
  const PP = 0, E = 1, NUM = 2, D = 3, START = 4, TG = 5, W = 6, VAL = 7;
  const c = new Code();
  const failWith = (code: Err, at: number, detail: () => void) => failReturning0(c, h, code, () => c.get(at), detail);
  const inner = () => c.get(TG).i32(3).op("i32.shr_u");
  c.get(D).i32(0).op("i32.le_s");
  c.if_();
  failWith(Err.DepthLimit, PP, () => c.globalGet(h.limits).load("i32", LIMITS_MAX_DEPTH));
  c.end();
  const next = c.loop();
  c.get(PP).get(E).op("i32.ge_u");
  c.if_();
  failWith(Err.UnterminatedGroup, PP, () => c.get(NUM));
  c.end();
  c.get(PP).set(START);
  c.get(PP).get(E).call(h.tag).set(VAL).tee(PP).op("i32.eqz");
  c.if_();
  c.i32(0).op("return");
  c.end();
  c.get(VAL).op("i32.wrap_i64").tee(TG).i32(8).op("i32.lt_u");
  c.if_();
  failWith(Err.InvalidFieldNumber, START, () => c.i32(0));
  c.end();
  c.get(TG).i32(7).op("i32.and").tee(W).i32(Wire.EndGroup).op("i32.eq");
  c.if_();
  inner().get(NUM).op("i32.eq");
  c.if_();
  c.get(PP).op("return");
  c.end();
  failWith(Err.UnmatchedEndGroup, START, inner);
  c.end();
  c.get(W).i32(5).op("i32.gt_u");
  c.if_();
  failWith(Err.InvalidWireType, START, inner);
  c.end();
  c.get(PP).get(E);
  inner();
  c.get(W).get(D).i32(1).op("i32.sub").call(h.skipValue).tee(PP).op("i32.eqz");
  c.if_();
  c.i32(0).op("return");
  c.end();
  c.br(next);
  c.end();
  c.i32(0);
  return c;
}

/**
 * skip_field for a value of wire type 0, 1, 2, 3 or 5: (p, end, number, wire type, depth) -> the
 * position after it, or 0 with the Status set (errors at the value; a group's as skipGroup's).
 */
function skipValue(h: Helpers): Code {
  const PP = 0, E = 1, NUM = 2, W = 3, D = 4, VAL = 5;
  const c = new Code();
  const failWith = (code: Err) => failReturning0(c, h, code, () => c.get(PP), () => c.i32(0));
  c.get(W).i32(Wire.Group).op("i32.eq");
  c.if_();
  c.get(PP).get(E).get(NUM).get(D).call(h.skipGroup).op("return");
  c.end();
  c.get(W).i32(Wire.Fixed64).op("i32.eq").get(W).i32(Wire.Fixed32).op("i32.eq").op("i32.or");
  c.if_();
  c.i32(8).i32(4).get(W).i32(Wire.Fixed64).op("i32.eq", "select").set(W); // now the width
  c.get(E).get(PP).op("i32.sub").get(W).op("i32.lt_s");
  c.if_();
  failWith(Err.Truncated);
  c.end();
  c.get(PP).get(W).op("i32.add").op("return");
  c.end();
  // a varint, or a length and its bytes
  c.get(PP).get(E).call(h.varint).set(VAL).tee(PP).op("i32.eqz");
  c.if_();
  c.i32(0).op("return");
  c.end();
  c.get(W).i32(Wire.Len).op("i32.eq");
  c.if_();
  c.get(VAL).get(E).get(PP).op("i32.sub", "i64.extend_i32_u", "i64.gt_u");
  c.if_();
  failWith(Err.LengthOutOfBounds);
  c.end();
  c.get(PP).get(VAL).op("i32.wrap_i64", "i32.add").set(PP);
  c.end();
  c.get(PP);
  return c;
}

/**
 * parse_message_set_item for message set `msg`, its start tag read: (p, end, rec, depth, item
 * start) -> the position past the item, or 0 with the Status set (or the fallback flag). The item
 * is group 1 { type_id = 2 (varint), message = 3 (bytes) } in any order, the first of each counting
 * and anything else skipped one level deeper; the message is merged into the extension field
 * type_id names (present from then on), or the whole item kept as an unknown field when it names
 * none or has no message.
 */
function messageSetItem(msg: MessageModel, h: Helpers, parse: Map<MessageModel, number>, index: Map<MessageModel, number>): Code {
  const PP = 0, E = 1, R = 2, D = 3, IS = 4, TID = 5, BODY = 6, BLEN = 7, START = 8, TG = 9, VAL = 10, SUBR = 11, W = 12;
  const c = new Code();
  const num = () => c.get(TG).i32(3).op("i32.shr_u");
  const orReturn0 = () => {
    c.op("i32.eqz");
    c.if_();
    c.i32(0).op("return");
    c.end();
  };
  const read = c.block();
  const field = c.loop();
  c.get(PP).get(E).op("i32.ge_u");
  c.if_();
  failReturning0(c, h, Err.UnterminatedGroup, () => c.get(PP), () => c.i32(1));
  c.end();
  c.get(PP).set(START);
  c.get(PP).get(E).call(h.tag).set(VAL).tee(PP);
  orReturn0();
  c.get(VAL).op("i32.wrap_i64").tee(TG).i32(8).op("i32.lt_u");
  c.if_();
  failReturning0(c, h, Err.InvalidFieldNumber, () => c.get(START), () => c.i32(0));
  c.end();
  c.get(TG).i32(7).op("i32.and").tee(W).i32(Wire.EndGroup).op("i32.eq");
  c.if_();
  num().i32(1).op("i32.eq").br_if(read);
  failReturning0(c, h, Err.UnmatchedEndGroup, () => c.get(START), num);
  c.end();
  c.get(TG).i32((2 << 3) | Wire.Varint).op("i32.eq").get(TID).op("i64.eqz", "i32.and");
  c.if_();
  c.get(PP).get(E).call(h.varint).set(TID).tee(PP);
  orReturn0();
  c.br(field);
  c.end();
  c.get(TG).i32((3 << 3) | Wire.Len).op("i32.eq").get(BODY).op("i32.eqz", "i32.and");
  c.if_();
  c.get(PP).get(E).call(h.varint).set(VAL).tee(PP);
  orReturn0();
  c.get(VAL).get(E).get(PP).op("i32.sub", "i64.extend_i32_u", "i64.gt_u");
  c.if_();
  failReturning0(c, h, Err.LengthOutOfBounds, () => c.get(PP), () => c.i32(0));
  c.end();
  c.get(PP).set(BODY);
  c.get(VAL).op("i32.wrap_i64").set(BLEN);
  c.get(PP).get(BLEN).op("i32.add").set(PP);
  c.br(field);
  c.end();
  c.get(W).i32(5).op("i32.gt_u");
  c.if_();
  failReturning0(c, h, Err.InvalidWireType, () => c.get(START), num);
  c.end();
  c.get(PP).get(E);
  num();
  c.get(W).get(D).i32(1).op("i32.sub").call(h.skipValue).tee(PP);
  orReturn0();
  c.br(field);
  c.end();
  c.end(); // read: PP is past the item's end tag
  const mi = index.get(msg)!;
  const kept = c.block();
  c.get(BODY).op("i32.eqz").br_if(kept);
  for (const f of msg.fields) {
    if (f.type !== FieldType.Message || isArray(f)) continue; // a message set holds singular message extensions only
    c.get(TID).i64(f.number).op("i64.eq");
    c.if_();
    const [byte, mask] = presenceBit(f);
    if (f.label === Label.Explicit) c.get(R).get(R).load("i32_8u", byte).i32(mask).op("i32.or").store("i32_8", byte);
    const failed = c.block();
    c.get(R).load("i32", f.offset).tee(SUBR).op("i32.eqz");
    c.if_();
    newRecord(c, f.message!, h, SUBR, failed, () => c.get(BODY));
    c.get(R).get(SUBR).store("i32", f.offset);
    c.end();
    c.get(D).op("i32.eqz");
    failIf(c, h, Err.DepthLimit, () => c.get(BODY), () => c.globalGet(h.limits).load("i32", LIMITS_MAX_DEPTH), failed);
    c.get(BODY).get(BODY).get(BLEN).op("i32.add").get(SUBR).get(D).i32(1).op("i32.sub").i32(0).call(parse.get(f.message!)!).op("i32.eqz").br_if(failed);
    c.get(PP).op("return");
    c.end(); // failed
    c.i32(mi).i32(f.number).i32(-1).call(h.frame);
    c.i32(0).op("return");
    c.end();
  }
  c.end(); // kept: an unknown field
  c.get(R).get(IS).get(PP).call(h.addUnknown);
  orReturn0();
  c.get(PP);
  return c;
}

/**
 * add_unknown_enum: (rec, number, value, at) -> 1, or 0: a packed closed-enum value outside the
 * enum, which has no bytes of its own, written as a varint field of its own in the arena and added
 * to the record's unknown fields (an allocation's failure at `at`, where the value starts).
 */
function unknownEnum(h: Helpers): Code {
  const R = 0, NUMBER = 1, VALUE = 2, VALUE_AT = 3, AT = 4, E = 5, X = 6;
  const c = new Code();
  // varint_size(tag) + varint_size(value): 7 payload bits a byte
  const size = (push: () => void) => {
    push();
    c.i64(1).op("i64.or", "i64.clz").set(X);
    c.i64(64).get(X).op("i64.sub", "i32.wrap_i64").i32(9).op("i32.mul").i32(64).op("i32.add").i32(6).op("i32.shr_u");
  };
  size(() => c.get(NUMBER).i32(3).op("i32.shl", "i64.extend_i32_u"));
  size(() => c.get(VALUE));
  c.op("i32.add").get(VALUE_AT).call(h.alloc).tee(AT).op("i32.eqz");
  c.if_();
  c.i32(0).op("return");
  c.end();
  c.get(AT).set(E);
  for (const push of [() => c.get(NUMBER).i32(3).op("i32.shl", "i64.extend_i32_u"), () => c.get(VALUE)]) {
    push();
    c.set(X);
    const written = c.block();
    const byte = c.loop();
    c.get(X).i64(0x80).op("i64.lt_u");
    c.if_();
    c.get(E).get(X).store("i64_8").get(E).i32(1).op("i32.add").set(E).br(written);
    c.end();
    c.get(E).get(X).i64(0x80).op("i64.or").store("i64_8");
    c.get(E).i32(1).op("i32.add").set(E);
    c.get(X).i64(7).op("i64.shr_u").set(X);
    c.br(byte).end().end();
  }
  c.get(R).get(AT).get(E).call(h.addUnknown);
  return c;
}

/** count_varints: (p, end) -> the bytes below 0x80, eight at a time. */
function countVarints(): Code {
  const PP = 0, E = 1, N = 2;
  const c = new Code();
  const words = c.block();
  const word = c.loop();
  c.get(E).get(PP).op("i32.sub").i32(8).op("i32.lt_s").br_if(words);
  c.get(N).get(PP).load("i64").i64(-1).op("i64.xor").i64(0x8080808080808080n).op("i64.and", "i64.popcnt", "i32.wrap_i64", "i32.add").set(N);
  c.get(PP).i32(8).op("i32.add").set(PP);
  c.br(word).end().end();
  const bytes = c.block();
  const byte = c.loop();
  c.get(PP).get(E).op("i32.ge_u").br_if(bytes);
  c.get(N).get(PP).load("i32_8u").i32(0x80).op("i32.lt_u", "i32.add").set(N);
  c.get(PP).i32(1).op("i32.add").set(PP);
  c.br(byte).end().end();
  c.get(N);
  return c;
}

/**
 * The ways packedVarints stores a value, as convertVarint and varintStore store one of these
 * types; a field's type is stored as the one it shares both with.
 */
const PACKED_STORES = [FieldType.Int64, FieldType.Sint64, FieldType.Int32, FieldType.Sint32, FieldType.Bool] as const;

function packedStore(t: FieldType): number {
  const i = (PACKED_STORES as readonly FieldType[]).indexOf(t);
  return i >= 0 ? i : varintStore(t) === "i64" ? 0 : 2; // uint64; uint32 and enums
}

/**
 * A packed run of varints that ends on a terminator (checked by the caller), decoded into the
 * room at dst: (p, end, dst, store) -> 1, or 0 with the Status set (overlong at a value). Each
 * value as read_terminated_varint reads it (only the 10-byte limit needs checking), one loop in the
 * core for every module: a call to the core's varint per value of three bytes or more took a
 * view of 1M uint64s three times as long as the table-driven decoder (npm run bench -- packed-uint64).
 */
function packedVarints(h: Helpers): Code {
  const Q = 0, E = 1, D = 2, K = 3, V = 4, B = 5;
  const c = new Code();
  const done = c.block();
  const value = c.loop();
  c.get(Q).get(E).op("i32.ge_u").br_if(done);
  c.get(Q).load("i32_8u").tee(B).op("i64.extend_i32_u").set(V);
  c.get(Q).i32(1).op("i32.add").set(Q);
  c.get(B).i32(0x80).op("i32.ge_u");
  c.if_();
  {
    const read = c.block();
    // bytes two to nine unrolled, each shift a constant; adding (byte - 1) << shift takes away the
    // previous byte's continuation bit as it adds this one
    for (let shift = 7, at = 0; shift < 63; shift += 7, at++) {
      c.get(Q).load("i32_8u", at).tee(B).op("i64.extend_i32_u").i64(1).op("i64.sub").i64(shift).op("i64.shl").get(V).op("i64.add").set(V);
      c.get(B).i32(0x80).op("i32.lt_u");
      c.if_();
      c.get(Q).i32(at + 1).op("i32.add").set(Q).br(read);
      c.end();
    }
    c.get(Q).i32(8).op("i32.add").set(Q);
    // the tenth byte may only hold bit 63
    c.get(Q).load("i32_8u").tee(B).i32(1).op("i32.gt_u");
    c.if_();
    c.i32(Err.VarintOverlong).get(Q).i32(9).op("i32.sub").i32(0).call(h.fail);
    c.i32(0).op("return");
    c.end();
    c.get(Q).i32(1).op("i32.add").set(Q);
    c.get(V).get(B).op("i64.extend_i32_u").i64(1).op("i64.sub").i64(63).op("i64.shl", "i64.add").set(V);
    c.end();
  }
  c.end();
  // stored as the field's type keeps it (a branch the run always takes the same way)
  const stored = c.block();
  const cases = PACKED_STORES.map(() => c.block()).reverse(); // cases[i] closes i-th: PACKED_STORES[i]'s code follows its end
  c.get(K).br_table(cases, cases[cases.length - 1]!);
  PACKED_STORES.forEach((t, i) => {
    c.end();
    c.get(D);
    convertVarint(c, t, V);
    c.store(varintStore(t));
    c.get(D).i32(valueSize(t)).op("i32.add").set(D);
    if (i < PACKED_STORES.length - 1) c.br(stored);
  });
  c.end();
  c.br(value).end().end();
  c.i32(1);
  return c;
}

/**
 * A varint at `pos` into local V, pos moved past it: one and two bytes inline (read_short_varint),
 * longer ones through the helper, whose failure (truncated, overlong: the Status set) branches to
 * `out`. `bound` is the local holding where the bytes end.
 */
function varintAt(c: Code, h: Helpers, out: Target, pos = P, bound = END): void {
  const done = c.block();
  c.get(pos).get(bound).op("i32.lt_u");
  c.if_();
  shortForms(c, pos, bound, true, done);
  c.end();
  c.get(pos).get(bound).call(h.varint).set(V).tee(pos).op("i32.eqz").br_if(out);
  c.end();
}

/**
 * read_one_or_two_bytes at pos (before bound): a varint of one or two bytes into V (wide) or TAG,
 * pos moved past it and a branch to `done`; longer ones fall through.
 */
function shortForms(c: Code, pos: number, bound: number, wide: boolean, done: Target): void {
  if (wide) c.get(pos).load("i64_8u").tee(V).i64(0x80).op("i64.lt_u");
  else c.get(pos).load("i32_8u").tee(TAG).i32(0x80).op("i32.lt_u");
  c.if_();
  c.get(pos).i32(1).op("i32.add").set(pos).br(done);
  c.end();
  c.get(bound).get(pos).op("i32.sub").i32(2).op("i32.ge_s");
  c.if_();
  c.get(pos).load("i32_8u", 1).tee(T).i32(0x80).op("i32.lt_u");
  c.if_();
  if (wide) c.get(V).i64(0x7f).op("i64.and").get(T).i32(7).op("i32.shl", "i64.extend_i32_u", "i64.or").set(V);
  else c.get(TAG).i32(0x7f).op("i32.and").get(T).i32(7).op("i32.shl", "i32.or").set(TAG);
  c.get(pos).i32(2).op("i32.add").set(pos).br(done);
  c.end();
  c.end();
}

/** read_length_at: a length prefix at P into LEN, P moved to the body; errors (the body past END) branch to `out`. */
function lengthAt(c: Code, h: Helpers, out: Target): void {
  varintAt(c, h, out);
  c.get(V).get(END).get(P).op("i32.sub", "i64.extend_i32_u", "i64.gt_u");
  failIf(c, h, Err.LengthOutOfBounds, () => c.get(P), 0, out);
  c.get(V).op("i32.wrap_i64").set(LEN);
}

/** Pushes local v (V) as the field's in-record value (store_varint), for a store of varintStore(t). */
function convertVarint(c: Code, t: FieldType, v = V): void {
  switch (t) {
    case FieldType.Sint32:
      // zigzag of the low 32 bits
      c.get(v).op("i32.wrap_i64").i32(1).op("i32.shr_u").i32(0).get(v).op("i32.wrap_i64").i32(1).op("i32.and", "i32.sub", "i32.xor");
      return;
    case FieldType.Sint64:
      c.get(v).i64(1).op("i64.shr_u").i64(0).get(v).i64(1).op("i64.and", "i64.sub", "i64.xor");
      return;
    case FieldType.Bool:
      c.get(v).i64(0).op("i64.ne");
      return;
    default:
      c.get(v); // 32-bit types keep the low 32 bits (an i64.store32)
  }
}

function varintStore(t: FieldType): "i64" | "i64_32" | "i32" | "i32_8" {
  switch (t) {
    case FieldType.Int64: case FieldType.Uint64: case FieldType.Sint64: return "i64";
    case FieldType.Sint32: return "i32";
    case FieldType.Bool: return "i32_8";
    default: return "i64_32";
  }
}

/** Sets an explicit-presence field's hasbit. */
function markPresent(c: Code, f: FieldModel): void {
  if (f.label !== Label.Explicit) return;
  const [byte, mask] = presenceBit(f);
  c.get(REC).get(REC).load("i32_8u", byte).i32(mask).op("i32.or").store("i32_8", byte);
}

/** select_oneof_member: when another member (or none) is set, clear the shared slot and record this one. */
function selectOneofMember(c: Code, f: FieldModel): void {
  if (f.label !== Label.Oneof) return;
  c.get(REC).load("i32", f.presence).i32(f.number).op("i32.ne");
  c.if_();
  const size = valueSize(f.type);
  c.get(REC);
  if (size === 8) c.i64(0).store("i64", f.offset);
  else c.i32(0).store(size === 4 ? "i32" : "i32_8", f.offset);
  c.get(REC).i32(f.number).store("i32", f.presence);
  c.end();
}

/** pushes 1 unless the low 32 bits of V, as an int32, are a value of f's closed enum. */
function outsideClosedEnum(c: Code, f: FieldModel): void {
  const values = [...new Set(f.enum!.values.map((v) => v.number))].sort((a, b) => a - b);
  const lo = values[0]!, hi = values[values.length - 1]!;
  if (hi - lo === values.length - 1) {
    c.get(V).op("i32.wrap_i64").i32(lo).op("i32.sub").i32(hi - lo).op("i32.gt_u");
    return;
  }
  c.i32(1);
  for (const v of values) c.get(V).op("i32.wrap_i64").i32(v).op("i32.ne", "i32.and");
}

/**
 * A value outside f's closed enum: the field's bytes [FIELD, P) become an unknown field and the loop
 * goes on at `next` (an unknown-field list that cannot grow branches to `out`).
 */
function closedEnumMiss(c: Code, h: Helpers, f: FieldModel, next: Target, out: Target): void {
  if (!isClosedEnum(f)) return;
  outsideClosedEnum(c, f);
  c.if_();
  c.get(REC).get(FIELD).get(P).call(h.addUnknown).op("i32.eqz").br_if(out);
  c.br(next);
  c.end();
}

/**
 * parse_sub_message: the body [P - LEN, P) into the record in local SUB, one level deeper; past
 * maxDepth a depth_limit error at the body (depth counts down from maxDepth).
 */
function parseSub(c: Code, h: Helpers, f: FieldModel, parse: Map<MessageModel, number>, out: Target): void {
  const target = parse.get(f.message!);
  if (target === undefined) throw new Error(`compileDecoders: ${f.message!.fullName} (field ${f.name}) is not among the messages`);
  c.get(DEPTH).op("i32.eqz");
  failIf(c, h, Err.DepthLimit, () => c.get(P).get(LEN).op("i32.sub"), () => c.globalGet(h.limits).load("i32", LIMITS_MAX_DEPTH), out);
  c.get(P).get(LEN).op("i32.sub").get(P).get(SUB).get(DEPTH).i32(1).op("i32.sub").i32(0).call(target).op("i32.eqz").br_if(out);
}

/**
 * check_map_value: an entry without its value holds an empty message there, which lacks the
 * value's required fields if it has any: missing_required at the entry's body, naming the value
 * message's first required field.
 */
function checkMapValue(c: Code, h: Helpers, f: FieldModel, index: Map<MessageModel, number>, out: Target): void {
  const value = f.message!.fields.find((v) => v.number === 2);
  const required = value?.type === FieldType.Message ? value.message!.fields.find(isRequired) : undefined;
  if (required === undefined) return;
  c.get(SUB).load("i32", value!.offset).op("i32.eqz");
  c.if_();
  newRecord(c, value!.message!, h, DST, out, () => c.get(P).get(LEN).op("i32.sub")); // the empty value the generic decoder checks
  c.i32(Err.MissingRequired).get(P).get(LEN).op("i32.sub").i32(required.number).call(h.fail);
  c.i32(index.get(value!.message!)!).i32(required.number).i32(-1).call(h.frame);
  c.br(out);
  c.end();
}

/** One element of `width` bytes appended to the array at rec+offset: its address into DST (grow's errors at FIELD). */
function appendOne(c: Code, h: Helpers, offset: number, width: number, out: Target): void {
  // grow()'s fast path inline: room left in storage the array owns
  c.get(REC).load("i32", offset + ARRAY_CAPACITY).tee(DST);
  c.get(REC).load("i32", offset + ARRAY_SIZE).tee(SUB).op("i32.gt_u"); // capacity > size (so capacity != 0)
  c.if_();
  c.get(REC).get(SUB).i32(1).op("i32.add").store("i32", offset + ARRAY_SIZE);
  c.get(REC).load("i32", offset + ARRAY_DATA).get(SUB).i32(width).op("i32.mul", "i32.add").set(DST);
  c.else_();
  c.get(REC).i32(offset).op("i32.add").i32(1).i32(width).get(FIELD).call(h.grow).tee(DST).op("i32.eqz").br_if(out);
  c.end();
}

/**
 * A singular or repeated value of f's natural wire type at P; `store` stores what `push` pushes. A
 * truncated fixed-width value names the field number in the detail when singular, as the generic
 * decoder's paths do.
 */
function scalarValue(c: Code, h: Helpers, f: FieldModel, next: Target, out: Target, store: (kind: Parameters<Code["store"]>[0], push: () => void) => void): void {
  const wt = wireType(f.type);
  if (wt === Wire.Varint) {
    varintAt(c, h, out);
    closedEnumMiss(c, h, f, next, out);
    store(varintStore(f.type), () => convertVarint(c, f.type));
    return;
  }
  const width = wt === Wire.Fixed64 ? 8 : 4;
  c.get(END).get(P).op("i32.sub").i32(width).op("i32.lt_s");
  failIf(c, h, Err.Truncated, () => c.get(P), isArray(f) ? 0 : f.number, out);
  store(width === 8 ? "i64" : "i32", () => c.get(P).load(width === 8 ? "i64" : "i32"));
  c.get(P).i32(width).op("i32.add").set(P);
}

/** A string or bytes value at P: its BytesSlot pushed by `slot` (after the length and UTF-8 checks). */
function bytesValue(c: Code, h: Helpers, f: FieldModel, out: Target, slot: () => void): void {
  lengthAt(c, h, out);
  if (f.type === FieldType.String && f.flags & FieldFlag.ValidateUtf8) validUtf8At(c, h, f, out);
  slot();
  c.get(P).get(LEN).op("i32.add").set(P);
}

/**
 * invalid_utf8 at the body unless the LEN bytes at P are valid UTF-8. Short ASCII strings (names,
 * symbols, keys) are the common case and cost less than a call (utf8.hpp's is_valid_utf8 inlines
 * them too): up to 7 bytes with 8 readable before END are one load, masked to the string.
 */
function validUtf8At(c: Code, h: Helpers, f: FieldModel, out: Target): void {
  const done = c.block();
  c.get(LEN).i32(8).op("i32.lt_u").get(END).get(P).op("i32.sub").i32(8).op("i32.ge_s", "i32.and");
  c.if_();
  c.get(P).load("i64").i64(0x8080808080808080n).op("i64.and");
  c.i64(1).get(LEN).i32(3).op("i32.shl", "i64.extend_i32_u", "i64.shl").i64(1).op("i64.sub", "i64.and", "i64.eqz").br_if(done);
  c.end();
  c.get(P).get(LEN).call(h.utf8).op("i32.eqz");
  failIf(c, h, Err.InvalidUtf8, () => c.get(P), f.number, out);
  c.end();
}

/**
 * A group field (parse_group): its message parsed from P to its end tag, one level deeper, into a
 * new record appended (repeated) or the one already there; a singular group is present from its
 * start tag on, as the generic decoder marks it.
 */
function groupCase(c: Code, h: Helpers, f: FieldModel, parse: Map<MessageModel, number>, out: Target): void {
  const target = parse.get(f.message!)!;
  if (isArray(f)) {
    newRecord(c, f.message!, h, SUB, out, () => c.get(P));
    c.get(SUB); // appendOne uses SUB as scratch: keep the record on the stack
    appendOne(c, h, f.offset, 4, out);
    c.set(SUB);
    c.get(DST).get(SUB).store("i32");
  } else {
    selectOneofMember(c, f);
    markPresent(c, f);
    c.get(REC).load("i32", f.offset).tee(SUB).op("i32.eqz");
    c.if_();
    newRecord(c, f.message!, h, SUB, out, () => c.get(P));
    c.get(REC).get(SUB).store("i32", f.offset);
    c.end();
  }
  c.get(DEPTH).op("i32.eqz");
  failIf(c, h, Err.DepthLimit, () => c.get(P), () => c.globalGet(h.limits).load("i32", LIMITS_MAX_DEPTH), out);
  c.get(P).get(END).get(SUB).get(DEPTH).i32(1).op("i32.sub").i32(f.number).call(target).op("i32.eqz").br_if(out);
  c.globalGet(h.after).set(P);
}

/** The case of a field whose tag arrived with its natural wire type; failures branch to `out`. */
function fieldCase(c: Code, h: Helpers, f: FieldModel, parse: Map<MessageModel, number>, index: Map<MessageModel, number>, next: Target, out: Target): void {
  const off = f.offset;
  if (f.type === FieldType.Group) {
    groupCase(c, h, f, parse, out);
    return;
  }
  if (f.type === FieldType.Message) {
    lengthAt(c, h, out);
    c.get(P).get(LEN).op("i32.add").set(P);
    if (isArray(f)) {
      // a map is its entries, in order (lookups take the last of a key)
      // new_record, then the array's room, then the body: the generic decoder's order
      newRecord(c, f.message!, h, SUB, out, () => c.get(P).get(LEN).op("i32.sub"));
      c.get(SUB); // appendOne uses SUB as scratch: keep the record on the stack
      appendOne(c, h, off, 4, out);
      c.set(SUB);
      c.get(DST).get(SUB).store("i32");
    } else {
      selectOneofMember(c, f);
      c.get(REC).load("i32", off).tee(SUB).op("i32.eqz");
      c.if_();
      newRecord(c, f.message!, h, SUB, out, () => c.get(P).get(LEN).op("i32.sub"));
      c.get(REC).get(SUB).store("i32", off);
      c.end();
    }
    parseSub(c, h, f, parse, out);
    markPresent(c, f);
    if (f.label === Label.Map) checkMapValue(c, h, f, index, out);
    return;
  }
  if (f.type === FieldType.String || f.type === FieldType.Bytes) {
    if (isArray(f)) {
      bytesValue(c, h, f, out, () => {
        appendOne(c, h, off, 8, out);
        c.get(DST).get(P).store("i32").get(DST).get(LEN).store("i32", 4);
      });
      return;
    }
    bytesValue(c, h, f, out, () => {
      selectOneofMember(c, f);
      c.get(REC).get(P).store("i32", off).get(REC).get(LEN).store("i32", off + 4);
    });
    markPresent(c, f);
    return;
  }
  if (isArray(f)) {
    scalarValue(c, h, f, next, out, (kind, push) => {
      appendOne(c, h, off, valueSize(f.type), out);
      c.get(DST);
      push();
      c.store(kind);
    });
    return;
  }
  scalarValue(c, h, f, next, out, (kind, push) => {
    selectOneofMember(c, f);
    c.get(REC);
    push();
    c.store(kind, off);
  });
  markPresent(c, f);
}

/** A packed run of a repeated numeric field (parse_packed): borrowed when aligned and first, else copied or decoded. */
function packedCase(c: Code, h: Helpers, f: FieldModel, next: Target, out: Target): void {
  const off = f.offset;
  const width = valueSize(f.type);
  lengthAt(c, h, out);
  c.get(P).set(Q); // the run: [Q, P)
  c.get(P).get(LEN).op("i32.add").set(P);
  c.get(LEN).op("i32.eqz").br_if(next);
  const tooMany = () => failIf(c, h, Err.TooManyElements, () => c.get(Q), () => c.globalGet(h.limits).load("i32", LIMITS_MAX_ELEMENTS), out);
  if (wireType(f.type) !== Wire.Varint) {
    const shift = width === 8 ? 3 : 2;
    c.get(LEN).i32(width - 1).op("i32.and");
    failIf(c, h, Err.PackedLength, () => c.get(Q), f.number, out);
    c.get(LEN).i32(shift).op("i32.shr_u").set(LEN); // now the count
    c.get(LEN).globalGet(h.limits).load("i32", LIMITS_MAX_ELEMENTS).get(REC).load("i32", off + ARRAY_SIZE).op("i32.sub", "i32.gt_u");
    tooMany();
    // an aligned first run is used in place (capacity 0: borrowed)
    c.get(REC).load("i32", off + ARRAY_SIZE).op("i32.eqz").get(Q).i32(width - 1).op("i32.and", "i32.eqz", "i32.and");
    c.if_();
    c.get(REC).get(Q).store("i32", off + ARRAY_DATA).get(REC).get(LEN).store("i32", off + ARRAY_SIZE).get(REC).i32(0).store("i32", off + ARRAY_CAPACITY);
    c.br(next);
    c.end();
    c.get(REC).i32(off).op("i32.add").get(LEN).i32(width).get(Q).call(h.grow).tee(DST).op("i32.eqz").br_if(out);
    c.get(DST).get(Q).get(LEN).i32(shift).op("i32.shl").memoryCopy();
    return;
  }
  // varints: the run must end on a terminator; count, make room, decode
  c.get(P).i32(-1).op("i32.add").load("i32_8u").i32(0x80).op("i32.and");
  failIf(c, h, Err.Truncated, () => c.get(P), 0, out);
  c.get(Q).get(P).call(h.countVarints).tee(LEN);
  c.globalGet(h.limits).load("i32", LIMITS_MAX_ELEMENTS).get(REC).load("i32", off + ARRAY_SIZE).op("i32.sub", "i32.gt_u");
  tooMany();
  c.get(REC).i32(off).op("i32.add").get(LEN).i32(width).get(Q).call(h.grow).tee(DST).op("i32.eqz").br_if(out);
  if (!isClosedEnum(f)) {
    c.get(Q).get(P).get(DST).i32(packedStore(f.type)).call(h.packedVarints).op("i32.eqz").br_if(out);
    return;
  }
  // a closed enum: a value outside it goes to the unknown fields, re-encoded, and the array ends up shorter
  c.i32(0).set(MISSES);
  const values = c.block();
  const value = c.loop();
  c.get(Q).get(P).op("i32.ge_u").br_if(values);
  c.get(Q).set(SUB); // where the value starts
  varintAt(c, h, out, Q, P); // overlong at the value (the run ends on a terminator, so never truncated)
  outsideClosedEnum(c, f);
  c.if_();
  c.get(REC).i32(f.number).get(V).get(SUB).call(h.unknownEnum).op("i32.eqz").br_if(out);
  c.get(MISSES).i32(1).op("i32.add").set(MISSES);
  c.br(value);
  c.end();
  c.get(DST);
  convertVarint(c, f.type);
  c.store(varintStore(f.type));
  c.get(DST).i32(width).op("i32.add").set(DST);
  c.br(value).end().end();
  c.get(REC).get(REC).load("i32", off + ARRAY_SIZE).get(MISSES).op("i32.sub").store("i32", off + ARRAY_SIZE);
}

/**
 * parse_message for one message: (p, end, rec, depth, group) -> 1, where it stopped (end, or past
 * the group's end tag) in the global `after`; or 0 with the Status set (or the fallback flag). Fields dispatch on their number (one br_table, or compares for sparse numbers),
 * then check the wire type; a field's failure adds its frame (message, number, element) to the path.
 */
function parseMessage(msg: MessageModel, h: Helpers, parse: Map<MessageModel, number>, items: Map<MessageModel, number>, index: Map<MessageModel, number>): Code {
  const c = new Code();
  const mi = index.get(msg)!;
  const fields = [...msg.fields].sort((a, b) => a.number - b.number);
  const abort = c.block();
  const ended = c.block();
  const done = c.block();
  const next = c.loop();
  c.get(P).get(END).op("i32.ge_u").br_if(done);
  c.get(P).set(FIELD);
  readTag(c, h, abort);
  const unknown = c.block();
  const cases = fields.map(() => c.block()).reverse(); // cases[i] closes i-th: fields[i]'s code follows its end
  const maxNumber = fields.length ? fields[fields.length - 1]!.number : 0;
  if (maxNumber <= DENSE_LIMIT) {
    const table: Target[] = Array.from({ length: maxNumber + 1 }, () => unknown);
    fields.forEach((f, i) => (table[f.number] = cases[i]!));
    c.get(TAG).i32(3).op("i32.shr_u").br_table(table, unknown);
  } else {
    fields.forEach((f, i) => c.get(TAG).i32(3).op("i32.shr_u").i32(f.number).op("i32.eq").br_if(cases[i]!));
    c.br(unknown);
  }
  fields.forEach((f) => {
    c.end();
    const natural = (f.number << 3) | wireType(f.type);
    const packable = f.label === Label.Repeated && wireType(f.type) !== Wire.Len && f.type !== FieldType.Group;
    const failed = c.block();
    if (packable) {
      c.get(TAG).i32((f.number << 3) | Wire.Len).op("i32.eq");
      c.if_();
      c.get(REC).load("i32", f.offset + ARRAY_SIZE).set(ELEM);
      packedCase(c, h, f, next, failed);
      c.br(next);
      c.end();
    }
    c.get(TAG).i32(natural).op("i32.ne").br_if(unknown);
    if (isArray(f)) c.get(REC).load("i32", f.offset + ARRAY_SIZE).set(ELEM);
    fieldCase(c, h, f, parse, index, next, failed);
    c.br(next);
    c.end(); // failed: the field's frame
    c.i32(mi).i32(f.number);
    if (isArray(f)) c.get(ELEM);
    else c.i32(-1);
    c.call(h.frame).br(abort);
  });
  c.end(); // unknown: unknown fields and wrong wire types, kept as they came
  unknownField(c, h, msg, items, ended, next, abort);
  c.get(REC).get(FIELD).get(P).call(h.addUnknown).op("i32.eqz").br_if(abort);
  c.br(next);
  c.end(); // next
  c.end(); // done: the input ran out, which a group must not
  c.get(GROUP);
  failIf(c, h, Err.UnterminatedGroup, () => c.get(P), () => c.get(GROUP), abort);
  c.end(); // ended
  const required = msg.fields.filter(isRequired);
  if (required.length > 0) {
    // check_required, but for the top-level message of a partial decode (depth counts down from maxDepth)
    const checked = c.block();
    c.get(DEPTH).globalGet(h.limits).load("i32", LIMITS_MAX_DEPTH).op("i32.eq").globalGet(h.limits).load("i32", LIMITS_ALLOW_PARTIAL).op("i32.and").br_if(checked);
    for (const f of required) {
      const [byte, mask] = presenceBit(f);
      c.get(REC).load("i32_8u", byte).i32(mask).op("i32.and", "i32.eqz");
      c.if_();
      c.i32(Err.MissingRequired).get(P).i32(f.number).call(h.fail);
      c.i32(mi).i32(f.number).i32(-1).call(h.frame);
      c.br(abort);
      c.end();
    }
    c.end();
  }
  c.get(P).globalSet(h.after);
  c.i32(1).op("return");
  c.end(); // abort
  c.i32(0);
  return c;
}

/**
 * What the decode loop does with a field it does not read: field number 0, wire types 6 and 7 and
 * end-group tags (but the one ending this message's group, which branches to `ended`) are errors
 * at the field; a message set's items are read (and go on at `next`); other values, groups
 * included, are skipped (P moved past them), their errors at the value.
 */
function unknownField(c: Code, h: Helpers, msg: MessageModel, items: Map<MessageModel, number>, ended: Target, next: Target, out: Target): void {
  const wt = () => c.get(TAG).i32(7).op("i32.and");
  const number = () => c.get(TAG).i32(3).op("i32.shr_u");
  c.get(TAG).i32(8).op("i32.lt_u");
  failIf(c, h, Err.InvalidFieldNumber, () => c.get(FIELD), 0, out);
  wt().i32(Wire.EndGroup).op("i32.eq");
  c.if_();
  number().get(GROUP).op("i32.eq").br_if(ended); // the group this message is ends here
  c.i32(Err.UnmatchedEndGroup).get(FIELD);
  number();
  c.call(h.fail).br(out);
  c.end();
  wt().i32(5).op("i32.gt_u");
  failIf(c, h, Err.InvalidWireType, () => c.get(FIELD), number, out);
  wt().i32(Wire.Group).op("i32.eq");
  c.if_();
  const item = items.get(msg);
  if (item !== undefined) {
    number().i32(1).op("i32.eq");
    c.if_();
    c.get(P).get(END).get(REC).get(DEPTH).get(FIELD).call(item).tee(P).op("i32.eqz").br_if(out);
    c.br(next);
    c.end();
  }
  c.get(P).get(END);
  number();
  c.get(DEPTH).call(h.skipGroup).tee(P).op("i32.eqz").br_if(out);
  c.else_();
  wt().op("i32.eqz");
  c.if_();
  varintAt(c, h, out);
  c.else_();
  wt().i32(Wire.Len).op("i32.eq");
  c.if_();
  lengthAt(c, h, out);
  c.get(P).get(LEN).op("i32.add").set(P);
  c.else_();
  // fixed64: 8 bytes, fixed32: 4
  c.i32(8).i32(4).get(TAG).i32(7).op("i32.and").i32(Wire.Fixed64).op("i32.eq", "select").set(LEN);
  c.get(END).get(P).op("i32.sub").get(LEN).op("i32.lt_s");
  failIf(c, h, Err.Truncated, () => c.get(P), 0, out);
  c.get(P).get(LEN).op("i32.add").set(P);
  c.end();
  c.end();
  c.end();
}

/** A tag at P into TAG: one and two bytes inline, up to five through the helper (read_tag); its errors branch to `out`. */
function readTag(c: Code, h: Helpers, out: Target): void {
  const done = c.block();
  shortForms(c, P, END, false, done);
  c.get(P).get(END).call(h.tag).set(V).tee(P).op("i32.eqz").br_if(out);
  c.get(V).op("i32.wrap_i64").set(TAG);
  c.end();
}
