// A message type's decode(), view() and encode() as functions of their own (generated decodeX,
// viewX, encodeX): the same results and errors as the type's methods on every message of the test
// schemas, and bundles of programs that call only one of them carry nothing else of the type.
import { build } from "esbuild";
import { beforeAll, describe, expect, it } from "vitest";
import { DecodeError, EncodeError, getLimits, init, MessageType, MessageView, setLimits } from "hppproto";
import { encodeWithProtobufjs, loadSet, randomObject, requiresItself, rng } from "./support/protos.js";
import { genDir, repoRoot } from "./support/paths.js";
import { decodePath } from "../dist/ts/message.js";
import { runtime } from "../dist/ts/runtime.js";
import type { SchemaSet } from "./support/paths.js";
import { partially, partialPending } from "../dist/ts/limits.js";

beforeAll(async () => {
  await init();
});

const generated = import.meta.glob<Record<string, unknown>>("./gen/**/*_pb.ts", { eager: true });

interface Functions {
  decode?: (bytes: Uint8Array) => unknown;
  view?: (bytes: Uint8Array) => MessageView;
  encode?: (message: unknown) => Uint8Array;
}

/**
 * Each message type of a set's modules with its functions: an export decodeR, viewR or encodeR
 * whose R is the type's name in the same module, or that name with the "$" suffixes of names that
 * were taken left out of one or both.
 */
function functionsOf(set: SchemaSet): Map<MessageType<any, any>, Functions> {
  const out = new Map<MessageType<any, any>, Functions>();
  const bare = (name: string) => name.replace(/\$+$/, "");
  for (const [file, mod] of Object.entries(generated)) {
    if (!file.startsWith(`./gen/${set}/`)) continue;
    for (const [name, value] of Object.entries(mod)) {
      const m = /^(decode|view|encode)([A-Za-z_]\w*\$*)$/.exec(name);
      // (not a class: the view class of a message named decodeFoo is decodeFooView)
      if (m === null || typeof value !== "function" || Function.prototype.toString.call(value).startsWith("class")) continue;
      const [, verb, rest] = m as unknown as [string, keyof Functions, string];
      const exact = mod[rest];
      const type = (exact instanceof MessageType ? exact : Object.entries(mod).find(([n, v]) => bare(n) === bare(rest) && v instanceof MessageType)?.[1]) as MessageType<any, any> | undefined;
      if (type === undefined) continue;
      const fns = out.get(type) ?? {};
      expect(fns[verb], `${name}: a second ${verb} function of ${type.typeName}`).toBeUndefined();
      fns[verb] = value as never;
      out.set(type, fns);
    }
  }
  return out;
}

/** A varint's bytes (a length prefix). */
function lengthOf(n: number): number[] {
  const out: number[] = [];
  for (; n >= 0x80; n >>>= 7) out.push((n & 0x7f) | 0x80);
  out.push(n);
  return out;
}

/** The error fn throws, as what identifies it: class, code, offset or path, message. */
function failure(fn: () => unknown): unknown {
  try {
    fn();
  } catch (e) {
    if (e instanceof DecodeError) return ["DecodeError", e.code, e.offset, e.path, e.message];
    if (e instanceof EncodeError) return ["EncodeError", e.code, e.path, e.message];
    return [(e as Error).constructor.name, (e as Error).message];
  }
  return "no error";
}

