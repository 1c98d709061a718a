// A runtime started without the codec (what init() starts when nothing the program loaded needs
// it: memory, allocator and arenas in JS, ts/heap.ts) against one with it, in the same process
// (setRuntime() switches between them): on every message of the test sets with compiled decoders,
// random and damaged wire bytes decode to the same plain objects, views and errors; views and
// builders, which only the codec encodes from their records, encode to the same bytes (read out and
// encoded by the generated encoders: a map's entries in its plain object's order); limits apply the same. What only the codec does fails with an
// error that says how to load it.
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { Arena, DecodeError, EncodeError, init, setLimits, type AnyMessageType, toJson, fromJsonString, clone, builder } from "hppproto";
import { runtime, setRuntime, Runtime } from "../dist/ts/runtime.js";
import { Heap } from "../dist/ts/heap.js";
import { initWithSync } from "../dist/ts/loader.js";
import { holdsRawStrings, type SchemaDef } from "../dist/ts/schema.js";
import { randomSource } from "../fuzz/random.mjs";
import { fileSchemas, mutate, randomInput, randomRun } from "./support/wirecheck.mjs";
import { genDir } from "./support/paths.js";
import { TestAllTypes } from "./gen/unittest/google/protobuf/unittest_pb.js";
import { NestedTestAllTypes } from "./gen/unittest/google/protobuf/unittest_proto3_pb.js";
import { TestAllTypesProto3 } from "./gen/conformance/google/protobuf/test_messages_proto3_pb.js";

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
  it("starts from init() when nothing loaded needs the codec: no codec, the limits given", async () => {
    // (this file's imports load the codec's modules: initWith() is init() with nothing wanting it)
    setRuntime(undefined as unknown as Runtime);
    try {
      const rt = initWithSync({ limits: { maxDepth: 7 } }, undefined);
      expect(rt.hasCodec).toBe(false);
      expect(rt.full).toBeUndefined();
      expect(rt.limits.maxDepth).toBe(7);
      expect(TestAllTypes.decode(TestAllTypes.encode({ optionalInt32: 5 })).optionalInt32).toBe(5);
    } finally {
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
      return codec.partially(() => hex(delimited ? T.encodeDelimited(T.decodeDelimited(b)) : T.encode(T.decode(b))));
    };
    for (const set of ["conformance", "unittest"]) {
      for (const def of (await fileSchemas(`${genDir}/${set}`)) as SchemaDef[]) {
        if (def.compiled === undefined) continue;
        def.messages.forEach((_, index) => {
          const T = def.types[index] as AnyMessageType | undefined;
          if (T === undefined || T.builderParts() === undefined) return;
          if (holdsRawStrings(def, index)) {
            // only the codec keeps strings that need not be text: without it, their views do not encode
            expect(() => on(heap, () => runtime().partially(() => T.encode(T.view(new Uint8Array(0)))))).toThrow(`hppproto: encoding views and builders of ${T.typeName} needs the codec`);
            return;
          }
          for (let n = 0; n < 6; n++) {
            const bytes: Uint8Array = randomInput(def, index, r);
            const viewBytes = (rt: Runtime) => outcome(() => on(rt, () => runtime().partially(() => hex(T.encode(T.view(bytes))))));
            const expected = viewBytes(codec);
            if (!("value" in expected)) continue;
            const got = viewBytes(heap);
            // a map's entries come out in its plain object's order (integer keys ascending): the same message
            if (JSON.stringify(got) !== JSON.stringify(expected)) {
              expect(canonical(T, (got as { value: string }).value)).toBe(canonical(T, expected.value as string));
              reordered++;
              continue;
            }
            const builderBytes = (rt: Runtime) => outcome(() => on(rt, () => runtime().partially(() => {
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

  it("NaN payloads, -0 and unknown fields survive a view's encode without the codec", () => {
    const bytes = new Uint8Array([
      0x61, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0xf8, 0x7f, // optional_double (12): a NaN with a payload
      0x5d, 0x00, 0x00, 0x00, 0x80, // optional_float (11): -0
      0xb8, 0x3e, 0x05, // unknown field 999: 5
    ]);
    const encoded = [codec, heap].map((rt) => hex(on(rt, () => TestAllTypesProto3.encode(TestAllTypesProto3.view(bytes)))));
    expect(encoded[0]).toBe("5d00000080" + "61010000000000f87f" + "b83e05"); // in field order, unknown fields last
    expect(encoded[1]).toBe(encoded[0]);
  });

  it("limits: depth, size and memory budget fail the same", () => {
    let deep = NestedTestAllTypes.encode({});
    for (let i = 0; i < 12; i++) deep = NestedTestAllTypes.encode(NestedTestAllTypes.decode(new Uint8Array([0x0a, deep.length, ...deep])));
    for (const rt of [codec, heap]) on(rt, () => setLimits({ maxDepth: 5 }));
    try {
      const errors = [codec, heap].map((rt) => outcome(() => on(rt, () => NestedTestAllTypes.decode(deep))));
      expect((errors[0] as { error: unknown[] }).error.slice(0, 2)).toEqual(["DecodeError", "DEPTH_LIMIT"]);
      expect(errors[1]).toEqual(errors[0]);
      const encodes = [codec, heap].map((rt) => outcome(() => on(rt, () => NestedTestAllTypes.encode(NestedTestAllTypes.view(new Uint8Array([0x0a, 0]))))));
      expect(encodes[1]).toEqual(encodes[0]);
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
