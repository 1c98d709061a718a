// Well-known-type helpers (ts/wkt.ts), cross-checked with @bufbuild/protobuf's: the same messages
// for the same times (compared as wire bytes of each library's own encoder), JSON values through
// Struct/Value both ways across the two libraries, FieldMask strings as its ProtoJSON writer
// gives them, and Anys that each library unpacks from the other's bytes.
import { beforeAll, describe, expect, it } from "vitest";
import { create as esCreate, fromBinary, fromJson as esFromJson, toBinary, toJson as esToJson } from "@bufbuild/protobuf";
import * as es from "@bufbuild/protobuf/wkt";
import {
 anyIs, anyPack, anyUnpack, durationFromMs, durationMs, fieldMaskApply, fieldMaskFromString, fieldMaskIntersect, fieldMaskMerge, fieldMaskToString, fieldMaskUnion, init, JsonError, structFromJson,
 structToJson, timestampDate, timestampFromDate, timestampFromMs, timestampMs, valueFromJson, valueToJson, type JsonData, toJson, create } from "hppproto";
import { Timestamp } from "./gen/conformance/google/protobuf/timestamp_pb.js";
import { Duration } from "./gen/conformance/google/protobuf/duration_pb.js";
import { Struct, Value } from "./gen/conformance/google/protobuf/struct_pb.js";
import { Any } from "./gen/conformance/google/protobuf/any_pb.js";
import { FieldMask } from "./gen/conformance/google/protobuf/field_mask_pb.js";
import { TestAllTypesProto3 } from "./gen/conformance/google/protobuf/test_messages_proto3_pb.js";
import { rng } from "./support/protos.js";

beforeAll(async () => {
  await init();
});

const r = rng(2024);
const edges = [0, 1, -1, 999, -999, 1000, -1000, -1001, 1_700_000_000_123, -62_135_596_800_000, 253_402_300_799_999, 8.64e15, -8.64e15];
const millis = [...edges, ...Array.from({ length: 2000 }, () => Math.round((r() - 0.5) * 2 * 8.64e15 * r() ** 4))];

describe("Timestamp and Duration", () => {
  it("timestampFromMs and timestampMs: the messages and milliseconds @bufbuild gives", () => {
    for (const ms of millis) {
      const ours = timestampFromMs(ms);
      const theirs = es.timestampFromMs(ms);
      expect(Timestamp.encode(ours), String(ms)).toEqual(toBinary(es.TimestampSchema, theirs));
      expect(timestampMs(ours)).toBe(es.timestampMs(theirs));
      expect(timestampMs(ours)).toBe(ms);
      expect(timestampDate(ours).getTime()).toBe(es.timestampDate(theirs).getTime());
      expect(timestampFromDate(new Date(ms))).toEqual(ours);
    }
  });

  it("durationFromMs and durationMs: the messages and milliseconds @bufbuild gives, seconds and nanos of one sign", () => {
    for (const ms of [...millis, 1.5, -1.5, 0.25, -999.999]) {
      const ours = durationFromMs(ms);
      const theirs = es.durationFromMs(ms);
      expect(Duration.encode(ours), String(ms)).toEqual(toBinary(es.DurationSchema, theirs));
      expect(durationMs(ours)).toBe(es.durationMs(theirs));
      expect(ours.seconds > 0n && ours.nanos < 0).toBe(false);
      expect(ours.seconds < 0n && ours.nanos > 0).toBe(false);
    }
  });

  it("fractions of a millisecond become whole nanoseconds (@bufbuild keeps a fraction there); bad input is a RangeError", () => {
    expect(timestampFromMs(1.0000004)).toEqual({ seconds: 0n, nanos: 1_000_000 });
    expect(timestampFromMs(-0.0000001)).toEqual({ seconds: 0n, nanos: 0 });
    expect(durationFromMs(-0.0000006)).toEqual({ seconds: 0n, nanos: -1 });
    expect(es.timestampFromMs(1.0000004).nanos).not.toBe(1_000_000);
    expect(() => timestampFromMs(NaN)).toThrow(RangeError);
    expect(() => timestampFromDate(new Date("no date"))).toThrow(RangeError);
    expect(() => durationFromMs(Infinity)).toThrow(RangeError);
    // views read as plain objects do
    expect(timestampMs(Timestamp.view(Timestamp.encode({ seconds: 5n, nanos: 7_000_000 })))).toBe(5007);
  });
});