describe("decodeX, viewX and encodeX against the type's methods", () => {
  it.each(["unittest", "conformance", "names", "wide", "wide_string", "wide_plain", "wide_views"] as const)("%s: same plain objects, views, bytes and errors, on random and damaged input", (set) => {
    const loaded = loadSet(set);
    const functions = functionsOf(set);
    // every message type of the set has the functions its facades give
    expect(functions.size).toBe([...loaded.types.values()].filter((t) => t.parts.read !== undefined || t.parts.view !== undefined).length);
    let compared = 0;
    for (const [type, fns] of functions) {
      expect(fns.decode !== undefined).toBe(type.parts.read !== undefined);
      expect(fns.view !== undefined).toBe(type.parts.view !== undefined);
      expect(fns.encode !== undefined).toBe(type.parts.encode !== undefined);
      const model = loaded.models.get(type.typeName)!;
      const r = rng(type.typeName.length * 7919);
      let previous = new Uint8Array(0);
      for (let i = 0; i < 8; i++) {
        // (no valid instance of a message that requires itself exists: its empty input fails)
        const bytes = requiresItself(model) ? new Uint8Array(0) : encodeWithProtobufjs(loaded, type.typeName, randomObject(loaded, model, r));
        if (requiresItself(model)) {
          if (fns.decode) expect(failure(() => fns.decode!(bytes))).toEqual(failure(() => type.decode(bytes)));
          if (fns.view) expect(failure(() => fns.view!(bytes))).toEqual(failure(() => type.view(bytes)));
          continue;
        }
        if (fns.decode) {
          const plain = fns.decode(bytes);
          expect(plain).toEqual(type.decode(bytes));
          if (fns.encode) expect(fns.encode(plain)).toEqual(type.encode(plain));
        }
        if (fns.view) {
          const view = fns.view(bytes);
          expect(view).toBeInstanceOf(type.parts.view!);
          expect(type.encode(view)).toEqual(type.encode(type.view(bytes)));
        }
        // cut short, with bytes changed, and after the previous message (its fields merge): the same
        // error, or the same result
        const cut = bytes.subarray(0, Math.floor(r() * bytes.length));
        const damaged = Uint8Array.from(bytes), damaged2 = Uint8Array.from(bytes);
        if (bytes.length > 0) {
          damaged[Math.floor(r() * bytes.length)] ^= 0x80;
          damaged2[Math.floor(r() * bytes.length)] = Math.floor(r() * 256);
          damaged2[Math.floor(r() * bytes.length)] = Math.floor(r() * 256);
        }
        const merged = new Uint8Array(previous.length + bytes.length);
        merged.set(previous);
        merged.set(bytes, previous.length);
        previous = bytes;
        for (const input of [cut, damaged, damaged2, merged]) {
          if (fns.decode) {
            const byFunction = failure(() => fns.decode!(input)), byMethod = failure(() => type.decode(input));
            expect(byFunction, `${type.typeName} ${Buffer.from(input).toString("hex")}`).toEqual(byMethod);
            compared++;
            if (byMethod === "no error") expect(fns.decode(input)).toEqual(type.decode(input));
          }
          if (fns.view) expect(failure(() => fns.view!(input))).toEqual(failure(() => type.view(input)));
        }
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(0);
  });

  it("a message merged from several occurrences names a map entry by its place among all the entries so far, keys that came again included (found by fuzz/plain.mjs)", () => {
    const mod = generated["./gen/unittest/google/protobuf/struct_pb.ts"]!;
    const Value = mod.Value as MessageType<any, any>;
    const decodeValue = mod.decodeValue as (b: Uint8Array) => unknown;
    // struct_value { "a", "a" }, struct_value { "b" }, struct_value { "c": string_value 0xff }: its 4th entry
    const bytes = Uint8Array.from([
      0x2a, 0x0a, 0x0a, 0x03, 0x0a, 0x01, 0x61, 0x0a, 0x03, 0x0a, 0x01, 0x61,
      0x2a, 0x05, 0x0a, 0x03, 0x0a, 0x01, 0x62,
      0x2a, 0x0a, 0x0a, 0x08, 0x0a, 0x01, 0x63, 0x12, 0x03, 0x1a, 0x01, 0xff,
    ]);
    const expected = ["DecodeError", "INVALID_UTF8", 30, "google.protobuf.Value.struct_value.fields[3].value.string_value", expect.any(String)];
    expect(failure(() => Value.decode(bytes))).toEqual(expected);
    expect(failure(() => decodeValue(bytes))).toEqual(expected);
  });

  it("unknown fields, many and among known ones, kept in order as decode() keeps them, and after a merge", () => {
    const mod = generated["./gen/unittest/google/protobuf/struct_pb.ts"]!;
    const [Value, decodeValue] = [mod.Value as MessageType<any, any>, mod.decodeValue as (b: Uint8Array) => any];
    const parts: number[] = [];
    for (let i = 0; i < 10_000; i++) {
      parts.push(0xc0, 0x3e, i & 0x7f); // field 1000, a varint
      if (i % 1000 === 0) parts.push(0x1a, 0x01, 0x61); // string_value "a", between them
      // struct_value { field 83, empty bytes } twice: merged (the string between them starts the oneof afresh)
      if (i % 3000 === 0) parts.push(0x2a, 0x03, 0x9a, 0x05, 0x00, 0x2a, 0x03, 0x9a, 0x05, 0x00);
    }
    const bytes = Uint8Array.from(parts);
    const fromRecords = Value.decode(bytes);
    expect(fromRecords.$unknown.length).toBe(30_000);
    expect(decodeValue(bytes)).toEqual(fromRecords);
    expect(decodeValue(bytes).kind.value.$unknown).toEqual(Uint8Array.from([0x9a, 0x05, 0x00, 0x9a, 0x05, 0x00]));
  });

  describe("found by a hostile review of decodeX", () => {
    const conf = () => generated["./gen/conformance/google/protobuf/test_messages_proto3_pb.ts"]!;
    const T = () => conf().TestAllTypesProto3 as MessageType<any, any>;
    const decodeT = () => conf().decodeTestAllTypesProto3 as (b: Uint8Array) => any;

    it("maxElements counts the runs of unknown fields, as decode() does (unknown, known, unknown with maxElements 1)", () => {
      const saved = getLimits();
      setLimits({ maxElements: 1 });
      try {
        const bytes = Uint8Array.from([0xc0, 0x3e, 0x00, 0x08, 0x01, 0xc0, 0x3e, 0x00]); // field 1000, optional_int32, field 1000
        const expected = ["DecodeError", "TOO_MANY_ELEMENTS", 5, "protobuf_test_messages.proto3.TestAllTypesProto3", expect.any(String)];
        expect(failure(() => T().decode(bytes))).toEqual(expected);
        expect(failure(() => decodeT()(bytes))).toEqual(expected);
        expect(decodeT()(bytes.subarray(0, 5)).$unknown).toEqual(Uint8Array.from([0xc0, 0x3e, 0x00])); // one run is fine
      } finally {
        setLimits(saved);
      }
    });

    it("--int64 number: a value past 2^53 fails only if it is in the result (replaced by a later one it is not), and after the input's own errors", () => {
      const mod = generated["./gen/wide_number/wide_pb.ts"]!;
      const [Wide, decodeWide] = [mod.Wide as MessageType<any, any>, mod.decodeWide as (b: Uint8Array) => any];
      const big = [0x08, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f]; // i64 = 2^63 - 1
      const replaced = Uint8Array.from([...big, 0x08, 0x01]);
      expect(decodeWide(replaced)).toEqual(Wide.decode(replaced));
      expect(decodeWide(replaced).i64).toBe(1);
      const alone = Uint8Array.from(big);
      expect(failure(() => decodeWide(alone))).toEqual(failure(() => Wide.decode(alone)));
      expect(failure(() => decodeWide(alone))[0]).toBe("RangeError");
      const thenCut = Uint8Array.from([...big, 0x08, 0x80]);
      expect(failure(() => decodeWide(thenCut))).toEqual(failure(() => Wide.decode(thenCut)));
      expect(failure(() => decodeWide(thenCut))[1]).toBe("TRUNCATED");
    });

    it("the JS stack running out is DEPTH_LIMIT at the root, as decode() says it, and the next decode works", () => {
      const saved = getLimits();
      setLimits({ maxDepth: 1000 });
      try {
        let bytes = Uint8Array.from([0x08, 0x01]);
        for (let i = 0; i < 999; i++) bytes = Uint8Array.from([0xda, 0x01, ...lengthOf(bytes.length), ...bytes]); // recursive_message
        const outcome = failure(() => decodeT()(bytes));
        // decoded, or DEPTH_LIMIT where this engine's stack ends: never a RangeError
        if (outcome !== "no error") expect(outcome).toEqual(["DecodeError", "DEPTH_LIMIT", 0, "protobuf_test_messages.proto3.TestAllTypesProto3", expect.any(String)]);
        expect(decodeT()(Uint8Array.from([0x08, 0x05])).optionalInt32).toBe(5);
      } finally {
        setLimits(saved);
      }
    });

    it("the input's own methods never run: a Uint8Array with its own slice, subarray and constructor decodes as a plain one", () => {
      const bytes = Uint8Array.from([0x7a, 0x14, ...Array.from({ length: 20 }, (_, i) => i), 0x72, 0x14, ...Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? 0xc3 : 0xa9))]); // optional_bytes, optional_string "éé..."
      const called: string[] = [];
      const hostile = Uint8Array.from(bytes) as Uint8Array & Record<string, unknown>;
      for (const name of ["slice", "subarray"]) hostile[name] = () => (called.push(name), "not bytes");
      hostile.constructor = { [Symbol.species]: class extends Uint8Array {} };
      const plain = decodeT()(hostile);
      expect(called).toEqual([]);
      expect(Object.getPrototypeOf(plain.optionalBytes)).toBe(Uint8Array.prototype);
      expect(plain).toEqual(decodeT()(bytes));
      expect(plain.optionalString).toBe("é".repeat(10)); // (its UTF-8 checked over a view of the engine's own)
    });

    it("a view past the end of a shrunk resizable buffer is a TypeError that says so (it read as empty: an empty message)", () => {
      const rab = new (ArrayBuffer as unknown as new (n: number, o: { maxByteLength: number }) => ArrayBuffer & { resize(n: number): void })(8, { maxByteLength: 16 });
      const view = new Uint8Array(rab, 0, 8);
      view.set([0x08, 0x05]);
      rab.resize(4);
      for (const decode of [(b: Uint8Array) => T().decode(b), decodeT()]) expect(failure(() => decode(view))).toEqual(["TypeError", expect.stringContaining("past the end of its resizable ArrayBuffer")]);
    });
  });

  it("under small limits (maxDepth 2, maxElements 3, maxMessageSize 64): the same errors as decode()", () => {
    const loaded = loadSet("conformance");
    const saved = getLimits();
    setLimits({ maxDepth: 2, maxElements: 3, maxMessageSize: 64 });
    try {
      const seen = new Set<string>();
      for (const [type, fns] of functionsOf("conformance")) {
        const model = loaded.models.get(type.typeName)!;
        if (fns.decode === undefined || requiresItself(model)) continue;
        const r = rng(type.typeName.length * 31);
        for (let i = 0; i < 10; i++) {
          const bytes = encodeWithProtobufjs(loaded, type.typeName, randomObject(loaded, model, r));
          const byMethod = failure(() => type.decode(bytes));
          expect(failure(() => fns.decode!(bytes)), type.typeName).toEqual(byMethod);
          if (Array.isArray(byMethod)) seen.add(byMethod[1] as string);
        }
      }
      // each limit was reached
      expect([...seen].sort()).toEqual(expect.arrayContaining(["DEPTH_LIMIT", "MESSAGE_TOO_LARGE", "TOO_MANY_ELEMENTS"]));
    } finally {
      setLimits(saved);
    }
  });

  it("encodeX: the same errors as encode(); views and builders are refused, saying what encodes them", () => {
    const fns = functionsOf("wide");
    const [type, { encode }] = [...fns].find(([t]) => t.typeName === "wide.Wide")!;
    for (const bad of [{ i32: 1.5 }, { s: 5 }, { sub: { name: 7 } }, { i64s: [1n, "x"] }]) {
      expect(failure(() => encode!(bad))).toEqual(failure(() => type.encode(bad as never)));
    }
    for (const [bad, got] of [[null, "null"], [5, "number 5"], ["x", 'a string ("x")']] as const) {
      expect(failure(() => encode!(bad))).toEqual(["TypeError", `wide.Wide: expected a message object to encode, got ${got}`]);
    }
    const view = type.view(type.encode({ i32: 3 }));
    expect(failure(() => encode!(view))).toEqual(["TypeError", "wide.Wide: views and builders are encoded by the message type's encode(), not this function of plain objects"]);
  });

  it("decodeX: the input checks and errors decode() gives, naming the type", () => {
    const fns = functionsOf("wide");
    const [type, { decode, view }] = [...fns].find(([t]) => t.typeName === "wide.Wide")!;
    for (const bad of [null, "bytes", [1, 2], new ArrayBuffer(2), new Uint8Array([0x08])]) {
      expect(failure(() => decode!(bad as never))).toEqual(failure(() => type.decode(bad as never)));
      expect(failure(() => view!(bad as never))).toEqual(failure(() => type.view(bad as never)));
    }
    expect(failure(() => decode!(new Uint8Array([0x08])))).toEqual(["DecodeError", "TRUNCATED", 1, "wide.Wide.i64", expect.any(String)]);
  });
});

