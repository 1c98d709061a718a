// Decoders compiled from the schema (codegen/wasm/decoder.ts, issue 39's prototype): on the same
// input they leave the arena byte-identical to the table-driven decoder's (records, arrays, string
// slots, pointers), or return 0, the fallback to the table-driven decoder, leaving the arena as it was.
import { beforeAll, describe, expect, it } from "vitest";
import { init } from "hppproto";
import { runtime, type Exports, type Runtime } from "../dist/ts/runtime.js";
import { loadProtos, parsedName } from "../dist/codegen/load.js";
import { describeFiles } from "../dist/codegen/describe.js";
import { buildModel, schemaSource, type MessageModel, type SchemaModel } from "../dist/codegen/model.js";
import { concatBytes } from "../dist/ts/copy.js";
import { defineSchema, FieldType, type SchemaDef } from "../dist/ts/schema.js";
import { compileDecoders } from "../dist/codegen/wasm/decoder.js";
import { encodeWithProtobufjs, randomObject, rng, type Loaded } from "./support/protos.js";
import { conformanceProtos, genDir, protos, repoRoot } from "./support/paths.js";
import { compiledDecoders, decoderChecker, mutate, randomInput } from "./support/wirecheck.mjs";
import { randomSource } from "../fuzz/random.mjs";

let rt: Runtime;
let x: Exports;
let arena: number;
let input: number;
const INPUT_SIZE = 1 << 16;

beforeAll(async () => {
  await init();
  rt = runtime();
  x = rt.exports;
  arena = x.hp_arena_new(0xffffffff, 1 << 20);
  x.hp_arena_alloc(arena, 8); // its first block, 1 MiB (a decode's would be only what its budget allows)
  input = rt.malloc(INPUT_SIZE + 8);
});

const u32 = () => new Uint32Array(x.memory.buffer);
const u8 = () => new Uint8Array(x.memory.buffer);

interface Compiled {
  loaded: Loaded;
  model: SchemaModel;
  schema: number;
  decode: (typeName: string) => (arena: number, data: number, size: number) => number;
  bytes: Uint8Array;
}

function compile(dir: string, files: string[]): Compiled {
  const parsed = loadProtos(files.map((f) => `${dir}/${f}`), [dir]);
  const model = buildModel(describeFiles(parsed));
  const loaded: Loaded = { root: parsed.root, pbType: (n) => parsed.root.lookupType(parsedName(n)), models: new Map(model.messages.map((m) => [m.fullName, m])), types: new Map() };
  const bytes = compileDecoders(model.messages);
  expect(WebAssembly.validate(bytes)).toBe(true);
  const exports = new WebAssembly.Instance(new WebAssembly.Module(bytes), {
    hppproto: { memory: x.memory, limits: new WebAssembly.Global({ value: "i32" }, x.hp_limits()), arena_reset: x.hp_arena_reset },
  }).exports as Record<string, (arena: number, data: number, size: number, reset: number) => number>;
  const decode = (name: string) => {
    const f = exports[model.messages.findIndex((m) => m.fullName === name)]!;
    return (arena: number, data: number, size: number) => f(arena, data, size, 0);
  };
  return { loaded, model, schema: rt.schema(defineSchema(schemaSource(model).flat())), decode, bytes };
}

/** The arena's block, filled with 0xa5 and emptied. */
function freshBlock(): number {
  const start = u32()[(arena + 8) >>> 2]! + 8;
  u8().fill(0xa5, start, start + 65536);
  u32()[arena >>> 2] = start;
  return start;
}

interface Outcome {
  rec: number;
  /** The arena from its block's start to its cursor after the decode. */
  arena: Uint8Array;
}

