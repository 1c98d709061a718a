// Bad input at the JS boundary: every case is a DecodeError (or SchemaError) with code, byte offset
// and field path, and the runtime keeps working afterwards.
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { Arena, DecodeError, getLimits, setLimits, EncodeError, init, MessageType, MessageView, SchemaError, fromJsonString, builder } from "hppproto";
import { runtime } from "../dist/ts/runtime.js";
import { defineSchema, type SchemaDef } from "../dist/ts/schema.js";
import { Node } from "./gen/names/limits_pb.js";
import { NestedTestAllTypes, TestAllTypes } from "./gen/unittest/google/protobuf/unittest_proto3_pb.js";
import { TestAllTypes as TestAllTypes2 } from "./gen/unittest/google/protobuf/unittest_pb.js";
import { Wire } from "./support/wire.js";
import { thrown, thrownError } from "./support/thrown.js";
import { repoRoot } from "./support/paths.js";
import { loadSet } from "./support/protos.js";
import { ABI } from "../dist/ts/abi.js";
import { CodecRuntime } from "../dist/ts/codecruntime.js";

beforeAll(async () => {
  await init();
});

const defaults = { maxDepth: 100, maxMessageSize: 0x7fffffff, maxElements: 0x7fffffff, maxAmplification: 256 };
afterEach(() => setLimits(defaults));

function expectDecodeError(fn: () => unknown, code: string, offset: number, path: string) {
  let error: unknown;
  try {
    fn();
  } catch (e) {
    error = e;
  }
  expect(error).toBeInstanceOf(DecodeError);
  expect(error).toMatchObject({ code, offset, path });
  // and the runtime is fine
  const ok = new Wire().tag(1, 0).varint(42).string(14, "still works").finish();
  expect(TestAllTypes.decode(ok).optionalInt32).toBe(42);
  expect(TestAllTypes.view(ok).optionalString).toBe("still works");
}

const root = "proto3_unittest.TestAllTypes";

describe("the C++ structures the runtime reads in place", () => {
  it("are laid out as ts/abi.ts says (hp_abi gives offsetof/sizeof), and a module that differs is refused", () => {
    const rt = runtime();
    const p = rt.exports.hp_abi() >>> 2;
    expect(Array.from(rt.mem.u32.subarray(p, p + ABI.length))).toEqual([...ABI]);
    // the same module, reporting an Arena whose end pointer moved
    const fake = rt.malloc(ABI.length * 4);
    rt.mem.u32.set(ABI, fake >>> 2);
    rt.mem.u32[(fake >>> 2) + 1] = 16;
    expect(() => new CodecRuntime({ ...rt.exports, _initialize: () => {}, hp_abi: () => fake })).toThrow(/lays out its structures differently/);
    rt.exports.free(fake);
  });
});

