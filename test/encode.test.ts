// Encoding against protobufjs and the golden files: byte-identical output for canonical input,
// random round trips in both directions, and clear errors for values that cannot be encoded.
import { readdirSync, readFileSync } from "node:fs";
import protobuf from "protobufjs";
import { beforeAll, describe, expect, it } from "vitest";
import { Arena, EncodeError, init, MessageType, Writer, toJsonString, builder } from "hppproto";
import { runtime } from "../dist/ts/runtime.js";
import { interpretedType } from "../dist/ts/interpreted/index.js";
import { FieldType, Label } from "../dist/ts/schema.js";
import type { FieldModel, MessageModel } from "../dist/codegen/model.js";
import { crossCheck, loadSet, normalize, randomObject, requiresItself, rng, withoutUnknown, type Loaded } from "./support/protos.js";
import { testdata } from "./support/paths.js";
import { thrown } from "./support/thrown.js";
import * as p3 from "./gen/unittest/google/protobuf/unittest_proto3_pb.js";
import { Node } from "./gen/names/limits_pb.js";

beforeAll(async () => {
  await init();
});

const sets = { unittest: loadSet("unittest"), conformance: loadSet("conformance") };
const isMessage = (f: FieldModel) => f.type === FieldType.Message || f.type === FieldType.Group;
const is64 = (t: FieldType) =>
  t === FieldType.Int64 || t === FieldType.Sint64 || t === FieldType.Sfixed64 || t === FieldType.Uint64 || t === FieldType.Fixed64;

/**
 * Removes implicit-presence fields holding their zero from a protobufjs message, recursively:
 * protobufjs writes every own property, protobuf (and hppproto) leave such fields out. -0.0 is
 * not zero by bits and stays. Returns false when the bytes cannot be compared (a map with 64-bit
 * keys: protobufjs keeps those in its own key order).
 */
function canonicalize(loaded: Loaded, m: MessageModel, msg: Record<string, unknown>): boolean {
  const type = loaded.pbType(m.fullName);
  let comparable = true;
  for (const f of m.fields) {
    const name = type.fieldsById[f.number]!.name;
    if (!Object.prototype.hasOwnProperty.call(msg, name)) continue;
    const v = msg[name];
    if (f.label === Label.Map) {
      const [key, value] = f.mapEntry!.fields as [FieldModel, FieldModel];
      const values = Object.values(v as object);
      if (is64(key.type) && values.length > 1) comparable = false;
      if (isMessage(value)) for (const x of values) comparable = canonicalize(loaded, value.message!, x) && comparable;
    } else if (f.label === Label.Repeated) {
      if (isMessage(f)) for (const x of v as Record<string, unknown>[]) comparable = canonicalize(loaded, f.message!, x) && comparable;
    } else if (isMessage(f)) {
      if (v != null) comparable = canonicalize(loaded, f.message!, v as Record<string, unknown>) && comparable;
    } else if (f.label === Label.Implicit && isZero(v)) {
      delete msg[name];
    }
  }
  return comparable;
}

function isZero(v: unknown): boolean {
  if (typeof v === "number") return Object.is(v, 0);
  if (typeof v === "string") return v === "";
  if (typeof v === "boolean") return !v;
  if (v instanceof Uint8Array) return v.length === 0;
  if (typeof v === "object" && v !== null && "low" in v) return (v as { low: number; high: number }).low === 0 && (v as { high: number }).high === 0;
  return false;
}