describe("proto2 through the generated decoders: groups, closed enums, required fields, declared defaults", () => {
  const unittest = () => generated["./gen/unittest/google/protobuf/unittest_pb.ts"]!;
  const fn = (name: string) => unittest()[`decode${name}`] as (b: Uint8Array) => any;
  const type = (name: string) => unittest()[name] as MessageType<any, any>;
  /** decodeX's result or error, checked to be decode()'s, and that the generated decoder read it (no records in between). */
  const both = (name: string, bytes: number[]) => {
    const input = Uint8Array.from(bytes);
    const viaRecords = failure(() => type(name).decode(input));
    expect(failure(() => fn(name)(input))).toEqual(viaRecords);
    return viaRecords === "no error" ? fn(name)(input) : viaRecords;
  };

  it("every message of unittest.proto but message sets has a generated decoder", () => {
    const src = Object.entries(unittest()).filter(([k]) => k.startsWith("decode$"));
    expect(src.length).toBeGreaterThan(40);
    expect(type("TestAllTypes").parts.decode).toBeDefined();
    expect(type("TestRequiredForeign").parts.decode).toBeDefined();
  });

  it("required: MISSING_REQUIRED at the message's end naming the field, nested and in arrays; partially() lets the top message's be absent", () => {
    expect(both("TestRequired", [0x08, 0x01])).toEqual(["DecodeError", "MISSING_REQUIRED", 2, "protobuf_unittest.TestRequired.b", expect.any(String)]);
    expect(both("TestRequiredForeign", [0x0a, 0x00])).toEqual(["DecodeError", "MISSING_REQUIRED", 2, "protobuf_unittest.TestRequiredForeign.optional_message.a", expect.any(String)]);
    // (TestRequired: a = 1, b = 3, c = 33 required)
    const abc = [0x08, 0x01, 0x18, 0x02, 0x88, 0x02, 0x03], bc = [0x18, 0x02, 0x88, 0x02, 0x03];
    expect(both("TestRequiredForeign", [0x12, 7, ...abc, 0x12, 5, ...bc])).toEqual(["DecodeError", "MISSING_REQUIRED", 16, "protobuf_unittest.TestRequiredForeign.repeated_message[1].a", expect.any(String)]);
    // checked at the end of each occurrence, on what is merged so far: a second with only a is complete
    expect(both("TestRequiredForeign", [0x0a, 7, ...abc, 0x0a, 0x02, 0x08, 0x05]).optionalMessage).toMatchObject({ a: 5, b: 2, c: 3 });
    expect(both("TestRequiredForeign", [0x0a, 0x02, 0x08, 0x01, 0x0a, 5, ...bc])).toEqual(["DecodeError", "MISSING_REQUIRED", 4, "protobuf_unittest.TestRequiredForeign.optional_message.b", expect.any(String)]);
    // decodeX too (found by review: it ignored partially(), and through records took it, left set)
    expect(partially(() => fn("TestRequired")(Uint8Array.from([0x08, 0x01]))).a).toBe(1);
    expect(partialPending()).toBe(false);
    const before = decodePath.reader;
    decodePath.reader = true;
    try {
      expect(partially(() => type("TestRequired").decode(Uint8Array.from([0x08, 0x01]))).a).toBe(1);
      expect(failure(() => partially(() => type("TestRequiredForeign").decode(Uint8Array.from([0x0a, 0x00]))))).toEqual(["DecodeError", "MISSING_REQUIRED", 2, "protobuf_unittest.TestRequiredForeign.optional_message.a", expect.any(String)]);
    } finally {
      decodePath.reader = before;
    }
  });

  it("closed enums: a value outside the enum is an unknown field, singular, repeated and packed (the last through records)", () => {
    const o = both("TestAllTypes", [0xa8, 0x01, 0x05, 0xa8, 0x01, 0x02]); // optional_nested_enum 5, then BAR
    expect(o.optionalNestedEnum).toBe(2);
    expect(o.$unknown).toEqual(Uint8Array.from([0xa8, 0x01, 0x05]));
    const unset = both("TestAllTypes", [0xa8, 0x01, 0x05]);
    expect(Object.hasOwn(unset, "optionalNestedEnum")).toBe(false);
    expect(unset.optionalNestedEnum).toBe(1); // FOO, the enum's first value, from the prototype
    expect(both("TestAllTypes", [0x98, 0x03, 0x05, 0x98, 0x03, 0x7f, 0x98, 0x03, 0x01]).repeatedNestedEnum).toEqual([1]); // NEG is -1: 0x7f is 127
    const packed = both("TestAllTypes", [0x9a, 0x03, 0x03, 0x01, 0x05, 0x03]);
    expect(packed.repeatedNestedEnum).toEqual([1, 3]);
    expect(packed.$unknown).toEqual(Uint8Array.from([0x98, 0x03, 0x05]));
  });

  it("groups: read to their end tag, merged when they come again; an unterminated or mismatched one is the codec's error", () => {
    expect(both("TestAllTypes", [0x83, 0x01, 0x88, 0x01, 0x07, 0x84, 0x01, 0x83, 0x01, 0x84, 0x01]).optionalgroup).toMatchObject({ a: 7 });
    expect(both("TestAllTypes", [0xf3, 0x02, 0xf8, 0x02, 0x01, 0xf4, 0x02, 0xf3, 0x02, 0xf4, 0x02]).repeatedgroup).toHaveLength(2);
    expect(both("TestAllTypes", [0x83, 0x01, 0x88, 0x01, 0x07])).toEqual(["DecodeError", "UNTERMINATED_GROUP", 5, "protobuf_unittest.TestAllTypes.optionalgroup", expect.any(String)]);
    expect(both("TestAllTypes", [0x83, 0x01, 0x8c, 0x01])).toEqual(["DecodeError", "UNMATCHED_END_GROUP", 2, "protobuf_unittest.TestAllTypes.optionalgroup", expect.any(String)]);
  });

  it("declared defaults: read from the prototype while unset, own properties once set or merged", () => {
    const o = both("TestAllTypes", [0xe8, 0x03, 0x07]); // default_int32 = 7
    expect(o.defaultInt32).toBe(7);
    expect(Object.hasOwn(o, "defaultInt32")).toBe(true);
    expect(o.defaultInt64).toBe(42n);
    expect(Object.hasOwn(o, "defaultInt64")).toBe(false);
    expect(Object.getPrototypeOf(o)).toBe(Object.getPrototypeOf(type("TestAllTypes").decode(new Uint8Array(0))));
    expect(both("TestAllTypes", [0xe8, 0x03, 0x07, 0xd2, 0x01, 0x02, 0x08, 0x01]).defaultInt32).toBe(7);
  });

  it("growth whose refresh of the memory's arrays is cut short (the JS stack running out there) leaves no array over the old buffer (found by review)", () => {
    const rt = runtime();
    const T = type("TestAllTypes");
    const text = "non-ASCII text, é and 😀, long enough for Buffer#utf8Slice ".repeat(3);
    const from = Buffer.from;
    let armed = true;
    (Buffer as { from: unknown }).from = function (this: unknown, ...args: unknown[]) {
      if (armed && args[0] instanceof ArrayBuffer) {
        armed = false;
        throw new RangeError("Maximum call stack size exceeded");
      }
      return (from as (...a: unknown[]) => unknown).apply(this, args);
    };
    try {
      rt.exports.memory.grow(1);
      expect(() => rt.mem.sync()).toThrow(RangeError);
    } finally {
      (Buffer as { from: unknown }).from = from;
    }
    expect(T.decode(T.encode({ optionalString: text, repeatedString: [text, "a"] }))).toMatchObject({ optionalString: text, repeatedString: [text, "a"] });
    expect(rt.mem.u8.buffer).toBe(rt.exports.memory.buffer);
  });

  it("an error path past the 64 frames the codec's Status keeps is cut as it cuts it (found by review)", () => {
    let nested = [0x08, 0x80]; // NestedTestAllTypes.payload.optional_int32 truncated, 80 children deep
    nested = [0x12, nested.length, ...nested];
    for (let i = 0; i < 80; i++) nested = [0x0a, ...lengthOf(nested.length), ...nested];
    const e = both("NestedTestAllTypes", nested);
    expect(e).toEqual(["DecodeError", "TRUNCATED", expect.any(Number), expect.stringMatching(/^protobuf_unittest\.NestedTestAllTypes(\.child){64}\.…$/), expect.any(String)]);
  });

  it("a decode started by a setter on Object.prototype while another's records are read out leaves the outer one's records alone (found by review)", () => {
    const T = type("TestAllTypes");
    const outerBytes = T.encode({ optionalInt32: 1, optionalString: "outer string, long enough to be read from memory", optionalNestedMessage: { bb: 7 }, repeatedString: ["x", "y"] });
    const innerBytes = T.encode({ optionalInt32: 2, optionalString: "inner", repeatedString: ["a", "b", "c"] });
    const expected = T.decode(outerBytes);
    let inner: unknown, batch: unknown, calls = 0;
    Object.defineProperty(Object.prototype, "optionalNestedMessage", {
      configurable: true,
      set(v) {
        Object.defineProperty(this, "optionalNestedMessage", { value: v, writable: true, enumerable: true, configurable: true });
        if (calls++ > 0) return; // (the inner decodes' objects reach it too)
        inner = T.decode(innerBytes);
        batch = T.decodeDelimited(T.encodeDelimited([{ optionalString: "batch" }]));
      },
    });
    let outer: unknown;
    try {
      outer = T.decode(outerBytes);
    } finally {
      delete (Object.prototype as { optionalNestedMessage?: unknown }).optionalNestedMessage;
    }
    expect(outer).toEqual(expected);
    expect(inner).toEqual(T.decode(innerBytes));
    expect((batch as { optionalString: string }[])[0]!.optionalString).toBe("batch");
  });

  it("a message with defaults merged from two occurrences has its properties in field order and keeps the first's unknown fields (found by review)", () => {
    // NestedTestAllTypes.payload twice: optional_int32 and an unknown field, then default_int32
    const bytes = [0x12, 5, 0x08, 0x01, 0xb8, 0x3e, 0x01, 0x12, 3, 0xe8, 0x03, 0x05];
    const o = both("NestedTestAllTypes", bytes);
    const records = type("NestedTestAllTypes").decode(Uint8Array.from(bytes));
    expect(Object.keys(o.payload)).toEqual(Object.keys(records.payload));
    expect(JSON.stringify(o, (_, v) => (typeof v === "bigint" ? String(v) : v))).toBe(JSON.stringify(records, (_, v) => (typeof v === "bigint" ? String(v) : v)));
    expect(o.payload).toMatchObject({ optionalInt32: 1, defaultInt32: 5 });
    expect(o.payload.$unknown).toEqual(Uint8Array.from([0xb8, 0x3e, 0x01]));
  });
});

