// Message types at run time from .proto sources held in memory (fetched, bundled as text, typed
// by a user): parsed as hppproto-gen parses files, without a file system, so this works in
// browsers as in Node.
import { describeFiles } from "./describe.js";
import { schemaFromDescriptors, type DynamicSchema } from "./descriptorset.js";
import { at, ProtoLoadError } from "./located.js";
import { parseProtos } from "./parse.js";
import { excerpt } from "../ts/excerpt.js";

/**
 * Parses .proto sources, each under its import name (`{ "shop/order.proto": "syntax = ..." }`),
 * and builds a message type for each message of `files` (default: every source) and what they
 * import. Imports are looked up among the sources; protobufjs's built-in well-known types (any,
 * duration, empty, field_mask, struct, timestamp, wrappers) need no source, others (descriptor.proto
 * for custom options) must be given. Errors are `name:line:col: message`.
 */
export function schemaFromSources(sources: Readonly<Record<string, string>>, files: readonly string[] = Object.keys(sources)): DynamicSchema {
  for (const f of files) if (!Object.hasOwn(sources, f)) throw new ProtoLoadError(`${excerpt(f)}: not among the sources`);
  const loaded = parseProtos(files, {
    resolve(target, origin) {
      if (Object.hasOwn(sources, target)) return target;
      throw at(origin, `"${target}"`, `import "${excerpt(target)}" is not among the sources`);
    },
    read: (file) => sources[file]!,
    importName: (file) => file,
  });
  return schemaFromDescriptors(describeFiles(loaded));
}
