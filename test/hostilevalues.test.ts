// Values a caller hands the runtime that lie or fight back: typed arrays whose length or offset
// properties lie, arrays whose elements are getters that grow memory or free the arena being
// written, Proxy arrays with fractional lengths, setters that fail halfway, offsets that are no
// integers. Nothing of that may read or write linear memory outside what it owns, leave a builder
// holding memory it never wrote, or change what another caller's view shows.
import { runInNewContext } from "node:vm";
import { beforeAll, describe, expect, it } from "vitest";
import { Arena, builder, create, decodeToJsonString, EncodeError, getExtension, init, setExtension, StaleViewError, toJsonString, Writer } from "hppproto";
import { schemaFromSources } from "../dist/codegen/dynamic.js";
import { interpretedType } from "../dist/ts/interpreted/index.js";
import { TestAllTypesProto3 as T } from "./gen/conformance/google/protobuf/test_messages_proto3_pb.js";
import { thrown } from "./support/thrown.js";
import { TestAllExtensions, TestRequired, TestRequired_single } from "./gen/unittest/google/protobuf/unittest_pb.js";

beforeAll(async () => {
  await init();
});

/** A view in an arena of its own, as another caller holds it, and what it must keep showing. */
function victim() {
  const text = "victim-data-".repeat(40);
  const arena = new Arena();
  const view = T.view(T.encode({ optionalString: text, repeatedInt32: [1, 2, 3] }), arena);
  return { check: () => expect([view.optionalString, [...view.repeatedInt32]]).toEqual([text, [1, 2, 3]]), arena };
}

/** A secret decoded into an arena that is then released: memory a careless write path could hand out again. */
function freedSecret(): string {
  const secret = "password=hunter2;";
  const arena = new Arena();
  expect(T.view(T.encode({ optionalString: secret.repeat(4000) }), arena).optionalString.length).toBe(secret.length * 4000);
  arena.release();
  return "hunter2";
}

const latin1 = (bytes: Uint8Array) => Array.from(bytes, (b) => String.fromCharCode(b)).join("");

describe("typed arrays whose length, byteOffset or buffer properties lie", () => {
  const lying = (real: Uint8Array, claimed: number) => Object.defineProperty(real, "length", { value: claimed });

  it("decode input claiming fewer bytes than it holds: the bytes it holds are copied and decoded, nothing past the staging buffer is written", () => {
    const other = victim();
    const real = T.encode({ optionalString: "x".repeat(100_000) }); // more than any staging buffer starts with
    for (const decode of [(b: Uint8Array) => T.decode(b), (b: Uint8Array) => T.view(b), (b: Uint8Array) => T.view(b, new Arena()), (b: Uint8Array) => T.decodeDelimited(b)]) {
      try {
        decode(lying(real.slice(), 2));
      } catch {
        // (decodeDelimited reads it as a length and a message: either outcome, but inside the input)
      }
      other.check();
    }
    expect(T.decode(lying(real.slice(), 2)).optionalString).toBe("x".repeat(100_000));
  });

  it("decode input claiming more bytes than it holds: only its own bytes are decoded (no memory after the staging copy)", () => {
    const real = T.encode({ optionalInt32: 7 });
    expect(T.decode(lying(real.slice(), 1 << 20))).toMatchObject({ optionalInt32: 7 });
    expect(T.view(lying(real.slice(), 1 << 20), new Arena()).optionalInt32).toBe(7);
  });

  it("a subclass whose length getter lies, and views (Float64Array, DataView) whose byteOffset lies", () => {
    const other = victim();
    class Short extends Uint8Array {
      override get length() {
        return 1;
      }
    }
    const real = T.encode({ optionalString: "y".repeat(50_000) });
    const short = new Short(real.length);
    short.set(real);
    expect(T.decode(short).optionalString).toBe("y".repeat(50_000));
    other.check();
    const padded = new Uint8Array(real.length + 8);
    padded.set(real, 8);
    for (const view of [new DataView(padded.buffer, 8), new Uint8Array(padded.buffer, 8)]) {
      Object.defineProperty(view, "byteOffset", { value: 0 });
      expect(T.decode(view).optionalString).toBe("y".repeat(50_000));
    }
  });

  it("bytes and packed fields of a builder or a codec encode given a lying array: its real contents, sized by them", () => {
    const other = victim();
    const b = builder(T);
    b.optionalBytes = lying(new Uint8Array(5000).fill(7), 3);
    b.repeatedInt32 = Object.defineProperty(new Int32Array(3000).fill(9), "length", { value: 2 });
    expect([b.optionalBytes.length, b.optionalBytes.every((x) => x === 7), b.repeatedInt32.length]).toEqual([5000, true, 3000]);
    other.check();
    expect(T.decode(T.encode(b)).optionalBytes.length).toBe(5000);
  });

  it("a double array over WASM memory (a view's field) whose length claims more: the Writer and encode() copy only its elements", () => {
    const secret = "neighbour-secret";
    const arena = new Arena();
    const next = T.view(T.encode({ repeatedDouble: [1.5, 2.5], optionalString: secret }), arena);
    const doubles = Object.defineProperty(next.repeatedDouble, "length", { value: 4096 });
    const w = new Writer().packedDouble(1, doubles);
    expect(w.finish().length).toBe(2 + 16);
    expect(latin1(T.encode({ repeatedDouble: doubles as unknown as number[] }))).not.toContain(secret);
    expect(T.decode(T.encode({ repeatedDouble: doubles as unknown as number[] })).repeatedDouble).toEqual([1.5, 2.5]);
  });
});