describe("decode() through the generated decoder of plain objects (browsers' path)", () => {
  const conformance = () => generated["./gen/conformance/google/protobuf/test_messages_proto3_pb.ts"]!;
  const T = () => conformance().TestAllTypesProto3 as MessageType<any, any>;
  /** fn's result with decode() reading through the generated decoders when `reader`. */
  const through = <R>(reader: boolean, fn: () => R): R => {
    const before = decodePath.reader;
    decodePath.reader = reader;
    try {
      return fn();
    } finally {
      decodePath.reader = before;
    }
  };

  it("long packed runs (doubles and floats read a chunk at a time, the rest into arrays made at their length) at any alignment, merged and cut: as through records", () => {
    const mod = generated["./gen/unittest/google/protobuf/unittest_proto3_pb.ts"]!;
    const P = mod.TestPackedTypes as MessageType<any, any>;
    for (const n of [1, 8, 9, 17, 511, 512, 513, 1025, 5000]) {
      const values = Array.from({ length: n }, (_, i) => (i % 11 === 0 ? -0 : i % 13 === 0 ? NaN : Math.sin(i) * 10 ** ((i % 60) - 30)));
      const ints = Array.from({ length: n }, (_, i) => ((i * 2654435761) | 0) >> (i % 31));
      const bytes = P.encode({
        packedDouble: values, packedFloat: values.map(Math.fround), packedInt32: ints, packedUint32: ints.map((x) => x >>> 0), packedSint32: ints,
        packedFixed32: ints.map((x) => x >>> 0), packedSfixed32: ints, packedInt64: ints.map(BigInt), packedUint64: ints.map((x) => BigInt(x >>> 0) * 977n),
        packedSint64: ints.map((x) => BigInt(x) * 3n), packedFixed64: ints.map((x) => BigInt(x >>> 0)), packedSfixed64: ints.map(BigInt), packedBool: ints.map((x) => x % 2 === 0),
        packedEnum: ints.map((x) => x & 3),
      });
      for (const shift of [0, 1, 3, 4]) {
        // the run at every alignment of the input's buffer, twice (the second merges into the first)
        const shifted = new Uint8Array(bytes.length * 2 + shift).subarray(shift);
        shifted.set(bytes);
        shifted.set(bytes, bytes.length);
        const records = through(false, () => P.decode(shifted));
        expect(through(true, () => P.decode(shifted))).toEqual(records);
        expect(records.packedDouble).toHaveLength(2 * n);
        expect(Object.is(records.packedDouble[0], -0)).toBe(true);
      }
      // cut inside the run: the same error as through records
      const cut = bytes.subarray(0, bytes.length - 3);
      const e = (reader: boolean) => { try { through(reader, () => P.decode(cut)); } catch (x) { return [(x as DecodeError).code, (x as DecodeError).offset, (x as DecodeError).path]; } return undefined; };
      expect(e(true)).toEqual(e(false));
      expect(e(true)).toBeDefined();
    }
  });

  it("the same objects and errors as through records, the int64 option applied", () => {
    expect(T().parts.decode).toBeDefined();
    const r = rng(17);
    const loaded = loadSet("conformance");
    const model = loaded.models.get(T().typeName)!;
    for (let i = 0; i < 30; i++) {
      const bytes = encodeWithProtobufjs(loaded, T().typeName, randomObject(loaded, model, r));
      const damaged = Uint8Array.from(bytes);
      if (bytes.length > 0) damaged[Math.floor(r() * bytes.length)] ^= 0x80;
      for (const input of [bytes, damaged]) {
        expect(failure(() => through(true, () => T().decode(input)))).toEqual(failure(() => through(false, () => T().decode(input))));
      }
      expect(through(true, () => T().decode(bytes))).toEqual(through(false, () => T().decode(bytes)));
      expect(through(true, () => T().decode(bytes, { int64: "string" }))).toEqual(through(false, () => T().decode(bytes, { int64: "string" })));
    }
  });

  it("nesting to maxDepth 1,000: what the records decode, it decodes (past the end of the JS stack, through them)", () => {
    const saved = getLimits();
    setLimits({ maxDepth: 1000, maxAmplification: 0x7fffffff });
    try {
      let bytes = Uint8Array.from([0x08, 0x01]);
      for (let depth = 1; depth <= 1000; depth++) {
        if (depth % 100 === 0) {
          const outcome = failure(() => through(false, () => T().decode(bytes)));
          expect(failure(() => through(true, () => T().decode(bytes))), `${depth} levels`).toEqual(outcome);
          if (outcome === "no error") expect(through(true, () => T().decode(bytes))).toEqual(through(false, () => T().decode(bytes)));
        }
        bytes = Uint8Array.from([0xda, 0x01, ...lengthOf(bytes.length), ...bytes]); // recursive_message
      }
    } finally {
      setLimits(saved);
    }
  });

  it("partially() is spent by the decode it wraps, not left for the next operation", () => {
    through(true, () => partially(() => T().decode(Uint8Array.from([0x08, 0x05]))));
    expect(partialPending()).toBe(false);
  });
});