describe.each(Object.entries(sets))("every message of the %s schemas", (_name, loaded: Loaded) => {
  const names = [...loaded.types.keys()].sort();
  it.each(names)("%s: byte-identical to protobufjs, and round trips both ways", (typeName) => {
    const model = loaded.models.get(typeName)!;
    if (requiresItself(model)) return; // no valid instance exists (see crosscheck.test.ts)
    const type = loaded.types.get(typeName)!;
    const pbType = loaded.pbType(typeName);
    const r = rng(typeName.length * 104729 + 3);
    for (let i = 0; i < 25; i++) {
      // decoded by protobufjs, so that map keys have protobufjs's decoded form (normalize() expects it)
      const msg = pbType.decode(pbType.encode(pbType.fromObject(randomObject(loaded, model, r))).finish()) as unknown as Record<string, unknown>;
      const comparable = canonicalize(loaded, model, msg);
      const expected = pbType.encode(msg as unknown as protobuf.Message).finish();
      // the same object, as hppproto's plain form
      const plain = normalize(loaded, model, msg as unknown as protobuf.Message);
      const fromPlain = type.encode(plain);
      const fromDecoded = type.encode(type.decode(expected));
      const fromView = type.encode(type.view(expected));
      if (comparable) {
        expect(fromPlain).toEqual(new Uint8Array(expected));
        expect(fromDecoded).toEqual(new Uint8Array(expected));
        expect(fromView).toEqual(new Uint8Array(expected));
      }
      expect(type.encodedSize(plain)).toBe(fromPlain.length);
      // hppproto's bytes, read by protobufjs, field by field
      crossCheck(loaded, typeName, fromPlain);
    }
  });
});

describe("golden files: decode -> encode gives the file back", () => {
  const dir = `${testdata}/golden`;
  const files = readdirSync(dir).filter((f) => f.endsWith(".binpb"));
  it.each(files)("%s", (file) => {
    const typeName = file.replace(/\.binpb$/, "");
    const type = sets.unittest.types.get(typeName)!;
    const bytes = new Uint8Array(readFileSync(`${dir}/${file}`));
    const ours = type.encode(type.decode(bytes));
    expect(type.encode(type.view(bytes))).toEqual(ours);
    // protobufjs re-encoding the same file: the independent reference for the canonical form
    const pb = sets.unittest.pbType(typeName);
    expect(ours).toEqual(new Uint8Array(pb.encode(pb.decode(bytes)).finish()));
    if (typeName === "proto3_unittest.TestUnpackedTypes") {
      // This file holds the packed form of fields declared [packed = false], which parsers must
      // accept; encoders write the declared, expanded form.
      expect(bytes[0]).toBe(0x0a); // field 1, length-delimited: packed
      expect(ours[0]).toBe(0x08); // field 1, varint: one element
      expect(withoutUnknown(type.decode(ours))).toEqual(withoutUnknown(type.decode(bytes)));
    } else {
      expect(ours).toEqual(bytes);
    }
  });
});

