// A runtime started without the codec (what init() starts when nothing the program loaded needs
// it: memory, allocator and arenas in JS, ts/heap.ts) against one with it, in the same process
// (setRuntime() switches between them): on every message of the test sets with compiled decoders,
// random and damaged wire bytes decode to the same plain objects, views and errors; views and
// builders, which only the codec encodes from their records, encode to the same bytes (read out and
// encoded by the generated encoders: a map's entries in its plain object's order); limits apply the same. What only the codec does fails with an
// error that says how to load it.
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { Arena, DecodeError, EncodeError, init, setLimits, type AnyMessageType, toJson, fromJsonString, clone, builder } from "hppproto";
import { hasRuntime, runtime, setRuntime, Runtime } from "../dist/ts/runtime.js";
import { Heap } from "../dist/ts/heap.js";
import { readsOutLossily, type SchemaDef } from "../dist/ts/schema.js";
import { randomSource } from "../fuzz/random.mjs";
import { fileSchemas, mutate, randomInput, randomRun } from "./support/wirecheck.mjs";
import { genDir } from "./support/paths.js";
import { TestAllTypes } from "./gen/unittest/google/protobuf/unittest_pb.js";
import { NestedTestAllTypes } from "./gen/unittest/google/protobuf/unittest_proto3_pb.js";
import { TestAllTypesProto3 } from "./gen/conformance/google/protobuf/test_messages_proto3_pb.js";
import { partially } from "../dist/ts/limits.js";

let codec: Runtime;
let heap: Runtime;

beforeAll(async () => {
  await init();
  codec = runtime();
  heap = new Runtime(new Heap().exports());
});

afterEach(() => setRuntime(codec));

/** fn's result (or error) on the runtime rt. */
function on<R>(rt: Runtime, fn: () => R): R {
  setRuntime(rt);
  try {
    return fn();
  } finally {
    setRuntime(codec);
  }
}

type Outcome = { value: unknown } | { error: unknown[] };

function outcome(fn: () => unknown): Outcome {
  try {
    return { value: fn() };
  } catch (e) {
    if (e instanceof DecodeError) return { error: [e.name, e.code, e.offset, e.path] };
    if (e instanceof EncodeError) return { error: [e.name, e.code, e.path, e.reason] };
    return { error: [String(e)] };
  }
}

const hex = (b: Uint8Array) => Buffer.from(b).toString("hex");

const sets = ["conformance", "unittest", "names", "custom_options", "wide", "wide_string", "wide_number", "code_size_mixed"];