describe("malformed input", () => {
  it("truncated varint", () => {
    expectDecodeError(() => TestAllTypes.decode(new Wire().tag(1, 0).raw(0x80).finish()), "TRUNCATED", 1, `${root}.optional_int32`);
  });
  it("truncated fixed64", () => {
    expectDecodeError(() => TestAllTypes.view(new Wire().tag(12, 1).raw(1, 2, 3).finish()), "TRUNCATED", 1, `${root}.optional_double`);
  });
  it("overlong varint", () => {
    const bytes = new Wire().tag(2, 0).raw(0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01).finish();
    expectDecodeError(() => TestAllTypes.decode(bytes), "VARINT_OVERLONG", 1, `${root}.optional_int64`);
  });
  it("length past the end", () => {
    expectDecodeError(() => TestAllTypes.decode(new Wire().tag(14, 2).varint(50).raw(1, 2).finish()), "LENGTH_OUT_OF_BOUNDS", 2, `${root}.optional_string`);
  });
  it("field number 0 and wire types 6 and 7", () => {
    expectDecodeError(() => TestAllTypes.decode(new Uint8Array([0x08, 1, 0x00, 0])), "INVALID_FIELD_NUMBER", 2, root);
    expectDecodeError(() => TestAllTypes.decode(new Uint8Array([0x0e])), "INVALID_WIRE_TYPE", 0, root);
    expectDecodeError(() => TestAllTypes.decode(new Uint8Array([0xff, 0x01])), "INVALID_WIRE_TYPE", 0, root);
  });
  it("a known field with a wire type its type cannot have is kept as an unknown field, as protoc's parser keeps it", () => {
    // optional_int32 as fixed32, optional_nested_message as a varint, optional_string (14) as a varint
    const odd = new Wire().tag(1, 5).raw(5, 0, 0, 0).tag(18, 0).varint(1).tag(14, 0).varint(3).finish();
    const bytes = new Uint8Array([...new Wire().tag(2, 0).varint(7).finish(), ...odd]);
    const m = TestAllTypes.decode(bytes);
    expect(m).toMatchObject({ optionalInt32: 0, optionalInt64: 7n, optionalString: "" });
    expect(m.optionalNestedMessage).toBeUndefined();
    expect(m.$unknown).toEqual(odd);
    expect(TestAllTypes.view(bytes).$toObject()).toEqual(m);
    expect(TestAllTypes.encode(m)).toEqual(bytes); // nothing is lost on the way back
    // as protobufjs's generated code reads it too: the odd fields skipped, the rest kept
    const pb = loadSet("unittest").pbType("proto3_unittest.TestAllTypes").decode(bytes).toJSON();
    expect(pb).toEqual({ optional_int64: "7" });
  });
  it("invalid UTF-8 in a proto3 string, deep in the tree", () => {
    // NestedTestAllTypes { child = 1; payload = 2 }; the string's bytes start at offset 8
    const inner = new Wire().string(14, new Uint8Array([0x68, 0xc3, 0x28]));
    const nested = new Wire().message(1, new Wire().message(1, new Wire().message(2, inner)));
    expectDecodeError(() => NestedTestAllTypes.decode(nested.finish()), "INVALID_UTF8", 8,
      "proto3_unittest.NestedTestAllTypes.child.child.payload.optional_string");
  });
  it("invalid UTF-8 is accepted in proto2 strings (no validation there), replaced when read", () => {
    const bytes = new Wire().string(14, new Uint8Array([0x68, 0xff])).finish();
    expect(TestAllTypes2.decode(bytes).optionalString).toBe("h\ufffd");
  });
  it("malformed UTF-8 of any length reads exactly as TextDecoder replaces it", () => {
    const samples = [
      [0x68, 0xff],
      [0x61, 0x62, 0x63, 0x64, 0x65, 0x66, 0x67, 0x68, 0x69, 0x6a, 0x6b, 0x6c, 0xc3, 0x28, 0xe2, 0x82, 0xed, 0xa0, 0x80, 0xf4, 0x90],
      Array.from({ length: 300 }, (_, i) => (i % 7 === 0 ? 0x80 + (i % 64) : 0x41 + (i % 26))),
    ];
    for (const sample of samples) {
      const raw = new Uint8Array(sample);
      const bytes = new Wire().string(14, raw).finish();
      const expected = new TextDecoder().decode(raw);
      expect(TestAllTypes2.decode(bytes).optionalString).toBe(expected);
      expect(TestAllTypes2.view(bytes).optionalString).toBe(expected);
    }
  });
  it("groups that do not close, or close the wrong group", () => {
    expectDecodeError(() => TestAllTypes2.decode(new Wire().tag(16, 3).tag(17, 0).varint(1).finish()), "UNTERMINATED_GROUP", 5, "protobuf_unittest.TestAllTypes.optionalgroup");
    expectDecodeError(() => TestAllTypes2.decode(new Wire().tag(16, 3).tag(15, 4).finish()), "UNMATCHED_END_GROUP", 2, "protobuf_unittest.TestAllTypes.optionalgroup");
    expectDecodeError(() => TestAllTypes2.decode(new Wire().tag(16, 4).finish()), "UNMATCHED_END_GROUP", 0, "protobuf_unittest.TestAllTypes");
  });
  it("packed fixed-width run of the wrong length", () => {
    expectDecodeError(() => TestAllTypes.decode(new Wire().tag(42, 2).varint(5).raw(1, 2, 3, 4, 5).finish()), "PACKED_LENGTH", 3, `${root}.repeated_double[0]`);
  });
  it("random garbage never crashes the runtime", () => {
    let s = 12345;
    const next = () => ((s = (s * 1103515245 + 12345) >>> 0) >>> 16) & 0xff;
    let rejected = 0;
    for (let i = 0; i < 3000; i++) {
      const bytes = Uint8Array.from({ length: 1 + (i % 64) }, next);
      try {
        TestAllTypes2.decode(bytes);
        TestAllTypes.view(bytes);
      } catch (e) {
        expect(e).toBeInstanceOf(DecodeError);
        rejected++;
      }
    }
    expect(rejected).toBeGreaterThan(100);
    expect(TestAllTypes.decode(new Wire().tag(1, 0).varint(7).finish()).optionalInt32).toBe(7);
  });
});


