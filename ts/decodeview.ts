// view(): a zero-copy view of a message's bytes. A free function of the message's schema and view
// class, so that a program calling only a generated viewX() carries neither its message type nor
// plain-object readers, encoders or ProtoJSON.
import { alignmentShift } from "./align.js";
import type { Arena } from "./arena.js";
import { bytesOf, lengthOf, type BinaryInput } from "./input.js";
import { runtime } from "./runtime.js";
import { scratchArenas } from "./scratch.js";
import type { SchemaDef } from "./schema.js";
import type { ViewClass } from "./view.js";

/** A message's view() as a function of its own (generated code's viewX): V its views. */
export type DecodeView<V> = (input: BinaryInput, arena?: Arena) => V;

/** @internal a view of message `index` of `def` in input; see MessageType.view */
export function decodeView<V>(def: SchemaDef, index: number, viewClass: ViewClass<V>, input: BinaryInput, arena?: Arena): V {
  const bytes = bytesOf(input, def.messages[index]!.name, "view");
  const rt = runtime();
  const handle = rt.schema(def);
  if (arena === undefined) {
    arena = scratchArenas(rt).views;
    arena.generation++; // the call resets the arena, even when it then fails
    const size = lengthOf(bytes); // before stage(): see there
    const staged = rt.stage(bytes, size, alignmentShift(bytes), true);
    return new viewClass(arena, rt.decode(handle, index, arena.ptr, staged, size, true, def));
  }
  const own = arena;
  const rec = own.decodeInto(bytes, (staged, size) => rt.decode(handle, index, own.ptr, staged, size, false, def), alignmentShift(bytes));
  return new viewClass(own, rec);
}

/** What generated code's viewX is: decodeView() of one message (generated code's, not an API). */
export function viewFunction<V>(def: SchemaDef, index: number, viewClass: ViewClass<V>): DecodeView<V> {
  return (input, arena) => decodeView(def, index, viewClass, input, arena);
}