describe("builder setters that fail leave the field as it was", () => {
  it("a repeated field given a bad element: empty as before, no memory that was never written (it held another arena's freed secret)", () => {
    const secret = freedSecret();
    const b = builder(T);
    const bad = new Array(16000).fill(0);
    bad[0] = 1.5;
    expect(() => (b.repeatedFixed32 = bad)).toThrow(/repeated_fixed32\[0\]/);
    expect(() => (b.repeatedInt32 = bad)).toThrow(EncodeError);
    expect([b.repeatedFixed32.length, b.repeatedInt32.length]).toEqual([0, 0]);
    expect(latin1(T.encode(b))).not.toContain(secret);
    b.repeatedFixed32 = [1, 2];
    expect(() => (b.repeatedFixed32 = [3, -1])).toThrow(EncodeError);
    expect([...b.repeatedFixed32]).toEqual([1, 2]);
  });

  it("strings, bytes, messages and maps filled element by element: the previous value stays", () => {
    const b = builder(T);
    b.repeatedString = ["kept"];
    expect(() => (b.repeatedString = ["a", 5 as unknown as string])).toThrow(/repeated_string\[1\]/);
    expect(() => (b.repeatedBytes = ["x" as unknown as Uint8Array])).toThrow(EncodeError);
    expect(() => (b.repeatedNestedMessage = [{ a: 1 }, 5 as never])).toThrow(EncodeError);
    expect(() => (b.mapStringString = { k0: "v", k1: 5 as unknown as string })).toThrow(EncodeError);
    expect([b.repeatedString.toArray(), b.repeatedBytes.length, b.repeatedNestedMessage.length, b.mapStringString.size]).toEqual([["kept"], 0, 0, 0]);
    expect(T.decode(T.encode(b))).toMatchObject({ repeatedString: ["kept"], repeatedBytes: [], repeatedNestedMessage: [], mapStringString: {} });
  });

  it("add() of a bad element leaves the count; a message whose sub-message fails stays as it was; a oneof keeps its case", () => {
    const b = builder(T);
    b.addRepeatedString("one");
    expect(() => b.addRepeatedString(5 as unknown as string)).toThrow(EncodeError);
    expect(() => b.addRepeatedBytes("x" as unknown as Uint8Array)).toThrow(EncodeError);
    expect([b.repeatedString.toArray(), b.repeatedBytes.length]).toEqual([["one"], 0]);
    b.optionalNestedMessage = { a: 3 };
    expect(() => (b.optionalNestedMessage = { a: 7, corecursive: { optionalInt32: 1.5 } })).toThrow(/optional_nested_message\.corecursive\.optional_int32/);
    expect(b.optionalNestedMessage?.a).toBe(3);
    b.oneofField = { case: "oneofUint32", value: 9 };
    expect(() => (b.oneofField = { case: "oneofString", value: 5 as unknown as string })).toThrow(EncodeError);
    expect(b.oneofField).toEqual({ case: "oneofUint32", value: 9 });
    expect(T.decode(T.encode(b))).toMatchObject({ repeatedString: ["one"], optionalNestedMessage: { a: 3 }, oneofField: { case: "oneofUint32", value: 9 } });
  });
});