describe("names", () => {
  it("a function's name never takes a declaration's: it gets a $ suffix instead (Foo's decodeFoo$, beside the message decodeFoo)", () => {
    const mod = generated["./gen/names/names_props_pb.ts"]!;
    const decode = (name: string, bytes: number[]) => (mod[name] as (b: Uint8Array) => unknown)(new Uint8Array(bytes));
    // Foo was named first, then its view class FooView, so the message FooView is FooView$ (as before)
    expect(Object.keys(mod).filter((n) => /^(decode|view|encode)[^$]/.test(n)).sort()).toEqual([
      "decodeFoo", "decodeFoo$", "decodeFooBuilder", "decodeFooView", "decodeFooView$", "decodeFoo_Bar", "decodeFoo_Bar$", "decodedecodeFoo",
      "encodeFoo", "encodeFooView", "encodeFoo_Bar", "encodeFoo_Bar$", "encodedecodeFoo",
      "viewFoo", "viewFooView", "viewFoo_Bar", "viewFoo_Bar$", "viewdecodeFoo",
    ]);
    expect((mod.decodeFoo as MessageType<any, any>).typeName).toBe("names.constructor.decodeFoo");
    expect(decode("decodeFoo$", [0x08, 0x07])).toEqual((mod.Foo as MessageType<any, any>).decode(new Uint8Array([0x08, 0x07])));
    expect(decode("decodedecodeFoo", [0x08, 0x07])).toEqual({ w: 7 });
    expect(decode("decodeFoo_Bar", [0x08, 0x07])).toEqual({ x: 7 }); // Foo.Bar
    expect(decode("decodeFoo_Bar$", [0x0a, 0x01, 0x73])).toEqual({ y: "s" }); // the top-level Foo_Bar
    expect(decode("decodeFooView$", [0x08, 0x07])).toEqual({ z: 7 }); // the message FooView
  });
});