describe("limits", () => {
  const nest = (levels: number) => {
    let w = new Wire().tag(8, 0).varint(1);
    for (let i = 0; i < levels; i++) w = new Wire().tag(8, 0).varint(1).message(1, w);
    return w.finish();
  };
  it("nesting deeper than 100 (default), or than the configured limit", () => {
    expect(Node.decode(nest(100)).id).toBe(1);
    let error: DecodeError | undefined;
    try {
      Node.decode(nest(101));
    } catch (e) {
      error = e as DecodeError;
    }
    expect(error?.code).toBe("DEPTH_LIMIT");
    expect(error?.path).toMatch(/^limits\.Node(\.child){64}\.…$/); // the 64 outermost frames
    setLimits({ maxDepth: 3 });
    expect(() => Node.view(nest(4))).toThrow(/DEPTH_LIMIT/);
    expect(Node.view(nest(3)).child?.child?.child?.id).toBe(1);
    expect(() => setLimits({ maxDepth: 1_000_000 })).toThrow(RangeError);
  });
  it("message size and element count", () => {
    setLimits({ maxMessageSize: 10 });
    expect(() => TestAllTypes.decode(new Uint8Array(11))).toThrow(expect.objectContaining({ code: "MESSAGE_TOO_LARGE", offset: 0 }));
    expect(TestAllTypes.decode(new Uint8Array([8, 1])).optionalInt32).toBe(1);
    setLimits({ maxMessageSize: defaults.maxMessageSize, maxElements: 3 });
    const four = new Wire().tag(31, 2).varint(4).raw(1, 2, 3, 4).finish();
    expect(() => TestAllTypes.decode(four)).toThrow(expect.objectContaining({ code: "TOO_MANY_ELEMENTS", offset: 3, path: `${root}.repeated_int32[0]` }));
    expect(TestAllTypes.decode(new Wire().tag(31, 2).varint(3).raw(1, 2, 3).finish()).repeatedInt32).toEqual([1, 2, 3]);
  });
  it("an arena over its limit fails cleanly and stays usable", () => {
    const arena = new Arena({ limit: 256 * 1024 });
    const big = new Wire().tag(3, 2).varint(400_000 * 8);
    const bytes = new Uint8Array(big.length + 400_000 * 8);
    bytes.set(big.finish());
    const withId = new Uint8Array([0x40, 1, ...bytes]);
    expect(() => Node.view(withId, arena)).toThrow(/OUT_OF_MEMORY/);
    expect(Node.view(new Uint8Array([0x40, 5]), arena).id).toBe(5);
    arena.release();
  });
  it("an arena's limit and first block are validated, not wrapped to 32 bits", () => {
    for (const limit of [-1, 2 ** 32 + 100, 2 ** 40, NaN, 1.5, Infinity]) {
      expect(() => new Arena({ limit }), String(limit)).toThrow(/limit must be an integer from 0 to 4 GiB - 1/);
    }
    for (const firstBlock of [NaN, 100.5, 2 ** 31]) expect(() => new Arena({ firstBlock })).toThrow(/firstBlock must be an integer/);
    const edge = new Arena({ limit: 2 ** 32 - 1 });
    expect(Node.view(new Uint8Array([0x40, 5]), edge).id).toBe(5);
    edge.release();
  });
  it("thousands of failures of every kind leave the arena and linear memory where they were", () => {
    const nested = (inner: Wire) => new Wire().tag(8, 0).varint(1).message(1, inner);
    const bad: [string, Uint8Array][] = [
      ["TRUNCATED", new Uint8Array([0x40, 0x80])],
      ["VARINT_OVERLONG", new Uint8Array([0x40, ...new Array(10).fill(0xff), 0x01])],
      ["LENGTH_OUT_OF_BOUNDS", new Wire().tag(8, 0).varint(1).tag(4, 2).varint(100).raw(1).finish()],
      ["MISSING_REQUIRED", nested(new Wire().tag(2, 0).varint(3)).finish()],
      ["DEPTH_LIMIT", (() => { let w = new Wire().tag(8, 0).varint(1); for (let i = 0; i < 120; i++) w = nested(w); return w.finish(); })()],
      ["UNMATCHED_END_GROUP", new Wire().tag(8, 0).varint(1).tag(9, 4).finish()],
      ["PACKED_LENGTH", new Wire().tag(8, 0).varint(1).tag(3, 2).varint(7).raw(1, 2, 3, 4, 5, 6, 7).finish()],
      ["TRUNCATED", new Wire().message(5, new Wire().tag(8, 0).varint(1)).message(5, new Wire().tag(8, 0).varint(2)).raw(0x40).finish()], // after two children
    ];
    const arena = new Arena();
    const first = Node.view(nested(new Wire().tag(8, 0).varint(2).string(4, "kept")).finish(), arena);
    const reserved = arena.reservedBytes;
    const memory = runtime().mem.buffer.byteLength;
    for (let round = 0; round < 500; round++) {
      for (const [code, bytes] of bad) {
        expect(thrown(() => Node.view(bytes, arena), DecodeError)[0]).toBe(code);
        expect(thrown(() => Node.decode(bytes), DecodeError)[0]).toBe(code);
        expect(thrown(() => Node.decodeDelimited(new Wire().varint(bytes.length).raw(...bytes).finish()), DecodeError)[0]).toBe(code);
      }
    }
    expect(arena.reservedBytes).toBe(reserved);
    expect(runtime().mem.buffer.byteLength).toBe(memory);
    expect(first.child?.name).toBe("kept"); // what the arena held before is untouched
    expect(Node.view(new Uint8Array([0x40, 9]), arena).id).toBe(9);
    arena.release();
  });
});

