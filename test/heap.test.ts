// Decoders compiled for a schema running without the codec (ts/heap.ts): the arenas, memory and
// Limits/Status structs in JS make the same records (compared field by field: addresses differ
// between the two memories), the same errors and the same arena sizes as the codec's, on random
// and damaged input, with arenas of small blocks and under a memory budget.
import { beforeAll, describe, expect, it } from "vitest";
import { getLimits, init, setLimits } from "hppproto";
import { runtime, type Runtime } from "../dist/ts/runtime.js";
import type { CompiledDecoder, CompiledHost } from "../dist/ts/compiled.js";
import { Heap } from "../dist/ts/heap.js";
import { LIMITS_MAX_AMPLIFICATION, STATUS_MAX_PATH } from "../dist/ts/abi.js";
import type { SchemaDef } from "../dist/ts/schema.js";
import { genDir } from "./support/paths.js";
import { compiledDecoders, fileSchemas, hostOf, mutate, randomInput, recordValue, statusWords } from "./support/wirecheck.mjs";
import { randomSource } from "../fuzz/random.mjs";

let rt: Runtime;

beforeAll(async () => {
  await init();
  rt = runtime();
});

const decodersIn = (def: SchemaDef, host: CompiledHost) => compiledDecoders(rt, def, host) as (CompiledDecoder | undefined)[];

/** A decode in one memory: the record as a value, or the Status's words; and what the arena holds. */
function decodeIn(
  def: SchemaDef, host: CompiledHost, memory: WebAssembly.Memory, status: number,
  calls: { malloc(n: number): number; arenaNew(limit: number, first: number): number; reserved(a: number): number },
  index: number, bytes: Uint8Array, firstBlock: number,
) {
  const input = calls.malloc(bytes.length + 1);
  new Uint8Array(memory.buffer).set(bytes, input);
  const arena = calls.arenaNew(0xffffffff, firstBlock);
  const rec = decodersIn(def, host)[index]!(arena, input, bytes.length, 0) >>> 0;
  const words = new Uint32Array(memory.buffer, status, 5 + 3 * STATUS_MAX_PATH);
  // (path frames name their messages in the schema of the module that pushed them, by its number: the hosts number theirs apart)
  const outcome = rec > 1 ? { value: recordValue(def, memory, index, rec) } : rec === 1 ? { error: statusWords(words, host, def) } : { fallback: true };
  return { ...outcome, reserved: calls.reserved(arena) };
}

describe.each(["conformance", "unittest"])("%s: compiled decoders on the JS heap against them on the codec", (set) => {
  it("same records, errors and arena sizes, with first blocks of 8 bytes to 64 KiB", async () => {
    const x = rt.exports;
    const heap = new Heap();
    const heapHost = hostOf({ exports: heap.exports() });
    const codec = { malloc: (n: number) => rt.malloc(n), arenaNew: (l: number, f: number) => x.hp_arena_new(l, f) >>> 0, reserved: (a: number) => x.hp_arena_reserved(a) >>> 0 };
    const js = { malloc: (n: number) => heap.malloc(n), arenaNew: (l: number, f: number) => heap.arenaNew(l, f), reserved: (a: number) => heapHost.arenaReserved(a) };
    const r = randomSource(set.length);
    const counts = { value: 0, error: 0 };
    for (const def of (await fileSchemas(`${genDir}/${set}`)) as SchemaDef[]) {
      if (def.compiled === undefined) continue;
      const onCodec = decodersIn(def, hostOf(rt));
      def.messages.forEach((_, i) => {
        if (onCodec[i] === undefined) return;
        for (let n = 0; n < 12; n++) {
          let bytes = randomInput(def, i, r);
          if (n % 3 === 2) bytes = mutate(bytes, r);
          const firstBlock = [8, 64, 1024, 65536][n % 4]!;
          const a = decodeIn(def, hostOf(rt), x.memory, x.hp_status(), codec, i, bytes, firstBlock);
          const b = decodeIn(def, heapHost, heap.memory, heap.status, js, i, bytes, firstBlock);
          expect(b, `${def.messages[i]!.name} ${Buffer.from(bytes).toString("hex")}`).toEqual(a);
          counts["value" in a ? "value" : "error"]++;
        }
      });
    }
    expect(counts.value).toBeGreaterThan(500);
    expect(counts.error).toBeGreaterThan(100);
  });

  it("a memory budget refused the same way", async () => {
    if (set !== "conformance") return;
    const { TestAllTypesProto3 } = await import(`${genDir}/conformance/google/protobuf/test_messages_proto3_pb.ts`);
    const { schemaDef: def, index } = TestAllTypesProto3 as { schemaDef: SchemaDef; index: number };
    const x = rt.exports;
    const heap = new Heap();
    const heapHost = hostOf({ exports: heap.exports() });
    const entries = new Uint8Array(180_000);
    for (let i = 0; i < 60_000; i++) entries.set([0x82, 0x03, 0x00], i * 3); // 60,000 empty repeated_nested_message
    const before = getLimits();
    try {
      setLimits({ maxAmplification: 2 });
      new Uint32Array(heap.memory.buffer)[(heap.limits + LIMITS_MAX_AMPLIFICATION) >>> 2] = 2;
      const a = decodeIn(def, hostOf(rt), x.memory, x.hp_status(), { malloc: (n) => rt.malloc(n), arenaNew: (l, f) => x.hp_arena_new(l, f) >>> 0, reserved: (p) => x.hp_arena_reserved(p) >>> 0 }, index, entries, 4096);
      const b = decodeIn(def, heapHost, heap.memory, heap.status, { malloc: (n) => heap.malloc(n), arenaNew: (l, f) => heap.arenaNew(l, f), reserved: (p) => heapHost.arenaReserved(p) }, index, entries, 4096);
      expect(a.error?.[0]).toBe(17); // MEMORY_BUDGET
      expect(b).toEqual(a);
    } finally {
      setLimits(before);
    }
  });
});