/** Both decoders on `bytes` staged `shift` bytes past an 8-byte boundary. */
function both(c: Compiled, typeName: string, bytes: Uint8Array, shift = 0): { generic: Outcome; compiled: Outcome } {
  const index = c.model.messages.findIndex((m) => m.fullName === typeName);
  u8().set(bytes, input + shift);
  const run = (decode: () => number): Outcome => {
    const start = freshBlock();
    const rec = decode() >>> 0;
    return { rec, arena: u8().slice(start, u32()[arena >>> 2]) };
  };
  const generic = run(() => x.hp_decode(c.schema, index, arena, input + shift, bytes.length, 0));
  const compiled = run(() => c.decode(typeName)(arena, input + shift, bytes.length));
  return { generic, compiled };
}

/** The compiled decoder built what the generic one did, or fell back leaving the arena untouched. */
function expectSameOrFallback(c: Compiled, typeName: string, bytes: Uint8Array, shift = 0): boolean {
  const { generic, compiled } = both(c, typeName, bytes, shift);
  if (compiled.rec === 0) {
    expect(compiled.arena.length).toBe(0);
    return false;
  }
  expect(generic.rec).not.toBe(0);
  expect(compiled.rec).toBe(generic.rec);
  expect(Buffer.from(compiled.arena).equals(Buffer.from(generic.arena))).toBe(true);
  return true;
}

const concat = (...parts: Uint8Array[]) => concatBytes(parts);

describe.each([
  ["bench.tick.Tick", `${repoRoot}bench/protos`, ["tick.proto"]],
  ["benchmarks.proto3.GoogleMessage1", protos, ["benchmark_messages_proto3.proto"]],
])("%s", (typeName, dir, files) => {
  let c: Compiled;
  beforeAll(() => {
    c = compile(dir, files);
  });

  it("random messages, alone and merged two by two, at every alignment: identical records, never a fallback", () => {
    const r = rng(typeName.length);
    const model = c.loaded.models.get(typeName)!;
    let previous = new Uint8Array(0);
    for (let i = 0; i < 300; i++) {
      const bytes = encodeWithProtobufjs(c.loaded, typeName, randomObject(c.loaded, model, r));
      expect(expectSameOrFallback(c, typeName, bytes, i % 8)).toBe(true);
      // a message's bytes twice: sub-messages merge, arrays grow past their first storage (or a borrowed run)
      expect(expectSameOrFallback(c, typeName, concat(previous, bytes), (i + 3) % 8)).toBe(true);
      previous = bytes;
    }
  });

  it("damaged input (truncated, bytes changed): identical records, or a fallback that leaves the arena as it was", () => {
    const r = rng(7 + typeName.length);
    const model = c.loaded.models.get(typeName)!;
    let decoded = 0;
    let fellBack = 0;
    for (let i = 0; i < 400; i++) {
      const bytes = encodeWithProtobufjs(c.loaded, typeName, randomObject(c.loaded, model, r));
      const damaged = i % 2 === 0 ? bytes.subarray(0, Math.floor(r() * bytes.length)) : bytes.slice();
      if (i % 2 === 1) for (let k = 0; k < 3; k++) damaged[Math.floor(r() * damaged.length)] = Math.floor(r() * 256);
      if (expectSameOrFallback(c, typeName, damaged)) decoded++;
      else fellBack++;
    }
    expect(decoded).toBeGreaterThan(0);
    expect(fellBack).toBeGreaterThan(0);
  });
});