describe("schema tables", () => {
  class EmptyView extends MessageView {}
  it("a malformed table is a SchemaError on first use, and the runtime keeps working", () => {
    const table = new Uint8Array(24);
    new DataView(table.buffer).setUint32(0, 0x54505048, true);
    new DataView(table.buffer).setUint32(4, 1, true);
    new DataView(table.buffer).setUint32(12, 1, true); // one message, but no words for it
    // a table as a damaged generated module or runtime bug would hand over; defineSchema builds good ones
    const schemaOf = (t: Uint8Array, name: string): SchemaDef => ({ ...defineSchema([0, 0, 1, name, 0, 0, 0]), table: t });
    const broken = new MessageType(schemaOf(table.subarray(0, 16), "x.Broken"), 0, { view: EmptyView, read: () => ({}) });
    expect(() => broken.decode(new Uint8Array(0))).toThrow(SchemaError);
    const bad = new Uint8Array([...table.subarray(0, 16), 4, 0, 0, 0, 0, 0, 0, 0]); // record_size 4 < header
    const alsoBroken = new MessageType(schemaOf(bad, "x.B"), 0, { view: EmptyView, read: () => ({}) });
    expect(() => alsoBroken.view(new Uint8Array(0))).toThrow(/rejected in message x.B/);
    expect(TestAllTypes.decode(new Wire().tag(1, 0).varint(3).finish()).optionalInt32).toBe(3);
  });
});

describe("before init", () => {
  it("is a clear error, not a crash", async () => {
    const { getLimits } = await import("hppproto");
    expect(() => getLimits()).not.toThrow(); // initialized in beforeAll
  });
});

