// Decoders compiled from the schema (codegen/wasm/decoder.ts): on the same input they leave the
// arena byte-identical to the table-driven decoder's (records, arrays, string slots, pointers), or
// fail with the same Status (code, offset, detail, path), or return 0, the fallback to the
// table-driven decoder, leaving the arena as it was.
import { beforeAll, describe, expect, it } from "vitest";
import { getLimits, init, setLimits, builder } from "hppproto";
import { runtime, type Runtime } from "../dist/ts/runtime.js";
import { loadProtos, parsedName } from "../dist/codegen/load.js";
import { describeFiles } from "../dist/codegen/describe.js";
import { buildModel, schemaSource, type SchemaModel } from "../dist/codegen/model.js";
import { concatBytes } from "../dist/ts/copy.js";
import { defineSchema, type SchemaDef } from "../dist/ts/schema.js";
import { COMPILED_CORE } from "../dist/ts/compiledcore.js";
import { compileDecoders } from "../dist/codegen/wasm/decoder.js";
import { encodeWithProtobufjs, randomObject, rng, type Loaded } from "./support/protos.js";
import { conformanceProtos, genDir, protos, repoRoot } from "./support/paths.js";
import { compiledDecoders, decoderChecker, fileSchemas, mutate, randomInput, randomRun } from "./support/wirecheck.mjs";
import { randomSource } from "../fuzz/random.mjs";
import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";

let rt: Runtime;

beforeAll(async () => {
  await init();
  rt = runtime();
});

interface Compiled {
  loaded: Loaded;
  model: SchemaModel;
  bytes: Uint8Array;
  /** The outcome of both decoders on message typeName's bytes (test/support/wirecheck.mjs). */
  check: (typeName: string, bytes: Uint8Array, shift?: number) => "same" | "error" | "fallback";
}

function compile(dir: string, files: string[]): Compiled {
  const parsed = loadProtos(files.map((f) => `${dir}/${f}`), [dir]);
  const model = buildModel(describeFiles(parsed));
  const loaded: Loaded = { root: parsed.root, pbType: (n) => parsed.root.lookupType(parsedName(n)), models: new Map(model.messages.map((m) => [m.fullName, m])), types: new Map() };
  const bytes = compileDecoders(model.messages);
  expect(WebAssembly.validate(bytes)).toBe(true);
  const def = Object.assign(defineSchema(schemaSource(model).flat(), Buffer.from(bytes).toString("base64")), { core: COMPILED_CORE });
  const { check } = decoderChecker(rt, def, compiledDecoders(rt, def));
  const indexOf = (name: string) => model.messages.findIndex((m) => m.fullName === name);
  return { loaded, model, bytes, check: (name, b, shift = 0) => check(indexOf(name), b, shift) };
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
      expect(c.check(typeName, bytes, i % 8)).toBe("same");
      // a message's bytes twice: sub-messages merge, arrays grow past their first storage (or a borrowed run)
      expect(c.check(typeName, concat(previous, bytes), (i + 3) % 8)).toBe("same");
      previous = bytes;
    }
  });

  it("damaged input (truncated, bytes changed): identical records, or the same error, the arena left as it was", () => {
    const r = rng(7 + typeName.length);
    const model = c.loaded.models.get(typeName)!;
    const counts = { same: 0, error: 0, fallback: 0 };
    for (let i = 0; i < 400; i++) {
      const bytes = encodeWithProtobufjs(c.loaded, typeName, randomObject(c.loaded, model, r));
      const damaged = i % 2 === 0 ? bytes.subarray(0, Math.floor(r() * bytes.length)) : bytes.slice();
      if (i % 2 === 1) for (let k = 0; k < 3; k++) damaged[Math.floor(r() * damaged.length)] = Math.floor(r() * 256);
      counts[c.check(typeName, damaged)]++;
    }
    expect(counts.same).toBeGreaterThan(0);
    expect(counts.error).toBeGreaterThan(0);
  });
});