describe("wire details", () => {
  const all3 = () => sets.unittest.types.get("proto3_unittest.TestAllTypes")!;
  const all2 = () => sets.unittest.types.get("protobuf_unittest.TestAllTypes")!;

  it("a negative int32 is a ten-byte varint; sint32 is zigzag", () => {
    // optional_int32 = 1, optional_sint32 = 5
    expect([...all3().encode({ optionalInt32: -1 })]).toEqual([0x08, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01]);
    expect([...all3().encode({ optionalSint32: -1 })]).toEqual([0x28, 0x01]);
  });

  it("NaN and -0.0 survive; +0.0 in an implicit field is not written", () => {
    const t = all3();
    const bytes = t.encode({ optionalDouble: -0, optionalFloat: NaN });
    const back = t.decode(bytes);
    expect(Object.is(back.optionalDouble, -0)).toBe(true);
    expect(back.optionalFloat).toBeNaN();
    expect(t.encode({ optionalDouble: 0 })).toHaveLength(0);
  });

  it("empty versus absent: explicit presence writes the empty value, implicit does not", () => {
    expect(all2().encode({ optionalString: "" })).toEqual(new Uint8Array([0x72, 0x00]));
    expect(all2().encode({})).toHaveLength(0);
    expect(all3().encode({ optionalString: "" })).toHaveLength(0);
    expect(all3().encode({ optionalNestedMessage: {} })).toEqual(new Uint8Array([0x92, 0x01, 0x00]));
  });

  it("unknown fields survive decode -> encode byte for byte, after the known fields", () => {
    const t = all3();
    const unknownBytes = [0xa0, 0x1f, 0x07, 0xaa, 0x1f, 0x02, 0x68, 0x69]; // fields 500 (varint) and 501 (bytes)
    const bytes = new Uint8Array([0x08, 0x05, ...unknownBytes]);
    expect(t.encode(t.decode(bytes))).toEqual(bytes);
    expect(t.encode(t.view(bytes))).toEqual(bytes);
    const plain = t.decode(bytes);
    plain.optionalInt32 = 6;
    expect(t.encode(plain)).toEqual(new Uint8Array([0x08, 0x06, ...unknownBytes]));
  });

  it("a plain object's $unknown is written at every depth: sub-messages, lists, map values and oneof members", () => {
    const t = all3(), map = sets.unittest.types.get("protobuf_unittest.TestMap")!;
    const u = (n: number) => new Uint8Array([0xa0, 0x1f, n]); // field 500, varint n
    const back = t.decode(t.encode({
      $unknown: u(1), optionalNestedMessage: { bb: 2, $unknown: u(2) }, repeatedNestedMessage: [{ $unknown: u(3) }, { bb: 4 }],
      oneofField: { case: "oneofNestedMessage", value: { $unknown: u(5) } },
    }));
    expect(back.$unknown).toEqual(u(1));
    expect(back.optionalNestedMessage.$unknown).toEqual(u(2));
    expect(back.repeatedNestedMessage.map((m: { $unknown?: Uint8Array }) => m.$unknown)).toEqual([u(3), undefined]);
    expect(back.oneofField.value.$unknown).toEqual(u(5));
    expect(map.decode(map.encode({ mapInt32ForeignMessage: { 7: { c: 1, $unknown: u(6) } } })).mapInt32ForeignMessage[7].$unknown).toEqual(u(6));
  });

  it("packed and expanded repeated fields follow the schema", () => {
    const packed = sets.unittest.types.get("protobuf_unittest.TestPackedTypes")!;
    const unpacked = sets.unittest.types.get("protobuf_unittest.TestUnpackedTypes")!;
    expect([...packed.encode({ packedInt32: [1, -1] })]).toEqual([0xd2, 0x05, 11, 1, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01]);
    expect([...unpacked.encode({ unpackedInt32: [1, 2] })]).toEqual([0xd0, 0x05, 1, 0xd0, 0x05, 2]);
  });

  it("typed arrays are taken as repeated numeric fields in one copy", () => {
    const t = sets.unittest.types.get("protobuf_unittest.TestPackedTypes")!;
    const values = Float64Array.from({ length: 1000 }, (_, i) => i * 1.5);
    const bytes = t.encode({ packedDouble: values });
    expect(t.view(bytes).packedDouble).toEqual(values);
    expect(t.encode({ packedDouble: [...values] })).toEqual(bytes);
  });

  it("a view's typed arrays and bytes are written from where they alias memory, even when copying them grows it", () => {
    const arena = new Arena();
    const samples = Float64Array.from({ length: 5 << 20 }, (_, i) => i * 0.5 - 7); // 40 MiB
    const blob = new Uint8Array(40 << 20).fill(3);
    const v = Node.view(Node.encode({ id: 3, samples, big: [5n, -6n], blob }), arena);
    const own = Node.encode({ id: 1, samples, big: [5n, -6n], blob });
    // encoded straight from the aliases (no copy in memory)
    expect(Buffer.from(Node.encode({ id: 1, samples: v.samples, big: v.big, blob: v.blob })).equals(own)).toBe(true);
    // a builder copies them into its arena: the copy needs 40 MiB of memory, whose growth detaches the alias being copied
    const before = runtime().mem.buffer.byteLength;
    const b = builder(Node, { id: 1, samples: v.samples });
    expect(runtime().mem.buffer.byteLength).toBeGreaterThan(before);
    // the same bytes as from an array of its own (compared as Buffers: 40 MiB)
    expect(Buffer.from(Node.encode(b)).equals(Node.encode({ id: 1, samples }))).toBe(true);
    b.$release();
    const withBlob = builder(Node, { id: 1, big: v.big, blob: v.blob }); // (aliases taken again from the view: memory grew)
    expect(Buffer.from(Node.encode(withBlob)).equals(Node.encode({ id: 1, big: [5n, -6n], blob }))).toBe(true);
    withBlob.$release();
    arena.release();
  });

  it("an alias detached before it is reached (memory grew earlier in the same encode) is an error, not an empty field", () => {
    const arena = new Arena();
    const v = Node.view(Node.encode({ id: 3, samples: [1.5, 2.5], blob: Uint8Array.of(9, 8, 7) }), arena);
    const samples = v.samples, blob = v.blob; // aliases, taken now
    // the child (field 1) is filled first: memory grows while its getter runs, before samples is reached
    // (growth inside the runtime, which every call that allocates syncs after)
    const grows = { id: 1, get child() { runtime().mem.memory.grow(1); runtime().mem.sync(); return undefined; }, samples };
    expect(thrown(() => Node.encode(grows), EncodeError)).toEqual(["INVALID_VALUE", "limits.Node.samples"]);
    expect(samples.length).toBe(0);
    expect(thrown(() => Node.encode({ id: 1, blob }), EncodeError)).toEqual(["INVALID_VALUE", "limits.Node.blob"]);
    // taken from the view again, they read the message from the grown memory
    expect(Node.decode(Node.encode({ id: 1, samples: v.samples, blob: v.blob }))).toMatchObject({ samples: [1.5, 2.5], blob: Uint8Array.of(9, 8, 7) });
    arena.release();
  });

  it("encodeInto writes at an offset, and leaves a too-small buffer untouched", () => {
    const t = all3();
    const msg = { optionalString: "hello", optionalInt64: 5n };
    const expected = t.encode(msg);
    const target = new Uint8Array(expected.length + 4).fill(0xee);
    expect(t.encodeInto(msg, target, 2)).toBe(expected.length);
    expect(target.subarray(2, 2 + expected.length)).toEqual(expected);
    expect(target[0]).toBe(0xee);
    expect(target[target.length - 1]).toBe(0xee);
    const small = new Uint8Array(expected.length - 1).fill(0xee);
    expect(() => t.encodeInto(msg, small)).toThrow(expect.objectContaining({ code: "BUFFER_TOO_SMALL" }));
    expect(small.every((b) => b === 0xee)).toBe(true);
  });

  it("encodeInto and finishInto take an ArrayBuffer, a SharedArrayBuffer or a view of one, and say what they expected of anything else", () => {
    const t = all3();
    const msg = { optionalString: "hello", optionalInt64: 5n };
    const expected = t.encode(msg);
    for (const target of [new ArrayBuffer(64), new SharedArrayBuffer(64), new DataView(new ArrayBuffer(64)), new Uint32Array(16)]) {
      expect(t.encodeInto(msg, target, 4)).toBe(expected.length);
      const bytes = ArrayBuffer.isView(target) ? new Uint8Array(target.buffer) : new Uint8Array(target);
      expect(bytes.subarray(4, 4 + expected.length)).toEqual(expected);
      const w = new Writer().string(14, "hello");
      expect(w.finishInto(target, 40)).toBe(7);
      expect(bytes.subarray(40, 47)).toEqual(new Uint8Array([0x72, 5, ...new TextEncoder().encode("hello")]));
    }
    expect(() => t.encodeInto(msg, new ArrayBuffer(2), 0)).toThrow(/\d+ bytes do not fit at offset 0 of a 2-byte buffer/);
    expect(() => t.encodeInto(msg, [] as never)).toThrow(/encodeInto: expected a Uint8Array, ArrayBuffer, SharedArrayBuffer or other ArrayBufferView.*got an Array/);
    expect(() => new Writer().finishInto({} as never)).toThrow(/Writer\.finishInto: expected a Uint8Array.*got a plain object/);
  });

  it("delimited batches read back with viewDelimited and protobufjs", () => {
    const t = all3();
    const msgs = Array.from({ length: 50 }, (_, i) => ({ optionalInt32: i, optionalString: "s".repeat(i) }));
    const bytes = t.encodeDelimited(msgs);
    const views = t.viewDelimited(bytes);
    expect(views.map((v) => [v.optionalInt32, v.optionalString])).toEqual(msgs.map((m) => [m.optionalInt32, m.optionalString]));
    const reader = protobuf.Reader.create(bytes);
    const pb = sets.unittest.pbType("proto3_unittest.TestAllTypes");
    for (const m of msgs) expect(pb.decodeDelimited(reader).toJSON()["optional_string"] ?? "").toBe(m.optionalString);
  });

  it("maps, oneofs and groups", () => {
    const map = sets.unittest.types.get("protobuf_unittest.TestMap")!;
    const obj = { mapInt32Int32: { "-1": 2, "5": 6 }, mapStringString: { a: "b", __proto__x: "y" }, mapBoolBool: { true: false } };
    expect(withoutUnknown(map.decode(map.encode(obj)))).toMatchObject(obj);
    const oneof = all3();
    expect(oneof.decode(oneof.encode({ oneofField: { case: "oneofString", value: "x" } })).oneofField)
      .toEqual({ case: "oneofString", value: "x" });
    const groups = all2();
    const back = groups.decode(groups.encode({ optionalgroup: { a: 7 }, repeatedgroup: [{ a: 1 }, { a: 2 }] }));
    expect(back.optionalgroup?.a).toBe(7);
    expect(back.repeatedgroup.map((g: { a?: number }) => g.a)).toEqual([1, 2]);
  });
});