describe("what decoding and encoding take", () => {
  const caught = (fn: () => unknown): unknown => {
    try {
      fn();
    } catch (e) {
      return e;
    }
    throw new Error("did not throw");
  };
  const bytes = new Wire().tag(1, 0).varint(42).string(14, "in any buffer").finish();
  const padded = new Uint8Array(bytes.length + 8);
  padded.set(bytes, 8);

  it("any ArrayBufferView, ArrayBuffer or SharedArrayBuffer, from this realm or another", async () => {
    const shared = new SharedArrayBuffer(bytes.length);
    new Uint8Array(shared).set(bytes);
    const { runInNewContext } = await import("node:vm");
    const foreign = runInNewContext(`new Uint8Array([${Array.from(bytes)}]).buffer`) as ArrayBuffer;
    const inputs = [bytes, Buffer.from(bytes), bytes.slice().buffer, shared, new DataView(padded.buffer, 8), foreign, new Int8Array(padded.buffer, 8)];
    for (const input of inputs) {
      expect(TestAllTypes.decode(input)).toMatchObject({ optionalInt32: 42, optionalString: "in any buffer" });
      expect(TestAllTypes.view(input).optionalString).toBe("in any buffer");
    }
    const batch = TestAllTypes.encodeDelimited([{ optionalInt32: 1 }, { optionalInt32: 2 }]).slice();
    expect(TestAllTypes.decodeDelimited(batch.buffer).map((m) => m.optionalInt32)).toEqual([1, 2]);
    expect(TestAllTypes.viewDelimited(new DataView(batch.buffer)).map((m) => m.optionalInt32)).toEqual([1, 2]);
  });

  it("anything else is a TypeError that says what was expected", () => {
    for (const [input, got] of [["0801", 'a string ("0801")'], [[8, 1], "an Array"], [42, "number 42"], [null, "null"], [undefined, "undefined undefined"], [{}, "a plain object"]] as const) {
      for (const call of [() => TestAllTypes.decode(input as never), () => TestAllTypes.view(input as never), () => TestAllTypes.viewDelimited(input as never)]) {
        const e = caught(call);
        expect(e).toBeInstanceOf(TypeError);
        expect((e as Error).message).toMatch(/expected a Uint8Array, ArrayBuffer, SharedArrayBuffer or other ArrayBufferView/);
        expect((e as Error).message).toContain(`got ${got}`);
      }
    }
    expect(TestAllTypes.decode(bytes).optionalInt32).toBe(42);
  });

  it("encode() of anything but an object is a TypeError", () => {
    for (const v of [5, "x", null, undefined, true]) {
      const e = caught(() => TestAllTypes.encode(v as never));
      expect(e).toBeInstanceOf(TypeError);
      expect((e as Error).message).toMatch(/^proto3_unittest\.TestAllTypes: expected a message object or a view to encode, got /);
    }
    expect(TestAllTypes.encode({ optionalInt32: 1 })).toEqual(new Uint8Array([8, 1]));
  });
});

describe("before init()", () => {
  // a fresh process: this one has loaded the codec already
  const run = (program: string) => {
    const r = spawnSync(process.execPath, ["--input-type=module", "-e", program], { cwd: repoRoot, encoding: "utf8" });
    expect(r.stderr).toBe("");
    return r.stdout.trim();
  };

  it("every call that needs the codec is a NotInitializedError with a code", () => {
    const out = run(`
      import { NotInitializedError, builder } from "hppproto";
      import { Wide, decodeWide, viewWide, encodeWide } from "./test/gen/wide_js/wide_pb.js";
      for (const call of [() => Wide.decode(new Uint8Array(0)), () => Wide.view(new Uint8Array(0)), () => Wide.encode({}),
        () => builder(Wide), () => Wide.encodeDelimited([{}]), () => decodeWide(new Uint8Array(0)), () => viewWide(new Uint8Array(0)), () => encodeWide({})]) {
        try { call(); console.log("no error"); } catch (e) { console.log(e instanceof NotInitializedError, e.code, e.message.includes("await init()")); }
      }`);
    expect(out.split("\n")).toEqual(Array(8).fill("true NOT_INITIALIZED true"));
  });

  it("the limits are set and read before init() too, and init() keeps them", () => {
    const out = run(`
      import { getLimits, setLimits, init } from "hppproto";
      import { Wide, decodeWide } from "./test/gen/wide_js/wide_pb.js";
      setLimits({ maxMessageSize: 3 });
      console.log(getLimits().maxMessageSize);
      await init();
      for (const decode of [(b) => Wide.decode(b), decodeWide]) {
        try { decode(new Uint8Array(4)); console.log("no error"); } catch (e) { console.log(e.code); }
      }`);
    expect(out.split("\n")).toEqual(["3", "MESSAGE_TOO_LARGE", "MESSAGE_TOO_LARGE"]);
  });

  it("initSync() with the codec for browsers needs no arguments: it is inlined", () => {
    const out = run(`
      import "./dist/ts/codec.browser.js";
      import { initSync } from "./dist/ts/index.js";
      import { Wide } from "./test/gen/wide_js/wide_pb.js";
      initSync();
      console.log(String(Wide.decode(Wide.encode({ i64: 7n })).i64));`);
    expect(out).toBe("7");
  });

  it("the inlined modules are the shipped ones: DecompressionStream (init) and fflate (initSync) both inflate them to wasm/dist's bytes", async () => {
    for (const [inline, file] of [["wasm-inline", "hppproto"], ["wasm-inline-decode", "hppproto-decode"]]) {
      const { wasmBytes, wasmBytesSync } = await import(`../dist/ts/${inline}.js`);
      const shipped = new Uint8Array(readFileSync(`${repoRoot}wasm/dist/${file}.wasm`));
      expect(await wasmBytes()).toEqual(shipped);
      expect(wasmBytesSync()).toEqual(shipped);
    }
  });
});