describe("fallback", () => {
  let tick: Compiled;
  beforeAll(() => {
    tick = compile(`${repoRoot}bench/protos`, ["tick.proto"]);
  });
  const level = Uint8Array.from([0x09, 0, 0, 0, 0, 0, 0, 0xf0, 0x3f, 0x10, 0x05]); // price 1.0, quantity 5
  const threeBids = concat(...[0, 1, 2].map(() => concat(Uint8Array.from([0x32, level.length]), level)));

  it("unknown fields and wire types a field cannot have are kept as the codec keeps them, adjacent ones as one range", () => {
    for (const bytes of [
      Uint8Array.from([0x08, 0x01]), // field 1 as a varint: a string field's wrong wire type (kept as unknown)
      Uint8Array.from([0x40, 0x01]), // field 8: unknown
      Uint8Array.from([0x40, 0x01, 0x49, 1, 2, 3, 4, 5, 6, 7, 8, 0x55, 1, 2, 3, 4, 0x5a, 0x01, 0x00]), // four in a row: one range
      concat(Uint8Array.from([0x40, 0x01]), threeBids, Uint8Array.from([0x40, 0x02])), // two ranges
    ]) {
      expect(expectSameOrFallback(tick, "bench.tick.Tick", bytes)).toBe(true);
    }
  });

  it("invalid UTF-8, field number 0, groups, truncated unknown fields: the generic decoder decides", () => {
    for (const bytes of [
      Uint8Array.from([0x0a, 0x02, 0xc3, 0x28]), // symbol: invalid UTF-8
      Uint8Array.from([0x00, 0x01]), // field 0
      Uint8Array.from([0x43, 0x44]), // an empty group, field 8
      Uint8Array.from([0x44]), // an end-group tag alone
      Uint8Array.from([0x49, 1, 2, 3]), // fixed64 cut short
      Uint8Array.from([0x42, 0x05, 1]), // a length past the end
      Uint8Array.from([0x46]), // wire type 6
    ]) {
      const { generic, compiled } = both(tick, "bench.tick.Tick", bytes);
      expect(compiled.rec).toBe(0);
      expect(compiled.arena.length).toBe(0);
      expect(generic.rec !== 0).toBe(bytes[0] === 0x43); // only the group decodes
    }
  });

  it("the runtime's limits: more elements or deeper nesting than allowed, input larger than allowed", () => {
    const before = rt.limits;
    try {
      expect(expectSameOrFallback(tick, "bench.tick.Tick", threeBids)).toBe(true);
      rt.setLimits({ maxElements: 2 });
      expect(both(tick, "bench.tick.Tick", threeBids).compiled.rec).toBe(0);
      rt.setLimits({ maxElements: before.maxElements, maxDepth: 1 });
      expect(expectSameOrFallback(tick, "bench.tick.Tick", threeBids)).toBe(true); // a Level is at depth 1
      const gm1 = compile(protos, ["benchmark_messages_proto3.proto"]);
      const sub = Uint8Array.from([0x7a, 0x02, 0x08, 0x01]); // field15 { field1: 1 }
      expect(expectSameOrFallback(gm1, "benchmarks.proto3.GoogleMessage1", sub)).toBe(true);
      rt.setLimits({ maxDepth: 1, maxMessageSize: threeBids.length - 1 });
      expect(both(tick, "bench.tick.Tick", threeBids).compiled.rec).toBe(0);
    } finally {
      rt.setLimits(before);
    }
  });
});

/** Drops group fields from a random object at every level, map values included: they are the generic decoder's. */
function withoutGroups(loaded: Loaded, m: MessageModel, obj: Record<string, unknown>): void {
  const type = loaded.pbType(m.fullName);
  for (const f of m.fields) {
    const name = type.fieldsById[f.number]!.name;
    if (!(name in obj)) continue;
    if (f.type === FieldType.Group) delete obj[name];
    else if (f.mapEntry) {
      const value = f.message!.fields[1]!;
      if (value.type === FieldType.Message) for (const v of Object.values(obj[name] as object)) withoutGroups(loaded, value.message!, v as Record<string, unknown>);
    } else if (f.type === FieldType.Message) {
      for (const v of [obj[name]].flat()) withoutGroups(loaded, f.message!, v as Record<string, unknown>);
    }
  }
}

describe("a wide schema (all field types, oneofs, packed and unpacked, proto2 presence, closed enums, maps; groups fall back)", () => {
  it.each(["protobuf_test_messages.proto3.TestAllTypesProto3", "protobuf_test_messages.proto2.TestAllTypesProto2"])("%s: identical records whenever the compiled decoder decodes", (typeName) => {
    const c = compile(conformanceProtos, ["google/protobuf/test_messages_proto3.proto", "google/protobuf/test_messages_proto2.proto"]);
    const r = rng(typeName.length);
    const model = c.loaded.models.get(typeName)!;
    let decoded = 0;
    for (let i = 0; i < 200; i++) {
      const obj = randomObject(c.loaded, model, r);
      if (i % 2 === 0) withoutGroups(c.loaded, model, obj);
      const bytes = encodeWithProtobufjs(c.loaded, typeName, obj);
      expect(bytes.length).toBeLessThan(INPUT_SIZE);
      const same = expectSameOrFallback(c, typeName, bytes, i % 8);
      if (i % 2 === 0) expect(same).toBe(true); // without groups, no fallback
      if (same) decoded++;
    }
    expect(decoded).toBeGreaterThanOrEqual(100);
  });
});