/** A random JSON value, nested up to three levels. */
function randomJson(depth = 0): JsonData {
  const pick = Math.floor(r() * (depth < 3 ? 6 : 4));
  switch (pick) {
    case 0: return null;
    case 1: return r() < 0.5 ? Math.round((r() - 0.5) * 1e6) : (r() - 0.5) * 10 ** Math.floor(r() * 40 - 20);
    case 2: return ["", "a", "caf\u00e9 \u{1f600}", "__proto__", "\n\"\\"][Math.floor(r() * 5)]!;
    case 3: return r() < 0.5;
    case 4: return Array.from({ length: Math.floor(r() * 4) }, () => randomJson(depth + 1));
    default: {
      const o: { [key: string]: JsonData } = {};
      for (let i = Math.floor(r() * 4); i > 0; i--) Object.defineProperty(o, ["k", "__proto__", "long key \u00e9", String(i)][Math.floor(r() * 4)]!, { value: randomJson(depth + 1), enumerable: true, writable: true, configurable: true });
      return o;
    }
  }
}

describe("Struct, Value, ListValue", () => {
  it("JSON values go through Value and Struct both ways, and each library reads the other's bytes", () => {
    for (let i = 0; i < 500; i++) {
      const json = randomJson();
      const ours = valueFromJson(json);
      expect(valueToJson(ours)).toEqual(json);
      expect(esToJson(es.ValueSchema, fromBinary(es.ValueSchema, Value.encode(ours as never)))).toEqual(json);
      expect(valueToJson(Value.decode(toBinary(es.ValueSchema, esFromJson(es.ValueSchema, json))) as never)).toEqual(json);
    }
    const object = JSON.parse('{"a": [1, "x", null, {"b": false}], "__proto__": 2}') as { [key: string]: JsonData }; // an own "__proto__"
    expect(Object.keys(structToJson(structFromJson(object)))).toEqual(["a", "__proto__"]);
    expect(structToJson(Struct.decode(Struct.encode(structFromJson(object) as never)) as never)).toEqual(object);
  });

  it("what JSON cannot hold is a JsonError with its path", () => {
    expect(() => valueFromJson({ a: [1, NaN] } as never)).toThrow(JsonError);
    expect(() => valueFromJson({ a: [1, NaN] } as never)).toThrow(/Value\["a"\]\[1\]/);
    expect(() => valueFromJson(undefined as never)).toThrow(JsonError);
    expect(() => valueToJson({})).toThrow(/without a kind/);
    expect(() => structFromJson([] as never)).toThrow(JsonError);
  });
});

describe("FieldMask", () => {
  it("paths to and from the ProtoJSON string, as both libraries' JSON writers give it", () => {
    const paths = ["a.foo_bar", "b", "x_y.z"];
    const text = fieldMaskToString({ paths });
    expect(text).toBe("a.fooBar,b,xY.z");
    expect(esToJson(es.FieldMaskSchema, esCreate(es.FieldMaskSchema, { paths }))).toBe(text);
    expect(toJson(FieldMask, { paths })).toBe(text);
    expect(fieldMaskFromString(text)).toEqual({ paths });
    expect(fieldMaskFromString("")).toEqual({ paths: [] });
    expect(() => fieldMaskToString({ paths: ["fooBar"] })).toThrow(JsonError);
  });
});

