// Plain objects of a message type made, copied and merged, as protobuf merges. Free functions, so
// that a program that calls none carries none of this (semantics.ts).
import { mergeMessages } from "./semantics.js";
import { typeAt, type SchemaDef } from "./schema.js";
import type { AnyMessageType, PartialMessage, PlainOf, ViewOf } from "./message.js";
import { isView } from "./viewmark.js";

type Plain = Record<string, unknown>;

/** Empty plain objects of a schema's messages, by index, through their message types. */
export const emptyOf = (def: SchemaDef) => (index: number): Plain => {
  const type = typeAt(def, index) as AnyMessageType | undefined;
  if (type === undefined) throw new Error(`hppproto: the message type ${def.messages[index]?.name} is not loaded`);
  return type.emptyPlain() as Plain;
};

/**
 * A plain object of the type with every implicit-presence field at its default and
 * explicit-presence fields absent (one with a declared default, proto2's `[default = …]`, reads it
 * from the object's prototype and is not set), with the fields `init` sets merged in.
 */
export function create<M extends AnyMessageType>(type: M, init?: PartialMessage<PlainOf<M>>): PlainOf<M> {
  const empty = type.emptyPlain() as Plain;
  return (init === undefined ? empty : mergeMessages(type.schemaDef, type.index, empty, init as Plain, emptyOf(type.schemaDef))) as PlainOf<M>;
}

/** A deep copy as a plain object (of a plain object or a view), unknown fields included. */
export function clone<M extends AnyMessageType>(type: M, message: PlainOf<M> | ViewOf<M>): PlainOf<M> {
  if (isView(message)) return type.plainOf(message) as PlainOf<M>; // read out fresh already
  return mergeMessages(type.schemaDef, type.index, type.emptyPlain() as Plain, type.plainOf(message), emptyOf(type.schemaDef)) as PlainOf<M>;
}

/**
 * Merges `source` into `target` in place, as protobuf merges (what decoding the target's bytes and
 * then the source's gives): set scalars replace, messages merge, repeated fields append, map
 * entries replace by key, oneof members replace, unknown fields append. Returns target.
 */
export function merge<M extends AnyMessageType>(type: M, target: PlainOf<M>, source: PartialMessage<PlainOf<M>> | ViewOf<M>): PlainOf<M> {
  return mergeMessages(type.schemaDef, type.index, target as Plain, type.plainOf(source), emptyOf(type.schemaDef)) as PlainOf<M>;
}
