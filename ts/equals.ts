// Protobuf equality of two messages of a type. A free function, so that a program that compares
// none carries none of this (semantics.ts).
import { messagesEqual } from "./semantics.js";
import type { AnyMessageType, PlainOf, ViewOf } from "./message.js";

/**
 * Protobuf equality, as protobuf-es's equals(): fields compare when set (a field set in one only
 * makes them unequal), floats as IEEE numbers (NaN unequal to itself, -0 equal to 0), map entries
 * by key whatever their order, unknown fields left out.
 */
export function equals<M extends AnyMessageType>(type: M, a: PlainOf<M> | ViewOf<M>, b: PlainOf<M> | ViewOf<M>): boolean {
  return messagesEqual(type.schemaDef, type.index, type.plainOf(a), type.plainOf(b));
}