describe("a runtime without the codec against one with it", () => {
  it("starts on first use after init() when nothing loaded needs the codec: no codec, the limits given", async () => {
    // (this file's imports load the codec's modules, and init() started it: the runtime is taken away
    // by hand, as it is before the first operation of a program that loaded nothing needing the codec)
    setRuntime(undefined);
    try {
      setLimits({ maxDepth: 7 });
      expect(hasRuntime()).toBe(false);
      const rt = runtime();
      expect(rt.hasCodec).toBe(false);
      expect(rt.full).toBeUndefined();
      expect(new Uint32Array(rt.mem.memory.buffer)[rt.exports.hp_limits() >>> 2]).toBe(7); // LIMITS_MAX_DEPTH, as the compiled decoders read it
      expect(TestAllTypes.decode(TestAllTypes.encode({ optionalInt32: 5 })).optionalInt32).toBe(5);
    } finally {
      setLimits({ maxDepth: 100 });
      setRuntime(codec);
    }
  });

  it("random and damaged input of every compiled message: the same plain objects, views, runs and errors", async () => {
    const r = randomSource(20261127);
    const counts = { types: 0, values: 0, errors: 0, runs: 0 };
    for (const set of sets) {
      for (const def of (await fileSchemas(`${genDir}/${set}`)) as SchemaDef[]) {
        if (def.compiled === undefined) continue;
        def.messages.forEach((_, index) => {
          const T = def.types[index] as AnyMessageType | undefined;
          if (T === undefined) return;
          counts.types++;
          for (let n = 0; n < 8; n++) {
            let bytes: Uint8Array = randomInput(def, index, r);
            if (n % 2 === 1) bytes = mutate(bytes, r);
            const plain = (rt: Runtime) => outcome(() => on(rt, () => T.decode(bytes)));
            const viewed = (rt: Runtime) => outcome(() => on(rt, () => clone(T, T.view(bytes))));
            const a = plain(codec);
            expect(plain(heap)).toEqual(a);
            expect(viewed(heap)).toEqual(viewed(codec));
            if ("value" in a) counts.values++;
            else counts.errors++;
          }
          const run: Uint8Array = randomRun(def, index, r);
          const decoded = (rt: Runtime) => outcome(() => on(rt, () => T.decodeDelimited(run)));
          const views = (rt: Runtime) => outcome(() => on(rt, () => T.viewDelimited(run, new Arena()).map((v) => clone(T, v))));
          expect(decoded(heap)).toEqual(decoded(codec));
          expect(views(heap)).toEqual(views(codec));
          counts.runs++;
        });
      }
    }
    expect(counts.types).toBeGreaterThan(300);
    expect(counts.values).toBeGreaterThan(1000);
    expect(counts.errors).toBeGreaterThan(300);
  });

  it("views and builders encode to the codec's bytes (read out, then encoded by the generated encoders)", async () => {
    const r = randomSource(7);
    let compared = 0, reordered = 0;
    /** The bytes decoded and encoded again by the codec: what two encodings of one message agree on. */
    const canonical = (T: AnyMessageType, h: string, delimited = false) => {
      const b = Buffer.from(h, "hex");
      return partially(() => hex(delimited ? T.encodeDelimited(T.decodeDelimited(b)) : T.encode(T.decode(b))));
    };
    for (const set of ["conformance", "unittest"]) {
      for (const def of (await fileSchemas(`${genDir}/${set}`)) as SchemaDef[]) {
        if (def.compiled === undefined) continue;
        def.messages.forEach((_, index) => {
          const T = def.types[index] as AnyMessageType | undefined;
          if (T === undefined || T.parts.builder === undefined) return;
          if (readsOutLossily(def, index)) {
            // only the codec keeps strings that need not be text: without it, their views do not encode
            expect(() => on(heap, () => partially(() => T.encode(T.view(new Uint8Array(0)))))).toThrow(`hppproto: encoding views and builders of ${T.typeName} needs the codec`);
            return;
          }
          for (let n = 0; n < 6; n++) {
            const bytes: Uint8Array = randomInput(def, index, r);
            const viewBytes = (rt: Runtime) => outcome(() => on(rt, () => partially(() => hex(T.encode(T.view(bytes))))));
            const expected = viewBytes(codec);
            if (!("value" in expected)) continue;
            const got = viewBytes(heap);
            // a map's entries come out in its plain object's order (integer keys ascending): the same message
            if (JSON.stringify(got) !== JSON.stringify(expected)) {
              expect(canonical(T, (got as { value: string }).value)).toBe(canonical(T, expected.value as string));
              reordered++;
              continue;
            }
            const builderBytes = (rt: Runtime) => outcome(() => on(rt, () => partially(() => {
              const b = builder(T, bytes);
              try {
                return [hex(T.encode(b)), T.encodedSize(b), hex(T.encodeDelimited([b, T.view(bytes)]))];
              } finally {
                b.$release();
              }
            })));
            const [b1, b2] = [builderBytes(heap), builderBytes(codec)] as { value: [string, number, string] }[];
            expect(b1!.value[1]).toBe(b2!.value[1]);
            expect(canonical(T, b1!.value[0])).toBe(canonical(T, b2!.value[0]));
            expect(canonical(T, b1!.value[2], true)).toBe(canonical(T, b2!.value[2], true));
            compared++;
          }
        });
      }
    }
    expect(compared).toBeGreaterThan(500);
    expect(reordered).toBeLessThan(compared / 10);
  });

  it("limits: depth, size and memory budget fail the same", () => {
    let deep = NestedTestAllTypes.encode({});
    for (let i = 0; i < 12; i++) deep = NestedTestAllTypes.encode(NestedTestAllTypes.decode(new Uint8Array([0x0a, deep.length, ...deep])));
    for (const rt of [codec, heap]) on(rt, () => setLimits({ maxDepth: 5 }));
    try {
      const errors = [codec, heap].map((rt) => outcome(() => on(rt, () => NestedTestAllTypes.decode(deep))));
      expect((errors[0] as { error: unknown[] }).error.slice(0, 2)).toEqual(["DecodeError", "DEPTH_LIMIT"]);
      expect(errors[1]).toEqual(errors[0]);
    } finally {
      for (const rt of [codec, heap]) on(rt, () => setLimits({ maxDepth: 100 }));
    }
    // 70,000 empty messages in a 210 KB input: past a budget of 1 byte per input byte
    const many = new Uint8Array(210_000);
    for (let i = 0; i < many.length; i += 3) many.set([0x82, 0x03, 0x00], i); // repeated_nested_message (48), empty
    for (const rt of [codec, heap]) on(rt, () => setLimits({ maxAmplification: 1 }));
    try {
      const budget = [codec, heap].map((rt) => outcome(() => on(rt, () => TestAllTypesProto3.decode(many))));
      expect(budget[1]).toEqual(budget[0]);
    } finally {
      for (const rt of [codec, heap]) on(rt, () => setLimits({ maxAmplification: 256 }));
    }
  });

  it("views and builders of messages holding what reads out lossily need the codec: strings that need not be text (in groups too), floats", async () => {
    const { TestMutualRecursionA } = await import("./gen/unittest/google/protobuf/unittest_pb.js");
    const { FloatValue, DoubleValue } = await import("./gen/conformance/google/protobuf/wrappers_pb.js");
    // (found by review: a proto2 string inside a group read out as U+FFFD, and a signalling NaN came back quiet)
    const inGroup = Buffer.from("1322047202fffe14", "hex"); // SubGroup.not_in_this_scc.optional_string = ff fe
    expect(hex(on(codec, () => TestMutualRecursionA.encode(TestMutualRecursionA.view(inGroup))))).toBe("1322047202fffe14");
    expect(() => on(heap, () => TestMutualRecursionA.encode(TestMutualRecursionA.view(inGroup)))).toThrow("encoding views and builders of protobuf_unittest.TestMutualRecursionA needs the codec");
    const signalling = new Uint8Array([0x0d, 0x01, 0x00, 0x80, 0x7f]);
    expect(hex(on(codec, () => FloatValue.encode(FloatValue.view(signalling))))).toBe(hex(signalling));
    expect(() => on(heap, () => FloatValue.encode(FloatValue.view(signalling)))).toThrow(/needs the codec/);
    // doubles keep NaN payloads and -0; unknown fields come last, as the codec writes them
    for (const bytes of [[0x09, 0x01, 0, 0, 0, 0, 0, 0xf8, 0x7f, 0xb8, 0x3e, 0x05], [0x09, 0, 0, 0, 0, 0, 0, 0, 0x80]]) {
      const encoded = [codec, heap].map((rt) => hex(on(rt, () => DoubleValue.encode(DoubleValue.view(new Uint8Array(bytes))))));
      expect(encoded[1]).toBe(encoded[0]);
      expect(encoded[0]).toBe(hex(new Uint8Array(bytes)));
    }
  });

  it("the JS allocator: sizes past 2 GiB arrive unsigned and fail, blocks never overlap, freed memory is reused and merged", () => {
    // (found by review: WASM's signed i32 made 2^31 bytes a negative size that moved an arena's cursor back over live data)
    const h = new Heap();
    const e = h.exports();
    expect(h.malloc(2 ** 31)).toBe(0);
    expect(e.malloc(-(2 ** 31))).toBe(0);
    const a = e.hp_arena_new(-1, 64);
    const first = e.hp_arena_alloc(a, 16);
    expect(e.hp_arena_alloc(a, -(2 ** 31))).toBe(0);
    expect(e.hp_arena_alloc(a, 8)).toBe(first + 16); // the cursor did not move back
    expect(e.hp_arena_grow(a, -(2 ** 31), 0, 100, 7)).toBe(0);
    expect(Array.from(new Uint32Array(h.memory.buffer, h.status, 2))).toEqual([12, 7]); // OUT_OF_MEMORY at the offset given
    const blocks = [1, 8, 100, 4096, 65536, 8, 3000].map((n) => [e.malloc(n), n] as const);
    const sorted = [...blocks].sort((x, y) => x[0] - y[0]);
    sorted.slice(1).forEach(([p], i) => expect(p).toBeGreaterThanOrEqual(sorted[i]![0] + sorted[i]![1]));
    // a free block taken for less is split; a block given back at the top returns there
    const big = e.malloc(100_000);
    e.free(big);
    const small = e.malloc(1000);
    expect(small).toBe(big);
    // memory that cannot grow: freed blocks next to each other are merged to hold a larger one
    const tight = new Heap(2, 64);
    const chunks = Array.from({ length: 40 }, () => tight.malloc(60_000));
    expect(chunks.every((p) => p !== 0)).toBe(true);
    expect(tight.malloc(3_000_000)).toBe(0);
    chunks.forEach((p) => tight.release(p)); // in address order: each lands in a list, the last at the top
    expect(tight.malloc(2_000_000)).not.toBe(0);
  });

  it("arenas of varying sizes made, used and released by request after request keep memory bounded", () => {
    // (found by review: free blocks were reused only at their exact size, so memory grew without bound)
    const r = randomSource(3);
    setRuntime(heap);
    try {
      const before = heap.mem.memory.buffer.byteLength;
      for (let i = 0; i < 400; i++) {
        const arena = new Arena({ firstBlock: 1024 });
        const bytes = TestAllTypesProto3.encode({ optionalBytes: new Uint8Array(100_000 + r.below(200_000)) });
        expect(TestAllTypesProto3.view(bytes, arena).optionalBytes.length).toBe(bytes.length - 4);
        arena.release();
      }
      expect(heap.mem.memory.buffer.byteLength - before).toBeLessThan(16 * 2 ** 20);
    } finally {
      setRuntime(codec);
    }
  });

  it("a compiled module still compiling in the background: decodes say so, and init() again waits for it", async () => {
    // (found by review: browsers refuse to compile modules over 4 KB synchronously on their main thread,
    // and the error blamed CODE_SIZE)
    const fresh = new Runtime(new Heap().exports());
    const bytes = TestAllTypesProto3.encode({ optionalInt32: 5 });
    const Module = WebAssembly.Module;
    (WebAssembly as { Module: unknown }).Module = function (b: Uint8Array) {
      if (b.byteLength > 4096) throw new RangeError("WebAssembly.Module(): Wasm code generation disallowed by embedder");
      return new Module(b);
    };
    setRuntime(fresh);
    try {
      expect(() => TestAllTypesProto3.decode(bytes)).toThrow(/still being compiled in the background: await init\(\) again to wait for them/);
    } finally {
      (WebAssembly as { Module: unknown }).Module = Module;
    }
    try {
      await init();
      expect(runtime()).toBe(fresh);
      expect(TestAllTypesProto3.decode(bytes).optionalInt32).toBe(5);
    } finally {
      setRuntime(codec);
    }
  });

  it("what only the codec does says how to load it", async () => {
    const { TestAllTypesProto2 } = await import("./gen/conformance_code_size/google/protobuf/test_messages_proto2_pb.js");
    const bytes = TestAllTypesProto2.encode({ optionalInt32: 1 });
    const needs = /needs the codec, and init\(\) started without it.*"hppproto\/codec"/;
    expect(() => on(heap, () => TestAllTypesProto2.decode(bytes))).toThrow(needs);
    expect(() => on(heap, () => toJson(TestAllTypesProto3, TestAllTypesProto3.view(TestAllTypesProto3.encode({ optionalInt32: 1 }))))).not.toThrow();
    expect(() => on(heap, () => fromJsonString(TestAllTypesProto3, '{"optionalInt32": 1}'))).not.toThrow();
    // the runtime stays usable
    expect(on(heap, () => TestAllTypes.decode(TestAllTypes.encode({ optionalInt32: 3 })).optionalInt32)).toBe(3);
  });
});
