// The encoders generated per message (codegen/emit/encode.ts over ts/encoder.ts) against the codec:
// on every message of the test schema sets, plain objects decoded from random wire bytes (unknown
// fields, extensions, maps, groups, every int64 form) and the same objects with one value made bad
// encode to the same bytes, or fail with the same error (code, path, reason), as when filled into a
// record (a builder) and encoded by the codec.
import { beforeAll, describe, expect, it } from "vitest";
import { EncodeError, init, setLimits, type AnyMessageType, builder } from "hppproto";
import { runtime } from "../dist/ts/runtime.js";
import type { SchemaDef } from "../dist/ts/schema.js";
import { randomSource } from "../fuzz/random.mjs";
import { fileSchemas, randomInput } from "./support/wirecheck.mjs";
import { genDir } from "./support/paths.js";
import { thrown } from "./support/thrown.js";
import { TestAllTypes as TestAllTypes3 } from "./gen/unittest/google/protobuf/unittest_proto3_pb.js";
import { NestedTestAllTypes, TestPackedTypes } from "./gen/unittest/google/protobuf/unittest_proto3_pb.js";
import { TestAllExtensions, TestRequired, TestRequiredForeign } from "./gen/unittest/google/protobuf/unittest_pb.js";
import { TestMap } from "./gen/unittest/google/protobuf/map_unittest_pb.js";
import { partially } from "../dist/ts/limits.js";

beforeAll(async () => {
  await init();
});

type Outcome = { bytes: string } | { error: [string, string, string] } | { other: string };

function outcome(fn: () => Uint8Array): Outcome {
  try {
    return { bytes: Buffer.from(fn()).toString("hex") };
  } catch (e) {
    if (e instanceof EncodeError) return { error: [e.code, e.path, e.reason] };
    return { other: String(e) };
  }
}

/** The codec's way: the object filled into a builder's record, the record encoded. */
function byCodec(T: AnyMessageType, o: unknown): Uint8Array {
  const b = builder(T, o);
  try {
    return T.encode(b);
  } finally {
    b.$release();
  }
}

/** Bad values of every kind, one of them put in place of a field's value. */
const bad: unknown[] = ["x", 1.5, 2 ** 40, -1, 1n, "1", "\uD800", "a\uDC00b", true, {}, [], [1, "x"], [{}, 5], new Uint8Array(0), new Float64Array(2), NaN, -0, { case: "nope", value: 1 }];

/** Every (object, key) of a plain object tree, arrays' elements included. */
function slots(o: unknown, out: [Record<string, unknown>, string][] = [], depth = 0): [Record<string, unknown>, string][] {
  if (depth > 6 || typeof o !== "object" || o === null || o instanceof Uint8Array || ArrayBuffer.isView(o)) return out;
  for (const k of Object.keys(o)) {
    out.push([o as Record<string, unknown>, k]);
    slots((o as Record<string, unknown>)[k], out, depth + 1);
  }
  return out;
}

const sets = ["conformance", "unittest", "names", "custom_options", "wide", "wide_string", "wide_number", "code_size_mixed"];