describe("fieldMaskApply", () => {
  const T = TestAllTypesProto3;
  let message: ReturnType<typeof T.decode>;
  beforeAll(() => {
    message = T.decode(T.encode({
      optionalInt32: 5, optionalString: "x", repeatedInt32: [1, 2], mapStringString: { k: "v" },
      optionalNestedMessage: { a: 7, corecursive: { optionalInt32: 9, optionalString: "y", repeatedString: ["r"] } },
      oneofField: { case: "oneofNestedMessage", value: { a: 3, corecursive: { optionalBool: true } } },
    }));
  });

  it("keeps the fields the paths name, whole or down singular message fields, oneof members included", () => {
    const got = fieldMaskApply(T, message, { paths: ["optional_int32", "optional_nested_message.corecursive.optional_string", "repeated_int32", "oneof_nested_message.a", "map_string_string"] });
    expect(got).toEqual(T.decode(T.encode({
      optionalInt32: 5, repeatedInt32: [1, 2], mapStringString: { k: "v" },
      optionalNestedMessage: { corecursive: { optionalString: "y" } },
      oneofField: { case: "oneofNestedMessage", value: { a: 3 } },
    })));
    expect(got.optionalString).toBe("");
    // a whole field wins over paths into it; unset fields stay unset; an empty mask keeps nothing
    expect(fieldMaskApply(T, message, { paths: ["optional_nested_message", "optional_nested_message.a"] }).optionalNestedMessage).toEqual(message.optionalNestedMessage);
    expect(fieldMaskApply(T, message, { paths: ["optional_foreign_message.c", "oneof_string"] })).toEqual(T.decode(new Uint8Array(0)));
    expect(fieldMaskApply(T, message, { paths: [] })).toEqual(T.decode(new Uint8Array(0)));
  });

  it("a path into a repeated message field or a map of messages keeps those fields of every element", () => {
    const m = create(T, {
      repeatedNestedMessage: [{ a: 1, corecursive: { optionalInt32: 2 } }, { a: 3 }],
      mapStringNestedMessage: JSON.parse('{"k":{"a":4,"corecursive":{"optionalInt32":5}},"__proto__":{"a":6}}'),
    });
    expect(fieldMaskApply(T, m, { paths: ["repeated_nested_message.a", "map_string_nested_message.corecursive"] })).toEqual(create(T, {
      repeatedNestedMessage: [{ a: 1 }, { a: 3 }],
      mapStringNestedMessage: JSON.parse('{"k":{"corecursive":{"optionalInt32":5}},"__proto__":{}}'),
    }));
  });

  it("a path naming no field, or going on past a field that is not a message, is a TypeError", () => {
    expect(() => fieldMaskApply(T, message, { paths: ["no_such_field"] })).toThrow(/has no field no_such_field/);
    expect(() => fieldMaskApply(T, message, { paths: ["optional_nested_message.nope"] })).toThrow(TypeError);
    expect(() => fieldMaskApply(T, message, { paths: ["repeated_int32.a"] })).toThrow(/repeated_int32 is not a message field/);
    expect(() => fieldMaskApply(T, message, { paths: ["map_string_string.a"] })).toThrow(/the values of map map_string_string are not messages/);
    expect(() => fieldMaskApply(T, message, { paths: ["optional_int32.x"] })).toThrow(TypeError);
    expect(() => fieldMaskApply(T, message, { paths: ["optionalInt32"] })).toThrow(TypeError); // .proto names, not JSON ones
  });

  it("a bad path below a message field is a TypeError whatever the message holds (it passed when the message lacked that field)", () => {
    const empty = create(T);
    for (const path of ["optional_nested_message.nope", "optional_nested_message.corecursive.nope", "repeated_nested_message.nope", "map_string_nested_message.nope", "optional_nested_message.a.b"]) {
      expect(() => fieldMaskApply(T, empty, { paths: [path] }), path).toThrow(TypeError);
      expect(() => fieldMaskMerge(T, { paths: [path] }, empty, create(T)), path).toThrow(TypeError);
    }
    expect(fieldMaskApply(T, empty, { paths: ["optional_nested_message.corecursive.optional_int32"] }).optionalNestedMessage).toBeUndefined();
  });
});

describe("fieldMaskUnion, fieldMaskIntersect", () => {
  it("combine masks as sets of paths, normalized: sorted, a path under another one left out", () => {
    expect(fieldMaskUnion({ paths: ["b", "a.x", "a.y"] }, { paths: ["a", "c.d", "b"] }, { paths: ["ab"] })).toEqual({ paths: ["a", "ab", "b", "c.d"] });
    expect(fieldMaskUnion()).toEqual({ paths: [] });
    expect(fieldMaskIntersect({ paths: ["a", "b.c", "d.e", "ab"] }, { paths: ["a.x", "b", "d.f", "a"] })).toEqual({ paths: ["a", "b.c"] });
    expect(fieldMaskIntersect({ paths: ["a.x", "a.y.z"] }, { paths: ["a.y"] })).toEqual({ paths: ["a.y.z"] });
    expect(fieldMaskIntersect({ paths: ["a"] }, { paths: [] })).toEqual({ paths: [] });
  });
});