describe("unknown fields, errors, limits, fallback", () => {
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
      expect(tick.check("bench.tick.Tick", bytes)).toBe("same");
    }
  });

  it("malformed input fails as the codec fails it: the same code, offset, detail and path", () => {
    for (const bytes of [
      Uint8Array.from([0x0a, 0x02, 0xc3, 0x28]), // symbol: invalid UTF-8
      Uint8Array.from([0x00, 0x01]), // field 0
      Uint8Array.from([0x44]), // an end-group tag alone
      Uint8Array.from([0x49, 1, 2, 3]), // an unknown fixed64 cut short
      Uint8Array.from([0x42, 0x05, 1]), // a length past the end
      Uint8Array.from([0x46]), // wire type 6
      Uint8Array.from([0x80, 0x80, 0x80, 0x80, 0x10]), // a tag past 32 bits
      Uint8Array.from([0x80, 0x80]), // a tag cut short
      Uint8Array.from([0x10, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f]), // an eleven-byte varint
      concat(threeBids.subarray(0, 20), Uint8Array.from([0x32, 0x03, 0x09, 0x00, 0x00])), // a bid's price cut short: bids[2]
      concat(threeBids, Uint8Array.from([0x32, 0x02, 0x10, 0x80])), // bids[3].quantity cut short
    ]) {
      expect(tick.check("bench.tick.Tick", bytes), Buffer.from(bytes).toString("hex")).toBe("error");
    }
    for (const bytes of [
      Uint8Array.from([0x43]), // a group never ended
      Uint8Array.from([0x43, 0x4c]), // ended by another field's end tag
      Uint8Array.from([0x43, 0x4b, 0x08, 0x01, 0x44]), // a group in a group, the inner one never ended
      Uint8Array.from([0x43, 0x00, 0x44]), // field 0 inside
      Uint8Array.from([0x43, 0x4f, 0x44]), // wire type 7 inside
    ]) {
      expect(tick.check("bench.tick.Tick", bytes), Buffer.from(bytes).toString("hex")).toBe("error");
    }
    // unknown groups, nested, are kept whole
    expect(tick.check("bench.tick.Tick", Uint8Array.from([0x43, 0x4b, 0x08, 0x01, 0x12, 0x01, 0x78, 0x4c, 0x55, 1, 2, 3, 4, 0x44]))).toBe("same");
  });

  it("a path deeper than the Status holds keeps its outermost 64 frames, as the codec's", () => {
    const c = compile(conformanceProtos, ["google/protobuf/test_messages_proto3.proto"]);
    // recursive_message (field 27) 80 deep, then a string that is not UTF-8
    const varint = (n: number): number[] => (n < 0x80 ? [n] : [(n & 0x7f) | 0x80, ...varint(n >>> 7)]);
    let bytes = Uint8Array.from([0x72, 0x02, 0xc3, 0x28]); // optional_string (14)
    for (let i = 0; i < 80; i++) bytes = concat(Uint8Array.from([0xda, 0x01, ...varint(bytes.length)]), bytes);
    const before = getLimits();
    try {
      setLimits({ maxDepth: 200 });
      expect(c.check("protobuf_test_messages.proto3.TestAllTypesProto3", bytes)).toBe("error");
    } finally {
      setLimits(before);
    }
  });

  it("the runtime's limits: more elements or deeper nesting than allowed, input larger than allowed", () => {
    const before = getLimits();
    try {
      expect(tick.check("bench.tick.Tick", threeBids)).toBe("same");
      setLimits({ maxElements: 2 });
      expect(tick.check("bench.tick.Tick", threeBids)).toBe("error");
      setLimits({ maxElements: before.maxElements, maxDepth: 1 });
      expect(tick.check("bench.tick.Tick", threeBids)).toBe("same"); // a Level is at depth 1
      const gm1 = compile(protos, ["benchmark_messages_proto3.proto"]);
      const sub = Uint8Array.from([0x7a, 0x02, 0x08, 0x01]); // field15 { field1: 1 }
      expect(gm1.check("benchmarks.proto3.GoogleMessage1", sub)).toBe("same");
      setLimits({ maxDepth: 0 + 1 });
      expect(gm1.check("benchmarks.proto3.GoogleMessage1", Uint8Array.from([0x7a, 0x04, 0x7a, 0x02, 0x08, 0x01]))).toBe("same"); // field15 has no field 15
      setLimits({ maxMessageSize: threeBids.length - 1 });
      expect(tick.check("bench.tick.Tick", threeBids)).toBe("error");
    } finally {
      setLimits(before);
    }
  });
});

