// What a compiled decoder module (codegen/wasm/decoder.ts) and the runtime that instantiates it
// (ts/compiled.ts) agree on: the names it imports and exports, how its path frames name messages,
// and the layout hash it carries. Kept apart from compiled.ts, which ships the core module the
// generator builds.

/** What a compiled module imports, by these names. */
export const COMPILED_IMPORTS = {
  module: "hppproto", memory: "memory", limits: "limits", status: "status", moduleId: "module",
  arenaReset: "arena_reset", arenaReserved: "arena_reserved", arenaGrow: "arena_grow", arenaRewind: "arena_rewind",
} as const;

/** The decode's state, mutable globals every compiled module imports from the host (one set per host). */
export const DECODER_STATE = ["cur", "end", "arena", "input_size", "reserved", "grew", "after", "base", "fallback"] as const;

/**
 * A compiled module's path frames carry its number among its host's modules (from 1) in the
 * message word's bits from this one up, with the message's index in its own schema below: a
 * decode runs through the modules of the files its messages come from. The codec's frames carry 0
 * there (the decode's own schema).
 */
export const FRAME_MODULE_SHIFT = 20;

/** The core module (the helpers) among a compiled module's imports. */
export const CORE_IMPORT = "core";

/** A linked file's module is imported as this and its index among the schema's links. */
export const LINK_PREFIX = "link";

/** A module exports the parse function of its message `i` as this and i (for the modules linking to it). */
export const PARSE_EXPORT = "p";

/** A module exports the decoder of a length-delimited run of its message `i` as this and i (the one-message decoder as i alone). */
export const DELIMITED_EXPORT = "d";

/** The module's global holding layoutHash() of the records it writes. */
export const LAYOUT_EXPORT = "layout";

/** Changed whenever what compiled modules import or bake in changes meaning: modules of another version then go unused. */
const COMPILED_ABI = 4;

/** What layoutHash reads of a field (a generator's FieldModel or a schema's FieldInfo). */
interface HashedField {
  readonly number: number;
  readonly type: number;
  readonly label: number;
  readonly flags: number;
  readonly offset: number;
  readonly presence: number;
}

/**
 * A hash of everything a compiled module bakes into its code for the messages of its schema, its
 * own and the linked ones: each record's layout (size, slot offsets, presence), each field's
 * number, type, label and flags, the values of each closed enum a field checks, and the modules'
 * ABI. The generator puts it in the module; the runtime compares it with the one of the schema it
 * made, so that a module generated for something else (a runtime upgraded without regenerating, a
 * file regenerated after changes to one it imports) is left unused, never written through.
 */
export function layoutHash<F extends HashedField>(
  messages: readonly { readonly recordSize: number; readonly fields: readonly F[] }[],
  closedValues: (f: F) => readonly number[] | undefined,
): number {
  let h = 0x811c9dc5;
  const mix = (v: number) => (h = Math.imul(h ^ v, 0x01000193));
  mix(COMPILED_ABI);
  for (const m of messages) {
    mix(m.recordSize);
    mix(m.fields.length);
    for (const f of m.fields) {
      mix(f.offset);
      mix(f.presence);
      mix(f.number);
      mix(f.type | (f.label << 8) | (f.flags << 16));
      const closed = closedValues(f);
      if (closed !== undefined) {
        mix(closed.length);
        for (const v of closed) mix(v);
      }
    }
  }
  return h | 0;
}
