// Interpreted message types with ProtoJSON: a module of its own, so that CODE_SIZE code generated
// without the json facade carries no JSON code.
import { JsonMessageType } from "../json/type.js";
import type { MessageParts } from "../message.js";
import type { Int64Forms } from "../int64.js";
import type { SchemaDef } from "../schema.js";
import { interpretedParts } from "./index.js";

/** Called by generated code (CODE_SIZE): message `index` of a schema, with ProtoJSON. */
export function interpretedJsonType<T, V, B extends V, F extends Int64Forms<unknown, unknown, unknown>>(def: SchemaDef, index: number): JsonMessageType<T, V, B, F> {
  return new JsonMessageType(def, index, interpretedParts<T, V, B>(def, index) as MessageParts<T, V, B>);
}