describe("getters of the value being set", () => {
  it("an element getter that grows memory: the elements are written where they belong (they went to the detached buffer)", () => {
    const secret = freedSecret();
    const big = T.encode({ optionalBytes: new Uint8Array(64 << 20) });
    const values = new Array(16000).fill(7);
    let grown = false;
    Object.defineProperty(values, 0, { get: () => (grown ||= T.view(big, new Arena()).optionalBytes.length > 0, 7) });
    const b = builder(T);
    b.repeatedFixed32 = values;
    expect(grown).toBe(true);
    expect(b.repeatedFixed32.every((x) => x === 7)).toBe(true);
    expect(latin1(T.encode(b))).not.toContain(secret);
  });

  it("an element getter that clears or releases the builder, or resets its arena, is refused; the builder stays usable", () => {
    const b = builder(T);
    b.repeatedInt32 = [4];
    for (const attack of [() => b.$clear(), () => b.$release(), () => b.$arena.reset()]) {
      const values = [1, 2, 3];
      Object.defineProperty(values, 1, { get: () => (attack(), 2) });
      expect(() => (b.repeatedInt32 = values)).toThrow(/cannot be reset or released while one of its setters runs/);
      expect([...b.repeatedInt32]).toEqual([4]);
    }
    b.$clear();
    expect(b.repeatedInt32.length).toBe(0);
  });
});

describe("arrays and offsets that are no arrays or offsets", () => {
  const fractional = () => new Proxy([1, 2, 3], { get: (t, k) => (k === "length" ? 2.125 : t[k as unknown as number]) });

  it("a Proxy array with a fractional length: INVALID_VALUE from a builder and from encode() (it wrote 3 elements into room for 2, or a packed length short of its values)", () => {
    expect(() => (builder(T).repeatedInt32 = fractional())).toThrow(/an array whose length is 2\.125 \(repeated_int32\)/);
    for (const field of ["repeatedInt32", "repeatedFixed32", "repeatedBool", "repeatedNestedMessage", "repeatedString"] as const) {
      expect(() => T.encode({ [field]: fractional() } as never), field).toThrow(/an array whose length is 2\.125/);
    }
  });

  it("encodeInto() and Writer.finishInto() at an offset that is not an integer: a RangeError, the target untouched (a fraction wrote nothing and returned the count; \"1\" wrote at 10)", () => {
    const w = new Writer().int32(1, 5);
    for (const offset of [0.5, "1" as unknown as number, -0.5, NaN, -1]) {
      const target = new Uint8Array(32);
      expect(() => T.encodeInto({ optionalInt32: 5, optionalString: "hello" }, target, offset), String(offset)).toThrow(RangeError);
      expect(() => w.finishInto(target, offset), String(offset)).toThrow(RangeError);
      expect(target.every((x) => x === 0)).toBe(true);
    }
    const target = new Uint8Array(32);
    expect(T.encodeInto({ optionalInt32: 5 }, target, 3)).toBe(2);
    expect([...target.subarray(3, 5)]).toEqual([8, 5]);
  });

  it("Writer.bytes() and packedDouble() of an array whose buffer was transferred: an error, and nothing of the field left behind", () => {
    const buffer = new ArrayBuffer(16);
    const bytes = new Uint8Array(buffer), doubles = new Float64Array(buffer);
    structuredClone(buffer, { transfer: [buffer] });
    const w = new Writer().int32(1, 1);
    expect(() => w.bytes(15, bytes)).toThrow(TypeError);
    expect(() => w.packedDouble(12, doubles)).toThrow(TypeError);
    expect([...w.finish()]).toEqual([8, 1]);
  });
});