describe("fieldMaskMerge", () => {
  const T = TestAllTypesProto3;
  const source = () => create(T, {
    optionalInt32: 5, optionalString: "new", repeatedInt32: [3],
    optionalNestedMessage: { a: 7, corecursive: { optionalInt32: 9, optionalString: "s" } },
    oneofField: { case: "oneofString", value: "o" },
  });
  const target = () => create(T, {
    optionalInt32: 1, optionalBool: true, repeatedInt32: [1, 2], mapStringString: { k: "v" },
    optionalNestedMessage: { a: 1, corecursive: { optionalBool: true, optionalString: "old" } },
    oneofField: { case: "oneofUint32", value: 4 },
  });

  it("merges only the masked fields, as protobuf merges them: scalars replace, messages merge, repeated fields append", () => {
    const t = target();
    expect(fieldMaskMerge(T, { paths: ["optional_int32", "repeated_int32", "optional_nested_message.corecursive", "oneof_string", "optional_string"] }, source(), t)).toBe(t);
    expect(t).toEqual(create(T, {
      optionalInt32: 5, optionalString: "new", optionalBool: true, repeatedInt32: [1, 2, 3], mapStringString: { k: "v" },
      optionalNestedMessage: { a: 1, corecursive: { optionalInt32: 9, optionalBool: true, optionalString: "s" } },
      oneofField: { case: "oneofString", value: "o" },
    }));
    // a field the source does not set leaves the target's; a message on the way is created
    const u = create(T, {});
    fieldMaskMerge(T, { paths: ["optional_nested_message.a", "map_string_string", "optional_foreign_message.c"] }, source(), u);
    expect(u).toEqual(create(T, { optionalNestedMessage: { a: 7 } }));
  });

  it("replace: each masked field becomes the source's, cleared where the source's is not set (an update request's mask)", () => {
    const t = target();
    fieldMaskMerge(T, { paths: ["repeated_int32", "optional_nested_message.corecursive", "map_string_string", "optional_bool", "oneof_uint32"] }, source(), t, { replace: true });
    expect(t).toEqual(create(T, {
      optionalInt32: 1, repeatedInt32: [3],
      optionalNestedMessage: { a: 1, corecursive: { optionalInt32: 9, optionalString: "s" } },
    }));
  });

  it("a path into a repeated field or a map, or naming no field, is a TypeError", () => {
    expect(() => fieldMaskMerge(T, { paths: ["repeated_nested_message.a"] }, source(), target())).toThrow(/repeated_nested_message is not a singular message field/);
    expect(() => fieldMaskMerge(T, { paths: ["map_string_nested_message.a"] }, source(), target())).toThrow(TypeError);
    expect(() => fieldMaskMerge(T, { paths: ["nope"] }, source(), target())).toThrow(/has no field nope/);
  });
});

describe("Any", () => {
  it("anyPack, anyIs, anyUnpack: each library unpacks what the other packed", () => {
    const ts = { seconds: 1_700_000_000n, nanos: 5 };
    const ours = anyPack(Timestamp, ts);
    const theirs = es.anyPack(es.TimestampSchema, esCreate(es.TimestampSchema, ts));
    expect(ours.typeUrl).toBe(theirs.typeUrl);
    expect(Any.encode(ours)).toEqual(toBinary(es.AnySchema, theirs));
    const read = fromBinary(es.AnySchema, Any.encode(ours));
    expect(es.anyIs(read, es.TimestampSchema)).toBe(true);
    expect(toBinary(es.TimestampSchema, es.anyUnpack(read, es.TimestampSchema)!)).toEqual(Timestamp.encode(ts));
    const back = Any.decode(toBinary(es.AnySchema, theirs));
    expect(anyIs(back, Timestamp)).toBe(true);
    expect(anyIs(back, "google.protobuf.Timestamp")).toBe(true);
    expect(anyIs(back, Duration)).toBe(false);
    expect(anyUnpack(back, Timestamp)).toEqual({ seconds: 1_700_000_000n, nanos: 5 });
    expect(anyUnpack(back, [Duration, Timestamp])).toEqual({ seconds: 1_700_000_000n, nanos: 5 });
    expect(anyUnpack(back, Duration)).toBeUndefined();
    expect(anyUnpack(back, [Duration])).toBeUndefined();
  });
});
