// decode(): a message's bytes as a plain object that owns all its data. A free function of the
// message's schema and generated reader, so that a program calling only a generated decodeX()
// carries neither its message type nor views, encoders or ProtoJSON.
import { alignmentShift } from "./align.js";
import { bytesOf, lengthOf, type BinaryInput } from "./input.js";
import type { Memory } from "./memory.js";
import { Arena } from "./arena.js";
import { runtime, UNBOUNDED, type Runtime } from "./runtime.js";
import { scratchArenas } from "./scratch.js";
import type { SchemaDef } from "./schema.js";

/** Builds a plain object from the record at ptr. */
export type Materializer<T> = (m: Memory, ptr: number, rt: Runtime) => T;

/**
 * A message's decode() as a function of its own (generated code's decodeX): T its plain objects.
 * It takes no `int64` option (the code converting them would come with every such program): the
 * message type's decode() does.
 */
export type Decode<T> = (input: BinaryInput) => T;

/** @internal message `index` of `def` decoded from input and read out by `read`; see MessageType.decode */
export function decodePlain<T>(def: SchemaDef, index: number, read: Materializer<T>, input: BinaryInput): T {
  const rt = runtime();
  if (rt.plainBudget !== UNBOUNDED) return nestedDecode(rt, def, index, read, input);
  return rt.readPlain(read, scratchRecord(rt, def, index, input, "decode"), rt.stagedSize);
}

/**
 * A decode started while another one's records are being read out (by a setter on
 * Object.prototype that a property of the plain objects reached): its input and records in an
 * arena of its own, as the scratch arena and staging buffer hold the outer one's, and the outer
 * read-out's budget kept (found by review: the inner decode overwrote the outer's records).
 */
function nestedDecode<T>(rt: Runtime, def: SchemaDef, index: number, read: Materializer<T>, input: BinaryInput): T {
  const bytes = bytesOf(input, def.messages[index]!.name, "decode");
  const handle = rt.schema(def);
  const arena = new Arena();
  const outer = rt.plainBudget;
  try {
    let size = 0;
    const rec = arena.decodeInto(bytes, (ptr, n) => rt.decode(handle, index, arena.ptr, ptr, (size = n), false, def), alignmentShift(bytes));
    rt.readOut(size);
    return read(rt.mem, rec, rt);
  } finally {
    rt.plainBudget = outer;
    arena.release();
  }
}

/** @internal The input decoded into decode()'s scratch arena (emptied first), to be read out at once. */
export function scratchRecord(rt: Runtime, def: SchemaDef, index: number, input: BinaryInput, method: string): number {
  const bytes = bytesOf(input, def.messages[index]!.name, method);
  const handle = rt.schema(def);
  const arena = scratchArenas(rt).plain;
  arena.generation++;
  const size = lengthOf(bytes); // before stage(): see there
  return rt.decode(handle, index, arena.ptr, rt.stage(bytes, size, alignmentShift(bytes), false), size, true, def);
}

/** What generated code's decodeX is: decodePlain() of one message (generated code's, not an API). */
export function decodeFunction<T>(def: SchemaDef, index: number, read: Materializer<T>): Decode<T> {
  return (input) => decodePlain(def, index, read, input);
}
