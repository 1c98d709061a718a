// Decoders compiled for one generation run's messages (codegen/wasm/decoder.ts): a small WASM module
// that hppproto-gen writes into the run's schema module (base64) and the runtime instantiates
// against the codec's memory and its arenas. Each decodes, or fails with the codec's error, building
// the records the codec builds (test/compiled.test.ts).
import type { SchemaDef } from "./schema.js";

/** What a compiled module imports, by these names. */
export const COMPILED_IMPORTS = {
  module: "hppproto", memory: "memory", limits: "limits", status: "status",
  arenaReset: "arena_reset", arenaReserved: "arena_reserved", arenaGrow: "arena_grow", arenaRewind: "arena_rewind",
} as const;

/** The module's global holding layoutHash() of the records it writes. */
export const LAYOUT_EXPORT = "layout";

/**
 * A hash of every record's layout (sizes, slot offsets, presence): the generator bakes it into the
 * module, and the runtime compares it with the layout it made of the same schema, so a module
 * generated for another layout (a runtime upgraded without regenerating) is left unused, never
 * written through.
 */
export function layoutHash(messages: readonly { recordSize: number; fields: readonly { offset: number; presence: number }[] }[]): number {
  let h = 0x811c9dc5;
  const mix = (v: number) => (h = Math.imul(h ^ v, 0x01000193));
  for (const m of messages) {
    mix(m.recordSize);
    for (const f of m.fields) {
      mix(f.offset);
      mix(f.presence);
    }
  }
  return h | 0;
}

/** One message's decoder: (arena, data, size, reset) -> its record, 1 for an error (the codec's Status set), or 0 for the codec. */
export type CompiledDecoder = (arena: number, data: number, size: number, reset: number) => number;

/** A length-delimited run's decoder: (arena, data, size, reset, out) -> 2 (the array slot out holds the records), 1 for an error, or 0 for the codec. */
export type DelimitedDecoder = (arena: number, data: number, size: number, reset: number, out: number) => number;

/** A schema's decoders by message index (messages of files generated for CODE_SIZE have none), and those of delimited runs. */
export interface Decoders extends ReadonlyArray<CompiledDecoder | undefined> {
  readonly delimited: readonly (DelimitedDecoder | undefined)[];
}

/** What the runtime gives a compiled module. */
export interface CompiledHost {
  memory: WebAssembly.Memory;
  limits: number;
  status: number;
  arenaReset: (arena: number) => void;
  /** The bytes an arena holds. */
  arenaReserved: (arena: number) => number;
  /** (arena, size, reserved at the decode's start, input size, offset) -> the next block's allocation, or 0 with the Status set. */
  arenaGrow: (arena: number, size: number, reserved: number, inputSize: number, at: number) => number;
  /** (arena, head, cur): everything allocated since dropped. */
  arenaRewind: (arena: number, head: number, cur: number) => void;
}

/** Schemas with a compiled module, defined before the runtime started: init() instantiates them. */
const waiting = new Set<SchemaDef>();

export function awaitInstantiation(def: SchemaDef): void {
  waiting.add(def);
}

/** What a compiled module is instantiated with. */
export function compiledImports(host: CompiledHost): WebAssembly.Imports {
  const names = COMPILED_IMPORTS;
  const address = (value: number) => new WebAssembly.Global({ value: "i32" }, value);
  return {
    [names.module]: {
      [names.memory]: host.memory, [names.limits]: address(host.limits), [names.status]: address(host.status),
      [names.arenaReset]: host.arenaReset, [names.arenaReserved]: host.arenaReserved, [names.arenaGrow]: host.arenaGrow, [names.arenaRewind]: host.arenaRewind,
    },
  };
}

/** The instance's decoders by message index; none when it was compiled for other record layouts. */
function decoders(instance: WebAssembly.Instance, def: SchemaDef): Decoders {
  const exports = instance.exports as Record<string, CompiledDecoder & DelimitedDecoder> & Record<typeof LAYOUT_EXPORT, WebAssembly.Global | undefined>;
  if (exports[LAYOUT_EXPORT]?.value !== layoutHash(def.messages)) return Object.assign([], { delimited: [] });
  return Object.assign(def.messages.map((_, i) => exports[i]), { delimited: def.messages.map((_, i) => exports[`d${i}`]) });
}

function bytesOf(base64: string): Uint8Array<ArrayBuffer> {
  const chars = atob(base64);
  const out = new Uint8Array(chars.length);
  for (let i = 0; i < chars.length; i++) out[i] = chars.charCodeAt(i);
  return out;
}

/**
 * def's decoders, instantiated synchronously where the engine allows it; undefined if def has no
 * compiled module. Browsers refuse to compile modules over 4 KB synchronously on their main
 * thread: there the module is instantiated in the background and `ready` receives its decoders,
 * while decodes until then use the codec.
 */
export function instantiateCompiled(def: SchemaDef, host: CompiledHost, ready: (d: Decoders) => void): Decoders | undefined {
  if (def.compiled === undefined) return undefined;
  waiting.delete(def);
  const bytes = bytesOf(def.compiled);
  try {
    return decoders(new WebAssembly.Instance(new WebAssembly.Module(bytes), compiledImports(host)), def);
  } catch (e) {
    if (!(e instanceof RangeError)) throw e;
  }
  void WebAssembly.instantiate(bytes, compiledImports(host)).then(({ instance }) => ready(decoders(instance, def)));
  return undefined;
}

/** Every waiting schema's decoders, instantiated in the background (init()'s last step). */
export async function instantiateWaiting(host: CompiledHost, ready: (def: SchemaDef, d: Decoders) => void): Promise<void> {
  const defs = [...waiting];
  waiting.clear();
  await Promise.all(defs.map(async (def) => {
    const { instance } = await WebAssembly.instantiate(bytesOf(def.compiled!), compiledImports(host));
    ready(def, decoders(instance, def));
  }));
}