describe("the modules hppproto-gen writes (every schema set the tests generate)", () => {
  const sets = ["unittest", "conformance", "names", "custom_options", "rpc", "code_size_mixed"];

  it.each(sets)("%s: every message's compiled decoder agrees with the codec on random and damaged input", async (set) => {
    const { schema: def } = (await import(`${genDir}/${set}/hppproto_schema.ts`)) as { schema: SchemaDef };
    expect(def.compiled).toBeTypeOf("string");
    const decoders = compiledDecoders(rt, def);
    const { check, release } = decoderChecker(rt, def, decoders);
    const r = randomSource(set.length * 7919);
    const counts = { same: 0, fallback: 0 };
    try {
      def.messages.forEach((_, i) => {
        if (decoders[i] === undefined) return; // a CODE_SIZE file's
        for (let n = 0; n < 30; n++) {
          const bytes = randomInput(def, i, r);
          counts[check(i, bytes, n % 8) as "same" | "fallback"]++;
          counts[check(i, mutate(bytes, r), (n + 5) % 8) as "same" | "fallback"]++;
        }
      });
    } finally {
      release();
    }
    expect(counts.same).toBeGreaterThan(counts.fallback / 4); // not a module that gives every input back
  });

  it("a module compiled for other record layouts is left unused (a runtime upgraded without regenerating)", async () => {
    const { schema: unittest } = (await import(`${genDir}/unittest/hppproto_schema.ts`)) as { schema: SchemaDef };
    const { schema: conformance } = (await import(`${genDir}/conformance/hppproto_schema.ts`)) as { schema: SchemaDef };
    expect(rt.compiledDecoders(unittest)!.some((d) => d !== undefined)).toBe(true);
    const mismatched: SchemaDef = { ...unittest, compiled: conformance.compiled };
    expect(rt.compiledDecoders(mismatched)!.every((d) => d === undefined)).toBe(true);
  });

  it("the runtime decodes generated types with them: TestAllTypesProto3 decodes through its compiled decoder", async () => {
    const { TestAllTypesProto3 } = await import(`${genDir}/conformance/google/protobuf/test_messages_proto3_pb.ts`);
    const { schema: def } = (await import(`${genDir}/conformance/hppproto_schema.ts`)) as { schema: SchemaDef };
    const bytes = TestAllTypesProto3.encode({ optionalInt32: 7, optionalString: "compiled", repeatedInt32: [1, 2, 3] });
    const index = def.messages.findIndex((m) => m.name === "protobuf_test_messages.proto3.TestAllTypesProto3");
    const decoders = rt.compiledDecoders(def);
    expect(decoders?.[index]).toBeTypeOf("function");
    let calls = 0;
    const original = decoders![index]!;
    (decoders as ((a: number, d: number, s: number, r: number) => number)[])[index] = (...a) => (calls++, original(...a));
    try {
      expect(TestAllTypesProto3.decode(bytes)).toMatchObject({ optionalInt32: 7, optionalString: "compiled", repeatedInt32: [1, 2, 3] });
      expect(calls).toBe(1);
      rt.useCompiled = false; // the codec alone decodes the same
      expect(TestAllTypesProto3.decode(bytes)).toMatchObject({ optionalInt32: 7, optionalString: "compiled", repeatedInt32: [1, 2, 3] });
      expect(calls).toBe(1);
    } finally {
      (decoders as unknown[])[index] = original;
      rt.useCompiled = true;
    }
  });
});