describe("enum-typed values out of range name their enum", () => {
  const nested = "proto3_unittest.TestAllTypes.NestedEnum";
  it("encode(): singular and repeated, generated and builder", () => {
    for (const o of [{ optionalNestedEnum: 2 ** 40 }, { repeatedNestedEnum: [1, 2.5] }]) {
      expect(() => TestAllTypes.encode(o)).toThrow(`is not a value of enum ${nested} (a 32-bit signed integer)`);
    }
    expect(() => (builder(TestAllTypes).optionalNestedEnum = -(2 ** 31) - 1)).toThrow(`enum ${nested}`);
  });
  it("ProtoJSON in", () => {
    const e = thrownError(() => fromJsonString(TestAllTypes, '{"optionalNestedEnum": 99999999999}'));
    expect(e.message).toBe(`99999999999 is not a value of enum ${nested} (a name, or a 32-bit signed integer) (proto3_unittest.TestAllTypes.optionalNestedEnum) [VALUE_OUT_OF_RANGE]`);
  });
});

describe("running out of stack inside WASM", () => {
  /** NestedTestAllTypes nested `depth` levels through child (field 1). */
  const nested = (depth: number): Uint8Array => {
    let bytes = new Uint8Array(0);
    for (let i = 0; i < depth; i++) {
      const w = new Wire().tag(1, 2).varint(bytes.length).finish();
      const next = new Uint8Array(w.length + bytes.length);
      next.set(w);
      next.set(bytes, w.length);
      bytes = next;
    }
    return bytes;
  };

  it("maxDepth is capped where the stack holds it", () => {
    expect(() => setLimits({ maxDepth: 1001 })).toThrow(/maxDepth is at most 1000/);
    setLimits({ maxDepth: 1000 });
    const deep = nested(1000);
    expect(NestedTestAllTypes.encode(NestedTestAllTypes.view(deep))).toEqual(deep);
  });

  it("a call that overflows is DEPTH_LIMIT, and thousands of them leave the runtime whole", () => {
    setLimits({ maxDepth: 1000 });
    const deep = nested(900);
    const view = NestedTestAllTypes.view(deep, new Arena());
    let traps = 0;
    // dive until the JS stack is full, then on the way up call the codec at every level: near the
    // top of the stack the call gets into WASM and runs out there
    const dive = (): void => {
      try {
        dive();
      } catch {
        // the stack is full here
      }
      for (const call of [() => NestedTestAllTypes.decode(deep), () => NestedTestAllTypes.encode(view)]) {
        try {
          call();
        } catch (e) {
          if ((e instanceof DecodeError || e instanceof EncodeError) && e.code === "DEPTH_LIMIT") traps++;
          else if (!(e instanceof RangeError)) throw e; // a RangeError from JS, before WASM was reached
        }
      }
    };
    // each trap had nested up to ~900 levels deep in WASM, its stack in use (20 KB and more) when it
    // stopped: without the stack pointer put back, a few hundred traps exhaust the 5 MB stack
    for (let round = 0; round < 20 && traps < 2000; round++) dive();
    expect(traps).toBeGreaterThanOrEqual(2000);
    expect(getLimits()).toEqual({ ...defaults, maxDepth: 1000 });
    for (let i = 0; i < 100; i++) expect(NestedTestAllTypes.encode(NestedTestAllTypes.decode(deep))).toEqual(deep);
    expect(TestAllTypes.decode(new Wire().tag(1, 0).varint(42).finish()).optionalInt32).toBe(42);
  });

  it("a trap whose catch block cannot run either (the very end of the JS stack) costs the stack nothing", () => {
    // Replays the boundary fuzzer's seed 172604, which found it: each such trap left the WASM stack
    // pointer where it stopped, 96 bytes and more, until a decode ran off the end of the stack
    // (RuntimeError: memory access out of bounds). The next call now puts it back.
    const run = spawnSync(process.execPath, ["--expose-gc", "fuzz/boundary.mjs", "2", "172604"], { cwd: repoRoot, encoding: "utf8" });
    expect(run.stdout).not.toContain("VIOLATION");
    expect(run.status).toBe(0);
  });
});