describe("a wide schema (all field types, oneofs, packed and unpacked, proto2 presence, closed enums, maps, groups)", () => {
  it("message set items: merged into the extension their type_id names, kept whole when it names none, errors as the codec's", () => {
    const c = compile(conformanceProtos, ["google/protobuf/test_messages_proto2.proto"]);
    const typeName = "protobuf_test_messages.proto2.TestAllTypesProto2.MessageSetCorrect";
    const varint = (n: number): number[] => (n < 0x80 ? [n] : [(n & 0x7f) | 0x80, ...varint(Math.floor(n / 128))]);
    const str = (t: number[]) => [0xca, 0x01, t.length, ...t]; // Extension1.str (25)
    const item = (...parts: number[][]) => [0x0b, ...parts.flat(), 0x0c];
    const typeId = (n: number) => [0x10, ...varint(n)];
    const message = (b: number[]) => [0x1a, ...varint(b.length), ...b];
    const ext1 = 1547769, ext2 = 4135312;
    const same = [
      item(typeId(ext1), message(str([0x68, 0x69]))),
      item(message(str([0x68, 0x69])), typeId(ext1)), // the message first
      item(typeId(ext1), message(str([0x61])), typeId(ext2), message(str([0x62]))), // the first of each counts
      [...item(typeId(ext1), message(str([0x61]))), ...item(typeId(ext1), message(str([0x62])))], // two items merge
      item(typeId(99), message([0x08, 0x01])), // names no extension: kept whole
      item(typeId(ext1)), // no message: kept whole
      item(typeId(ext1), [0x20, 0x05, 0x2b, 0x08, 0x01, 0x2c], message(str([0x61]))), // other fields, a group among them, skipped
      item(typeId(ext2), message([0x52, ...message(item(typeId(ext1), message(str([0x63])))).slice(1)])), // a message set (sub_msg, 10) in an item's message
    ];
    for (const bytes of same) expect(c.check(typeName, Uint8Array.from(bytes)), Buffer.from(bytes).toString("hex")).toBe("same");
    const errors = [
      [0x0b, ...typeId(ext1)], // never ended
      item(typeId(ext2), message([0x48, 0x80])), // Extension2.i (9) cut short in its message: the path names the extension
      [0x0b, 0x14], // ended by field 2's end tag
      item(typeId(ext1), [0x1a, 0x09, 0x01]), // a message past the end
      item([0x00]), // field 0 inside
    ];
    for (const bytes of errors) expect(c.check(typeName, Uint8Array.from(bytes)), Buffer.from(bytes).toString("hex")).toBe("error");
  });

  it("packed varints of every type at every length, non-minimal, and overlong in the tenth byte decode and fail as the codec's", () => {
    const c = compile(conformanceProtos, ["google/protobuf/test_messages_proto3.proto"]);
    const typeName = "protobuf_test_messages.proto3.TestAllTypesProto3";
    // packed_int32 (75) to packed_sint64 (80), packed_bool (87), packed_nested_enum (88, open)
    const fields = [75, 76, 77, 78, 79, 80, 87, 88];
    const varints: number[][] = [];
    for (let bytes = 1; bytes <= 10; bytes++) {
      for (const top of bytes === 10 ? [0x00, 0x01] : [0x01, 0x7f]) {
        varints.push([...Array.from({ length: bytes - 1 }, (_, i) => 0x80 | ((i * 37 + bytes) & 0x7f)), top]);
      }
    }
    varints.push([0x80, 0x00], [0xff, 0x80, 0x80, 0x00], [0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x00]); // non-minimal
    const run = (field: number, values: number[][]) => {
      const body = values.flat();
      return Uint8Array.from([(field << 3 | 2) & 0x7f | 0x80, field >> 4, body.length, ...body]);
    };
    let checked = 0;
    for (const field of fields) {
      expect(c.check(typeName, run(field, varints)), `field ${field}`).toBe("same");
      for (let i = 0; i < varints.length; i++) expect(c.check(typeName, run(field, [varints[i]!])), `field ${field}, ${i}`).toBe("same");
      for (const tenth of [0x02, 0x7f]) {
        // overlong in the tenth byte, first, between others, and last
        const overlong = [0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, tenth];
        for (const values of [[overlong, [0x01]], [[0x01], [0x80, 0x01], overlong, [0x05]], [[0x7f], overlong]]) {
          expect(c.check(typeName, run(field, values)), `field ${field}, tenth ${tenth}`).toBe("error");
          checked++;
        }
      }
      // an eleventh byte: the tenth has its continuation bit, so the run is overlong there too
      expect(c.check(typeName, run(field, [[0x01], [0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x81, 0x00]]))).toBe("error");
      checked += varints.length + 2;
    }
    expect(checked).toBeGreaterThan(200);
  });

  it("packed closed-enum values outside the enum are re-encoded as unknown fields, the array keeping the rest", () => {
    const c = compile(conformanceProtos, ["google/protobuf/test_messages_proto2.proto"]);
    const typeName = "protobuf_test_messages.proto2.TestAllTypesProto2";
    const run = (...values: number[][]) => concat(...values.map((v) => Uint8Array.from([0xc2, 0x05, v.length, ...v]))); // packed_nested_enum (88)
    for (const bytes of [
      run([0x01, 0x63, 0x02, 0x07]), // BAR, 99, BAZ, 7
      run([0x63]), // only a miss
      run([0x01, 0xff, 0xff, 0xff, 0xff, 0x0f]), // BAR, then NEG (-1) as a five-byte varint: its low 32 bits decide, so not a miss
      run([0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01, 0x00]), // 2^63: a miss of ten bytes, then FOO
      run([0x63, 0x64], [0x65, 0x01]), // misses in two runs: their re-encoded bytes are adjacent
    ]) {
      expect(c.check(typeName, bytes), Buffer.from(bytes).toString("hex")).toBe("same");
    }
  });

  it.each(["protobuf_test_messages.proto3.TestAllTypesProto3", "protobuf_test_messages.proto2.TestAllTypesProto2"])("%s: identical records whenever the compiled decoder decodes", (typeName) => {
    const c = compile(conformanceProtos, ["google/protobuf/test_messages_proto3.proto", "google/protobuf/test_messages_proto2.proto"]);
    const r = rng(typeName.length);
    const model = c.loaded.models.get(typeName)!;
    for (let i = 0; i < 200; i++) {
      const bytes = encodeWithProtobufjs(c.loaded, typeName, randomObject(c.loaded, model, r));
      expect(c.check(typeName, bytes, i % 8)).toBe("same");
    }
  });
});