describe("values that cannot be encoded", () => {
  const t = () => sets.unittest.types.get("proto3_unittest.TestAllTypes")! as MessageType<any, any>;
  const code = (fn: () => unknown) => thrown(fn, EncodeError);

  it("out of range or of the wrong type, with the field path", () => {
    expect(code(() => t().encode({ optionalInt32: 2 ** 31 }))).toEqual(["VALUE_OUT_OF_RANGE", "proto3_unittest.TestAllTypes.optional_int32"]);
    expect(code(() => t().encode({ optionalUint32: -1 }))[0]).toBe("VALUE_OUT_OF_RANGE");
    expect(code(() => t().encode({ optionalInt32: 1.5 }))[0]).toBe("INVALID_VALUE");
    expect(code(() => t().encode({ optionalInt64: 2n ** 63n }))[0]).toBe("VALUE_OUT_OF_RANGE");
    expect(code(() => t().encode({ optionalUint64: -1n }))[0]).toBe("VALUE_OUT_OF_RANGE");
    expect(code(() => t().encode({ optionalBool: 1 }))[0]).toBe("INVALID_VALUE");
    expect(code(() => t().encode({ optionalBytes: "abc" }))[0]).toBe("INVALID_VALUE");
    expect(code(() => t().encode({ repeatedInt32: [1, 2, "3"] }))).toEqual(["INVALID_VALUE", "proto3_unittest.TestAllTypes.repeated_int32[2]"]);
    expect(code(() => t().encode({ repeatedNestedMessage: [{}, { bb: 2 ** 40 }] })))
      .toEqual(["VALUE_OUT_OF_RANGE", "proto3_unittest.TestAllTypes.repeated_nested_message[1].bb"]);
    expect(code(() => t().encode({ oneofField: { case: "nope", value: 1 } }))[0]).toBe("INVALID_VALUE");
  });

  it("the path names each field through sub-messages, lists, maps and oneofs, and fields after them", () => {
    const map = sets.unittest.types.get("protobuf_unittest.TestMap")!;
    expect(code(() => t().encode({ optionalInt64: "x" }))).toEqual(["INVALID_VALUE", "proto3_unittest.TestAllTypes.optional_int64"]);
    expect(code(() => t().encode({ optionalUint64: [] }))).toEqual(["INVALID_VALUE", "proto3_unittest.TestAllTypes.optional_uint64"]);
    // a field filled after a sub-message is named in its own message again
    expect(code(() => t().encode({ optionalNestedMessage: { bb: 1 }, repeatedNestedMessage: [{ bb: 2 }], repeatedInt32: ["x"] })))
      .toEqual(["INVALID_VALUE", "proto3_unittest.TestAllTypes.repeated_int32[0]"]);
    expect(code(() => t().encode({ oneofField: { case: "oneofNestedMessage", value: { bb: 0.5 } } })))
      .toEqual(["INVALID_VALUE", "proto3_unittest.TestAllTypes.oneof_nested_message.bb"]);
    expect(code(() => t().encode({ oneofField: { case: "oneofUint32", value: -1 } })))
      .toEqual(["VALUE_OUT_OF_RANGE", "proto3_unittest.TestAllTypes.oneof_uint32"]);
    expect(code(() => map.encode({ mapInt32ForeignMessage: { 7: { c: "x" } } })))
      .toEqual(["INVALID_VALUE", 'protobuf_unittest.TestMap.map_int32_foreign_message["7"].c']);
    expect(code(() => map.encode({ mapStringString: { k: 1 } })))
      .toEqual(["INVALID_VALUE", 'protobuf_unittest.TestMap.map_string_string["k"]']);
  });

  it("64-bit fields take bigint, integral numbers and decimal strings", () => {
    const a = t().encode({ optionalInt64: -5n, optionalUint64: 7 });
    expect(t().encode({ optionalInt64: "-5", optionalUint64: 7n })).toEqual(a);
  });

  it("lone surrogates are not valid UTF-16 and have no UTF-8 form", () => {
    expect(code(() => t().encode({ optionalString: "ok \ud800 no" }))).toEqual(["INVALID_UTF16", "proto3_unittest.TestAllTypes.optional_string"]);
    expect(code(() => t().encode({ repeatedString: ["a", "\udc00"] }))[1]).toBe("proto3_unittest.TestAllTypes.repeated_string[1]");
    expect(t().decode(t().encode({ optionalString: "pair \ud83d\ude00" })).optionalString).toBe("pair \u{1F600}");
  });

  it("a missing proto2 required field", () => {
    const req = sets.unittest.types.get("protobuf_unittest.TestRequired")!;
    expect(code(() => req.encode({ a: 1, b: 2 }))).toEqual(["MISSING_REQUIRED", "protobuf_unittest.TestRequired.c"]);
    const outer = sets.unittest.types.get("protobuf_unittest.TestRequiredForeign")!;
    expect(code(() => outer.encode({ repeatedMessage: [{ a: 1, b: 2, c: 3 }, { a: 1 }] }))[1])
      .toBe("protobuf_unittest.TestRequiredForeign.repeated_message[1].b");
  });

  it("a view whose arena was released, or of another type", () => {
    const arena = new Arena();
    const bytes = t().encode({ optionalInt32: 1 });
    const view = t().view(bytes, arena);
    arena.release();
    expect(() => t().encode(view)).toThrow(/released/);
    const other = sets.unittest.types.get("protobuf_unittest.TestAllTypes")!;
    expect(code(() => other.encode(t().view(bytes) as never))[0]).toBe("INVALID_VALUE");
  });

  it("after thousands of failures the runtime still encodes correctly", () => {
    for (let i = 0; i < 2000; i++) expect(() => t().encode({ optionalString: "\ud800", optionalInt32: i })).toThrow(EncodeError);
    expect(t().decode(t().encode({ optionalInt32: 42 })).optionalInt32).toBe(42);
  });
});