describe("bundles of programs that call one function", () => {
  const bundle = async (program: string) => {
    const r = await build({
      stdin: { contents: program, resolveDir: genDir, loader: "ts" },
      bundle: true, minify: true, write: false, format: "esm", platform: "browser",
      alias: { "hppproto/codec": `${repoRoot}dist/ts/codec.browser.js`, hppproto: `${repoRoot}dist/ts/index.js`, "hppproto/generated": `${repoRoot}dist/ts/generated.js` }, external: ["*.wasm"], logLevel: "silent",
    });
    return r.outputFiles[0]!.text;
  };
  const of = (name: string) => `import { init } from "hppproto"; import { ${name} } from "./unittest/benchmark_messages_proto3_pb.ts"; await init(); console.log(${name});`;
  /** What each part of a message type leaves in a bundle. */
  const marks = {
    messageType: "was generated without", // MessageType.part()'s error
    views: "$valid", // MessageView
    readers: "field102:", // read$GoogleMessage1's object literal
    encoders: "encodes started inside one another", // the error of encodes nested too deep (field writers are minified)
    decoders: '"AGFzbQ', // a compiled module, base64: "\0asm"
    runtime: "and init() started without it", // the runtime's error for what needs the codec (runtime.ts)
  };
  const has = (text: string) => Object.fromEntries(Object.entries(marks).map(([k, mark]) => [k, text.includes(mark)]));

  it("decodeX carries its generated decoder, not the message type, views, encoders, compiled decoders or a runtime; viewX the views (and the readers their $toObject() calls); encodeX neither decoders, views nor readers", async () => {
    const [decode, view, encode, type] = await Promise.all([
      bundle(of("decodeGoogleMessage1")), bundle(of("viewGoogleMessage1")), bundle(of("encodeGoogleMessage1")), bundle(of("GoogleMessage1")),
    ]);
    expect(has(type)).toEqual({ messageType: true, views: true, readers: true, encoders: true, decoders: true, runtime: true });
    // (GoogleMessage1 has a generated decoder of plain objects: it reads the bytes, no compiled
    // decoders, and init() starts nothing for it)
    expect(has(decode)).toEqual({ messageType: false, views: false, readers: true, encoders: false, decoders: false, runtime: false });
    expect(has(view)).toEqual({ messageType: false, views: true, readers: true, encoders: false, decoders: true, runtime: true });
    expect(has(encode)).toEqual({ messageType: false, views: false, readers: false, encoders: true, decoders: false, runtime: false });
    expect(decode.length).toBeLessThan(type.length * 0.7);
  });

  it("the codec comes with the message types that need it, not with their file: a type of a file that has such types carries none", async () => {
    const program = (name: string) => `import { init } from "hppproto"; import { ${name} } from "./unittest/google/protobuf/unittest_pb.ts"; await init(); console.log(${name}.decode(new Uint8Array(0)));`;
    const codec = '"H4sI'; // the codec inlined: gzip, base64 (codec.browser.ts)
    // TestAllTypes holds floats (their views encode without loss only through the codec); ForeignMessage two int32s
    const [needs, plain] = await Promise.all([bundle(program("TestAllTypes")), bundle(program("ForeignMessage"))]);
    expect(needs.includes(codec)).toBe(true);
    expect(plain.includes(codec)).toBe(false);
    expect(needs.length - plain.length).toBeGreaterThan(30_000); // (the codec inlined alone is about 39 KB)
  });
});