describe("the modules hppproto-gen writes (every schema set the tests generate)", () => {
  const sets = ["unittest", "conformance", "names", "custom_options", "rpc", "code_size_mixed"];

  it.each(sets)("%s: every message's compiled decoder agrees with the codec on random and damaged input", async (set) => {
    const defs = (await fileSchemas(`${genDir}/${set}`)) as SchemaDef[];
    expect(defs.some((def) => typeof def.compiled === "string")).toBe(true);
    const r = randomSource(set.length * 7919);
    const counts = { same: 0, error: 0, fallback: 0 };
    const runs = { same: 0, error: 0, fallback: 0 };
    for (const def of defs) {
      if (def.compiled === undefined) continue; // a CODE_SIZE file's
      const decoders = compiledDecoders(rt, def);
      const { check, checkDelimited, release } = decoderChecker(rt, def, decoders);
      try {
        def.messages.forEach((_, i) => {
          if (decoders[i] === undefined) return; // another file's message
          for (let n = 0; n < 30; n++) {
            const bytes = randomInput(def, i, r);
            counts[check(i, bytes, n % 8) as keyof typeof counts]++;
            counts[check(i, mutate(bytes, r), (n + 5) % 8) as keyof typeof counts]++;
          }
          // length-delimited runs of them (decodeDelimited, forEachDelimited), whole and damaged
          for (let n = 0; n < 6; n++) {
            const run = randomRun(def, i, r);
            runs[checkDelimited(i, run, n % 8) as keyof typeof runs]++;
            runs[checkDelimited(i, mutate(run, r), (n + 3) % 8) as keyof typeof runs]++;
          }
        });
      } finally {
        release();
      }
    }
    expect(counts.same).toBeGreaterThan(counts.fallback); // not a module that gives every input back
    expect(counts.error).toBeGreaterThan(0);
    expect(runs.same).toBeGreaterThan(runs.fallback);
    expect(runs.error).toBeGreaterThan(0);
  });

  it("arenas whose blocks fill up: the compiled decoders take the next block as the codec does, under the same memory budget", async () => {
    const { TestAllTypesProto3 } = await import(`${genDir}/conformance/google/protobuf/test_messages_proto3_pb.ts`);
    const { schemaDef: def, index } = TestAllTypesProto3 as { schemaDef: SchemaDef; index: number };
    const { Arena } = await import("hppproto");
    /** The decode in an arena of small blocks: the plain object (or the error) and what the arena took. */
    const decode = (bytes: Uint8Array, compiled: boolean, options: { firstBlock: number; limit?: number }) => {
      rt.useCompiled = compiled;
      const arena = new Arena(options);
      try {
        return { value: TestAllTypesProto3.view(bytes, arena).$toObject(), reserved: arena.reservedBytes };
      } catch (e) {
        return { error: e instanceof Error ? `${e.constructor.name} ${e.message}` : String(e), reserved: arena.reservedBytes };
      } finally {
        arena.release();
        rt.useCompiled = true;
      }
    };
    const r = randomSource(99);
    let compared = 0;
    for (let n = 0; n < 150; n++) {
      let bytes = randomInput(def, index, r);
      if (n % 3 === 2) bytes = mutate(bytes, r);
      for (const options of [{ firstBlock: 64 }, { firstBlock: 8 }, { firstBlock: 256, limit: 2048 }]) {
        expect(decode(bytes, true, options), Buffer.from(bytes).toString("hex")).toEqual(decode(bytes, false, options));
        compared++;
      }
    }
    expect(compared).toBe(450);
    // empty input at address 0 (a staging buffer never allocated) is a message, not a failure
    const empty = new Arena({ firstBlock: 64 });
    try {
      expect(rt.compiledDecoders(def)![index]!(empty.ptr, 0, 0, 0) >>> 0).toBeGreaterThan(1);
    } finally {
      empty.release();
    }
    // the compiled decoder itself took the blocks (it used to hand a full block to the codec)
    const decoder = rt.compiledDecoders(def)![index]!;
    const big = TestAllTypesProto3.encode({ repeatedString: Array.from({ length: 200 }, (_, i) => `s${i}`), optionalNestedMessage: { a: 1 } });
    const arena = new Arena({ firstBlock: 64 });
    try {
      const rec = decoder(arena.ptr, rt.stage(big, 0, false), big.length, 0) >>> 0;
      expect(rec).toBeGreaterThan(1);
      expect(arena.reservedBytes).toBeGreaterThan(2000);
    } finally {
      arena.release();
    }
    // 60,000 empty repeated_nested_message entries: past a budget of 1 MiB and 2 bytes of arena per input byte
    const before = getLimits();
    try {
      setLimits({ maxAmplification: 2 });
      const entries = new Uint8Array(180_000);
      for (let i = 0; i < 60_000; i++) entries.set([0x82, 0x03, 0x00], i * 3); // field 48, length 0
      const outcome = decode(entries, true, { firstBlock: 4096 });
      expect(outcome.error).toMatch(/MEMORY_BUDGET/);
      expect(outcome).toEqual(decode(entries, false, { firstBlock: 4096 }));
    } finally {
      setLimits(before);
    }
  });

  it("a module compiled for other record layouts is left unused (a runtime upgraded without regenerating)", async () => {
    const { $schema: unittest } = (await import(`${genDir}/unittest/google/protobuf/unittest_pb.ts`)) as { $schema: SchemaDef };
    const { $schema: conformance } = (await import(`${genDir}/conformance/google/protobuf/test_messages_proto3_pb.ts`)) as { $schema: SchemaDef };
    expect(rt.compiledDecoders(unittest)!.some((d) => d !== undefined)).toBe(true);
    const mismatched: SchemaDef = { ...unittest, compiled: conformance.compiled };
    expect(rt.compiledDecoders(mismatched)!.every((d) => d === undefined)).toBe(true);
  });

  it("the runtime decodes generated types with them: TestAllTypesProto3 decodes through its compiled decoder", async () => {
    const { TestAllTypesProto3 } = await import(`${genDir}/conformance/google/protobuf/test_messages_proto3_pb.ts`);
    const { schemaDef: def, index } = TestAllTypesProto3 as { schemaDef: SchemaDef; index: number };
    const bytes = TestAllTypesProto3.encode({ optionalInt32: 7, optionalString: "compiled", repeatedInt32: [1, 2, 3] });
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

  it("a file's module decodes other files' messages through their modules (linked, not compiled again), errors naming their fields", async () => {
    const { TestAllTypesProto3: T } = await import(`${genDir}/conformance/google/protobuf/test_messages_proto3_pb.ts`);
    const def = (T as { schemaDef: SchemaDef }).schemaDef;
    const module = new WebAssembly.Module(Buffer.from(def.compiled!, "base64"));
    const linked = WebAssembly.Module.imports(module).filter((i) => i.module.startsWith("link")).map((i) => `${i.module}.${i.name}`);
    expect(linked.length).toBeGreaterThan(5); // Any, Duration, FieldMask, Struct, Timestamp, the wrappers...
    // the helpers come from the core module every compiled module shares, not from copies of its own
    const fromCore = WebAssembly.Module.imports(module).filter((i) => i.module === "core").map((i) => i.name);
    expect(fromCore).toEqual(expect.arrayContaining(["varint", "utf8", "alloc", "grow", "fail", "frame", "finish"]));
    expect(def.core).toBe(COMPILED_CORE);
    const timestamp = def.messages.findIndex((m) => m.name === "google.protobuf.Timestamp");
    expect(WebAssembly.Module.exports(module).map((e) => e.name)).not.toContain(`p${timestamp}`); // not its own
    // a Timestamp whose seconds are cut short: the path's last frame is the linked module's
    const bad = new Uint8Array([0xf2, 0x12, 0x02, 0x08, 0x80]); // optional_timestamp (field 302) { seconds: a truncated varint }
    const error = (compiled: boolean) => {
      rt.useCompiled = compiled;
      try {
        T.decode(bad);
        return "no error";
      } catch (e) {
        return (e as Error).message;
      } finally {
        rt.useCompiled = true;
      }
    };
    expect(error(true)).toBe(error(false));
    expect(error(true)).toContain("TestAllTypesProto3.optional_timestamp.seconds");
  });

  it("a file regenerated after a change to one it imports: the importer's module goes unused (the codec decodes), and its encodes write the imported file's records as they are now", () => {
    const dir = mkdtempSync(`${tmpdir()}/hppproto-stale-`);
    const proto = (folder: string, b: string, options = "") => {
      mkdirSync(`${dir}/${folder}`, { recursive: true });
      writeFileSync(`${dir}/${folder}/b.proto`, `syntax = "proto2";\npackage b;\n${options}${b}`);
      writeFileSync(`${dir}/${folder}/a.proto`, 'syntax = "proto2";\npackage a;\nimport "b.proto";\nmessage X { optional b.E e = 1; optional b.M m = 2; repeated b.E es = 3; }\n');
    };
    const gen = (folder: string, out: string, ...files: string[]) => {
      const r = spawnSync(process.execPath, [`${repoRoot}bin/hppproto-gen.mjs`, "--out", `${dir}/${out}`, "--target", "js", "-I", `${dir}/${folder}`, ...files.map((f) => `${dir}/${folder}/${f}`)], { encoding: "utf8" });
      expect(r.status, r.stderr).toBe(0);
    };
    const run = (out: string, body: string) => {
      const program = `import { init, builder } from "hppproto"; import { runtime } from "${repoRoot}dist/ts/runtime.js"; import { X } from "./${out}/a_pb.js"; await init();\n` +
        "const both = (f) => { const rt = runtime(); const a = JSON.stringify(f(), (k, v) => (typeof v === 'bigint' ? String(v) : v instanceof Uint8Array ? Array.from(v) : v)); " +
        "rt.useCompiled = false; const b = JSON.stringify(f(), (k, v) => (typeof v === 'bigint' ? String(v) : v instanceof Uint8Array ? Array.from(v) : v)); rt.useCompiled = true; return a === b ? a : `compiled ${a}, codec ${b}`; };\n" + body;
      const r = spawnSync(process.execPath, ["--input-type=module", "-e", program], { cwd: dir, encoding: "utf8" });
      return r.stderr + r.stdout.trim();
    };
    mkdirSync(`${dir}/node_modules`);
    symlinkSync(repoRoot, `${dir}/node_modules/hppproto`);
    const b1 = "enum E { A = 0; B = 1; }\nmessage M { optional int32 x = 1; optional E e = 2; }\n";
    proto("p1", b1);
    gen("p1", "gen", "a.proto", "b.proto");
    // 1. a closed enum of b gains a value; only b is regenerated: a's module checked the old values
    cpSync(`${dir}/gen`, `${dir}/gen1`, { recursive: true });
    proto("p2", "enum E { A = 0; B = 1; C = 2; }\nmessage M { optional int32 x = 1; optional E e = 2; }\n");
    gen("p2", "gen1", "b.proto");
    expect(run("gen1", "console.log(both(() => X.decode(new Uint8Array([0x08, 0x02, 0x12, 0x02, 0x10, 0x02, 0x18, 0x02, 0x18, 0x01]))));")).toBe('{"e":2,"m":{"e":2},"es":[2,1]}');
    // 2. b is CODE_SIZE (a's module compiles its messages itself) and a field changes type
    proto("q1", "message M { optional int32 x = 1; optional string s = 2; }\nenum E { A = 0; }\n", "option optimize_for = CODE_SIZE;\n");
    gen("q1", "genq", "a.proto", "b.proto");
    proto("q2", "message M { optional sint32 x = 1; optional string s = 2; }\nenum E { A = 0; }\n", "option optimize_for = CODE_SIZE;\n");
    gen("q2", "genq", "b.proto");
    expect(run("genq", "console.log(both(() => X.decode(new Uint8Array([0x12, 0x02, 0x08, 0x03]))));")).toBe('{"m":{"x":-2},"es":[]}');
    // 3. b's message grows; a's fill code must not write it at its old size (it overwrote what followed)
    cpSync(`${dir}/gen`, `${dir}/gen3`, { recursive: true });
    proto("p3", "enum E { A = 0; B = 1; }\nmessage M { optional int32 x = 1; optional E e = 2; optional int64 y = 3; optional int64 z = 4; optional string s = 5; optional int64 w = 6; }\n");
    gen("p3", "gen3", "b.proto");
    expect(run("gen3", "const m = { x: 1, y: 2n, z: 3n, s: 'hello', w: 4n }; console.log(both(() => X.decode(X.encode({ m, es: [1, 0] }))), both(() => builder(X, { m }).m.$toObject()));"))
      .toBe('{"m":{"x":1,"y":"2","z":"3","s":"hello","w":"4"},"es":[1,0]} {"x":1,"y":"2","z":"3","s":"hello","w":"4"}');
  });

  it("the runtime decodes length-delimited runs with them: decodeDelimited, viewDelimited and forEachDelimited, errors included", async () => {
    const { TestAllTypesProto3: T } = await import(`${genDir}/conformance/google/protobuf/test_messages_proto3_pb.ts`);
    const { schemaDef: def, index } = T as { schemaDef: SchemaDef; index: number };
    const messages = [{ optionalInt32: 7, optionalString: "run" }, {}, { repeatedInt32: [1, 2, 3], optionalNestedMessage: { a: 4 } }];
    const bytes = T.encodeDelimited(messages) as Uint8Array;
    const damaged = Uint8Array.from([...bytes, 0x05, 0x08]); // a fourth message longer than what is left
    const delimited = rt.compiledDecoders(def)!.delimited as ((...a: number[]) => number)[];
    const original = delimited[index]!;
    let calls = 0;
    delimited[index] = (...a) => (calls++, original(...a));
    const outcomes = () => {
      const error = (f: () => unknown) => {
        try {
          f();
          return "no error";
        } catch (e) {
          return `${(e as Error).constructor.name} ${(e as Error).message}`;
        }
      };
      const seen: unknown[] = [];
      T.forEachDelimited(bytes, (m: unknown) => seen.push(m));
      return { decoded: T.decodeDelimited(bytes), viewed: T.viewDelimited(bytes).map((v: { $toObject(): unknown }) => v.$toObject()), seen, error: error(() => T.decodeDelimited(damaged)) };
    };
    try {
      const compiled = outcomes();
      expect(calls).toBe(4);
      expect(compiled.decoded).toMatchObject(messages);
      expect(compiled.error).toMatch(/^DecodeError .*\[#3\]/); // the fourth message of the run
      rt.useCompiled = false; // the codec alone gives the same
      expect(outcomes()).toEqual(compiled);
      expect(calls).toBe(4);
    } finally {
      delimited[index] = original;
      rt.useCompiled = true;
    }
  });
});