describe("generated encoders against the codec", () => {
  it("random plain objects of every test schema: the same bytes; one bad value: the same error", async () => {
    const r = randomSource(20261127);
    const counts = { types: 0, same: 0, errors: 0, bad: 0 };
    const rt = runtime();
    for (const set of sets) {
      const defs: SchemaDef[] = await fileSchemas(`${genDir}/${set}`);
      for (const def of defs) {
        def.messages.forEach((_, index) => {
          const T = def.types[index] as AnyMessageType | undefined;
          if (T === undefined || (T as unknown as { parts: { encode?: unknown } }).parts.encode === undefined) return;
          if (T.parts.builder === undefined) return;
          counts.types++;
          for (let n = 0; n < 12; n++) {
            const bytes = randomInput(def, index, r);
            const forms = ["bigint", "string", "number"] as const;
            let o: Record<string, unknown>;
            try {
              // partially: proto2 required fields may be absent, for the encoders to report
              o = partially(() => T.decode(bytes, { int64: forms[n % 3]! })) as Record<string, unknown>;
            } catch {
              continue; // invalid UTF-8, a number form that cannot hold a value, ...
            }
            const a = outcome(() => T.encode(o)), b = outcome(() => byCodec(T, o));
            expect(a, `${T.typeName} ${Buffer.from(bytes).toString("hex")}`).toEqual(b);
            if ("bytes" in a) counts.same++;
            else counts.errors++;
            // one value made bad
            const places = slots(o);
            if (places.length === 0) continue;
            const [holder, key] = places[r.below(places.length)]!;
            const before = holder[key];
            holder[key] = bad[r.below(bad.length)];
            const c = outcome(() => T.encode(o)), d = outcome(() => byCodec(T, o));
            expect(c, `${T.typeName} ${Buffer.from(bytes).toString("hex")} .${key} = ${String(holder[key])}`).toEqual(d);
            holder[key] = before;
            counts.bad++;
          }
        });
      }
    }
    console.log(`generated encoders against the codec: ${JSON.stringify(counts)}`);
    expect(counts.types).toBeGreaterThan(300);
    expect(counts.same).toBeGreaterThan(2000);
    expect(counts.errors).toBeGreaterThan(50);
  }, 120_000);

  it("implicit-presence values are left out by their bits, as the codec's records hold them", () => {
    // -0 is written; a float too small for 32 bits rounds to +0 and is not; NaN is
    expect([...TestAllTypes3.encode({ optionalDouble: -0 })]).toEqual([0x61, 0, 0, 0, 0, 0, 0, 0, 0x80]);
    expect([...TestAllTypes3.encode({ optionalFloat: 1e-50 })]).toEqual([]);
    expect([...TestAllTypes3.encode({ optionalFloat: -1e-50 })]).toEqual([0x5d, 0, 0, 0, 0x80]);
    expect(TestAllTypes3.encode({ optionalInt64: "0", optionalUint64: 0, optionalBytes: new Uint8Array(0), optionalString: "" })).toEqual(new Uint8Array(0));
  });

  it("64-bit zeros in every form are left out, other values written, as the codec does", () => {
    for (const zero of [0n, 0, -0, "0", "-0", "00"]) {
      const o = { optionalInt64: zero, optionalUint64: zero, optionalSint64: zero, optionalFixed64: zero, optionalSfixed64: zero };
      expect(TestAllTypes3.encode(o as never)).toEqual(new Uint8Array(0));
      expect(byCodec(TestAllTypes3, o)).toEqual(new Uint8Array(0));
    }
    for (const x of [1n, -1n, 1, "-1", 2n ** 63n - 1n]) {
      const o = { optionalInt64: x, optionalSint64: x, optionalSfixed64: x };
      expect(TestAllTypes3.encode(o as never)).toEqual(byCodec(TestAllTypes3, o));
    }
    expect(thrown(() => TestAllTypes3.encode({ optionalInt64: 2n ** 63n } as never), EncodeError)).toEqual(["VALUE_OUT_OF_RANGE", "proto3_unittest.TestAllTypes.optional_int64"]);
  });

  it("strings and messages at the edges of a one-byte length are written as the codec writes them", () => {
    const units = ["a", "é", "€", "😀"];
    for (const unit of units) {
      for (const n of [1, 20, 41, 42, 43, 44, 63, 64, 65, 127, 128, 200]) {
        const s = unit.repeat(Math.ceil(n / unit.length)).slice(0, n - (n % unit.length));
        // optional_string (tag 114), repeated_string (tag 354: two bytes), a nested message around it
        const o = { optionalString: s, repeatedString: [s, "x" + s], optionalNestedMessage: { bb: 1 }, optionalForeignMessage: { c: s.length } };
        const bytes = TestAllTypes3.encode(o);
        expect(bytes).toEqual(byCodec(TestAllTypes3, o));
        expect(TestAllTypes3.decode(bytes)).toMatchObject(o);
        const nested = { payload: o, child: { payload: o } };
        expect(NestedTestAllTypes.encode(nested)).toEqual(byCodec(NestedTestAllTypes, nested));
      }
    }
    for (const s of ["\uD800", "a".repeat(41) + "\uDC00", "a".repeat(42) + "\uD800", "a".repeat(100) + "\uD800x"]) {
      expect(thrown(() => TestAllTypes3.encode({ optionalString: s }), EncodeError)).toEqual(["INVALID_UTF16", "proto3_unittest.TestAllTypes.optional_string"]);
      expect(thrown(() => TestAllTypes3.encode({ repeatedString: ["ok", s] }), EncodeError)).toEqual(["INVALID_UTF16", "proto3_unittest.TestAllTypes.repeated_string[1]"]);
    }
  });

  it("long runs of doubles and floats (staged in chunks) write every value as the codec does, and a bad element is named", () => {
    for (const n of [511, 512, 513, 1536, 9000]) {
      const values = Array.from({ length: n }, (_, i) => (i % 7 === 0 ? -0 : Math.sin(i) * 10 ** ((i % 90) - 45)));
      if (n > 4098) [values[511], values[4097], values[8999]] = [NaN, Infinity, -Infinity];
      const o = { repeatedDouble: values, repeatedFloat: values };
      const bytes = TestAllTypes3.encode(o);
      expect(bytes).toEqual(byCodec(TestAllTypes3, o));
      expect(TestAllTypes3.decode(bytes).repeatedDouble).toEqual(values);
    }
    const values: unknown[] = Array.from({ length: 9000 }, (_, i) => i);
    values[8500] = "8500";
    expect(thrown(() => TestAllTypes3.encode({ repeatedDouble: values } as never), EncodeError)).toEqual(["INVALID_VALUE", "proto3_unittest.TestAllTypes.repeated_double[8500]"]);
    expect(thrown(() => TestAllTypes3.encode({ repeatedFloat: values } as never), EncodeError)).toEqual(["INVALID_VALUE", "proto3_unittest.TestAllTypes.repeated_float[8500]"]);
  });

  it("packed varint runs mixing one-, two- and longer varints write each value as the codec does", () => {
    const edges = [0, 1, 127, 128, 129, 255, 16383, 16384, 2 ** 21 - 1, 2 ** 21, 2 ** 28, 2 ** 31 - 1];
    const r = randomSource(7);
    for (const n of [1, 2, 3, 17, 1000]) {
      const u = Array.from({ length: n }, () => r.pick(edges));
      const o = { packedUint32: [...u, 2 ** 32 - 1], packedInt32: u.map((x, i) => (i % 3 === 0 ? -x | 0 : x)), packedSint32: u.map((x, i) => (i % 2 ? -x | 0 : x)), packedEnum: u.map((x) => x % 3) };
      const bytes = TestPackedTypes.encode(o);
      expect(bytes).toEqual(byCodec(TestPackedTypes, o));
      expect(TestPackedTypes.decode(bytes)).toMatchObject(o);
    }
  });

  it("a map entry whose value is absent is written with the value's zero, as protoc writes it", () => {
    const bytes = TestMap.encode({ mapInt32Int32: { 5: null }, mapInt32ForeignMessage: { 7: undefined } } as never);
    expect([...bytes]).toEqual([0x0a, 4, 0x08, 5, 0x10, 0, 0x8a, 0x01, 4, 0x08, 7, 0x12, 0]);
    expect(bytes).toEqual(byCodec(TestMap, { mapInt32Int32: { 5: null }, mapInt32ForeignMessage: { 7: undefined } }));
  });

  it("an absent required field is reported only when no value is bad, the first in the codec's order", () => {
    const o = { a: 1, b: 2 }; // c is absent
    expect(thrown(() => TestRequired.encode(o), EncodeError)).toEqual(["MISSING_REQUIRED", "protobuf_unittest.TestRequired.c"]);
    expect(thrown(() => TestRequired.encode({ ...o, dummy2: "x" } as never), EncodeError)).toEqual(["INVALID_VALUE", "protobuf_unittest.TestRequired.dummy2"]);
    const foreign = { optionalMessage: { a: 1, b: 2, c: 3 }, repeatedMessage: [{ a: 1, b: 2, c: 3 }, { a: 1, c: 3 }] };
    expect(thrown(() => TestRequiredForeign.encode(foreign), EncodeError)).toEqual(["MISSING_REQUIRED", "protobuf_unittest.TestRequiredForeign.repeated_message[1].b"]);
    expect(outcome(() => TestRequiredForeign.encode(foreign))).toEqual(outcome(() => byCodec(TestRequiredForeign, foreign)));
  });

  it("an absent required field a getter gives the second time is still absent: the encode fails", () => {
    let reads = 0;
    const o = { a: 1, b: 2, get c() { return reads++ === 0 ? undefined : 3; } };
    expect(thrown(() => TestRequired.encode(o), EncodeError)[0]).toBe("MISSING_REQUIRED");
  });

  it("a path through an extension names it as decode errors do, after a dot", () => {
    // (the brackets of "[pkg.name]" read as an element index put nothing between field and extension)
    const e = thrown(() => TestAllExtensions.encode({ optionalNestedMessageExtension: { bb: "x" } } as never), EncodeError);
    expect(e).toEqual(["INVALID_VALUE", "protobuf_unittest.TestAllExtensions.[protobuf_unittest.optional_nested_message_extension].bb"]);
  });

  it("an object that holds itself is DEPTH_LIMIT at the depth limit, not a stack overflow", () => {
    const cycle: Record<string, unknown> = { payload: { optionalInt32: 1 } };
    cycle.child = cycle;
    const e = thrown(() => NestedTestAllTypes.encode(cycle), EncodeError);
    expect(e[0]).toBe("DEPTH_LIMIT");
    expect(e[1]).toBe("proto3_unittest.NestedTestAllTypes" + ".child".repeat(101));
  });

  it("an encode that runs out of JS stack is DEPTH_LIMIT, as in the codec, and the next encode works", () => {
    setLimits({ maxDepth: 1000 });
    try {
      const cycle: Record<string, unknown> = { payload: { optionalInt32: 1 } };
      cycle.child = cycle;
      const seen = new Set<string>();
      for (const frames of [0, 2000, 4000, 6000, 8000]) {
        let reached = false, outcome: unknown;
        const recurse = (n: number): void => {
          if (n > 0) return recurse(n - 1);
          reached = true;
          try {
            NestedTestAllTypes.encode(cycle);
          } catch (e) {
            outcome = e;
          }
        };
        try {
          recurse(frames);
        } catch {
          // the recursion itself ran out before it reached the encode
        }
        if (!reached) continue;
        expect(outcome).toBeInstanceOf(EncodeError);
        expect((outcome as EncodeError).code).toBe("DEPTH_LIMIT");
        seen.add((outcome as EncodeError).reason);
      }
      // both ends: the limit, and the stack
      expect([...seen].sort()).toEqual(["messages nested deeper than the limit (1000)", "messages nested too deep for the stack left to this call"]);
      expect(NestedTestAllTypes.decode(NestedTestAllTypes.encode({ child: { payload: { optionalInt32: 7 } } })).child?.payload?.optionalInt32).toBe(7);
    } finally {
      setLimits({ maxDepth: 100 });
    }
  });

  it("an encode inside a getter of the object being encoded writes into its own buffer", () => {
    const inner = { get optionalString() { return Buffer.from(TestAllTypes3.encode({ optionalInt32: 5 })).toString("hex"); } };
    const bytes = TestAllTypes3.encode({ optionalInt32: 1, optionalNestedMessage: { bb: 2 }, ...Object.defineProperties({}, Object.getOwnPropertyDescriptors(inner)) });
    expect(TestAllTypes3.decode(bytes)).toMatchObject({ optionalInt32: 1, optionalNestedMessage: { bb: 2 }, optionalString: "0805" });
  });
});