describe("clear errors for what is no input or no setting", () => {
  it("a decode of an array whose buffer was transferred names that (it was the engine's 'Cannot perform %TypedArray%.prototype.set on a detached ArrayBuffer')", () => {
    const typed = new Float64Array(new ArrayBuffer(8)), bytes = new Uint8Array(new ArrayBuffer(8)), buffer = new ArrayBuffer(8);
    for (const b of [typed.buffer, bytes.buffer, buffer]) structuredClone(b, { transfer: [b] });
    for (const input of [bytes, typed, buffer]) {
      expect(() => T.decode(input)).toThrow(/^hppproto: the input's ArrayBuffer is detached: transferred \(postMessage, structuredClone\)/);
      expect(() => T.view(input)).toThrow(/the input's ArrayBuffer is detached/);
    }
    expect(T.decode(new Uint8Array(0)).optionalInt32).toBe(0); // an empty input is no detached one
  });

  it("a list a getter appends to is encoded as it was when reached, and a Uint8Array whose length getter lies is written whole: as the codec writes them (found by review: the generated encoder followed the list without bound and dropped the bytes)", () => {
    const appended = () => {
      const list: object[] = [];
      list.push({ get c() { list.push({ c: 9 }); return 1; } }, { c: 2 });
      return { repeatedForeignMessage: list };
    };
    class Liar extends Uint8Array {
      override get length(): number {
        return 0;
      }
    }
    const lying = () => ({ optionalBytes: new Liar([1, 2, 3]), repeatedBytes: [new Liar([4])] });
    for (const make of [appended, lying]) {
      const bytes = T.encode(make() as never);
      const b = builder(T, make() as never);
      expect(bytes).toEqual(T.encode(b));
      b.$release();
    }
    expect(T.decode(T.encode(appended() as never)).repeatedForeignMessage).toEqual([{ c: 1 }, { c: 2 }]);
    expect([...T.decode(T.encode(lying() as never)).optionalBytes]).toEqual([1, 2, 3]);
  });

  it("arrays that lost their contents (buffer transferred, from any realm; a view past a shrunk resizable buffer) fail naming the field, through the generated encoder and the codec alike (they were written as empty fields)", () => {
    const transferred = <A extends ArrayBufferView>(a: A): A => (structuredClone(a.buffer, { transfer: [a.buffer as ArrayBuffer] }), a);
    const shrunk = () => {
      const ab = new ArrayBuffer(16, { maxByteLength: 32 });
      const a = new Int32Array(ab, 0, 4).fill(5);
      ab.resize(8);
      return a;
    };
    const cases: [string, () => object, string, RegExp][] = [
      ["bytes transferred", () => ({ optionalBytes: transferred(Uint8Array.of(1, 2, 3)) }), "optional_bytes", /detached array: .* or transferred/],
      ["doubles transferred", () => ({ repeatedDouble: transferred(Float64Array.of(1.5, 2.5)) }), "repeated_double", /detached array/],
      ["a repeated bytes element transferred", () => ({ repeatedBytes: [Uint8Array.of(7), transferred(Uint8Array.of(1))] }), "repeated_bytes", /detached array/],
      ["int32s of another realm, transferred", () => ({ repeatedInt32: transferred(runInNewContext("new Int32Array([1, 2, 3])") as Int32Array) }), "repeated_int32", /detached array/],
      ["int32s past the end of a shrunk resizable buffer", () => ({ repeatedInt32: shrunk() }), "repeated_int32", /past the end of its resizable ArrayBuffer/],
    ];
    const path = (field: string) => `protobuf_test_messages.proto3.TestAllTypesProto3.${field}`;
    for (const [, make, field, reason] of cases) {
      const e = thrown(() => T.encode(make() as never), EncodeError);
      expect(e[0]).toBe("INVALID_VALUE");
      expect(e[1].replace(/\[\d+\]$/, "")).toBe(path(field));
      expect(() => T.encode(make() as never)).toThrow(reason);
      // the codec's way: the object filled into a builder's record
      const viaCodec = thrown(() => builder(T, make() as never), EncodeError);
      expect(viaCodec).toEqual(e);
    }
    expect(T.encode({ optionalBytes: new Uint8Array(0), repeatedDouble: new Float64Array(0) })).toEqual(new Uint8Array(0)); // empty ones are empty fields
  });

  it("setLimits() with a misspelt limit is a TypeError naming the limits (it was ignored), and sets nothing", async () => {
    const { getLimits, setLimits } = await import("hppproto");
    const before = getLimits();
    expect(() => setLimits({ maxDepht: 5 } as never)).toThrow(/no limit "maxDepht"; the limits are maxDepth, maxMessageSize, maxElements, maxAmplification/);
    expect(getLimits()).toEqual(before);
  });

  it("the Writer quotes a string it was given for a number", () => {
    expect(() => new Writer().double(1, "1" as unknown as number)).toThrow(/"1" is not a number/);
  });
});

describe("callbacks and getters that re-enter the runtime", () => {
  const batchOf = (...ids: number[]) => T.encodeDelimited(ids.map((optionalInt32) => ({ optionalInt32, optionalString: "batch" })));

  it("forEachViewDelimited(): a callback that resets or releases the arena ends the loop with StaleViewError (later views read another message's bytes as their record pointers, and said they were valid)", () => {
    for (const free of [(a: Arena) => a.reset(), (a: Arena) => a.release()]) {
      const arena = new Arena();
      const seen: number[] = [];
      expect(() => T.forEachViewDelimited(batchOf(1, 2, 3), (v, i) => {
        seen.push(v.optionalInt32);
        if (i === 0) {
          free(arena);
          if (!arena.released) T.view(T.encode({ optionalString: "X".repeat(64) }), arena);
        }
      }, arena)).toThrow(StaleViewError);
      expect(seen).toEqual([1]);
    }
    const seen: number[] = []; // the batch's own arena, reached through a view
    expect(() => T.forEachViewDelimited(batchOf(4, 5), (v) => (seen.push(v.optionalInt32), v.$arena.reset()))).toThrow(StaleViewError);
    expect(seen).toEqual([4]);
    expect(T.forEachViewDelimited(batchOf(6, 7), () => {})).toBe(2);
  });

  it("a view of an absent map value keeps reading zeros after a schema with larger records is used (the shared zero record was freed under it and handed to another arena)", () => {
    const v = T.view(new Uint8Array([0xba, 0x04, 0x03, 0x0a, 0x01, 0x6b]), new Arena()); // map_string_nested_message { key: "k" }, no value
    const absent = v.mapStringNestedMessage.get("k")!;
    expect([absent.a, absent.corecursive]).toEqual([0, undefined]);
    const fields = Array.from({ length: 700 }, (_, i) => `int64 f${i} = ${i + 1};`).join(" ");
    schemaFromSources({ "zr.proto": `syntax = "proto3"; package zr; message Big { ${fields} }` }).types.get("zr.Big")!.decode(new Uint8Array(0));
    const others = Array.from({ length: 8 }, () => T.view(T.encode({ optionalBytes: new Uint8Array(900).fill(0x41) }), new Arena({ firstBlock: 1024 })));
    expect([absent.a, absent.corecursive, others.length]).toEqual([0, undefined, 8]);
  });

  it("toJsonString() of a view and decodeToJsonString() read their options before the record: an option getter that decodes over it gave another caller's message", () => {
    const mine = T.encode({ optionalInt32: 1, optionalString: "mine" });
    const secret = T.encode({ optionalInt32: 42, optionalString: "SECRET-of-other-caller" });
    const view = T.view(mine);
    expect(() => toJsonString(T, view, { get enumsAsInts() { T.view(secret); return false; } })).toThrow(StaleViewError);
    const own = new Arena();
    const inOwn = T.view(mine, own);
    expect(() => toJsonString(T, inOwn, { get useProtoNames() { own.reset(); T.view(secret, own); return false; } })).toThrow(StaleViewError);
    for (const options of [{ get registry() { T.decode(secret); return undefined; } }, { get emitDefaults() { T.decode(secret); return false; } }]) {
      expect(decodeToJsonString(T, mine, options)).toBe('{"optionalInt32":1,"optionalString":"mine"}');
    }
  });

  it("encodeDelimited() through the codec: a getter that grows memory or the list, or resets a listed view's arena", () => {
    const I = interpretedType(T.schemaDef, T.index) as unknown as typeof T; // (plain objects through records and the codec)
    const big = T.encode({ optionalBytes: new Uint8Array(64 << 20) });
    const keep: unknown[] = [];
    const grows = { get optionalInt32() { keep.push(T.view(big, new Arena())); return 5; } };
    expect(I.decodeDelimited(I.encodeDelimited([{ optionalInt32: 7 }, grows, { optionalInt32: 9 }])).map((m) => m.optionalInt32)).toEqual([7, 5, 9]);
    const list: object[] = [{ optionalInt32: 1 }, { get optionalInt32() { list.push({ optionalInt32: 3 }, { optionalInt32: 4 }); return 2; } }];
    expect(I.decodeDelimited(I.encodeDelimited(list as never)).map((m) => m.optionalInt32)).toEqual([1, 2]);
    const arena = new Arena();
    const view = I.view(T.encode({ optionalInt32: 8 }), arena);
    expect(() => I.encodeDelimited([view, { get optionalInt32() { arena.reset(); T.view(big, arena); return 1; } }] as never)).toThrow(StaleViewError);
  });

  it("an extension written alone skips only its carrier's required fields, not those of encodes and decodes its value's getters start", () => {
    const seen: string[] = [];
    const value = {
      a: 1, b: 2, c: 3,
      get dummy2() {
        for (const attempt of [() => TestRequired.encode({ a: 1 }), () => TestRequired.decode(TestRequired.encode({ a: 1, b: 2, c: 3 }).subarray(0, 2))]) {
          try {
            attempt();
            seen.push("accepted");
          } catch (e) {
            seen.push((e as { code?: string }).code ?? String(e));
          }
        }
        return 0;
      },
    };
    // the extension's field written by its carrier, as setExtension() does for an extendee of another run
    const bytes = (TestRequired_single as unknown as { bytesOf(v: unknown): Uint8Array }).bytesOf(value);
    expect(seen).toEqual(["MISSING_REQUIRED", "MISSING_REQUIRED"]);
    expect(getExtension(TestAllExtensions.decode(bytes), TestRequired_single)).toMatchObject({ a: 1, b: 2, c: 3, dummy2: 0 });
    const m = create(TestAllExtensions);
    setExtension(m, TestRequired_single, { a: 1, b: 2, c: 3 });
    expect(getExtension(m, TestRequired_single)).toMatchObject({ a: 1, b: 2, c: 3 });
    expect(() => TestRequired.encode({ a: 1 })).toThrow(/required field is not set/);
  });
});
