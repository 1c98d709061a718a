// Message types built at run time from .proto files, for tools that handle messages without
// generated code (hppproto-gen decode/encode). The schema is the one the code generator would
// embed; the facades are interpreted from it (ts/interpreted), as CODE_SIZE generated code's are.
import { defineSchema, type SchemaDef } from "../ts/schema.js";
import { interpretedJsonType } from "../ts/interpreted/json.js";
import type { JsonMessageType } from "../ts/json/type.js";
import type { MessageView } from "../ts/view.js";
import { describeFiles } from "./describe.js";
import { loadProtos } from "./load.js";
import { buildModel, schemaSource } from "./model.js";

type Plain = Record<string, unknown>;
/** A message type of a runtime schema: plain objects, views and builders typed loosely. */
export type DynamicType = JsonMessageType<Plain, MessageView & Plain, MessageView & Plain>;

export interface DynamicSchema {
  readonly schema: SchemaDef;
  /** Every message of the loaded files and their imports, by full name (map entries excluded). */
  readonly types: ReadonlyMap<string, DynamicType>;
}

/** Parses .proto files (as hppproto-gen does) and builds a message type for each of their messages. */
export function loadSchema(files: string[], protoPaths: string[] = []): DynamicSchema {
  const model = buildModel(describeFiles(loadProtos(files, protoPaths)));
  const schema = defineSchema(schemaSource(model).flat());
  const types = new Map<string, DynamicType>();
  for (const mm of model.messages) {
    if (!mm.isMapEntry) types.set(mm.fullName, interpretedJsonType(schema, mm.index));
  }
  return { schema, types };
}