describe("encodeDelimited() of views and plain objects together", () => {
  it("with the default generation (no record filler): each encoded on its own, the bytes of a run of them all; errors name the element (it was 'generated without plain objects')", () => {
    const T = p3.TestAllTypes;
    const view = T.view(T.encode({ optionalFloat: 1.5, optionalString: "view" }), new Arena());
    const plain = { optionalInt32: 7, repeatedString: ["plain"] };
    const run = T.encodeDelimited([view, plain, view]);
    expect(run).toEqual(T.encodeDelimited([T.decode(T.encode(view)), plain, T.decode(T.encode(view))]));
    expect(T.decodeDelimited(run)).toMatchObject([{ optionalString: "view" }, plain, { optionalString: "view" }]);
    expect(thrown(() => T.encodeDelimited([view, { optionalInt32: 1.5 }]), EncodeError)).toEqual(["INVALID_VALUE", "proto3_unittest.TestAllTypes[#1].optional_int32"]);
    expect(T.encodeDelimited([view, {}]).length).toBe(T.encode(view).length + 2);
  });
});

describe("re-entrant calls: an encode started inside another (a getter, toJSON) gets its own scratch memory", () => {
  const T = p3.TestAllTypes;
  it("an error of an encode a getter started keeps its own path: the encode around it adds nothing (it glued both: TestAllTypes.optional_nested_message.TestAllTypes.optional_int32)", () => {
    const failing = () => T.encode({ optionalInt32: 1.5 });
    const own = thrown(failing, EncodeError);
    expect(own).toEqual(["INVALID_VALUE", "proto3_unittest.TestAllTypes.optional_int32"]);
    const outer = { optionalNestedMessage: { get bb() { failing(); return 1; } } };
    expect(thrown(() => T.encode(outer), EncodeError)).toEqual(own);
    expect(thrown(() => T.encodeDelimited([{}, outer]), EncodeError)).toEqual(own);
    const I = interpretedType(T.schemaDef, T.index) as unknown as typeof T; // through records and the codec
    expect(thrown(() => I.encode(outer), EncodeError)).toEqual(own);
    expect(thrown(() => T.encode({ optionalNestedMessage: { bb: 1.5 } }), EncodeError)).toEqual(["INVALID_VALUE", "proto3_unittest.TestAllTypes.optional_nested_message.bb"]);
  });

  it("encode, encodeInto, encodedSize and encodeDelimited from a getter of the message being encoded", () => {
    const inner = { optionalInt32: 99, repeatedString: ["inner-secret"] };
    const innerBytes = T.encode(inner);
    const outer = () => ({
      optionalInt32: 1,
      optionalString: "outer",
      get optionalBytes() {
        return T.encode(inner);
      },
      get repeatedInt32() {
        T.encodedSize(inner);
        T.encodeInto(inner, new Uint8Array(64));
        T.encodeDelimited([inner, inner]);
        T.decode(innerBytes); // and decodes, views and JSON in between
        T.view(innerBytes).repeatedString.get(0);
        toJsonString(T, inner);
        return [5, 6];
      },
    });
    const expected = { optionalInt32: 1, optionalString: "outer", optionalBytes: innerBytes, repeatedInt32: [5, 6] };
    expect(T.decode(T.encode(outer()))).toMatchObject(expected);
    expect(T.encodedSize(outer())).toBe(T.encode(expected).length);
    const target = new Uint8Array(200);
    expect(target.subarray(0, T.encodeInto(outer(), target))).toEqual(T.encode(expected));
    expect(T.decodeDelimited(T.encodeDelimited([outer(), outer()]))).toMatchObject([expected, expected]);
  });

  it("endless nesting is a DEPTH_LIMIT error, and encoding works afterwards", () => {
    const loop = { get optionalBytes(): Uint8Array { return T.encode(loop); } };
    expect(() => T.encode(loop)).toThrow(expect.objectContaining({ code: "DEPTH_LIMIT" }));
    expect(T.encode({ optionalInt32: 150 })).toEqual(new Uint8Array([8, 0x96, 1]));
  });
});
